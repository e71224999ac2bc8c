#!/usr/bin/env bash
# examples/rbac.yaml grants nothing kubectl-gpu never asks for: every rule is used by some
# subcommand.  (That every request of each subcommand is granted by the role is the live cases
# tests/cases/live/rbac-role-*.case, against a server that grants only that role.)  This takes
# all the subcommands together, so it stays a script: the same server, granting only the role,
# logs by index the rules that granted each request (roleRules).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

# the role, parsed with libyaml (tests/tools/yaml2json.c), not by hand
cc -o "$T/yaml2json" "$KGPU_ROOT/tests/tools/yaml2json.c" $(pkg-config --cflags --libs yaml-0.1 libcjson) 2>"$T/cc.err" \
  || { fail "yaml2json does not build: $(cat "$T/cc.err")"; exit 1; }
"$T/yaml2json" "$KGPU_ROOT/examples/rbac.yaml" >"$T/rbac.json" || { fail "examples/rbac.yaml does not parse"; exit 1; }

fakeapi_start "$KGPU_ROOT/examples/clusters/mixed-fleet.json" --role "$T/rbac.json" \
  || { fail "fake API server did not start"; exit 1; }

for args in "status" "status -o wide" "pending -A" "explain llama-70b-pretrain-worker-7 -n ml-training" "plan" \
            "snapshot -o $T/snap.json" "__complete -- status ''" "__complete -- explain -n ''" \
            "__complete -- explain -n ml-training ''"; do
  eval "kgpu $args"
done

# services/proxy and pods/proxy are only used when a Prometheus or an exporter is found.
# Every other rule must have granted some request of the runs above.
unused=$(python3 - "$T/rbac.json" "$FAKEAPI_LOG" <<'PY'
import json, sys
rules = json.loads(open(sys.argv[1]).readline())["rules"]
used = set()
for line in open(sys.argv[2]):
    used.update(int(i) for i in json.loads(line).get("roleRules", "").split())
for i, r in enumerate(rules):
    if i not in used and not any(res.endswith("/proxy") for res in r["resources"]):
        print("UNUSED", json.dumps(r))
PY
)
check_eq "$unused" "" "every rule of examples/rbac.yaml is used"
