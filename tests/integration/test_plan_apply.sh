#!/usr/bin/env bash
# kubectl gpu plan -o script run end to end with the real kubectl against the fake API server
# in operator-simulation mode (tests/fakeapi/k8s_writes.py: the server accepts the writes the
# script makes and reacts as the GPU Operator's mig-manager and device plugin do, by their
# upstream rules).  On each example cluster — among them custom.json, whose ClusterPolicy
# already names a custom device-plugin ConfigMap with a default and a custom mig-parted map,
# with nodes labelled with configs the plan does not touch — the script runs to the end, and
# afterwards every GPU node runs a valid config (no device-plugin error, no failed MIG state)
# and advertises what the plan predicted (planned nodes) or what it advertised before (the
# others).  Also: the script refuses another cluster (exit 1, no write), --context overrides,
# KUBECTL may carry arguments, an empty plan exits 0, a re-run finds everything done; and the
# simulation itself is checked against the failure modes the plan must avoid.
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
FIX="$KGPU_ROOT/tests/fixtures/plan"
KUBECTL_BIN=$(command -v kubectl || true)
if [ -z "$KUBECTL_BIN" ]; then fail "kubectl not found: the script cannot be run end to end"; exit; fi
Y2J="$T/yaml2json"
if cc -std=c11 -Wall -Wextra -Werror -o "$Y2J" "$KGPU_ROOT/tests/tools/yaml2json.c" \
     $(pkg-config --cflags --libs yaml-0.1 libcjson) 2>"$T/cc.log"; then ok "built tests/tools/yaml2json"
else fail "yaml2json: $(cat "$T/cc.log")"; exit; fi

# writes the server received (method != GET), from the request log
writes() { fakeapi_requests | python3 -c 'import json,sys; print(sum(1 for l in sys.stdin if l.strip() and json.loads(l)["method"] not in ("GET","HEAD")))'; }

# node_state : one JSON object {node: {"alloc": {nvidia resources != 0}, "err": annotation, "state": mig state}}
node_state() {
  "$KUBECTL_BIN" get nodes -o json | python3 -c '
import json, sys
d = json.load(sys.stdin)
out = {}
for n in d["items"]:
    a = {k: int(v) for k, v in n["status"].get("allocatable", {}).items() if k.startswith("nvidia.com/") and int(v) != 0}
    out[n["metadata"]["name"]] = {"alloc": a, "err": (n["metadata"].get("annotations") or {}).get("fakeapi.test/device-plugin"),
                                  "state": (n["metadata"].get("labels") or {}).get("nvidia.com/mig.config.state")}
print(json.dumps(out, sort_keys=True))'
}

# the demo fleet with its MPS node on time-slicing instead: there the plan switches the MIG
# strategy single -> mixed (with MPS on l4-01 it must not: the plugin refuses MPS with mixed),
# dgx-a100-03 leaves MIG single for whole GPUs, and h100-02 (1 unhealthy GPU) restarts its plugin
python3 - "$KGPU_ROOT/examples/clusters/mixed-fleet.json" >"$T/mixed-fleet-no-mps.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for o in d["items"]:
    if o["kind"] == "Node" and o["metadata"]["name"] == "l4-01":
        o["metadata"]["labels"].update({"nvidia.com/device-plugin.config": "t4-ts4", "nvidia.com/gpu.replicas": "4",
                                        "nvidia.com/gpu.sharing-strategy": "time-slicing"})
        for k in ("capacity", "allocatable"):
            o["status"][k]["nvidia.com/gpu"] = "16"
    if o["kind"] == "Node" and o["metadata"]["name"] == "dgx-a100-03":
        o["status"]["allocatable"]["nvidia.com/gpu"] = "49"     # one GPU's 7 MIG devices unhealthy
print(json.dumps(d))
PYEOF
MF="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
fakeapi_start "$MF" --operator-sim "$Y2J"
kgpu plan -o json
check_eq "$(json_get "$OUT" 'sum(1 for a in d["actions"] if "mixed" in a["detail"])')" 0 \
  "mixed-fleet: MPS runs on l4-01, so the plan does not switch the MIG strategy to mixed"
check_contains "$(json_get "$OUT" '" ".join(d["warnings"])')" "stops MPS on l4-01" "mixed-fleet: and says why"

for path in "$FIX"/{custom,mixed,a100-mig,t4-timeslice,h100-whole}.json "$MF" "$T/mixed-fleet-no-mps.json"; do
  name=$(basename "$path" .json)
  fakeapi_start "$path" --operator-sim "$Y2J" || { fail "$name: fake API server"; continue; }
  before=$(node_state)
  "$KUBECTL_BIN" get pods -A -o json >"$T/$name.pods.json"
  kgpu plan -o json
  check_rc 0 "$name: plan -o json (live)"
  printf '%s\n' "$OUT" >"$T/$name.plan.json"
  kgpu plan -o script
  check_rc 0 "$name: plan -o script (live)"
  printf '%s\n' "$OUT" >"$T/$name.sh"
  fakeapi_clear_log
  # KUBECTL with arguments (issue 13: it was quoted into one word)
  if KUBECTL="$KUBECTL_BIN --kubeconfig $KUBECONFIG" EVICT=yes POLL=0 CONFIG_TIMEOUT=20 DRAIN_TIMEOUT=30 \
       timeout 300 bash "$T/$name.sh" >"$T/$name.out" 2>"$T/$name.err"; then
    ok "$name: the script ran to the end with the real kubectl"
  else
    fail "$name: the script failed: $(tail -5 "$T/$name.err")"
  fi
  after=$(node_state)
  python3 - "$T/$name.plan.json" <<PYEOF >"$T/$name.check" 2>&1
import json, sys
plan = json.load(open(sys.argv[1]))
before, after = json.loads('''$before'''), json.loads('''$after''')
planned, healthy = {}, {}
for g in plan["groups"]:
    for n in g["nodePlan"]:
        planned[n["name"]] = {k: v for k, v in n["resources"].items() if v}
        # unhealthy GPUs: anything from the count without them to the count with all healthy
        healthy[n["name"]] = {k: v for k, v in (n.get("resourcesAllHealthy") or n["resources"]).items() if v}
for node, st in sorted(after.items()):
    if not before[node]["alloc"] and not planned.get(node):
        continue
    if st["err"]:
        print("not ok - %s: device plugin: %s" % (node, st["err"])); continue
    if st["state"] == "failed" and (node in planned or before[node]["state"] != "failed"):
        print("not ok - %s: nvidia.com/mig.config.state=failed" % node); continue
    want = planned.get(node, before[node]["alloc"])
    hi = healthy.get(node, want)
    if st["alloc"] == want or (set(st["alloc"]) <= set(hi) and
                               all(want.get(k, 0) <= v <= hi[k] for k, v in st["alloc"].items())):
        print("ok - %s advertises %s (%s)" % (node, want, "as planned" if node in planned else "as before"))
    else:
        print("not ok - %s advertises %s, want %s" % (node, st["alloc"], want))
PYEOF
  while IFS= read -r line; do
    case "$line" in "ok - "*) ok "$name: ${line#ok - }" ;; *) fail "$name: $line" ;; esac
  done <"$T/$name.check"
  nactions=$(json_get "$(cat "$T/$name.plan.json")" 'len(d["actions"])')
  if [ "$nactions" = 0 ]; then
    check_eq "$(writes)" 0 "$name: an empty plan writes nothing"
    check_contains "$(cat "$T/$name.err")" "nothing to apply" "$name: an empty plan says nothing to apply"
  else
    # drains only where the MIG layout changes: kubectl drain evicts (POST .../eviction) only
    # pods of those nodes, every GPU pod there among them
    drained=$(json_get "$(cat "$T/$name.plan.json")" '" ".join(sorted(a["target"] for a in d["actions"] if a["drain"]))')
    verdict=$(fakeapi_requests | python3 -c '
import json, sys
pods = json.load(open(sys.argv[1]))
drained = set(sys.argv[2].split())
where = {p["metadata"]["namespace"] + "/" + p["metadata"]["name"]: p["spec"].get("nodeName") for p in pods["items"]}
gpu = {k for k, p in ((p["metadata"]["namespace"] + "/" + p["metadata"]["name"], p) for p in pods["items"])
       if p["spec"].get("nodeName") in drained and p["status"].get("phase") in ("Running", "Pending")
       and any(r.startswith("nvidia.com/") for c in p["spec"]["containers"] for r in (c.get("resources") or {}).get("requests", {}))}
ev = set()
for l in sys.stdin:
    if l.strip():
        e = json.loads(l)
        if e["method"] == "POST" and e["path"].endswith("/eviction"):
            parts = e["path"].split("/")
            ev.add(parts[4] + "/" + parts[6])
bad = sorted(p for p in ev if where.get(p) not in drained)
print("ok" if not bad and gpu <= ev else "evicted elsewhere: %s; GPU pods not evicted: %s" % (bad, sorted(gpu - ev)))
' "$T/$name.pods.json" "$drained")
    check_eq "$verdict" ok "$name: pods evicted through the Eviction API only on the drained nodes ($drained), all their GPU pods"
    # a second run finds every node done and changes no node
    fakeapi_clear_log
    if KUBECTL="$KUBECTL_BIN" POLL=0 CONFIG_TIMEOUT=5 timeout 120 bash "$T/$name.sh" >/dev/null 2>"$T/$name.err2"; then
      ok "$name: a second run succeeds"
    else fail "$name: second run: $(tail -3 "$T/$name.err2")"; fi
    check_eq "$(grep -c 'already configured' "$T/$name.err2")" \
      "$(json_get "$(cat "$T/$name.plan.json")" 'sum(1 for a in d["actions"] if a["kind"] == "NodeLabel" and "removed" not in a["detail"])')" \
      "$name: on the second run every node is already configured"
  fi
done

# dgx-a100-03 ran MIG single: its pods' nvidia.com/gpu meant a 1g.10gb device and means a whole
# GPU under mixed (k8s-device-plugin internal/rm/device_map.go:91-104): the plan says so
check_contains "$(json_get "$(cat "$T/mixed-fleet-no-mps.plan.json")" '" ".join(d["warnings"])')" \
  "dgx-a100-03 runs MIG 1g.10gb with the single strategy: ml-inference/triton-batch, ml-inference/triton-small request nvidia.com/gpu there" \
  "mixed-fleet-no-mps: the MIG-single node's nvidia.com/gpu pods are named before the switch to mixed"

# --- the script is pinned to its cluster -------------------------------------------------------
fakeapi_start "$FIX/custom.json" --operator-sim "$Y2J"
kgpu plan -o script
printf '%s\n' "$OUT" >"$T/pin.sh"
sed -i "s|^PLAN_SERVER=.*|PLAN_SERVER='https://10.0.0.1:6443'|" "$T/pin.sh"
fakeapi_clear_log
KUBECTL="$KUBECTL_BIN" POLL=0 timeout 60 bash "$T/pin.sh" >/dev/null 2>"$T/pin.err"; rc=$?
check_eq "$rc" 1 "a script made for another API server refuses to run"
check_contains "$(cat "$T/pin.err")" "Run it with --context NAME" "and says how to override"
check_eq "$(writes)" 0 "and changes nothing"
ctx=$("$KUBECTL_BIN" config current-context)
KUBECTL="$KUBECTL_BIN" EVICT=yes POLL=0 CONFIG_TIMEOUT=20 timeout 300 bash "$T/pin.sh" --context "$ctx" >/dev/null 2>"$T/pin2.err"; rc=$?
check_eq "$rc" 0 "--context NAME runs it there"
bash "$T/pin.sh" --bogus >/dev/null 2>&1; check_eq "$?" 2 "an unknown argument is a usage error"

# --- the simulated operator follows its upstream rules (so the checks above can fail) ----------
fakeapi_start "$FIX/custom.json" --operator-sim "$Y2J"
k() { "$KUBECTL_BIN" "$@"; }
# mig-manager acts only on a change of the label
k label node a100-a nvidia.com/mig.config.state- >/dev/null
k label node a100-a nvidia.com/mig.config=custom-3g --overwrite >/dev/null
check_eq "$(json_get "$(node_state)" 'd["a100-a"]["state"]')" "None" "sim: mig-manager ignores a label set to its own value"
k label node a100-a nvidia.com/mig.config=no-such-config --overwrite >/dev/null
check_eq "$(json_get "$(node_state)" 'd["a100-a"]["state"]')" "failed" "sim: a config the mig-parted map lacks fails"
k label node a100-a nvidia.com/mig.config=all-disabled --overwrite >/dev/null
check_eq "$(json_get "$(node_state)" 'd["a100-a"]["state"]')" "failed" \
  "sim: a layout change fails while pods hold the node's GPUs (no drain, no change)"
k label node a100-a nvidia.com/mig.config=custom-3g --overwrite >/dev/null
check_eq "$(json_get "$(node_state)" 'd["a100-a"]["state"]')" "success" \
  "sim: the layout the GPUs already have passes mig-parted's assert, pods or not"
k delete pods -n inference -l app=llm-13b --wait=false >/dev/null
k label node a100-a nvidia.com/mig.config=all-disabled --overwrite >/dev/null
st=$(node_state)
check_eq "$(json_get "$st" 'd["a100-a"]["state"]')" "success" "sim: once its pods are gone, the change succeeds"
check_eq "$(json_get "$st" 'd["a100-a"]["alloc"]')" "{'nvidia.com/gpu': 8}" "sim: and the node advertises the new layout"

# a device-plugin ConfigMap without the nodes' configs: their plugins stop (issue 13, fault 1)
k create configmap only-new -n gpu-operator --from-literal=x=$'version: v1\n' >/dev/null 2>&1
k patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{"spec":{"devicePlugin":{"config":{"name":"only-new"}}}}' >/dev/null
st=$(node_state)
check_eq "$(json_get "$st" 'd["t4-a"]["err"]')" "error: specified config tesla-t4-ts4 does not exist" \
  "sim: a label naming a config the ConfigMap lacks stops the device plugin (config-manager)"
check_eq "$(json_get "$st" 'd["t4-a"]["alloc"]')" "{}" "sim: and the node advertises no GPU"
# MPS with the mixed strategy is refused (device plugin main.go:228-229)
k create configmap mps-cfg -n gpu-operator --from-literal=mps=$'version: v1\nflags:\n  migStrategy: none\nsharing:\n  mps:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n' >/dev/null
k patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{"spec":{"devicePlugin":{"config":{"name":"mps-cfg"}}}}' >/dev/null
k label node t4-a nvidia.com/device-plugin.config=mps --overwrite >/dev/null
check_eq "$(json_get "$(node_state)" 'd["t4-a"]["err"]')" "error: using --mig-strategy=mixed is not supported with MPS" \
  "sim: MPS is refused with the ClusterPolicy's mixed strategy (MIG_STRATEGY overrides the file)"
k patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{"spec":{"mig":null}}' >/dev/null
check_eq "$(json_get "$(node_state)" 'd["t4-a"]["alloc"]')" "{'nvidia.com/gpu': 16}" \
  "sim: without the strategy set, the config file's none applies and MPS runs"

# --- the script can always finish or stops before harming anything (issue 27 items 6-8) -------
# node_field NODE JSONPATH
node_field() { "$KUBECTL_BIN" get node "$1" -o jsonpath="$2"; }

# item 6: with EVICT=no the first MIG conversion has nowhere to send its pods: a100-a (4 GPU
# pods, first in the order) holds llm-13b's four pods, whose new request is
# nvidia.com/mig-3g.40gb; the only other node, a100-b, is changed later in the order (it will be
# cordoned and drained itself), so no node that stays usable has any free: 4 needed, 0 free.
# Before, the script cordoned a100-a, waited DRAIN_TIMEOUT and exited leaving it cordoned.
# Now the plan says what is missing and the script stops before cordoning a100-a.
fakeapi_start "$FIX/a100-mig.json" --operator-sim "$Y2J"
kgpu plan -o json
check_contains "$(json_get "$OUT" '[a["detail"] for a in d["actions"] if a["target"] == "a100-a"][0]')" \
  "ROOM MISSING while it is drained: its GPU pods need, on the other nodes that admit them, nvidia.com/mig-3g.40gb: 4 needed, 0 free" \
  "item 6: the plan says what capacity the first MIG conversion lacks"
kgpu plan -o script
printf '%s\n' "$OUT" >"$T/room.sh"
KUBECTL="$KUBECTL_BIN" POLL=0 DRAIN_TIMEOUT=3 CONFIG_TIMEOUT=3 timeout 120 bash "$T/room.sh" >/dev/null 2>"$T/room.err"; rc=$?
check_eq "$rc" 1 "item 6: EVICT=no, no room: the script stops (exit 1)"
check_contains "$(cat "$T/room.err")" "Nothing was changed on a100-a" "item 6: and says nothing was changed on a100-a"
check_eq "$(node_field a100-a '{.spec.unschedulable}')" "" "item 6: a100-a is not left cordoned"
check_eq "$(node_field a100-a '{.metadata.labels.nvidia\.com/mig\.config}')" "custom-3g" "item 6: a100-a keeps its MIG config"

# a drain that times out gives the node back: t4-timeslice, EVICT=no, nobody moves the pods.
# t4-a becomes the shared pool first (no drain); t4-b goes back to whole GPUs (drained, item
# 7): the room check passes (t4-a advertises 16 nvidia.com/gpu.shared, none requested), t4-b is
# cordoned, its 6 asr pods never leave, and after DRAIN_TIMEOUT it is uncordoned again.
fakeapi_start "$FIX/t4-timeslice.json" --operator-sim "$Y2J"
kgpu plan -o script
printf '%s\n' "$OUT" >"$T/undo.sh"
KUBECTL="$KUBECTL_BIN" POLL=0 DRAIN_TIMEOUT=3 CONFIG_TIMEOUT=20 timeout 120 bash "$T/undo.sh" >/dev/null 2>"$T/undo.err"; rc=$?
check_eq "$rc" 1 "drain timeout: the script stops (exit 1)"
check_contains "$(cat "$T/undo.err")" "GPU pods still on t4-b after 3s" "drain timeout: it names the node and the wait"
check_contains "$(cat "$T/undo.err")" "t4-b was uncordoned again (this script had cordoned it)" "drain timeout: and says it uncordoned it"
check_eq "$(node_field t4-b '{.spec.unschedulable}')" "" "drain timeout: t4-b is not left cordoned"
check_eq "$(node_field t4-b '{.metadata.labels.nvidia\.com/device-plugin\.config}')" "tesla-t4-ts4" \
  "drain timeout: t4-b keeps its time-slicing config (no whole-GPU pod can land on a GPU its replicas use)"
check_eq "$(node_field t4-a '{.metadata.labels.nvidia\.com/device-plugin\.config}')" \
  "$(json_get "$("$KGPU_BIN" plan -o json 2>/dev/null)" '[n["devicePluginConfig"] for g in d["groups"] for n in g["nodePlan"] if n["name"] == "t4-a"][0]')" \
  "drain timeout: the node before it (t4-a) was converted"

# item 8: with --quotas the ResourceQuotas come after the node changes, and a namespace that
# still holds more than its new hard limit does not get it: research's quota is
# requests.nvidia.com/gpu: 4 (its train Job); a Pending research pod asking for 5 more is added
# after the plan was made, so research holds 5 when the script ends (train evicted).
fakeapi_start "$FIX/a100-mig.json" --operator-sim "$Y2J"
kgpu plan --quotas -o json
check_eq "$(json_get "$OUT" '[a["kind"] for a in d["actions"]][-3:]')" "['Quota', 'Quota', 'Quota']" \
  "item 8: the quotas are the last actions"
kgpu plan --quotas -o script
printf '%s\n' "$OUT" >"$T/quota.sh"
"$KUBECTL_BIN" create -f - >/dev/null <<'YEOF'
apiVersion: v1
kind: Pod
metadata: {name: late, namespace: research}
spec:
  containers:
  - name: main
    image: nvcr.io/nvidia/tritonserver:24.05-py3
    resources: {requests: {nvidia.com/gpu: "5"}, limits: {nvidia.com/gpu: "5"}}
YEOF
fakeapi_clear_log
KUBECTL="$KUBECTL_BIN" EVICT=yes POLL=0 CONFIG_TIMEOUT=20 DRAIN_TIMEOUT=30 timeout 300 bash "$T/quota.sh" >/dev/null 2>"$T/quota.err"; rc=$?
check_eq "$rc" 0 "item 8: the script runs to the end"
check_contains "$(cat "$T/quota.err")" "ResourceQuota in research NOT applied yet: the namespace holds requests.nvidia.com/gpu: 5, above the new hard limit 4" \
  "item 8: research's quota waits (it holds 5, the limit is 4) and the script says so"
check_contains "$(cat "$T/quota.err")" "plan applied but for 1 ResourceQuota(s)" "item 8: the last line says a re-run is needed"
check_eq "$("$KUBECTL_BIN" get resourcequota -n research -o name 2>/dev/null)" "" "item 8: research has no quota"
check_eq "$("$KUBECTL_BIN" get resourcequota -n inference -o name 2>/dev/null)" "resourcequota/kubectl-gpu-plan" \
  "item 8: inference (its pods moved) got its quota"
order=$(fakeapi_requests | python3 -c '
import json, sys
last_node = first_quota = None
for i, l in enumerate(sys.stdin):
    e = json.loads(l) if l.strip() else None
    if not e or e["method"] in ("GET", "HEAD"): continue
    if "/nodes/" in e["path"]: last_node = i
    if "/resourcequotas" in e["path"] and first_quota is None: first_quota = i
print("ok" if first_quota is not None and last_node is not None and first_quota > last_node else "last node write %s, first quota write %s" % (last_node, first_quota))')
check_eq "$order" ok "item 8: every quota write comes after the last node write"

# --- hostile strings never run (issue 28 item 1) -----------------------------------------------
# shellcheck_ok NAME FILE: every emitted script is shellcheck clean (any severity)
shellcheck_ok() {
  if ! command -v shellcheck >/dev/null; then fail "$1: shellcheck not installed (scripts/install-deps.sh test)"; return; fi
  if shellcheck -s bash "$2" >"$T/shellcheck.out" 2>&1; then ok "$1: shellcheck clean"
  else fail "$1: shellcheck: $(head -c 600 "$T/shellcheck.out")"; fi
}
for name in custom mixed a100-mig t4-timeslice h100-whole mixed-fleet mixed-fleet-no-mps pin; do
  [ -f "$T/$name.sh" ] && shellcheck_ok "$name script" "$T/$name.sh"
done
# the issue's exact case: a context named "c\ntouch /tmp/PWNED #" (here $T/pwn/PWNED)
mkdir -p "$T/pwn"
python3 - "$FIX/mixed.json" "$T/pwn" >"$T/ctx.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["metadata"]["annotations"]["kubectl-gpu/context"] = "c\ntouch %s/PWNED #" % sys.argv[2]
print(json.dumps(d))
PYEOF
"$KGPU_BIN" plan --snapshot "$T/ctx.json" -o script >"$T/ctx.sh" 2>/dev/null
(cd "$T/pwn" && KUBECTL=false bash "$T/ctx.sh" >/dev/null 2>&1); rc=$?
check_eq "$rc" 1 "context \"c\\ntouch PWNED #\": the script refuses (exit 1) with KUBECTL=false"
check_eq "$(ls "$T/pwn")" "" "context \"c\\ntouch PWNED #\": nothing injected ran"
shellcheck_ok "hostile context" "$T/ctx.sh"

# live: a kubeconfig whose context name holds a newline, quotes, $() and backticks: the script
# made against it pins that very name, the real kubectl reports it back, the pin check passes
# and the plan is applied; nothing injected runs
fakeapi_start "$FIX/t4-timeslice.json" --operator-sim "$Y2J"
python3 - "$KUBECONFIG" "$T/kubeconfig-hostile" <<'PYEOF2'
import json, sys
name = "fake\n$(touch PK1)`touch PK2`'\"; touch PK3 #\r"
text = open(sys.argv[1]).read()
assert "- name: fake\n" in text and "current-context: fake" in text
text = text.replace("- name: fake\n", "- name: %s\n" % json.dumps(name), 1)
text = text.replace("current-context: fake", "current-context: %s" % json.dumps(name), 1)
open(sys.argv[2], "w").write(text)
PYEOF2
KUBECONFIG="$T/kubeconfig-hostile" "$KGPU_BIN" plan -o script >"$T/livectx.sh" 2>/dev/null
check_contains "$(grep '^PLAN_CONTEXT=' "$T/livectx.sh")" "PLAN_CONTEXT='fake'\$'\\x0a\\x24''(touch PK1)'" \
  "hostile kubeconfig context: pinned as one quoted word"
shellcheck_ok "hostile kubeconfig context" "$T/livectx.sh"
(cd "$T/pwn" && KUBECTL="$KUBECTL_BIN --kubeconfig $T/kubeconfig-hostile" EVICT=yes POLL=0 CONFIG_TIMEOUT=20 DRAIN_TIMEOUT=30 \
   timeout 300 bash "$T/livectx.sh" >/dev/null 2>"$T/livectx.err"); rc=$?
check_eq "$rc" 0 "hostile kubeconfig context: the pin check matches it and the script runs to the end"
check_eq "$(ls "$T/pwn")" "" "hostile kubeconfig context: nothing injected ran"

# every string from the cluster or kubeconfig made hostile: context, server, node names, the
# nodes' labels, namespaces, pod names; with newlines, CR, quotes, $(), backticks, a NUL (JSON
# \u0000: the string ends there), bytes that are not UTF-8 and a 100 KB value.  P marks what
# must never be created.
python3 - "$FIX/mixed.json" "$T/pwn" >"$T/hostile.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
P = sys.argv[2]
def H(tag):
    # relative: the script runs in P (node names are at most 253 bytes)
    return (tag + "\n$(touch P1)`touch P2`'\"\\'; touch P3 #\r\x1b[2J\xa0\u202e$'x'\x7f" +
            "\n#!/bin/sh\nKGPU_MANIFESTS\n<<'X'\nEOF")
def N(tag):
    # a node name: the model keeps node names with control bytes apart from their pods' nodeName,
    # nor with bytes that are not UTF-8, so these carry the rest: quotes, $(), backticks, ;, #, bidi
    return tag + "$(touch P1)`touch P2`'\"\\'; touch P3 #\u202e$'x'"
ren = {"a100-a": N("a100-a"), "a100-b": N("a100-b")}
d["metadata"]["annotations"]["kubectl-gpu/context"] = H("ctx") + "@" * 100000 + "\u0000; touch %s/P4" % P
d["metadata"]["annotations"]["kubectl-gpu/server"] = "https://x\r\n" + H("srv")
for o in d["items"]:
    m = o["metadata"]
    if o["kind"] == "Node" and m["name"] in ren:
        m["name"] = ren[m["name"]]
        m["labels"]["kubernetes.io/hostname"] = "h"
        if m["labels"].get("nvidia.com/mig.config") == "custom-3g":
            m["labels"]["nvidia.com/mig.config"] = "l\n$(touch P7)`touch P8`'\";#\r\x1b\xa0"   # <= 63
    if o["kind"] == "Pod":
        if o["spec"].get("nodeName") in ren: o["spec"]["nodeName"] = ren[o["spec"]["nodeName"]]
        if m["namespace"] == "inference": m["namespace"] = "ns\n$(touch P5)`touch P6`'\";#\r\x1b\xa0"   # <= 63
        m["name"] = m["name"] + H("")
s = json.dumps(d, ensure_ascii=False)
sys.stdout.buffer.write(s.encode())
PYEOF
# and raw bytes that are not UTF-8 in a label value
python3 - "$T/hostile.json" <<'PYEOF'
import sys
b = open(sys.argv[1], "rb").read()
open(sys.argv[1], "wb").write(b.replace(b"\xc2\xa0", b"\xff\xfe"))
PYEOF
"$KGPU_BIN" plan --snapshot "$T/hostile.json" -o script >"$T/hostile.sh" 2>"$T/hostile.err"
check_eq "$?" 0 "hostile strings: plan -o script"
check_contains "$(cat "$T/hostile.sh")" "reconfigure_node" "hostile strings: the plan still changes the renamed nodes"
shellcheck_ok "hostile strings" "$T/hostile.sh"
python3 - "$T/hostile.sh" <<'PYEOF' >"$T/hostile.check"
import re, sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in re.findall(rb"[\x00-\x09\x0b-\x1f\x7f]", b)]
print("ok" if not bad else "control bytes in the script: %r" % bad[:5])
PYEOF
check_eq "$(cat "$T/hostile.check")" ok "hostile strings: the script holds no control byte but LF (CR cannot hide a line)"
(cd "$T/pwn" && KUBECTL=false POLL=0 bash "$T/hostile.sh" >/dev/null 2>&1); rc=$?
check_eq "$rc" 1 "hostile strings: KUBECTL=false: the pin check refuses (exit 1)"
# a stub kubectl that says yes to everything: the script runs its steps; the node names reach
# kubectl as single arguments, byte for byte
cat >"$T/stub-kubectl" <<'SHEOF'
#!/usr/bin/env bash
printf '%s\0' "$@" >>"$STUB_LOG"; printf '\1' >>"$STUB_LOG"
case "$*" in *mig\\.config\\.state*) echo success ;; esac
exit 0
SHEOF
chmod +x "$T/stub-kubectl"
: >"$T/stub.log"
(cd "$T/pwn" && STUB_LOG="$T/stub.log" KUBECTL="$T/stub-kubectl" POLL=0 CONFIG_TIMEOUT=0 DRAIN_TIMEOUT=0 \
   timeout 60 bash "$T/hostile.sh" --context stub >/dev/null 2>&1)
check_eq "$(ls "$T/pwn")" "" "hostile strings: no injected command ran (KUBECTL=false, stub kubectl)"
python3 - "$T/hostile.json" "$T/stub.log" <<'PYEOF' >"$T/stub.check"
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape"))
names = {o["metadata"]["name"].encode("utf-8", "surrogateescape") for o in d["items"] if o["kind"] == "Node"}
calls = [c.split(b"\0")[:-1] for c in open(sys.argv[2], "rb").read().split(b"\1") if c]
# an argument with the marker is a node name, or the field selector naming one
sel = lambda a: a[len(b"spec.nodeName="):].split(b",status.phase")[0] if a.startswith(b"spec.nodeName=") else a
seen = {sel(a) for c in calls for a in c if b"$(touch" in a}
print("ok" if seen and seen <= names else "arguments with the marker that are no node name: %r" % sorted(seen - names)[:2])
PYEOF
check_eq "$(cat "$T/stub.check")" ok "hostile strings: the hostile node names reach kubectl intact, as one argument each"
