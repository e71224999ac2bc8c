#!/usr/bin/env bash
# Fleets (issue 33): status and pending over several kubeconfig contexts at once, against
# several fake API servers, each with its own CA and token: two that answer, one whose token
# it refuses (401), one that is down, one slower than --request-timeout, one whose exec
# plugin fails, and a context name two kubeconfig files both define (the first file wins, as
# kubectl merges).  Checks: the table's rows, the JSON fleet documents (each context's
# document the same as --context X alone gives), one warning line per failed context naming
# it, exit 0 when one answered and 1 when none did, no credential anywhere, and a wall time
# near the slowest context's, not the sum of them.
. "$(dirname "$0")/../lib/common.sh"

CERTS_A="$T/certs-a" CERTS_B="$T/certs-b"
bash "$KGPU_ROOT/tests/fakeapi/gen-certs.sh" "$CERTS_A" && bash "$KGPU_ROOT/tests/fakeapi/gen-certs.sh" "$CERTS_B" ||
  { fail "certificates"; exit 1; }
TOKEN_A=kgpu-fleet-token-a-5e1d90 TOKEN_B=kgpu-fleet-token-b-77c2a3 TOKEN_BAD=kgpu-fleet-token-wrong-0f3b11
PIDS=()
on_exit 'for p in "${PIDS[@]}"; do kill "$p"; done'

# start_server NAME FIXTURE CERTS TOKEN [FAULTS-JSON [SERVER-ARGS...]] : URL_<NAME> set once it
# listens, its pid last in PIDS
start_server() {
  local name=$1 fixture=$2 certs=$3 token=$4 faults=${5:-[]}
  shift $(( $# < 5 ? $# : 5 ))
  printf '%s\n' "$faults" >"$T/faults-$name.json"
  rm -f "$T/port-$name"
  python3 "$KGPU_ROOT/tests/fakeapi/server.py" --fixture "$fixture" --certs "$certs" \
    --port-file "$T/port-$name" --log "$T/log-$name" --faults "$T/faults-$name.json" \
    --token "$token=gpu-admin" --parent-pid "$$" "$@" >"$T/server-$name.stderr" 2>&1 </dev/null &
  PIDS+=($!)
  local i
  for i in $(seq 1 300); do [ -s "$T/port-$name" ] && break; sleep 0.1; done
  [ -s "$T/port-$name" ] || { fail "server $name did not start: $(cat "$T/server-$name.stderr")"; exit 1; }
  printf -v "URL_$name" 'https://127.0.0.1:%s' "$(tr -dc 0-9 <"$T/port-$name")"
}

MIXED="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
SMALL="$KGPU_ROOT/tests/fixtures/api/small.json"
start_server a "$MIXED" "$CERTS_A" "$TOKEN_A"
start_server b "$SMALL" "$CERTS_B" "$TOKEN_B"
# slow: every node list waits 30 s, beyond --request-timeout
start_server slow "$SMALL" "$CERTS_B" "$TOKEN_B" '[{"path": "^/api/v1/nodes$", "action": "delay", "seconds": 30}]'
# dead: a port nothing listens on (a server started and stopped)
start_server dead "$SMALL" "$CERTS_A" "$TOKEN_A"
kill "${PIDS[-1]}"; wait "${PIDS[-1]}" 2>/dev/null

# the entries of a kubeconfig: cluster NAME URL CA, user NAME TOKEN, context NAME CLUSTER USER [NAMESPACE]
cluster() { printf -- '- name: %s\n  cluster:\n    server: %s\n    certificate-authority: %s\n' "$1" "$2" "$3"; }
user()    { printf -- '- name: %s\n  user:\n    token: %s\n' "$1" "$2"; }
context() { printf -- '- name: %s\n  context:\n    cluster: %s\n    user: %s\n%s' "$1" "$2" "$3" "${4:+    namespace: $4
}"; }
{
  echo "apiVersion: v1"; echo "kind: Config"; echo "current-context: a"
  echo "clusters:"; cluster ca "$URL_a" "$CERTS_A/ca.crt"; cluster cb "$URL_b" "$CERTS_B/ca.crt"
  cluster cslow "$URL_slow" "$CERTS_B/ca.crt"
  echo "users:"; user ua "$TOKEN_A"; user ub "$TOKEN_B"
  echo "contexts:"; context a ca ua ml-training; context b cb ub; context slow cslow ub
  context twice ca ua
} >"$T/config1"
{
  echo "apiVersion: v1"; echo "kind: Config"
  echo "clusters:"; cluster cdead "$URL_dead" "$CERTS_A/ca.crt"; cluster cb2 "$URL_b" "$CERTS_B/ca.crt"
  echo "users:"; user ubad "$TOKEN_BAD"; user ub2 "$TOKEN_B"
  cat <<EOF
- name: uexec
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $KGPU_ROOT/tests/fakeapi/exec-plugin.sh
      env:
      - name: FAKEAPI_EXEC_MODE
        value: fail
      interactiveMode: Never
EOF
  echo "contexts:"; context unauthorized cb2 ubad; context dead cdead ub2; context twice cdead ub2
  context broken-exec cb2 uexec
} >"$T/config2"
export KUBECONFIG="$T/config1:$T/config2"
ALL="a b slow twice unauthorized dead broken-exec"     # merge order: config1's, then config2's new names
SECRETS=("$TOKEN_A" "$TOKEN_B" "$TOKEN_BAD")
no_secret() {   # no_secret WHAT TEXT
  local s
  for s in "${SECRETS[@]}"; do
    if grep -qF -- "$s" <<<"$2"; then fail "$1: a token appears"; return; fi
  done
  ok "$1: no token"
}

# ---- status, every context, table ----
start=$(date +%s.%N)
kgpu status --all-contexts --request-timeout 3s
elapsed=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
check_rc 0 "status --all-contexts: some contexts answered"
for c in slow unauthorized dead broken-exec; do
  check_eq "$(grep -c "^warning: context \"$c\": " <<<"$ERR")" 1 "status: one warning line for failed context $c"
done
check_eq "$(grep -c . <<<"$ERR")" 4 "status: nothing else on stderr"
check_match "$(grep '"unauthorized"' <<<"$ERR")" '401|[Uu]nauthori' "status: the 401 is said"
check_match "$(grep '"slow"' <<<"$ERR")" 'time|Timeout' "status: the timeout is said"
check_match "$(grep '"dead"' <<<"$ERR")" 'refused|connect' "status: the dead server is said"
check_match "$(grep '"broken-exec"' <<<"$ERR")" 'exec' "status: the failed exec plugin is said"
no_secret "status table" "$OUT$ERR"
# each answering context has a row; "twice" is config1's (server a): mixed-fleet's 14 GPU nodes
for c in a b twice; do check_match "$OUT" "^$c +[0-9]" "status: a fleet row for $c"; done
for c in slow unauthorized dead broken-exec; do
  check_eq "$(awk -v c="$c" '$1 == c' <<<"$OUT")" "" "status: no row for failed context $c"
done
check_match "$OUT" "^CONTEXT +NAME +PRODUCT" "status: the node table starts with CONTEXT"
check_eq "$(grep -cE '^twice +dgx-a100-0[1-4] ' <<<"$OUT")" 4 "status: twice lists server a's dgx nodes (first file wins)"
check_contains "$OUT" "Fleet: 3 of 7 context(s) answered" "status: answered count"
# the slowest context waits ~3 s for its timeout (one retry at most would double it); the
# others answer at once: run one after another they would add up, at once they do not
if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 8 else 1)" "$elapsed"; then
  ok "status: wall time ${elapsed}s near the slowest context, not the sum"
else fail "status: wall time ${elapsed}s"; fi

# ---- status, JSON: each context's document is what --context X -o json gives ----
kgpu status --all-contexts --request-timeout 3s -o json
check_rc 0 "status --all-contexts -o json"
FLEET=$OUT
no_secret "status json" "$OUT$ERR"
check_eq "$(json_get "$FLEET" '" ".join(c["context"] for c in d["contexts"])')" "$ALL" "json: every context, in merge order"
check_eq "$(json_get "$FLEET" 'd["kind"], d["apiVersion"]')" "('GPUFleetStatus', 'kubectl-gpu/v1')" "json: kind"
check_eq "$(json_get "$FLEET" '[c["context"] for c in d["contexts"] if c["error"] is None and c["status"]["kind"] == "GPUStatus"]')" \
  "['a', 'b', 'twice']" "json: the answering contexts carry their GPUStatus"
check_eq "$(json_get "$FLEET" '[c["context"] for c in d["contexts"] if c["error"] and c["status"] is None]')" \
  "['slow', 'unauthorized', 'dead', 'broken-exec']" "json: the failed ones their error"
for c in a b twice; do
  kgpu status --context "$c" --request-timeout 3s -o json
  ONE=$OUT
  check_eq "$(python3 -c '
import json, sys
fleet, one, name = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
print([x["status"] for x in fleet["contexts"] if x["context"] == name][0] == one)' "$FLEET" "$ONE" "$c")" True \
    "json: context $c's document equals --context $c -o json"
done
# the summary adds up the contexts' own summaries (computed here from the documents)
check_eq "$(python3 -c '
import json, sys
d = json.loads(sys.argv[1]); s = d["summary"]
docs = [c["status"]["summary"] for c in d["contexts"] if c["status"]]
want = (len(d["contexts"]), len(docs), sum(x["physicalGPUs"] for x in docs),
        sum(x["physical"]["free"] for x in docs), sum(x["pendingGPUPods"] for x in docs))
got = (s["contexts"], s["answered"], s["physicalGPUs"], s["physical"]["free"], s["pendingGPUPods"])
print(want == got, s["physical"]["idleAllocated"])' "$FLEET")" "True None" \
  "json: summary = sum of the answering contexts; idle GPUs without metrics null, not 0"
check_eq "$(python3 -c '
import json, sys
d = json.loads(sys.argv[1]); free = {}
for c in d["contexts"]:
    for n in (c["status"] or {}).get("nodes", []):
        p = n["product"] or "-"        # the name the status table prints (allocation_product_short_name)
        for pre in ("NVIDIA-", "Tesla-", "Quadro-"):
            if p.startswith(pre) and len(p) > len(pre): p = p[len(pre):]; break
        p = p[:-7] if p.endswith("-SHARED") and len(p) > 7 else p
        p = p.split("-MIG-")[0] if p.find("-MIG-") > 0 else p
        if n["physical"]["free"]: free[p] = free.get(p, 0) + n["physical"]["free"]
got = {p: v["free"] for p, v in d["summary"]["freeGPUsByProduct"].items()}
print(got == free and len(free) > 1 or (got, free))' "$FLEET")" True \
  "json: free GPUs per product = the nodes' free GPUs added up"

# ---- none answers: the document is still printed, exit 1 ----
kgpu status --contexts dead,unauthorized -o json
check_rc 1 "status: no context answered"
check_eq "$(json_get "$OUT" '[(c["context"], c["error"] is not None) for c in d["contexts"]], d["summary"]["answered"]')" \
  "([('dead', True), ('unauthorized', True)], 0)" "json: printed with each context's error"
no_secret "none answered" "$OUT$ERR"

# ---- --contexts, concurrency, flags that do not fit ----
kgpu status --contexts b,a --max-concurrent-contexts 1
check_rc 0 "status --contexts b,a one at a time"
check_eq "$(grep -oE '^(a|b) +[0-9]' <<<"$OUT" | cut -c1 | tr -d '\n')" "ba" "status --contexts: the order named"
kgpu status --contexts a,nope
check_rc 2 "status --contexts with an unknown context"
check_contains "$ERR" 'context "nope" does not exist' "unknown context named"
kgpu status --contexts a,b --prometheus http://127.0.0.1:1
check_rc 2 "--prometheus with several contexts"
kgpu status --contexts a --context b
check_rc 2 "--context with --contexts"
kgpu explain some-pod --all-contexts
check_rc 2 "explain --all-contexts"
kgpu status --all-contexts -o name
check_rc 2 "status --all-contexts -o name"
kgpu status --max-concurrent-contexts 2
check_rc 2 "--max-concurrent-contexts without a fleet"

# ---- at once, and no more than --max-concurrent-contexts at once: a and b each answer their
# node list 2.5 s late; together they take one delay, one at a time two ----
slow_nodes='[{"path": "^/api/v1/nodes$", "action": "delay", "seconds": 2.5}]'
printf '%s\n' "$slow_nodes" >"$T/faults-a.json"; printf '%s\n' "$slow_nodes" >"$T/faults-b.json"
elapsed_of() { local s; s=$(date +%s.%N); kgpu "$@"; python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$s" "$(date +%s.%N)"; }
both=$(elapsed_of status --contexts a,b --no-metrics -o json)
one_by_one=$(elapsed_of status --contexts a,b --no-metrics -o json --max-concurrent-contexts 1)
check_eq "$(python3 -c "import sys; print(2.5 <= float(sys.argv[1]) < 4.5, float(sys.argv[2]) >= 5.0)" "$both" "$one_by_one")" \
  "True True" "a and b at once: ${both}s (one delay); one at a time: ${one_by_one}s (two)"
printf '[]\n' >"$T/faults-a.json"; printf '[]\n' >"$T/faults-b.json"

# ---- pending: CONTEXT column, each context's own default namespace ----
kgpu pending --contexts a,b,dead
check_rc 0 "pending --contexts a,b,dead"
check_eq "$(grep -c '^warning: context "dead": ' <<<"$ERR")" 1 "pending: one warning for dead"
check_match "$OUT" "^CONTEXT +NAMESPACE +NAME +GPUS" "pending: CONTEXT first"
# a's kubeconfig namespace is ml-training: only its pending pods are listed
check_eq "$(awk '$1 == "a" {print $2}' <<<"$OUT" | sort -u | tr '\n' ' ')" "ml-training " "pending: a lists its default namespace's pods"
kgpu pending --contexts a,b -A -o json
check_rc 0 "pending -A -o json"
PEND=$OUT
check_eq "$(json_get "$PEND" 'd["kind"], [c["context"] for c in d["contexts"] if c["pending"]["kind"] == "GPUPending"]')" \
  "('GPUFleetPending', ['a', 'b'])" "pending json: kind and documents"
kgpu pending --context a -A -o json
check_eq "$(python3 -c '
import json, sys
fleet, one = json.loads(sys.argv[1]), json.loads(sys.argv[2])
strip = lambda doc: [{k: v for k, v in p.items() if k != "ageSeconds"} for p in doc["pods"]]
a = fleet["contexts"][0]["pending"]
print(strip(a) == strip(one) and a["namespace"] == one["namespace"])' "$PEND" "$OUT")" True \
  "pending json: a's document equals --context a (ages aside: seconds pass between the runs)"
check_eq "$(json_get "$PEND" '(d["summary"]["pendingGPUPods"], d["summary"]["ownersNotCreated"]) == (sum(1 for c in d["contexts"] for p in c["pending"]["pods"] if p["created"]), sum(1 for c in d["contexts"] for p in c["pending"]["pods"] if not p["created"])) and d["summary"]["ownersNotCreated"] > 0')" True \
  "pending json: the summary counts the listed pods, and apart the owners whose pods were not created"

# ---- -v traces name the context and hold no credential ----
kgpu status --contexts a,unauthorized -v 9 --request-timeout 3s
no_secret "-v 9" "$OUT$ERR"
check_contains "$ERR" 'context "a": ' "-v: a's lines are prefixed with its name"

# ---- top --contexts: the fleet screen, each context followed by a watch of its own; a change
# shows at once, a context whose server goes away is marked lost since a time with its data's
# age, and comes back when its server does; Enter opens the context's own top and q comes back ----
# live: small.json (3 GPU nodes, 13 GPUs, 7 in use: b's row), with one change 4 s after its
# first watch: gpu-h100-0 copied as gpu-h100-9 (labels nvidia.com/gpu.count=8, no pod bound to
# it), so the row becomes 4 GPU nodes, 13 + 8 = 21 GPUs, 7 in use.  Bookmarks every second, so
# a watch resumed on a quiet server is known to work within a second (watch.c's on_data).
python3 - "$SMALL" >"$T/scenario-live.json" <<'PY'
import copy, json, sys
items = json.load(open(sys.argv[1]))["items"]
node = copy.deepcopy(next(i for i in items if i["kind"] == "Node" and i["metadata"]["name"] == "gpu-h100-0"))
node["metadata"]["name"] = node["metadata"]["labels"]["kubernetes.io/hostname"] = "gpu-h100-9"
for k in ("resourceVersion", "uid"):
    node["metadata"].pop(k, None)
node.setdefault("apiVersion", "v1"); node.setdefault("kind", "Node")
print(json.dumps({"steps": [{"after": 4, "watches": 1, "op": "add", "object": node}]}))
PY
start_server live "$SMALL" "$CERTS_B" "$TOKEN_B" '[]' --bookmark-interval 1 --scenario "$T/scenario-live.json"
LIVE_PID=${PIDS[-1]} LIVE_PORT=$(tr -dc 0-9 <"$T/port-live")
{
  echo "apiVersion: v1"; echo "kind: Config"
  echo "clusters:"; cluster clive "$URL_live" "$CERTS_B/ca.crt"
  echo "users:"; user ulive "$TOKEN_B"
  echo "contexts:"; context live clive ulive
} >"$T/config3"
. "$(dirname "$0")/../lib/tmux.sh"
start_shell fleet 100 24 KUBECONFIG="$KUBECONFIG:$T/config3"
# --interval 30s: a context read again on a timer (the screen before watches: every 5
# intervals) would show the change after 150 s; the bounds below are far shorter
keys fleet "$KGPU_BIN top --contexts a,live,dead --interval 30s --request-timeout 3s; echo TOP-EXIT=\$?" Enter
MSG="top fleet: a row per context, figures from each context's status"; check_ok wait_re fleet "^a +14 +68 +48 .* live *$" 15
MSG="top fleet: live's row"; check_ok wait_re fleet "^live +3 +13 +7 .* live *$" 10
MSG="top fleet: the dead context failed"; check_ok wait_re fleet "^dead .*failed" 10
MSG="top fleet: the node added on live's server shows without a timer"; check_ok wait_re fleet "^live +4 +21 +7 .* live *$" 12
kill "$LIVE_PID"; wait "$LIVE_PID" 2>/dev/null  # live's server goes away: its watches break
MSG="top fleet: live lost, since a time, its last figures kept with their age"
check_ok wait_re fleet "^live +4 +21 +7 .* lost since [0-2][0-9]:[0-5][0-9]:[0-5][0-9], data [0-9]+s old *$" 10
keys fleet Down                       # live selected: its reason on the line above the keys
MSG="top fleet: the selected context's reason"; check_ok wait_re fleet "^live: " 5
lost_age() { sed -nE 's/^live .* data ([0-9]+)s old *$/\1/p' <<<"$SCREEN"; }
first_age=$(lost_age)
MSG="top fleet: the data's age grows while live is lost"
check_ok wait_re fleet "^live .* data ($(seq -s '|' $((first_age + 2)) $((first_age + 30))))s old" 10
# the server back on the same port, with resourceVersions above those the watches saw (a
# restore): the resumed watches get 410 and list again, which finds the fixture without the
# added node — the row's figures come from the new lists, not the old ones
start_server live "$SMALL" "$CERTS_B" "$TOKEN_B" '[]' --bookmark-interval 1 --port "$LIVE_PORT" --resource-version 100000
MSG="top fleet: live back when its server is (listed again)"; check_ok wait_re fleet "^live +3 +13 +7 .* live *$" 40
MSG="top fleet: a and dead untouched meanwhile"; check_ok wait_re fleet "^a +14 +68 +48 .* live *$" 1
keys fleet Up                         # the selection back to a
keys fleet Enter
MSG="Enter: a's top"; check_ok wait_for fleet "dgx-a100-01" 15
keys fleet q
MSG="q: back on the fleet screen"; check_ok wait_re fleet "fleet: 3 context" 10
keys fleet q
MSG="q quits"; check_ok wait_for fleet "TOP-EXIT=0" 10

# ---- the fleet screen lists at most --max-concurrent-contexts contexts at once.  a's node list
# answers 2.5 s late: with 1, live's lists start only once a's first figures are in (so after
# a's node list ended); by default both contexts are listed at once (live's node list starts
# while a's is still held) ----
printf '%s\n' "$slow_nodes" >"$T/faults-a.json"
# first_node_list LOG SKIP: the start and end (epoch seconds) of the first node list (not a
# watch) logged after SKIP lines; the log's ts is written when the answer ends, ms is its length
first_node_list() {
  python3 - "$1" "$2" <<'PY'
import datetime, json, sys
for line in open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]:
    e = json.loads(line)
    if e["path"] == "/api/v1/nodes" and "watch=1" not in (e.get("query") or ""):
        end = datetime.datetime.strptime(e["ts"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()
        print(end - e["ms"] / 1000, end)
        break
PY
}
fleet_lists() {   # fleet_lists MARK [FLAGS...]: AFTER=True when live's node list began after a's ended
  local mark=$1 skip_a skip_l; shift
  skip_a=$(wc -l <"$T/log-a") skip_l=$(wc -l <"$T/log-live")
  keys fleet "clear; $KGPU_BIN top --contexts a,live $*; echo $mark=\$?" Enter
  MSG="top fleet $*: live's row"; check_ok wait_re fleet "^live +3 +13 +7 .* live *$" 20
  MSG="top fleet $*: a's row"; check_ok wait_re fleet "^a +14 +68 +48 .* live *$" 10
  keys fleet q
  MSG="top fleet $*: q quits"; check_ok wait_for fleet "$mark=0" 10
  AFTER=$(python3 -c 'import sys; a, l = sys.argv[1].split(), sys.argv[2].split(); print(float(l[0]) >= float(a[1]) - 0.01)' \
    "$(first_node_list "$T/log-a" "$skip_a")" "$(first_node_list "$T/log-live" "$skip_l")")
}
fleet_lists TOP-ONE-AT-A-TIME --max-concurrent-contexts 1
check_eq "$AFTER" True "top fleet --max-concurrent-contexts 1: live listed after a's first figures"
fleet_lists TOP-AT-ONCE
check_eq "$AFTER" False "top fleet: by default a and live are listed at once"
printf '[]\n' >"$T/faults-a.json"
