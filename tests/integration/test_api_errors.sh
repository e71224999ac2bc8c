#!/usr/bin/env bash
# What the API server can do wrong, and what kubectl-gpu makes of it (fake API server faults):
# 403 on a required list is an error, on an optional one a warning; 404 of the ClusterPolicy
# CRD is silence; an expired continue token restarts the read; 429/500 are retried honouring
# Retry-After, 503 forever fails within bounds; cut, truncated, invalid and stalled answers;
# an unreachable server.  Every failure: exit 1, one line naming what and where, no partial
# output.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT KUBECTL_GPU_CHUNK_SIZE

kgpu snapshot
check_rc 0 "baseline snapshot"
baseline=$(json_get "$OUT" "sorted((i['kind'], i['metadata'].get('namespace',''), i['metadata']['name']) for i in d['items'])")
same_as_baseline() { check_eq "$(json_get "$OUT" "sorted((i['kind'], i['metadata'].get('namespace',''), i['metadata']['name']) for i in d['items'])")" "$baseline" "$1"; }
failed_cleanly() {   # failed_cleanly WHAT : exit 1, one stderr line, nothing on stdout
  check_rc 1 "$1"
  check_one_line_err "$1"
  check_eq "$OUT" "" "$1: no partial output"
}

# ---- 403 ----
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "pods", "namespace": ""}]'
kgpu snapshot
failed_cleanly "403 on pods"
check_eq "$ERR" 'error: forbidden: pods is forbidden: User "gpu-admin" cannot list resource "pods" in API group "" at the cluster scope' "403 on pods: the server's message"
kgpu snapshot -o "$T/denied.json"
check_rc 1 "403 with -o FILE"
check_eq "$(ls "$T" | grep -c denied.json)" "0" "a failed snapshot leaves no FILE"

kgpu status --no-metrics
failed_cleanly "status with 403 on pods"
check_contains "$ERR" 'forbidden: pods is forbidden: User "gpu-admin"' "status: 403 on pods named"

fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "daemonsets", "apiGroup": "apps"}]'
kgpu status --no-metrics -o json
check_rc 0 "status with 403 on daemonsets"
check_contains "$(json_get "$OUT" "d['warnings']")" "daemonsets: forbidden: daemonsets.apps is forbidden" "status: the warning is in the output"
kgpu snapshot
check_rc 0 "403 on daemonsets is not fatal"
check_eq "$ERR" 'warning: daemonsets: forbidden: daemonsets.apps is forbidden: User "gpu-admin" cannot list resource "daemonsets" in API group "apps" at the cluster scope (GPU Operator health not shown)' "403 on daemonsets: a warning"
check_contains "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/warnings']")" "daemonsets: forbidden" "warning kept in the snapshot"
check_eq "$(json_get "$OUT" "len([i for i in d['items'] if i['kind']=='DaemonSet'])")" "0" "no daemonsets"
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": ["events", "resourcequotas", "services"]}]'
kgpu snapshot
check_rc 0 "403 on events, quotas, services is not fatal"
check_contains "$ERR" "warning: events: forbidden: " "events warning"
check_contains "$ERR" "(scheduler messages not shown)" "events warning says what is missing"
check_contains "$ERR" "warning: resourcequotas: forbidden: " "quotas warning"
check_contains "$ERR" "warning: services: forbidden: " "services warning"
fakeapi_rbac '[]'

# ---- ClusterPolicy CRD not installed: 404 is no warning ----
fakeapi_faults '[{"path": "^/apis/nvidia.com/v1/clusterpolicies$", "code": 404}]'
kgpu snapshot
check_rc 0 "ClusterPolicy CRD missing"
check_eq "$ERR" "" "404 of the CRD: no warning"
check_eq "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/clusterpolicy-checked']")" "true" "checked even though absent"

# ---- events field selector refused: one unfiltered list ----
fakeapi_clear_log
fakeapi_faults '[{"path": "^/api/v1/events$", "query": "fieldSelector", "code": 400, "message": "field label not supported: reason"}]'
kgpu snapshot
check_rc 0 "field selector refused"
check_eq "$(fakeapi_count '^/api/v1/events$' '^limit=500$')" "1" "events read once without a selector"
same_as_baseline "same snapshot from the unfiltered events"

# ---- 410 Expired continue token: the read starts over, nothing twice ----
export KUBECTL_GPU_CHUNK_SIZE=2
fakeapi_clear_log
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "expired", "times": 1}]'
kgpu snapshot -v
check_rc 0 "expired continue token"
check_contains "$ERR" "starting the snapshot again" "restart said at -v"
check_eq "$(fakeapi_count '^/api/v1/nodes$' '^limit=2$')" "2" "whole read restarted (nodes read twice)"
same_as_baseline "after the restart: every object once"
fakeapi_clear_log
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "expired", "times": 1}]'
kgpu status --no-metrics -o json
check_rc 0 "status with an expired continue token"
check_eq "$(fakeapi_count '^/api/v1/nodes$' '^limit=2$')" "2" "status: whole read restarted"
status_restarted=$(json_get "$OUT" "json.dumps([d['summary'], d['nodes']], sort_keys=True)")
fakeapi_faults '[]'
kgpu status --no-metrics -o json
check_eq "$status_restarted" "$(json_get "$OUT" "json.dumps([d['summary'], d['nodes']], sort_keys=True)")" "status after a restarted read = status without"
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "expired"}]'
kgpu snapshot
failed_cleanly "continue token expiring every time"
check_contains "$ERR" "the list GET /api/v1/pods expired while being read (410 Expired at page 2" "410 twice: error"

# ---- invalid JSON on page 2 ----
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "invalid"}]'
kgpu snapshot
failed_cleanly "invalid JSON page"
check_eq "$ERR" "error: invalid JSON in the response to GET /api/v1/pods (page 2)" "invalid page named"
unset KUBECTL_GPU_CHUNK_SIZE

# ---- 429 and 5xx ----
fakeapi_clear_log
fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 429, "retryAfter": 1, "times": 1}]'
start=$(date +%s%N)
kgpu snapshot
check_rc 0 "429 with Retry-After is retried"
check_eq "$(( ($(date +%s%N) - start) / 1000000 >= 1000 ))" "1" "Retry-After waited"
check_eq "$(fakeapi_count '^/api/v1/nodes$')" "2" "429 then success"
same_as_baseline "429: complete snapshot"

fakeapi_clear_log
fakeapi_faults '[{"path": "^/api/v1/pods$", "code": 500, "times": 2}]'
kgpu snapshot
check_rc 0 "500 retried then success"
# (the pod lists by label that follow look for the DCGM exporters, to store their usage)
check_eq "$(fakeapi_count '^/api/v1/pods$' 'fieldSelector=status.phase')" "3" "two 500s then success"

fakeapi_clear_log
fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 503, "retryAfter": 0}]'
kgpu snapshot
failed_cleanly "503 forever"
check_eq "$(fakeapi_count '^/api/v1/nodes$')" "6" "five retries, then stop"
check_contains "$ERR" "kept answering GET /api/v1/nodes with 503" "503 message"
check_contains "$ERR" "after 5 retries; try again later" "503 says what to do"

fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 503, "retryAfter": 30}]'
start=$(date +%s)
kgpu snapshot --request-timeout 3s
failed_cleanly "503 with a long Retry-After and --request-timeout"
check_eq "$(( $(date +%s) - start < 8 ))" "1" "bounded by the request timeout"

# ---- broken answers ----
fakeapi_clear_log
fakeapi_faults '[{"path": "^/api/v1/pods$", "action": "cut", "times": 1}]'
kgpu snapshot
check_rc 0 "a cut connection is retried"
same_as_baseline "cut once: complete snapshot"
fakeapi_faults '[{"path": "^/api/v1/pods$", "action": "cut"}]'
kgpu snapshot --request-timeout 3s
failed_cleanly "connection cut every time"
check_contains "$ERR" "the connection to the API server $FAKEAPI_URL broke while reading GET /api/v1/pods" "cut named"
fakeapi_faults '[{"path": "^/api/v1/pods$", "action": "truncate"}]'
kgpu snapshot
failed_cleanly "truncated body"
check_eq "$ERR" "error: invalid JSON in the response to GET /api/v1/pods (page 1)" "truncated body: invalid JSON"
fakeapi_faults '[{"path": "^/api/v1/nodes$", "action": "stall", "seconds": 30}]'
start=$(date +%s)
kgpu snapshot --request-timeout 2s
failed_cleanly "stalled page"
check_eq "$ERR" "error: GET /api/v1/nodes: no complete answer from the API server $FAKEAPI_URL within 2s (--request-timeout)" "stall named"
check_eq "$(( $(date +%s) - start < 10 ))" "1" "stall bounded"
fakeapi_faults '[{"path": "^/api/v1/nodes$", "action": "delay", "seconds": 30}]'
kgpu snapshot --request-timeout 1
failed_cleanly "slow answer beyond --request-timeout"
check_contains "$ERR" "within 1s (--request-timeout)" "slow answer named"
fakeapi_faults '[]'

# ---- the request timeout is sent to the server too ----
fakeapi_clear_log
kgpu snapshot --request-timeout 45s
check_rc 0 "request timeout"
check_eq "$(fakeapi_count '.*' 'timeout=45s')" "$(fakeapi_count '.*')" "timeout= sent on every request"

# ---- unreachable ----
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
sed "s|server: $FAKEAPI_URL|server: https://127.0.0.1:$port|" "$T/kubeconfig-token" >"$T/kubeconfig-down"
KUBECONFIG=$T/kubeconfig-down kgpu snapshot
failed_cleanly "unreachable server"
check_contains "$ERR" "error: cannot reach the API server https://127.0.0.1:$port: " "unreachable named"

check_eq "$(fakeapi_count '.*')" "$(fakeapi_count '.*' '' GET)" "only GET requests"
