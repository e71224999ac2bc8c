#!/usr/bin/env bash
# kubectl gpu plan on clusters whose GPU software did not come from the GPU Operator (issue 27):
# the device plugin from its Helm chart (config-manager, the chart's ConfigMap, no MIG manager),
# from a static manifest (no config-manager), GKE and AKS managed node pools.  The plan's script
# runs end to end with the real kubectl against the fake API server, whose simulation
# (tests/fakeapi/k8s_writes.py, --operator-sim, header) acts as the chart's config-manager, a
# static plugin and a cluster without MIG manager do upstream; afterwards every GPU node runs a
# valid config and advertises what the plan predicted (planned nodes) or what it did before.
# Also: `plan -o json`'s "actuators", live and from a snapshot written of the same cluster, and
# the simulation itself checked against the failures the plan must avoid.
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
FIX="$KGPU_ROOT/tests/fixtures/plan"
KUBECTL_BIN=${KUBECTL_BIN:-$(command -v kubectl || true)}
if [ -z "$KUBECTL_BIN" ]; then fail "kubectl not found: the script cannot be run end to end"; exit; fi
Y2J="$T/yaml2json"
if cc -std=c11 -Wall -Wextra -Werror -o "$Y2J" "$KGPU_ROOT/tests/tools/yaml2json.c" \
     $(pkg-config --cflags --libs yaml-0.1 libcjson) 2>"$T/cc.log"; then ok "built tests/tools/yaml2json"
else fail "yaml2json: $(cat "$T/cc.log")"; exit; fi
k() { "$KUBECTL_BIN" "$@"; }

# node_state : {node: {"alloc": {nvidia resources != 0}, "err": annotation, "labels": {nvidia.com/ labels}, "cordoned": bool}}
node_state() {
  k get nodes -o json | python3 -c '
import json, sys
d = json.load(sys.stdin)
out = {}
for n in d["items"]:
    a = {k: int(v) for k, v in n["status"].get("allocatable", {}).items() if k.startswith("nvidia.com/") and int(v) != 0}
    lab = {k: v for k, v in (n["metadata"].get("labels") or {}).items()
           if k in ("nvidia.com/device-plugin.config", "nvidia.com/mig.config")}
    out[n["metadata"]["name"]] = {"alloc": a, "err": (n["metadata"].get("annotations") or {}).get("fakeapi.test/device-plugin"),
                                  "labels": lab, "cordoned": bool(n["spec"].get("unschedulable"))}
print(json.dumps(out, sort_keys=True))'
}

# check_nodes NAME PLAN_JSON BEFORE AFTER : every GPU node valid, planned ones as predicted
check_nodes() {
  python3 - "$2" "$3" "$4" <<'PYEOF' >"$T/$1.check" 2>&1
import json, sys
plan = json.load(open(sys.argv[1]))
before, after = json.loads(sys.argv[2]), json.loads(sys.argv[3])
planned = {}
for g in plan["groups"]:
    for n in g["nodePlan"]:
        planned[n["name"]] = {k: v for k, v in n["resources"].items() if v}
for node, st in sorted(after.items()):
    if not before[node]["alloc"] and not planned.get(node):
        continue
    if st["err"]:
        print("not ok - %s: device plugin: %s" % (node, st["err"])); continue
    if st["cordoned"]:
        print("not ok - %s: left cordoned" % node); continue
    want = planned.get(node, before[node]["alloc"])
    if st["alloc"] == want:
        print("ok - %s advertises %s (%s)" % (node, want, "as planned" if node in planned else "as before"))
    else:
        print("not ok - %s advertises %s, want %s" % (node, st["alloc"], want))
PYEOF
  while IFS= read -r line; do
    case "$line" in "ok - "*) ok "$1: ${line#ok - }" ;; *) fail "$1: $line" ;; esac
  done <"$T/$1.check"
}

# run_script NAME : plan -o json + -o script against the running fake server, run the script
run_script() {
  kgpu plan -o json
  check_rc 0 "$1: plan -o json (live)"
  printf '%s\n' "$OUT" >"$T/$1.plan.json"
  kgpu plan -o script
  check_rc 0 "$1: plan -o script (live)"
  printf '%s\n' "$OUT" >"$T/$1.sh"
  if shellcheck -s bash "$T/$1.sh" >"$T/$1.sc" 2>&1; then ok "$1: the script is shellcheck clean"
  else fail "$1: shellcheck: $(head -c 600 "$T/$1.sc")"; fi
  kgpu plan
  printf '%s\n' "$OUT" >"$T/$1.txt"
  fakeapi_clear_log
  if KUBECTL="$KUBECTL_BIN" EVICT=yes POLL=0 CONFIG_TIMEOUT=20 DRAIN_TIMEOUT=30 \
       timeout 300 bash "$T/$1.sh" >"$T/$1.out" 2>"$T/$1.err"; then
    ok "$1: the script ran to the end with the real kubectl"
  else
    fail "$1: the script failed: $(tail -5 "$T/$1.err")"
  fi
}
requests_matching() { fakeapi_requests | python3 -c '
import json, re, sys
rx = re.compile(sys.argv[1])
print(sum(1 for l in sys.stdin if l.strip() and rx.search(json.loads(l)["method"] + " " + json.loads(l)["path"])))' "$1"; }

# --- the Helm chart (issue 27's cluster) ------------------------------------------------------
fakeapi_start "$FIX/helm.json" --operator-sim "$Y2J" || { fail "helm: fake API server"; exit; }
before=$(node_state)
run_script helm
P=$(cat "$T/helm.plan.json")
# detection: the chart's DaemonSet (any name, by image), its config-manager and mounted map
check_eq "$(json_get "$P" 'd["actuators"]["devicePlugin"]["installedBy"]')" helm "helm: the device plugin is the Helm chart's"
check_eq "$(json_get "$P" '[d["actuators"]["devicePlugin"][k] for k in ("namespace", "daemonSet", "configMap", "configManager", "version")]')" \
  "['kube-system', 'nvidia-device-plugin', 'nvidia-device-plugin-configs', True, 'v0.17.0']" \
  "helm: its DaemonSet, the map it mounts (<fullname>-configs), config-manager and version"
check_eq "$(json_get "$P" 'd["actuators"]["migManager"]["installedBy"]')" none "helm: no MIG manager"
check_eq "$(json_get "$P" 'd["actuators"]["dra"]["driver"]')" None "helm: no DRA driver"
# issue 27 items 2 and 5: the configs go into the mounted map, every existing config kept
check_eq "$(json_get "$P" '[m["metadata"]["namespace"] + "/" + m["metadata"]["name"] for m in d["manifests"] if m["kind"] == "ConfigMap"]')" \
  "['kube-system/nvidia-device-plugin-configs']" "helm: the only ConfigMap emitted is the one the DaemonSet mounts"
keys=$(k get configmap -n kube-system nvidia-device-plugin-configs -o json | python3 -c 'import json,sys; print(sorted(json.load(sys.stdin)["data"]))')
check_eq "$(python3 -c "import sys; k=$keys; print(all(x in k for x in ('default','l4-ts4','a100-mig-mixed')))")" True \
  "helm: after the script the mounted map still holds default, l4-ts4 and a100-mig-mixed"
after=$(node_state)
# every node label names a config of the mounted map (config-manager exits otherwise,
# k8s-device-plugin v0.17.0 cmd/config-manager/main.go:351-355)
check_eq "$(python3 -c "
import json
k = $keys
a = json.loads('''$after''')
print(sorted(n for n, s in a.items() if s['labels'].get('nvidia.com/device-plugin.config') and s['labels']['nvidia.com/device-plugin.config'] not in k))")" \
  "[]" "helm: every node's nvidia.com/device-plugin.config names a config of the mounted map"
# issue 27 item 1: the in-use label of the hand-configured MIG node stays
check_eq "$(json_get "$after" 'd["a100-mig"]["labels"].get("nvidia.com/device-plugin.config")')" a100-mig-mixed \
  "helm: a100-mig keeps nvidia.com/device-plugin.config=a100-mig-mixed (removing it falls back to DEFAULT_CONFIG)"
# issue 27 item 3: no mig.config, no cordon, no drain where no MIG manager acts
check_eq "$(json_get "$after" 'sorted(n for n, s in d.items() if "nvidia.com/mig.config" in s["labels"])')" "[]" \
  "helm: no node got nvidia.com/mig.config (nothing reads it here)"
# Drained: only the nodes that go from time-sliced replicas back to whole GPUs (issue 27 item 7:
# the kubelet keeps the replica IDs "<GPU>::<n>", k8s-device-plugin v0.17.0
# internal/rm/device_map.go:324-330), worked out from the fixture's labels and the plan's
# per-node resources; the A100 already in its layout and the hand-made MIG nodes are not.
want_drained=$(python3 - "$FIX/helm.json" "$T/helm.plan.json" <<'PYEOF'
import json, sys
fx, plan = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
shared_now = {o["metadata"]["name"] for o in fx["items"] if o["kind"] == "Node"
              and int(o["metadata"]["labels"].get("nvidia.com/gpu.replicas", "1")) > 1}
whole_after = {n["name"] for g in plan["groups"] for n in g["nodePlan"]
               if not n["resources"].get("nvidia.com/gpu.shared")}
drained = sorted(shared_now & whole_after)
pods = sum(1 for o in fx["items"] if o["kind"] == "Pod" and o["spec"].get("nodeName") in drained
           and o["status"].get("phase") not in ("Succeeded", "Failed"))
print(json.dumps(drained), pods)
PYEOF
)
check_eq "$(json_get "$P" 'sorted(a["target"] for a in d["actions"] if a["drain"])')" "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1]))' "${want_drained% *}")" \
  "helm: only the nodes going from shared replicas back to whole GPUs are drained"
check_eq "$(requests_matching '/eviction$')" "${want_drained##* }" \
  "helm: the pods evicted are those of the drained nodes (the A100 already in the layout is not drained)"
check_eq "$(k get configmap -n kube-system kubectl-gpu-device-plugin-config -o name 2>/dev/null)" "" \
  "helm: no map the DaemonSet does not mount is created"
check_nodes helm "$T/helm.plan.json" "$before" "$after"
TXT=$(cat "$T/helm.txt")
check_contains "$TXT" "Applied by:" "helm: the text report has an Applied by section"
check_contains "$TXT" "--set-file config.map." "helm: and the Helm values change that survives helm upgrade"
check_contains "$TXT" "MIG not planned: no MIG manager runs here" "helm: and why MIG is left out"
check_match "$TXT" "2 nodes run MIG set up without a MIG manager and are left out of the plan: (a100-mig, a100-half|a100-half, a100-mig)\\." \
  "helm: the hand-configured MIG nodes are left out, named"
# the same answer from a snapshot written of this cluster (the DaemonSet's reduction keeps
# what detection reads, and the mounted map is saved)
kgpu snapshot -o "$T/helm-snap.json"
check_rc 0 "helm: snapshot written"
kgpu plan --snapshot "$T/helm-snap.json" -o json
check_eq "$(json_get "$OUT" 'd["actuators"]')" "$(json_get "$P" 'd["actuators"]')" "helm: a snapshot gives the same actuators"
check_not_contains "$(cat "$T/helm-snap.json")" "spec.nodeName" "helm: the snapshot keeps no env valueFrom"
check_not_contains "$(cat "$T/helm-snap.json")" "compute,utility" "helm: nor an env value outside the config keys (NVIDIA_DRIVER_CAPABILITIES)"
check_contains "$(cat "$T/helm-snap.json")" 'nvidia-device-plugin-configs' "helm: and keeps the mounted map's name"

# --- the static manifest -----------------------------------------------------------------------
fakeapi_start "$FIX/static.json" --operator-sim "$Y2J" || { fail "static: fake API server"; exit; }
before=$(node_state)
run_script static
P=$(cat "$T/static.plan.json")
check_eq "$(json_get "$P" '[d["actuators"]["devicePlugin"][k] for k in ("installedBy", "configMap", "configManager")]')" \
  "['manifest', 'nvidia-device-plugin-config', False]" "static: a manifest without config-manager reading its map"
check_eq "$(json_get "$P" '[a["kind"] for a in d["actions"]]')" "['ConfigMap', 'RolloutRestart', 'NodeLabel', 'NodeLabel']" \
  "static: the changed config, the restart it needs, then the node checks"
check_eq "$(requests_matching '^PATCH /api/v1/nodes/')" 0 "static: no node label written (none is read)"
check_eq "$(requests_matching '^PATCH /apis/apps/v1/namespaces/kube-system/daemonsets/nvidia-device-plugin-daemonset$')" 1 \
  "static: the DaemonSet restarted once"
after=$(node_state)
check_nodes static "$T/static.plan.json" "$before" "$after"
check_contains "$(grep -c 'restarting DaemonSet' "$T/static.err")" 1 "static: the script said it restarted the plugin"
# the same script once more: the config is in place, the DaemonSet's template already names it,
# so nothing rolls out again (the DaemonSet controller restarts pods on a template change only)
fakeapi_clear_log
if KUBECTL="$KUBECTL_BIN" EVICT=yes POLL=0 CONFIG_TIMEOUT=20 DRAIN_TIMEOUT=30 \
     timeout 300 bash "$T/static.sh" >"$T/static2.out" 2>"$T/static2.err"; then
  ok "static: the script runs a second time"
else
  fail "static: the second run failed: $(tail -5 "$T/static2.err")"
fi
check_eq "$(requests_matching '^PATCH /apis/apps/v1/namespaces/kube-system/daemonsets/nvidia-device-plugin-daemonset$')" 0 \
  "static: a second run restarts nothing (the template already names the config)"
check_contains "$(cat "$T/static2.err")" "already runs config kgpu-device-plugin-config-" "static: and says why"
check_eq "$(node_state)" "$after" "static: the nodes are as the first run left them"

# --- managed clouds ----------------------------------------------------------------------------
fakeapi_start "$FIX/gke.json" --operator-sim "$Y2J" || { fail "gke: fake API server"; exit; }
run_script gke
P=$(cat "$T/gke.plan.json")
check_eq "$(json_get "$P" 'd["actuators"]["devicePlugin"]["installedBy"]')" gke "gke: GKE's node pools"
check_eq "$(json_get "$P" '[a["kind"] for a in d["actions"]]')" "['NodePoolUpdate']" "gke: one node-pool command, no label, no ConfigMap"
# GKE: time-sharing is a node-pool setting, max-shared-clients-per-gpu at most 48
# (cloud.google.com/kubernetes-engine/docs/how-to/timesharing-gpus)
check_match "$(json_get "$P" 'd["actions"][0]["command"]')" \
  "^gcloud container node-pools create l4-pool-kgpu-ts .*--accelerator=type=nvidia-l4,count=1,gpu-sharing-strategy=time-sharing,max-shared-clients-per-gpu=[0-9]+$" \
  "gke: the command creates a node pool with GKE's own sharing settings"
check_eq "$(requests_matching '^(PATCH|POST|PUT|DELETE) ')" 0 "gke: the script writes nothing to the cluster"
fakeapi_start "$FIX/aks.json" --operator-sim "$Y2J" || { fail "aks: fake API server"; exit; }
kgpu plan -o json
check_eq "$(json_get "$OUT" '[d["actuators"]["devicePlugin"]["installedBy"], len(d["actions"]), d["summary"]["gpusAfter"] if "summary" in d else None]')" \
  "['aks', 0, 2]" "aks: AKS node pools have no time-slicing setting: no action, the 2 GPUs stay"
check_contains "$(json_get "$OUT" '" ".join(d["warnings"])')" "AKS node pools have no time-slicing setting" "aks: and the plan says so"

# --- the GPU Operator with its MIG manager: a node already in the planned layout ---------------
# helm.json with the operator instead of the chart (ClusterPolicy, mig.strategy mixed, its
# device plugin and mig-manager DaemonSets): asked for MIG, a100-mig (2 x 3g.40gb on each of its 8
# GPUs, set by hand, no nvidia.com/mig.config) gets the label and is not drained: mig-manager
# finds the config applied and resets nothing (mig-parted pkg/mig/reconfigure/reconfigure.go:141-145);
# planned alone (-l), the node keeps its layout: 16 x 3g.40gb fill its 8 GPUs
python3 - "$FIX/helm.json" >"$T/operator-same.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
items = [o for o in d["items"] if o["kind"] not in ("DaemonSet", "ConfigMap")]
for name, image in (("nvidia-device-plugin-daemonset", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"),
                    ("nvidia-mig-manager", "nvcr.io/nvidia/cloud-native/k8s-mig-manager:v0.12.1-ubuntu20.04")):
    items.append({"apiVersion": "apps/v1", "kind": "DaemonSet",
                  "metadata": {"name": name, "namespace": "gpu-operator", "labels": {"app": name}},
                  "spec": {"selector": {"matchLabels": {"app": name}},
                           "template": {"metadata": {"labels": {"app": name}},
                                        "spec": {"containers": [{"name": name, "image": image}]}}},
                  "status": {"desiredNumberScheduled": 7, "numberReady": 7}})
items.append({"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy", "metadata": {"name": "cluster-policy"},
              "spec": {"mig": {"strategy": "mixed"}}, "status": {"state": "ready", "namespace": "gpu-operator"}})
d["items"] = items
print(json.dumps(d))
PYEOF
fakeapi_start "$T/operator-same.json" --operator-sim "$Y2J" || { fail "operator-same: fake API server"; exit; }
before=$(node_state)
kgpu plan --strategy mig -l kubernetes.io/hostname=a100-mig -o json
P=$OUT
printf '%s\n' "$P" >"$T/operator-same.plan.json"
check_eq "$(json_get "$P" '[(a["target"], a["drain"]) for a in d["actions"] if a["target"].startswith("a100-mig")]')" \
  "[('a100-mig', False)]" "operator-same: a100-mig, already in the layout, is relabelled without a drain"
kgpu plan --strategy mig -l kubernetes.io/hostname=a100-mig -o script
printf '%s\n' "$OUT" >"$T/operator-same.sh"
if shellcheck -s bash "$T/operator-same.sh" >"$T/operator-same.sc" 2>&1; then ok "operator-same: the script is shellcheck clean"
else fail "operator-same: shellcheck: $(head -c 600 "$T/operator-same.sc")"; fi
fakeapi_clear_log
if KUBECTL="$KUBECTL_BIN" EVICT=yes POLL=0 CONFIG_TIMEOUT=20 DRAIN_TIMEOUT=30 timeout 300 bash "$T/operator-same.sh" \
     >"$T/operator-same.out" 2>"$T/operator-same.err"; then ok "operator-same: the script ran to the end"
else fail "operator-same: the script failed: $(tail -5 "$T/operator-same.err")"; fi
check_eq "$(requests_matching '/namespaces/inference/pods/llm-[^/]*/eviction$')" 0 "operator-same: none of a100-mig's 16 pods evicted"
after=$(node_state)
check_eq "$(json_get "$after" 'd["a100-mig"]["alloc"]')" "{'nvidia.com/mig-3g.40gb': 16}" "operator-same: a100-mig keeps its 16 MIG devices"
check_eq "$(json_get "$after" 'd["a100-mig"]["cordoned"]')" False "operator-same: and was never left cordoned"

# --- the simulation follows the upstream rules (so the checks above can fail) -----------------
fakeapi_start "$FIX/helm.json" --operator-sim "$Y2J"
k label node a100-mig nvidia.com/device-plugin.config- >/dev/null
check_eq "$(json_get "$(node_state)" 'd["a100-mig"]["alloc"]')" "{}" \
  "sim: a label removed makes config-manager take DEFAULT_CONFIG (migStrategy none): the MIG devices are gone"
k label node l4-1 nvidia.com/device-plugin.config=kgpu-missing --overwrite >/dev/null
check_eq "$(json_get "$(node_state)" 'd["l4-1"]["err"]')" "error: specified config kgpu-missing does not exist" \
  "sim: a config the mounted map lacks stops config-manager"
k label node a100-whole nvidia.com/mig.config=all-1g.10gb --overwrite >/dev/null
check_eq "$(json_get "$(node_state)" 'd["a100-whole"]["alloc"]')" "{'nvidia.com/gpu': 8}" "sim: without a MIG manager mig.config does nothing"
fakeapi_start "$FIX/static.json" --operator-sim "$Y2J"
k patch configmap -n kube-system nvidia-device-plugin-config --type merge -p '{"data":{"config.yaml":"version: v1\n"}}' >/dev/null
check_eq "$(json_get "$(node_state)" 'd["t4-1"]["alloc"]')" "{'nvidia.com/gpu': 2}" "sim: a static plugin ignores a map edit until restarted"
k rollout restart -n kube-system daemonset/nvidia-device-plugin-daemonset >/dev/null
check_eq "$(json_get "$(node_state)" 'd["t4-1"]["alloc"]')" "{'nvidia.com/gpu': 1}" "sim: and re-reads it on a restart"
