#!/usr/bin/env bash
# What the API server can do wrong, for every command that reads the cluster (status, pending,
# explain, plan, snapshot), against the fake API server's faults (tests/fakeapi/README.md).
# tests/cases/live/api-errors-*.case pin the snapshot command's messages in detail; this script asserts, for
# each command, the one right outcome of every fault:
#   - recovered (429 with Retry-After, 500, one cut connection, one expired continue token):
#     exit 0 and exactly the output of the fault-free run;
#   - an optional list refused (403) or absent (404 ClusterPolicy): exit 0, the rest shown,
#     the gap named (text: "warning:" on stderr; JSON: "warnings");
#   - anything else (401, 403 on nodes/pods, 503 forever, cut/truncated/invalid/stalled pages,
#     unreachable server, TLS failures, exec plugin failures): exit 1, one line on stderr
#     saying what, nothing on stdout (never a partial table presented as complete), bounded
#     in time.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT KUBECTL_GPU_CHUNK_SIZE
# time bounds stretch under valgrind (make valgrind)
SLOW=1; [ -n "${KGPU_VALGRIND:-}" ] && SLOW=4

CMDS=(status pending explain plan snapshot)
# the JSON form of each command (metrics off: this script is about the API server)
args_json() {
  case $1 in
    status) echo "status --no-metrics -o json" ;;
    pending) echo "pending -A --no-metrics -o json" ;;
    explain) echo "explain -n team-a train-large-0 --no-metrics -o json" ;;
    plan) echo "plan --no-metrics -o json" ;;
    snapshot) echo "snapshot --no-metrics" ;;
  esac
}
# the text form (tables, reports)
args_text() {
  case $1 in
    status) echo "status --no-metrics" ;;
    pending) echo "pending -A --no-metrics" ;;
    explain) echo "explain -n team-a train-large-0 --no-metrics" ;;
    plan) echo "plan --no-metrics" ;;
    snapshot) echo "snapshot --no-metrics" ;;    # JSON is its only form
  esac
}
# what must not change when the read recovers: the document without warnings, ages and times
ESSENCE_PY='
import json, sys
cmd = sys.argv[1]
d = json.loads(sys.stdin.read())
def scrub(o):
    if isinstance(o, dict):
        return {k: scrub(v) for k, v in o.items() if k not in ("warnings", "ageSeconds")}
    if isinstance(o, list):
        return [scrub(v) for v in o]
    return o
if cmd == "snapshot":
    d = sorted((i["kind"], i["metadata"].get("namespace", ""), i["metadata"]["name"]) for i in d["items"])
else:
    d = scrub(d)
print(json.dumps(d, sort_keys=True))
'
essence() {   # essence CMD  (reads $OUT)
  python3 -c "$ESSENCE_PY" "$1" <<<"$OUT" 2>/dev/null || echo "not JSON: $(head -c 200 <<<"$OUT")"
}
failed_cleanly() {   # failed_cleanly WHAT : exit 1, one stderr line, nothing on stdout
  check_rc 1 "$1"
  check_one_line_err "$1"
  check_eq "$OUT" "" "$1: no partial output"
  check_match "$ERR" '^error: ' "$1: the line says error"
}
declare -A BASE
for c in "${CMDS[@]}"; do
  kgpu $(args_json "$c")
  check_rc 0 "baseline $c"
  check_eq "$ERR" "" "baseline $c: nothing on stderr"
  BASE[$c]=$(essence "$c")
  check_match "${BASE[$c]}" '^[[{].{200,}' "baseline $c: a real document to compare with"
done
export KUBECTL_GPU_CHUNK_SIZE=2
for c in "${CMDS[@]}"; do
  kgpu $(args_json "$c")
  check_eq "$(essence "$c")" "${BASE[$c]}" "baseline $c: pages of 2 items give the same answer"
done
unset KUBECTL_GPU_CHUNK_SIZE
same_as_base() { check_eq "$(essence "$1")" "${BASE[$1]}" "$2: the same answer as without the fault"; }

# ---- 401 ----
fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 401}]'
for c in "${CMDS[@]}"; do
  for form in json text; do
    kgpu $(args_$form "$c")
    failed_cleanly "401, $c ($form)"
    check_eq "$ERR" 'error: the server rejected the credentials of context "fake" (Unauthorized); check the token/certificate, or log in again' "401, $c ($form): the message"
  done
done
fakeapi_faults '[]'

# ---- 403 on a required list: an error naming it ----
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "pods"}]'
for c in "${CMDS[@]}"; do
  kgpu $(args_text "$c")
  failed_cleanly "403 on pods, $c"
  check_eq "$ERR" 'error: forbidden: pods is forbidden: User "gpu-admin" cannot list resource "pods" in API group "" at the cluster scope' "403 on pods, $c: the server's message"
done
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "nodes"}]'
for c in "${CMDS[@]}"; do
  kgpu $(args_json "$c")
  failed_cleanly "403 on nodes, $c"
  check_contains "$ERR" 'nodes is forbidden: User "gpu-admin" cannot list resource "nodes"' "403 on nodes, $c: named"
done

# ---- 403 on one optional list: the rest shown, the gap stated (text: stderr; JSON: warnings) ----
# which optional list each command reads, and what the warning says is missing
declare -A OPT_RES=([status]=daemonsets [pending]=resourcequotas [explain]=events [plan]=daemonsets [snapshot]=services)
declare -A OPT_GROUP=([status]=apps [pending]="" [explain]="" [plan]=apps [snapshot]="")
declare -A OPT_GAP=([status]="(GPU Operator health not shown)" [pending]="(GPU quotas not checked)"
                    [explain]="(scheduler messages not shown)" [plan]="(GPU Operator health not shown)"
                    [snapshot]="(in-cluster Prometheus not looked for)")
for c in "${CMDS[@]}"; do
  res=${OPT_RES[$c]}
  fakeapi_rbac "[{\"user\": \"gpu-admin\", \"verb\": \"list\", \"resource\": \"$res\", \"apiGroup\": \"${OPT_GROUP[$c]}\"}]"
  kgpu $(args_json "$c")
  check_rc 0 "403 on $res, $c -o json: not fatal"
  if [ "$c" = snapshot ]; then
    w=$(json_get "$OUT" "d['metadata']['annotations'].get('kubectl-gpu/warnings', '')")
  else
    w=$(json_get "$OUT" "'\n'.join(d['warnings'])")
  fi
  check_contains "$w" "$res: forbidden: " "403 on $res, $c -o json: the gap in the JSON warnings"
  check_contains "$w" "${OPT_GAP[$c]}" "403 on $res, $c -o json: says what is not shown"
  [ "$c" = snapshot ] && continue      # JSON is the snapshot's only form
  kgpu $(args_text "$c")
  check_rc 0 "403 on $res, $c (text): not fatal"
  gap=$(sed 's/[()]/\\&/g' <<<"${OPT_GAP[$c]}")
  if [ "$c" = plan ]; then
    # the plan report lists its warnings itself, on stdout
    check_match "$OUT" "^  - $res: forbidden: .*$gap\$" "403 on $res, $c (text): the report names the gap"
    check_eq "$ERR" "" "403 on $res, $c (text): nothing on stderr"
  else
    check_match "$ERR" "^warning: $res: forbidden: .*$gap\$" "403 on $res, $c (text): one warning line names the gap"
    check_eq "$(grep -c . <<<"$ERR")" "1" "403 on $res, $c (text): only that line on stderr"
  fi
  [ -n "$OUT" ] && ok "403 on $res, $c (text): the rest is shown" || fail "403 on $res, $c (text): no output"
done
# the part that was read is the whole answer for what it covers: status without daemonsets still
# counts every node and GPU
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "daemonsets", "apiGroup": "apps"}]'
kgpu $(args_json status)
check_eq "$(json_get "$OUT" "json.dumps(d['summary'], sort_keys=True)")" "$(python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])["summary"], sort_keys=True))' "${BASE[status]}")" \
  "403 on daemonsets: the summary is the full one"
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "clusterpolicies", "apiGroup": "nvidia.com"}]'
kgpu $(args_json status)
check_rc 0 "403 on clusterpolicies: not fatal"
check_contains "$(json_get "$OUT" "'\n'.join(d['warnings'])")" "clusterpolicies: forbidden: " "403 on clusterpolicies: a warning"
fakeapi_rbac '[]'

# ---- 404: the ClusterPolicy CRD is not installed (an optional API): silence, same answer ----
fakeapi_faults '[{"path": "^/apis/nvidia.com/v1/clusterpolicies$", "code": 404, "message": "the server could not find the requested resource"}]'
for c in status plan snapshot; do
  kgpu $(args_json "$c")
  check_rc 0 "404 ClusterPolicy, $c"
  check_eq "$ERR" "" "404 ClusterPolicy, $c: no warning (not installed is normal)"
done
# (pending and explain do not read the ClusterPolicy; no resource.k8s.io API is read at all)

# ---- 410 on a continue token: the read starts over once; every object once ----
export KUBECTL_GPU_CHUNK_SIZE=2
for c in "${CMDS[@]}"; do
  fakeapi_clear_log
  fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "expired", "times": 1}]'
  kgpu $(args_json "$c")
  check_rc 0 "410 once, $c"
  same_as_base "$c" "410 once, $c"
  check_eq "$(fakeapi_count '^/api/v1/nodes$' '^limit=2$')" "2" "410 once, $c: the whole read restarted"
  fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "expired"}]'
  kgpu $(args_json "$c")
  failed_cleanly "410 every time, $c"
  check_contains "$ERR" "the list GET /api/v1/pods expired while being read (410 Expired at page 2" "410 every time, $c: said"
done
unset KUBECTL_GPU_CHUNK_SIZE

# ---- 429 with Retry-After, 500: retried, the same answer ----
for c in "${CMDS[@]}"; do
  fakeapi_clear_log
  fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 429, "retryAfter": 1, "times": 1}]'
  start=$(date +%s%N)
  kgpu $(args_json "$c")
  check_rc 0 "429, $c"
  check_eq "$(( ($(date +%s%N) - start) / 1000000 >= 1000 ))" "1" "429, $c: Retry-After waited"
  check_eq "$(fakeapi_count '^/api/v1/nodes$')" "2" "429, $c: asked again once"
  same_as_base "$c" "429, $c"
  fakeapi_faults '[{"path": "^/api/v1/pods$", "code": 500, "times": 2}]'
  kgpu $(args_json "$c")
  check_rc 0 "500 twice, $c"
  same_as_base "$c" "500 twice, $c"
done

# ---- 503 forever: bounded retries, then one line ----
for c in "${CMDS[@]}"; do
  fakeapi_clear_log
  fakeapi_faults '[{"path": "^/api/v1/pods$", "code": 503, "retryAfter": 0}]'
  kgpu $(args_text "$c")
  failed_cleanly "503 forever, $c"
  check_contains "$ERR" "kept answering GET /api/v1/pods with 503 ServiceUnavailable" "503 forever, $c: named"
  check_contains "$ERR" "after 5 retries; try again later" "503 forever, $c: what to do"
  check_eq "$(fakeapi_count '^/api/v1/pods$')" "6" "503 forever, $c: five retries, no more"
done

# ---- the connection cut mid-page ----
for c in "${CMDS[@]}"; do
  fakeapi_faults '[{"path": "^/api/v1/pods$", "action": "cut", "after": 300, "times": 1}]'
  kgpu $(args_json "$c")
  check_rc 0 "cut once, $c"
  same_as_base "$c" "cut once, $c"
  fakeapi_faults '[{"path": "^/api/v1/pods$", "action": "cut", "after": 300, "chunked": true}]'
  kgpu $(args_text "$c") --request-timeout 5s
  failed_cleanly "cut every time (chunked), $c"
  check_contains "$ERR" "the connection to the API server $FAKEAPI_URL broke while reading GET /api/v1/pods" "cut, $c: named"
done

# ---- a truncated page (a complete response holding half a JSON document), an HTML page ----
for c in "${CMDS[@]}"; do
  fakeapi_faults '[{"path": "^/api/v1/nodes$", "action": "truncate", "after": 500}]'
  kgpu $(args_text "$c")
  failed_cleanly "truncated page, $c"
  check_eq "$ERR" "error: invalid JSON in the response to GET /api/v1/nodes (page 1)" "truncated page, $c: the message"
  export KUBECTL_GPU_CHUNK_SIZE=2
  fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "invalid"}]'
  kgpu $(args_json "$c")
  failed_cleanly "HTML instead of page 2, $c"
  check_eq "$ERR" "error: invalid JSON in the response to GET /api/v1/pods (page 2)" "HTML page 2, $c: the message"
  fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "body", "body": "{\"kind\": \"PodList\", \"items\": {\"a\": 1}}", "contentType": "application/json"}]'
  kgpu $(args_json "$c")
  failed_cleanly "items not a list, $c"
  check_eq "$ERR" "error: invalid response to GET /api/v1/pods (page 2): \"items\" is not a list" "items not a list, $c: the message"
  unset KUBECTL_GPU_CHUNK_SIZE
done

# ---- a page that never finishes: bounded by --request-timeout ----
for c in "${CMDS[@]}"; do
  fakeapi_faults '[{"path": "^/api/v1/pods$", "action": "stall", "after": 200, "seconds": 60}]'
  start=$(date +%s)
  kgpu $(args_text "$c") --request-timeout 2s
  failed_cleanly "stalled page, $c"
  check_eq "$ERR" "error: GET /api/v1/pods: no complete answer from the API server $FAKEAPI_URL within 2s (--request-timeout)" "stalled page, $c: the message"
  check_eq "$(( $(date +%s) - start < 8 * SLOW ))" "1" "stalled page, $c: bounded"
done
fakeapi_faults '[]'

# ---- unreachable server ----
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
sed "s|server: $FAKEAPI_URL|server: https://127.0.0.1:$port|" "$T/kubeconfig-token" >"$T/kubeconfig-down"
for c in "${CMDS[@]}"; do
  KUBECONFIG=$T/kubeconfig-down kgpu $(args_text "$c")
  failed_cleanly "unreachable, $c"
  check_match "$ERR" "^error: cannot reach the API server https://127.0.0.1:$port: .*(refused|Couldn't connect)" "unreachable, $c: names the server"
done

# ---- TLS: wrong CA, wrong host name ----
for c in "${CMDS[@]}"; do
  KUBECONFIG=$T/kubeconfig-wrongca kgpu $(args_text "$c")
  failed_cleanly "wrong CA, $c"
  check_contains "$ERR" "TLS verification of the API server 127.0.0.1 failed" "wrong CA, $c: names the host"
  check_contains "$ERR" "using CA file $FAKEAPI_CERTS/other-ca.crt" "wrong CA, $c: names the CA"
  KUBECONFIG=$T/kubeconfig-tlsname kgpu $(args_text "$c")
  failed_cleanly "wrong host name, $c"
  check_contains "$ERR" "TLS verification of the API server 127.0.0.1 (verified as kgpu-wronghost.test, the tls-server-name) failed" "wrong host name, $c: names host and tls-server-name"
  check_contains "$ERR" "using CA file $FAKEAPI_CERTS/ca.crt" "wrong host name, $c: names the CA"
done

# ---- exec credential plugin: fails, hangs, prints garbage ----
exec_plugin="$KGPU_ROOT/tests/fakeapi/exec-plugin.sh"
for c in "${CMDS[@]}"; do
  FAKEAPI_EXEC_MODE=fail KUBECONFIG=$T/kubeconfig-exec kgpu $(args_text "$c")
  check_rc 1 "exec plugin fails, $c"
  check_eq "$OUT" "" "exec plugin fails, $c: no output"
  check_contains "$ERR" "error: kubeconfig $T/kubeconfig-exec: user \"fake-user\": exec: executable $exec_plugin failed with exit code 1" "exec plugin fails, $c: named"
  FAKEAPI_EXEC_MODE=garbage KUBECONFIG=$T/kubeconfig-exec kgpu $(args_text "$c")
  failed_cleanly "exec plugin garbage, $c"
  check_contains "$ERR" "exec: executable $exec_plugin returned invalid output: not JSON" "exec plugin garbage, $c: named"
  start=$(date +%s)
  FAKEAPI_EXEC_MODE=hang KUBECONFIG=$T/kubeconfig-exec kgpu $(args_text "$c") --request-timeout 2s
  failed_cleanly "exec plugin hangs, $c"
  check_contains "$ERR" "did not finish within 2 s and was stopped" "exec plugin hangs, $c: named"
  check_eq "$(( $(date +%s) - start < 10 * SLOW ))" "1" "exec plugin hangs, $c: bounded"
done

check_eq "$(fakeapi_count '.*')" "$(fakeapi_count '.*' '' GET)" "only GET requests in the whole run"
