#!/usr/bin/env bash
# examples/rbac.yaml grants exactly what kubectl-gpu uses: every request each subcommand makes
# against the fake API server is allowed by one of its rules (verb, API group, resource), and
# every rule is used by some subcommand (nothing granted that the tool never asks for).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

fixture="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
# a DCGM exporter pod proxy and a Prometheus service make the metrics probes run too
fakeapi_start "$fixture" || { fail "fake API server did not start"; exit 1; }

run() { kgpu "$@"; if [ "$RC" = 0 ]; then ok "kubectl-gpu $* runs"; else fail "kubectl-gpu $*: exit $RC: $ERR"; fi; }
run status
run status -o wide
run pending -A
run explain llama-70b-pretrain-worker-7 -n ml-training
run plan
run snapshot -o "$T/snap.json"
kgpu __complete status ''          # node names
kgpu __complete explain -n ''      # namespaces
kgpu __complete explain -n ml-training ''   # pods

# the rules, parsed with libyaml (tests/tools/yaml2json.c), not by hand
cc -o "$T/yaml2json" "$KGPU_ROOT/tests/tools/yaml2json.c" $(pkg-config --cflags --libs yaml-0.1 libcjson) 2>"$T/cc.err" \
  || { fail "yaml2json does not build: $(cat "$T/cc.err")"; exit 1; }
"$T/yaml2json" "$KGPU_ROOT/examples/rbac.yaml" >"$T/rbac.json" || { fail "examples/rbac.yaml does not parse"; exit 1; }

python3 - "$T/rbac.json" "$FAKEAPI_LOG" >"$T/rbac-check.txt" <<'PY'
import json, re, sys
role = json.loads(open(sys.argv[1]).readline())
rules = role["rules"]
used = [False] * len(rules)
def allowed(verb, group, resource):
    ok = False
    for i, r in enumerate(rules):
        if verb in r["verbs"] and group in r["apiGroups"] and resource in r["resources"]:
            used[i] = True
            ok = True
    return ok
bad = []
for line in open(sys.argv[2]):
    q = json.loads(line)
    path = q["path"]
    if q["method"] != "GET":
        bad.append(f"{q['method']} {path} (not a read)")
        continue
    if path in ("/version", "/api", "/apis", "/api/v1") or re.match(r"^/apis/[^/]+(/[^/]+)?$", path):
        continue                                         # discovery: allowed to every user
    m = re.match(r"^/api/v1/(?:namespaces/[^/]+/)?(pods|services)/[^/]+/proxy(/.*)?$", path)
    if m:
        if not allowed("get", "", m.group(1) + "/proxy"): bad.append(path)
        continue
    m = re.match(r"^/(?:api/v1|apis/([^/]+)/[^/]+)/(?:namespaces/[^/]+/)?([a-z]+)(/[^/]+)?$", path)
    if not m:
        bad.append(f"{path} (not understood)")
        continue
    group, resource, name = m.group(1) or "", m.group(2), m.group(3)
    if not allowed("get" if name else "list", group, resource):
        bad.append(f"{'get' if name else 'list'} {group}/{resource} ({path})")
for b in bad: print("NOT GRANTED", b)
for i, u in enumerate(used):
    if not u: print("UNUSED", json.dumps(rules[i]))
PY
check_eq "$(grep -c '^NOT GRANTED' "$T/rbac-check.txt")" 0 "every request is granted by examples/rbac.yaml: $(grep NOT "$T/rbac-check.txt" | head -3)"
# services/proxy and pods/proxy are only used when a Prometheus or an exporter is found;
# namespaces only by completion.  Every other rule must be used by the runs above.
unused=$(grep '^UNUSED' "$T/rbac-check.txt" | grep -v '/proxy' || true)
check_eq "$unused" "" "every rule of examples/rbac.yaml is used"
