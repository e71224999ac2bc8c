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

# wait_until SECONDS CMD: polls CMD every 0.1 s until it succeeds (0) or the time is up (1)
wait_until() {
  local end=$((SECONDS + $1))
  while [ "$SECONDS" -lt "$end" ]; do eval "$2" && return 0; sleep 0.1; done
  return 1
}

# the views that follow the cluster: each kind is listed, then watched (verb "watch"); a watch
# the role refused would leave the view silently frozen on its first lists
"$KGPU_BIN" pending -A -w >"$T/w.out" 2>"$T/w.err" &
WPID=$!
wait_until 15 'fakeapi_count "^/api/v1/pods$" "watch=1" | grep -qv "^0$"' || fail "pending -w: no pods watch was made"
kill -INT "$WPID" 2>/dev/null; wait "$WPID" 2>/dev/null
watch_denied=$(python3 - "$FAKEAPI_LOG" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if 'watch=1' in e.get('query', '') and e.get('status') == 403:
        print(e['path'])
PY
)
check_eq "$watch_denied" "" "pending -w: every watch granted (verb watch)"
cp "$FAKEAPI_LOG" "$T/log1"

# batch queues: Kueue (with its visibility API), Volcano and KAI, listed and watched
fakeapi_start "$KGPU_ROOT/tests/fixtures/queues/queues-visibility.json" --role "$T/rbac.json" \
  || { fail "fake API server (queues) did not start"; exit 1; }
for args in "status" "pending -A"; do
  eval "kgpu $args"
done
check_not_contains "$ERR" "forbidden" "queues: nothing forbidden with the role"
"$KGPU_BIN" pending -A -w >"$T/wq.out" 2>"$T/wq.err" &
WPID=$!
wait_until 15 'fakeapi_count "^/apis/kueue.x-k8s.io/[^/]+/workloads$" "watch=1" | grep -qv "^0$"' \
  || fail "queues: pending -w made no Workload watch"
kill -INT "$WPID" 2>/dev/null; wait "$WPID" 2>/dev/null
check_not_contains "$(cat "$T/wq.err")" "forbidden" "queues: pending -w, no watch forbidden"
cat "$T/log1" "$FAKEAPI_LOG" >"$T/all.log"

# services/proxy and pods/proxy are only used when a Prometheus or an exporter is found.
# Every other rule must have granted some request of the runs above.
unused=$(python3 - "$T/rbac.json" "$T/all.log" <<'PY'
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
