#!/usr/bin/env bash
# list-then-watch: `pending -w` and `status -w` against the fake API server while it changes
# the cluster on a schedule (tests/fakeapi/k8s_watch.py, --scenario).
#  - one list per kind, then watches with allowWatchBookmarks and timeoutSeconds;
#  - pending -w: a pod created and a pod deleted each print their row (kubectl get -w: the
#    first table, then a row per change; a deleted pod's last state), --output-watch-events
#    kubectl's EVENT column; a node heartbeat that changes nothing shown prints nothing;
#    status -w prints a new picture when it changes;
#  - a watch cut mid-event is resumed from the last resourceVersion, without a list
#    (client-go tools/cache/reflector.go: a watch that ends is renewed from the last RV);
#  - 410 Gone on resuming relists that kind only;
#  - -n NS under rights that stop at NS: the watches follow NS, as the lists did; a refused
#    watch is said once, and the view goes on with what was listed;
#  - Ctrl-C (SIGINT) exits 0; --watch with --snapshot is a usage error;
#  - the real kubectl's `get pods -w` follows the same server (faithfulness of the fake).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

FIX="$KGPU_ROOT/tests/fixtures/api/small.json"

# a Pending pod asking for more GPUs than any node has (kept: it requests a GPU)
NEWPOD='{"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "train-new-0", "namespace": "team-a", "uid": "6f1c2d3e-0000-4a5b-9c8d-111122223333",
               "creationTimestamp": "2026-11-24T03:00:00Z"},
  "spec": {"schedulerName": "default-scheduler",
           "containers": [{"name": "t", "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                           "resources": {"limits": {"nvidia.com/gpu": "16"}}}]},
  "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",
             "reason": "Unschedulable", "message": "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."}]}}'

# a second such pod, added after the changes that must print nothing: its table is the proof
# that they were received (the pods watch delivers in order) and printed nothing
SENTINEL=${NEWPOD//train-new-0/train-sentinel-0}
SENTINEL=${SENTINEL//111122223333/444455556666}

# ---- pending -w: added and deleted pods, a cut watch resumed ----------------------------------
cat >"$T/scenario1.json" <<EOF
{"steps": [
  {"after": 1, "op": "add", "object": $NEWPOD},
  {"after": 1, "op": "break-watches"},
  {"after": 0.5, "watches": 6, "op": "delete", "kind": "Pod", "namespace": "team-a", "name": "train-large-0"},
  {"after": 1, "op": "patch", "kind": "Node", "name": "gpu-h100-0",
   "merge": {"status": {"conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
             "lastHeartbeatTime": "2026-11-24T03:05:00Z"}]}}},
  {"after": 0.1, "op": "patch", "kind": "Pod", "namespace": "team-b", "name": "infer-0",
   "merge": {"metadata": {"annotations": {"touched": "yes"}}}},
  {"after": 0.5, "op": "add", "object": $SENTINEL}
]}
EOF
if ! fakeapi_start "$FIX" --scenario "$T/scenario1.json" --bookmark-interval 1; then
  fail "fake API server did not start"; exit 1
fi
"$KGPU_BIN" pending -A -w >"$T/pending.out" 2>"$T/pending.err" &
PID=$!
# as kubectl get -w (issue 34): the first table, then only the rows that changed: the pod added,
# the pod deleted (its last state), then the sentinel pod
if wait_file "$T/pending.out" 'train-sentinel-0' 1 20; then ok "pending -w: the sentinel pod's row came"
else fail "pending -w: no sentinel row; got: $(cat "$T/pending.out") $(cat "$T/pending.err")"; fi
OUT=$(cat "$T/pending.out")
check_eq "$(grep -c '^NAMESPACE' <<<"$OUT")" 1 "pending -w: one header, the first table's (rows after it, no table reprinted)"
T1=$(awk 'NR==1 || /^team-a +train-large-0/ {print} /^team-a +train-large-0/ {exit}' <<<"$OUT")
check_contains "$T1" "train-large-0" "first table: the fixture's pending pod"
check_not_contains "$T1" "train-new-0" "first table: not yet the new pod"
# the heartbeat and the annotation printed nothing: the three lines after the first table are
# the added pod, the deleted pod's last state and the sentinel, nothing else (nothing repeated)
LAST3=$(tail -n 3 <<<"$OUT")
check_match "$(sed -n 1p <<<"$LAST3")" "^team-a +train-new-0 +nvidia.com/gpu:16 .* TooLarge" "pending -w: the added pod's row, its verdict computed (16 GPUs > 8 per node)"
check_match "$(sed -n 2p <<<"$LAST3")" "^team-a +train-large-0 " "pending -w: the deleted pod's row (its last state, as kubectl get -w)"
check_match "$(sed -n 3p <<<"$LAST3")" "^team-a +train-sentinel-0 " "pending -w: a heartbeat and an annotation print nothing (the next row is the sentinel's)"
check_eq "$(grep -c 'train-large-0' <<<"$OUT")" 2 "pending -w: the deleted pod twice (listed, then gone), no reprint"
stop_watch "$PID"
check_eq "$RC" 0 "pending -w: SIGINT exits 0"
check_eq "$(fakeapi_count '^/api/v1/pods$' '^(?!.*watch=1)')" 1 "pending -w: pods listed once (the cut watch was resumed, not relisted)"
check_eq "$(fakeapi_count '^/api/v1/nodes$' '^(?!.*watch=1)')" 1 "pending -w: nodes listed once"
check_match "$(fakeapi_count '^/api/v1/pods$' 'watch=1&resourceVersion=[0-9]+&allowWatchBookmarks=true&timeoutSeconds=[0-9]+')" '^[2-9]' \
  "pending -w: pods watched twice or more, with bookmarks and a server-side timeout"
RVS=$(python3 - "$FAKEAPI_LOG" <<'PY'
import json, re, sys
rvs = []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get('path') == '/api/v1/pods' and 'watch=1' in e.get('query', ''):
        rvs.append(int(re.search(r'resourceVersion=(\d+)', e['query']).group(1)))
print(' '.join(map(str, rvs)))
PY
)
read -r RV1 RV2 _ <<<"$RVS"
if [ -n "$RV2" ] && [ "$RV2" -gt "$RV1" ]; then ok "the resumed pods watch starts after the first ($RV1 -> $RV2)"
else fail "the resumed pods watch should start from a later resourceVersion: $RVS"; fi

# ---- --request-timeout bounds the lists, not the watches ---------------------------------------
# A watch ends at its own timeoutSeconds (5-10 min, as a Reflector's); cut at every
# --request-timeout (1 s here) it would be renewed every second and, on a quiet cluster, never
# be up.  The pod added after 2.5 s arrives on the one pods watch opened at the start.
cat >"$T/scenario-rt.json" <<EOF
{"steps": [{"after": 2.5, "op": "add", "object": $NEWPOD}]}
EOF
fakeapi_start "$FIX" --scenario "$T/scenario-rt.json" || { fail "fake API server did not start"; exit 1; }
"$KGPU_BIN" pending -A -w --request-timeout 1s >"$T/pending-rt.out" 2>"$T/pending-rt.err" &
PID=$!
if wait_file "$T/pending-rt.out" 'train-new-0' 1 20; then ok "pending -w --request-timeout 1s: the pod added after 2.5 s came"
else fail "pending -w --request-timeout 1s: no new row; got: $(cat "$T/pending-rt.out") $(cat "$T/pending-rt.err")"; fi
stop_watch "$PID"
check_eq "$(fakeapi_count '^/api/v1/pods$' 'watch=1')" 1 "pending -w --request-timeout 1s: one pods watch, not one per second"
check_not_contains "$(cat "$T/pending-rt.err")" "timed out" "pending -w --request-timeout 1s: no watch timed out"

# ---- 410 Gone on resuming: that kind only is listed again -------------------------------------
cat >"$T/scenario2.json" <<EOF
{"steps": [
  {"after": 1, "op": "break-watches", "kind": "Pod", "expire": true},
  {"after": 0.5, "watches": 5, "op": "add", "object": $NEWPOD}
]}
EOF
fakeapi_start "$FIX" --scenario "$T/scenario2.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
"$KGPU_BIN" pending -A -w -v >"$T/p2.out" 2>"$T/p2.err" &
PID=$!
if wait_file "$T/p2.out" 'train-new-0' 1 20; then ok "pending -w after 410: the pod created after the relist is shown"
else fail "pending -w after 410: want the new pod's row; got: $(cat "$T/p2.out") $(cat "$T/p2.err")"; fi
stop_watch "$PID"
check_eq "$RC" 0 "pending -w (410): SIGINT exits 0"
check_eq "$(fakeapi_count '^/api/v1/pods$' '^(?!.*watch=1)')" 2 "410 on the pods watch: pods listed again"
check_eq "$(fakeapi_count '^/api/v1/nodes$' '^(?!.*watch=1)')" 1 "410 on the pods watch: nodes not listed again"
check_eq "$(fakeapi_count '^/api/v1/events$' '^(?!.*watch=1).*FailedScheduling')" 1 "410 on the pods watch: events not listed again"
check_contains "$(cat "$T/p2.err")" "too old resource version" "-v says why the pods were listed again"
# the pods listed again are the same pods: no row for them, only the new pod's
check_eq "$(grep -c 'train-large-0' "$T/p2.out")" 1 "after the relist: the pods listed again, unchanged, print no row"
check_match "$(tail -n 1 "$T/p2.out")" '^team-a +train-new-0 ' "after the relist: the new pod's row last"

# ---- pending -w --output-watch-events: kubectl's EVENT column -----------------------------------
cat >"$T/scenario4.json" <<EOF
{"steps": [
  {"after": 1, "op": "add", "object": $NEWPOD},
  {"after": 1, "op": "delete", "kind": "Pod", "namespace": "team-a", "name": "train-large-0"},
  {"after": 1, "op": "add", "object": $SENTINEL}
]}
EOF
fakeapi_start "$FIX" --scenario "$T/scenario4.json" || { fail "fake API server did not start"; exit 1; }
"$KGPU_BIN" pending -A -w --output-watch-events >"$T/p4.out" 2>"$T/p4.err" &
PID=$!
"$KGPU_BIN" pending -A -w --output-watch-events --no-headers >"$T/p5.out" 2>"$T/p5.err" &
PID5=$!
wait_file "$T/p4.out" 'train-sentinel-0' 1 20
wait_file "$T/p5.out" 'train-sentinel-0' 1 20
stop_watch "$PID5"
check_match "$(head -n 1 "$T/p5.out")" '^ADDED +team-a +train-large-0 ' "--output-watch-events --no-headers: no header, the first row ADDED"
check_eq "$(grep -c '^EVENT' "$T/p5.out")" 0 "--output-watch-events --no-headers: no header line at all"
stop_watch "$PID"
P4=$(cat "$T/p4.out")
check_match "$(head -n 1 <<<"$P4")" '^EVENT +NAMESPACE +NAME +GPUS +AGE +VERDICT +REASON$' "--output-watch-events: EVENT first (kubectl's header)"
check_match "$(sed -n 2p <<<"$P4")" '^ADDED +team-a +train-large-0 ' "--output-watch-events: the first table's rows ADDED"
check_match "$(tail -n 3 <<<"$P4" | sed -n 1p)" '^ADDED +team-a +train-new-0 ' "--output-watch-events: a new pod ADDED"
check_match "$(tail -n 3 <<<"$P4" | sed -n 2p)" '^DELETED +team-a +train-large-0 ' "--output-watch-events: a deleted pod DELETED"
check_match "$(tail -n 3 <<<"$P4" | sed -n 3p)" '^ADDED +team-a +train-sentinel-0 ' "--output-watch-events: then the sentinel ADDED"
check_eq "$RC" 0 "pending -w --output-watch-events: SIGINT exits 0"

# ---- pending -n NS -w under rights that stop at the namespace ------------------------------------
# Listing and watching pods of every namespace are forbidden; -n team-a reads team-a's pods,
# events and quotas instead (loader.c, with a warning).  The watches must follow the same
# namespace: a cluster-wide pods watch would be refused (403) and the view would stay frozen on
# its first list, and a cluster-wide events watch would bring other namespaces' events.
cat >"$T/scenario-ns.json" <<EOF
{"steps": [
  {"after": 1.5, "op": "add", "object": $NEWPOD}
]}
EOF
fakeapi_start "$FIX" --scenario "$T/scenario-ns.json" || { fail "fake API server did not start"; exit 1; }
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "pods", "namespace": ""},
               {"user": "gpu-admin", "verb": "watch", "resource": "pods", "namespace": ""}]'
"$KGPU_BIN" pending -n team-a -w >"$T/pending-ns.out" 2>"$T/pending-ns.err" &
PID=$!
if wait_file "$T/pending-ns.out" 'train-new-0' 1 20; then ok "pending -n team-a -w (namespace rights): the added pod's row came"
else fail "pending -n team-a -w (namespace rights): no row for the added pod; got: $(cat "$T/pending-ns.out") $(cat "$T/pending-ns.err")"; fi
stop_watch "$PID"
check_eq "$RC" 0 "pending -n team-a -w (namespace rights): SIGINT exits 0"
check_contains "$(cat "$T/pending-ns.err")" "read those of namespace team-a only" "pending -n team-a -w: the namespace fallback is said"
WPATHS=$(python3 - "$FAKEAPI_LOG" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if 'watch=1' in e.get('query', '') and any(k in e['path'] for k in ('/pods', '/events', '/resourcequotas')):
        print(e.get('status'), e['path'])
PY
)
check_eq "$(sort -u <<<"$WPATHS")" "200 /api/v1/namespaces/team-a/events
200 /api/v1/namespaces/team-a/pods
200 /api/v1/namespaces/team-a/resourcequotas" "pending -n team-a -w: pods, events and quotas watched in team-a only"
fakeapi_rbac '[]'

# a role that lists pods but may not watch them: the view goes on with what was listed, and
# says so once (kubectl get -w stops with the Forbidden error; here the other kinds go on)
fakeapi_start "$FIX" || { fail "fake API server did not start"; exit 1; }
fakeapi_rbac '[{"user": "gpu-admin", "verb": "watch", "resource": "pods"}]'
"$KGPU_BIN" pending -A -w >"$T/pending-nowatch.out" 2>"$T/pending-nowatch.err" &
PID=$!
if wait_file "$T/pending-nowatch.err" 'warning: watch: Pod: not followed any more' 1 20; then ok "pending -w: a refused pods watch is said"
else fail "pending -w: no warning for the refused pods watch; got: $(cat "$T/pending-nowatch.err")"; fi
stop_watch "$PID"
check_eq "$RC" 0 "pending -w with pods not watchable: SIGINT exits 0"
check_eq "$(grep -c 'warning: watch:' "$T/pending-nowatch.err")" 1 "pending -w: the refusal said once"
check_contains "$(cat "$T/pending-nowatch.out")" "train-large-0" "pending -w with pods not watchable: the listed rows are printed"
fakeapi_rbac '[]'

# ---- status -w ---------------------------------------------------------------------------------
cat >"$T/scenario3.json" <<EOF
{"steps": [
  {"after": 1, "op": "add", "object": $NEWPOD},
  {"after": 1, "op": "delete", "kind": "Pod", "namespace": "team-a", "name": "train-7f9c"}
]}
EOF
fakeapi_start "$FIX" --scenario "$T/scenario3.json" || { fail "fake API server did not start"; exit 1; }
"$KGPU_BIN" status -w --no-metrics >"$T/status.out" 2>"$T/status.err" &
PID=$!
if wait_file "$T/status.out" '^Nodes:' 3 20; then ok "status -w: a table per change (pending count, then allocation)"
else fail "status -w: want 3 tables; got: $(cat "$T/status.out") $(cat "$T/status.err")"; fi
stop_watch "$PID"
check_eq "$RC" 0 "status -w: SIGINT exits 0"
S1=$(awk 'BEGIN{n=0} /^Nodes:/{n++} n==1' "$T/status.out" | grep -v '^$')
S2=$(awk 'BEGIN{n=0} /^Nodes:/{n++} n==2' "$T/status.out" | grep -v '^$')
S3=$(awk 'BEGIN{n=0} /^Nodes:/{n++} n==3' "$T/status.out" | grep -v '^$')
check_contains "$S2" "2 GPU pods pending" "status -w: the new pending pod is counted"
# the tables equal what a fresh `status` prints of the same cluster: the incremental model
# gives the same allocation as a list (the deleted pod's GPUs are free again)
kgpu status --no-metrics
check_eq "$S3" "$(grep -v '^$' <<<"$OUT")" "status -w: the last table equals a fresh status"
if [ "$S3" != "$S2" ] && [ "$S2" != "$S1" ]; then ok "status -w: each table differs from the one before"
else fail "status -w: repeated tables"; fi

kgpu status -w --snapshot "$KGPU_ROOT/examples/clusters/mixed-fleet.json"
check_rc 2 "status -w --snapshot is a usage error"
# a usage error as every other: the error, then where to read the usage (app.c finish)
check_eq "error: status --watch follows a live cluster; it cannot be used with --snapshot
See 'kubectl gpu status --help' for usage." "$ERR" "status -w --snapshot: the error and the usage hint"
kgpu pending --help
check_contains "$OUT" "--watch" "pending --help lists --watch"

# ---- the real kubectl follows the fake server's watch ----------------------------------------
KUBECTL=$(command -v kubectl || true)
[ -z "$KUBECTL" ] && [ -x /usr/bin/kubectl ] && KUBECTL=/usr/bin/kubectl
if [ -z "$KUBECTL" ]; then
  fail "kubectl not found: the faithfulness check needs the real kubectl"
else
  fakeapi_start "$FIX" --scenario "$T/scenario3.json" || { fail "fake API server did not start"; exit 1; }
  "$KUBECTL" get pods -A -w >"$T/kubectl.out" 2>"$T/kubectl.err" &
  KPID=$!
  wait_file "$T/kubectl.out" 'train-new-0' 1 20
  # the deletion is printed as a second row of the pod (bounded wait, then the exact count)
  wait_file "$T/kubectl.out" 'train-7f9c' 2 20
  kill "$KPID" 2>/dev/null; wait "$KPID" 2>/dev/null
  K=$(cat "$T/kubectl.out")
  check_match "$K" "team-a +train-new-0 +0/1 +Pending" "kubectl get pods -w: the added pod as a new row"
  check_eq "$(grep -c 'train-7f9c' <<<"$K")" 2 "kubectl get pods -w: the deleted pod listed, then its last state"
  check_eq "$(grep -c . "$T/kubectl.err")" 0 "kubectl get pods -w: no errors ($(head -3 "$T/kubectl.err"))"
fi
