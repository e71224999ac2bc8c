#!/usr/bin/env bash
# kubectl gpu plan end to end, without metrics (requests stand in): on each fixture cluster of
# tests/fixtures/plan (optimal answers worked by hand in make_fixtures.py) the GPUs after equal
# the optimum; every layout and replica count passes the independent checker
# (tests/fixtures/plan/check_plan.py); -o yaml parses (tests/tools/yaml2json, libyaml's loader)
# and every document is accepted by `kubectl apply --dry-run=client` against the fake API
# server; the live path (API server instead of --snapshot) gives the same plan; the script
# passes `bash -n` and, run against a stand-in kubectl that keeps node state, reconfigures
# every node once and finds them all done on a second run.
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
FIX="$KGPU_ROOT/tests/fixtures/plan"

KUBECTL=$(command -v kubectl || true)
Y2J="$T/yaml2json"
if cc -std=c11 -Wall -Wextra -Werror -o "$Y2J" "$KGPU_ROOT/tests/tools/yaml2json.c" \
     $(pkg-config --cflags --libs yaml-0.1 libcjson) 2>"$T/cc.log"; then
  ok "built tests/tools/yaml2json"
else
  fail "yaml2json: $(cat "$T/cc.log")"; exit 1
fi

# checker NAME : runs check_plan.py on $T/NAME.json and $T/NAME.jsonl
checker() {
  local line
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) ok "$1: ${line#ok - }" ;;
      "not ok - "*) fail "$1: ${line#not ok - }" ;;
      *) fail "$1: checker said: $line" ;;
    esac
  done < <(python3 "$FIX/check_plan.py" "$T/$1.json" "$T/$1.jsonl" "$Y2J" 2>&1)
}

# fixture  before  after  (hand-worked in make_fixtures.py)
while read -r name before after; do
  kgpu plan --snapshot "$FIX/$name.json" -o json
  check_rc 0 "$name: plan -o json"
  printf '%s\n' "$OUT" >"$T/$name.json"
  check_eq "$(json_get "$OUT" 'd["summary"]["gpusBefore"]')" "$before" "$name: GPUs before = $before"
  check_eq "$(json_get "$OUT" 'd["summary"]["gpusAfter"]')" "$after" "$name: GPUs after = the optimum $after"
  kgpu plan --snapshot "$FIX/$name.json" -o yaml
  check_rc 0 "$name: plan -o yaml"
  printf '%s\n' "$OUT" >"$T/$name.yaml"
  if "$Y2J" <"$T/$name.yaml" >"$T/$name.jsonl" 2>"$T/$name.y2j.err"; then ok "$name: -o yaml parses"
  else fail "$name: -o yaml does not parse: $(cat "$T/$name.y2j.err")"; fi
  checker "$name"
  kgpu plan --snapshot "$FIX/$name.json" -o script
  check_rc 0 "$name: plan -o script"
  printf '%s\n' "$OUT" >"$T/$name.sh"
  if bash -n "$T/$name.sh" 2>"$T/$name.bashn"; then ok "$name: the script passes bash -n"
  else fail "$name: bash -n: $(cat "$T/$name.bashn")"; fi
  kgpu plan --snapshot "$FIX/$name.json"
  check_rc 0 "$name: plan (text)"
  check_contains "$OUT" "Summary: GPUs before $before, after $after, freed $((before - after))." "$name: text summary"
  check_contains "$OUT" "Usage: NOT MEASURED" "$name: the text says usage was not measured"
done <<'EOF'
a100-mig 8 7
t4-timeslice 4 3
h100-whole 4 4
mixed 16 14
EOF

# --- every document accepted by kubectl apply --dry-run=client (kubectl needs a server) -----
# The fake API server serves discovery but no OpenAPI documents, so kubectl's schema validation
# is off (--validate=false): kubectl still maps every apiVersion/kind through discovery and
# decodes every object; names, keys and quantities are checked by check_plan.py.
if [ -z "$KUBECTL" ]; then
  fail "kubectl not found: the manifests cannot be checked with kubectl apply"
elif fakeapi_start "$FIX/mixed.json"; then
  ok "fake API server up"
  for name in a100-mig t4-timeslice mixed; do
    n=$(grep -c . "$T/$name.jsonl")
    if timeout 60 "$KUBECTL" apply --dry-run=client --validate=false -f - <"$T/$name.yaml" >"$T/$name.apply" 2>"$T/$name.apply.err"; then
      ok "$name: kubectl apply --dry-run=client accepts the stream"
    else
      fail "$name: kubectl apply --dry-run=client: $(head -c 1500 "$T/$name.apply.err")"
    fi
    check_eq "$(grep -c '(dry run)$' "$T/$name.apply")" "$n" "$name: kubectl took all $n documents"
  done
  # the live path: the same cluster through the API server gives the same plan
  kgpu plan --no-metrics -o json
  check_rc 0 "live: plan -o json through the API server"
  check_eq "$(json_get "$OUT" 'd["summary"]')" "{'gpusBefore': 16, 'gpusAfter': 14, 'gpusFreed': 2}" "live: same summary as the snapshot"
  check_eq "$(json_get "$OUT" '[g["strategy"] for g in d["groups"]]')" "['mig', 'none', 'mps']" "live: same strategies"
  check_eq "$(json_get "$OUT" 'd["metrics"]["detail"]')" "disabled by --no-metrics" "live: says why there are no metrics"
  check_eq "$(fakeapi_count '.*' '' POST)$(fakeapi_count '.*' '' PATCH)$(fakeapi_count '.*' '' PUT)$(fakeapi_count '.*' '' DELETE)" \
    "0000" "the plan never writes to the cluster"
else
  fail "fake API server did not start"
fi

# --- the script, run against a stand-in kubectl that keeps node labels and allocatable --------
# The stand-in answers the queries the script makes from files under $STATE, and "reconfigures"
# a node when its labels are set: mig.config.state becomes success and allocatable becomes what
# the plan's nodePlan says (what a real device plugin would advertise).  GPU pods are on no node.
STATE="$T/state"
mkdir -p "$STATE"
python3 - "$T/mixed.json" "$STATE" <<'PY'
import json, os, sys
plan = json.load(open(sys.argv[1]))
for g in plan["groups"]:
    for n in g["nodePlan"]:
        d = os.path.join(sys.argv[2], n["name"])
        os.makedirs(d, exist_ok=True)
        json.dump({"target": n["resources"], "labels": {}, "annotations": {}, "unschedulable": False,
                   "allocatable": {}}, open(os.path.join(d, "node.json"), "w"))
PY
cat >"$T/fake-kubectl" <<'EOF'
#!/usr/bin/env python3
import json, os, sys
state = os.environ["STATE"]
a = sys.argv[1:]
open(os.path.join(state, "calls.log"), "a").write(" ".join(a) + "\n")
def load(n): return json.load(open(os.path.join(state, n, "node.json")))
def save(n, d): json.dump(d, open(os.path.join(state, n, "node.json"), "w"))
if a[:1] == ["apply"]:
    sys.stdin.read(); print("configmap/kubectl-gpu-device-plugin-config configured"); sys.exit(0)
if a[:1] in (["patch"], ["rollout"], ["delete"]): sys.exit(0)
if a[:2] == ["get", "pods"]: sys.exit(0)
if a[:2] == ["get", "node"]:
    d = load(a[2]); path = a[-1].split("=", 1)[1].strip("{}")
    if path == ".spec.unschedulable": print("true" if d["unschedulable"] else "", end="")
    elif path.startswith(".metadata.labels."): print(d["labels"].get(path[17:].replace("\\.", "."), ""), end="")
    elif path.startswith(".metadata.annotations."): print(d["annotations"].get(path[22:], ""), end="")
    elif path.startswith(".status.allocatable."): print(d["allocatable"].get(path[20:].replace("\\.", "."), ""), end="")
    sys.exit(0)
if a[0] in ("cordon", "uncordon"):
    d = load(a[1]); d["unschedulable"] = a[0] == "cordon"; save(a[1], d); sys.exit(0)
if a[0] in ("label", "annotate"):
    d = load(a[2]); key = "labels" if a[0] == "label" else "annotations"
    for kv in a[3:]:
        if kv.startswith("--"): continue
        if kv.endswith("-"): d[key].pop(kv[:-1], None)
        else: k, v = kv.split("=", 1); d[key][k] = v
    if a[0] == "label":
        if "nvidia.com/mig.config" in d["labels"]: d["labels"]["nvidia.com/mig.config.state"] = "success"
        if "nvidia.com/device-plugin.config" in d["labels"]: d["allocatable"] = {k: str(v) for k, v in d["target"].items()}
    save(a[2], d); sys.exit(0)
sys.exit("fake-kubectl: unexpected: " + " ".join(a))
EOF
chmod +x "$T/fake-kubectl"
if STATE="$STATE" KUBECTL="$T/fake-kubectl" POLL=0 CONFIG_TIMEOUT=5 DRAIN_TIMEOUT=5 \
     timeout 120 bash "$T/mixed.sh" >"$T/run1.out" 2>"$T/run1.err"; then
  ok "the script runs to the end against the stand-in kubectl"
else
  fail "the script failed: $(tail -5 "$T/run1.err")"
fi
check_eq "$(grep -c '^cordon ' "$STATE/calls.log")" 4 "run 1: four nodes cordoned"
check_eq "$(grep -c '^uncordon ' "$STATE/calls.log")" 4 "run 1: and uncordoned"
check_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["labels"].get("nvidia.com/mig.config"), d["labels"].get("nvidia.com/device-plugin.config"), d["unschedulable"], d["annotations"])' "$STATE/a100-a/node.json")" \
  "kgpu-a100-sxm4-80gb-mig-1 kgpu-a100-sxm4-80gb-mig False {}" "run 1: a100-a labelled, uncordoned, no marker left"
check_eq "$(grep -n '^\(cordon\|patch\)' "$STATE/calls.log" | head -1 | cut -d' ' -f1)" "$(grep -n '^patch' "$STATE/calls.log" | cut -d' ' -f1)" \
  "run 1: the ClusterPolicy is patched before the first node is cordoned"
: >"$STATE/calls.log"
if STATE="$STATE" KUBECTL="$T/fake-kubectl" POLL=0 CONFIG_TIMEOUT=5 DRAIN_TIMEOUT=5 \
     timeout 120 bash "$T/mixed.sh" >"$T/run2.out" 2>"$T/run2.err"; then
  ok "run 2 succeeds"
else
  fail "run 2 failed: $(tail -5 "$T/run2.err")"
fi
check_eq "$(grep -c 'already configured' "$T/run2.err")" 4 "run 2: every node already configured"
check_eq "$(grep -c '^\(cordon\|label\) ' "$STATE/calls.log")" 0 "run 2: nothing cordoned or relabelled"
