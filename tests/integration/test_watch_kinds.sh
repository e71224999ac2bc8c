#!/usr/bin/env bash
# list-then-watch of the kinds besides nodes, pods and events (src/sources/watch_plan.c):
#  - the device-plugin ConfigMap the ClusterPolicy names is watched (by name, in the operator's
#    namespace): on a node whose GFD labels do not say how it shares (they win when they do:
#    model/inventory.c), an edit of the config's time-slicing replicas shows in status -w's
#    MODE column;
#  - ResourceQuotas and DRA objects are watched from their lists' resourceVersions: a claim
#    deleted frees its devices in the ALLOC column, a slice deleted takes its node's DRA
#    devices away; each kind is listed once;
#  - broken streams as client-go's Reflector (docs/watch.md): a watch answered 500 is retried
#    with an exponential backoff, not listed again; a "very short watch" (200, no event, ended
#    at once) is an error retried the same way; timeoutSeconds is 5 min x [1, 2);
#  - a kind the user may not list (403) is a warning of the list and is not watched; a kind
#    that may be listed but not watched (403 on the watch) is not followed any more, quietly:
#    nothing is printed besides what the list said, and the watch is not retried.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

# the n-th table of status -w's output (tables start with "Nodes:")
table() { awk -v n="$2" 'BEGIN{k=0} /^Nodes:/{k++} k==n' "$1"; }

# ---- ConfigMap, quotas, RBAC ------------------------------------------------------------------
FIX="$KGPU_ROOT/tests/fixtures/api/small.json"
cat >"$T/s1.json" <<'EOF'
{"steps": [
  {"after": 1.5, "op": "patch", "kind": "Node", "name": "gpu-l4-0", "merge": {"metadata": {"labels": {
   "nvidia.com/gpu.replicas": null, "nvidia.com/gpu.sharing-strategy": null, "nvidia.com/gpu.product": "NVIDIA-L4"}}}},
  {"after": 1.5, "op": "patch", "kind": "ConfigMap", "namespace": "gpu-operator", "name": "time-slicing-config",
   "merge": {"data": {"l4-time-slicing": "version: v1\nflags:\n  migStrategy: none\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 8\n"}}},
  {"after": 1, "op": "add", "object": {"apiVersion": "v1", "kind": "ConfigMap",
   "metadata": {"name": "unrelated-config", "namespace": "gpu-operator"}, "data": {"x": "y"}}},
  {"after": 0.5, "op": "patch", "kind": "ResourceQuota", "namespace": "team-a", "name": "gpu-quota",
   "merge": {"spec": {"hard": {"requests.nvidia.com/gpu": "16"}}, "status": {"hard": {"requests.nvidia.com/gpu": "16"}}}},
  {"after": 0.5, "op": "patch", "kind": "ConfigMap", "namespace": "gpu-operator", "name": "time-slicing-config",
   "merge": {"data": {"l4-time-slicing": "version: v1\nflags:\n  migStrategy: none\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 6\n"}}}
]}
EOF
fakeapi_start "$FIX" --scenario "$T/s1.json" --bookmark-interval 1 \
  --deny 'gpu-admin:watch:daemonsets.apps' || { fail "fake API server did not start"; exit 1; }
"$KGPU_BIN" status -w --no-metrics >"$T/st.out" 2>"$T/st.err" &
PID=$!
"$KGPU_BIN" pending -A -w >"$T/pq.out" 2>"$T/pq.err" &      # pending reads the quotas
PQ=$!
fakeapi_wait_log '"scenario": ?3' 15
wait_file "$T/st.out" 'gpu-l4-0 .* ts x8 ' 1 10
N=$(grep -c '^Nodes:' "$T/st.out")
check_match "$(table "$T/st.out" 1)" "gpu-l4-0 .* ts x4 " "first table: time-slicing x4 (GFD labels)"
check_match "$(table "$T/st.out" $((N - 1)))" "gpu-l4-0 +L4 .* ts x4 " "labels gone: x4 from the ConfigMap as listed"
check_match "$(table "$T/st.out" "$N")" "gpu-l4-0 +L4 .* ts x8 " "last table: x8 after the ConfigMap edit (watched)"
# a last edit of the named ConfigMap (x6), on the same watch as the unrelated ConfigMap and after
# the quota edit: its table must be the next one (had either earlier change printed a table, it
# would come in between)
wait_file "$T/st.out" 'gpu-l4-0 .* ts x6 ' 1 10
check_match "$(table "$T/st.out" $((N + 1)))" "gpu-l4-0 +L4 .* ts x6 " "a ConfigMap the ClusterPolicy does not name and a quota edit change nothing shown (the next table is the sentinel edit's)"
stop_watch "$PID"
check_eq "$RC" 0 "status -w: SIGINT exits 0"
stop_watch "$PQ"
check_eq "$RC" 0 "pending -w: SIGINT exits 0"
check_eq "$(fakeapi_count '^/api/v1/namespaces/gpu-operator/configmaps$' 'watch=1.*fieldSelector')" 0 \
  "two names (the device-plugin config and default-mig-parted-config): one watch, no field selector"
# pending reads the device-plugin config too: a node without a device plugin is judged by what
# its plugin, as configured, would advertise (issue 29)
check_eq "$(fakeapi_count '^/api/v1/namespaces/gpu-operator/configmaps$' 'watch=1&resourceVersion=[0-9]+')" 2 \
  "status -w and pending -w each watch the ConfigMaps in the operator's namespace (the ClusterPolicy's status.namespace)"
check_eq "$(fakeapi_count '/configmaps' '^(?!.*watch=1)fieldSelector=metadata.name%3D(time-slicing-config|default-mig-parted-config)&')" 4 \
  "the ConfigMaps were listed by name once each per command (a list: its resourceVersion is one a watch can start from)"
check_eq "$(fakeapi_count '/configmaps' '^(?!.*watch=1)(?!fieldSelector)')" 0 "nor listed again (no 410)"
check_match "$(fakeapi_count '^/api/v1/resourcequotas$' 'watch=1&resourceVersion=[0-9]+')" '^[1-9]' "pending -w: resourcequotas watched from the list's resourceVersion"
check_eq "$(fakeapi_count '^/api/v1/resourcequotas$' '^(?!.*watch=1)')" 1 "resourcequotas listed once"
check_eq "$(fakeapi_count '^/apis/apps/v1/daemonsets$' 'watch=1')" 1 "daemonsets: the forbidden watch is not retried"
# the refusal is said once (the kind stays as listed: the view would not follow it silently)
check_eq "$(grep -c . "$T/st.err")" 1 "stderr: one line for the refused watch"
check_match "$(cat "$T/st.err")" '^warning: watch: DaemonSet: not followed any more \(.*cannot watch resource "daemonsets".*\); what was listed stays as it was$' \
  "the refused watch is said: the kind, the server's reason, and that the listed state stays"

# a list refused: a warning (as without -w), no watch, nothing more.  Instead of waiting a fixed
# time for a quota watch that must not come, the server breaks the first round of watches (once
# the five kinds pending follows are watched: nodes, pods, events, clusterpolicies, configmaps)
# and the test waits for the second round: any quota watch would have been made by then, twice.
cat >"$T/s1b.json" <<'EOF'
{"steps": [{"after": 0.5, "watches": 5, "op": "break-watches"}]}
EOF
fakeapi_start "$FIX" --scenario "$T/s1b.json" --bookmark-interval 1 --deny 'gpu-admin:list:resourcequotas' || { fail "fake API server did not start"; exit 1; }
"$KGPU_BIN" pending -A -w >"$T/p.out" 2>"$T/p.err" &
PID=$!
wait_file "$T/p.out" '^NAMESPACE' 1 20
fakeapi_wait_log '"scenario": ?0' 10
for i in $(seq 1 150); do [ "$(fakeapi_count '.*' 'watch=1')" -ge 10 ] && break; sleep 0.1; done
check_match "$(fakeapi_count '.*' 'watch=1')" '^([1-9][0-9]+)$' "quotas forbidden: the watches were made twice (broken once by the server)"
stop_watch "$PID"
check_eq "$RC" 0 "pending -w with quotas forbidden: SIGINT exits 0"
check_eq "$(fakeapi_count 'resourcequotas' 'watch=1')" 0 "quotas forbidden: not watched"
check_eq "$(grep -c 'resourcequotas' "$T/p.out" "$T/p.err" | awk -F: '{s += $2} END {print s}')" 1 \
  "quotas forbidden: said once (the list's warning), not again by the watch"

# ---- DRA ---------------------------------------------------------------------------------------
FIX="$KGPU_ROOT/tests/fixtures/dra/mixed.json"
cat >"$T/s2.json" <<'EOF'
{"steps": [
  {"after": 2, "op": "delete", "kind": "ResourceClaim", "namespace": "ml", "name": "train-llm-0-gpus-x8fz2"},
  {"after": 1.5, "op": "delete", "kind": "ResourceSlice", "name": "h100-dra-1-gpu.nvidia.com-x"}
]}
EOF
fakeapi_start "$FIX" --scenario "$T/s2.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
kgpu status --no-metrics
EXPECT_H100_1=$(grep -E '^h100-dra-1 ' <<<"$OUT")
LISTS0=$(fakeapi_count "^/apis/resource.k8s.io/v1/resourceslices\$" '^(?!.*watch=1)')
"$KGPU_BIN" status -w --no-metrics >"$T/dra.out" 2>"$T/dra.err" &
PID=$!
if wait_file "$T/dra.out" '^Nodes:' 3 25; then ok "status -w on DRA: a table per change (claim deleted, slice deleted)"
else fail "status -w on DRA: want 3 tables; got: $(cat "$T/dra.out") $(cat "$T/dra.err")"; fi
stop_watch "$PID"
check_match "$(table "$T/dra.out" 1)" "h100-dra-0 .* dra +6/8 " "first table: 6 of 8 devices of h100-dra-0 allocated"
check_match "$(table "$T/dra.out" 2)" "h100-dra-0 .* dra +2/8 " "claim deleted: its 4 devices are free (2/8)"
check_contains "$(table "$T/dra.out" 2)" "$EXPECT_H100_1" "second table: h100-dra-1 as before"
check_not_contains "$(table "$T/dra.out" 3)" "$EXPECT_H100_1" "slice deleted: h100-dra-1's row changed"
for r in resourceslices resourceclaims resourceclaimtemplates deviceclasses; do
  check_eq "$(fakeapi_count "^/apis/resource.k8s.io/v1/$r\$" '^(?!.*watch=1)')" $((LISTS0 + 1)) "$r listed once by status -w"
  check_match "$(fakeapi_count "^/apis/resource.k8s.io/v1/$r\$" 'watch=1&resourceVersion=[0-9]+&allowWatchBookmarks=true')" '^[1-9]' \
    "$r watched from the list's resourceVersion"
done
# the same cluster listed afresh gives the same picture as the watch's last table
kgpu status --no-metrics
check_eq "$(grep -E '^(a100|h100)' <<<"$OUT")" "$(table "$T/dra.out" 3 | grep -E '^(a100|h100)')" \
  "the last watched table equals a fresh status of the changed cluster"

# ---- broken streams ----------------------------------------------------------------------------
FIX="$KGPU_ROOT/tests/fixtures/api/small.json"
fakeapi_start "$FIX" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "watch=1", "code": 500, "times": 3},
                 {"path": "^/api/v1/nodes$", "query": "watch=1", "action": "body", "code": 200, "body": "", "times": 2}]'
"$KGPU_BIN" pending -A -w -v >"$T/b.out" 2>"$T/b.err" &
PID=$!
wait_file "$T/b.out" '^NAMESPACE' 1 20
for i in $(seq 1 150); do [ "$(fakeapi_count '^/api/v1/pods$' 'watch=1')" -ge 4 ] && break; sleep 0.1; done
# and the nodes watch's two retries (three requests), for its gaps below
for i in $(seq 1 150); do [ "$(fakeapi_count '^/api/v1/nodes$' 'watch=1')" -ge 3 ] && break; sleep 0.1; done
stop_watch "$PID"
check_eq "$RC" 0 "pending -w (broken streams): SIGINT exits 0"
# gaps between the watch requests of one path, from the server's log
gaps() {
  python3 - "$FAKEAPI_LOG" "$1" <<'PY'
import datetime, json, sys
ts = []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get('path') == sys.argv[2] and 'watch=1' in e.get('query', ''):
        ts.append(datetime.datetime.strptime(e['ts'], '%Y-%m-%dT%H:%M:%S.%fZ').timestamp())
print(' '.join('%.2f' % (b - a) for a, b in zip(ts, ts[1:])))
PY
}
G=$(gaps /api/v1/pods)
read -r G1 G2 G3 _ <<<"$G"
check_eq "$(fakeapi_count '^/api/v1/pods$' '^(?!.*watch=1)')" 1 "pods watch answered 500 three times: retried, not listed again"
if python3 -c "import sys; g=[float(x) for x in sys.argv[1:4]]; sys.exit(0 if g[0] >= 0.8 and g[1] >= 1.6 and g[2] >= 3.2 and g[2] < 12.8 else 1)" $G1 $G2 $G3 2>/dev/null
then ok "pods watch retries back off exponentially, jittered (0.8 s doubling: gaps $G)"
else fail "pods watch retries should back off 0.8 s doubling with jitter [1,2): gaps $G"; fi
GN=$(gaps /api/v1/nodes)
check_eq "$(fakeapi_count '^/api/v1/nodes$' '^(?!.*watch=1)')" 1 "nodes watch ended at once twice: not listed again"
if python3 -c "import sys; g=[float(x) for x in sys.argv[1:3]]; sys.exit(0 if g[0] >= 0.8 and g[1] >= 1.6 else 1)" $GN 2>/dev/null
then ok "a very short watch (no event, ended at once) is an error with backoff (gaps $GN)"
else fail "a very short watch should back off: gaps $GN"; fi
check_contains "$(cat "$T/b.err")" "the watch ended at once" "-v says why the nodes watch is retried"
TS=$(python3 - "$FAKEAPI_LOG" <<'PY'
import json, re, sys
v = [int(m.group(1)) for line in open(sys.argv[1]) for m in [re.search(r'timeoutSeconds=(\d+)', json.loads(line).get('query', ''))] if m]
print('%d %d %d %d' % (len(v), min(v), max(v), len(set(v))))
PY
)
read -r TN TMIN TMAX TDIST <<<"$TS"
if [ "$TMIN" -ge 300 ] && [ "$TMAX" -lt 600 ] && [ "$TDIST" -gt 1 ]; then ok "timeoutSeconds drawn in [300, 600) for each watch ($TN watches, $TDIST values, $TMIN..$TMAX)"
else fail "timeoutSeconds should be 300..599 and vary: $TS"; fi
