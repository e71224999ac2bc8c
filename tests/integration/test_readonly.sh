#!/usr/bin/env bash
# Read-only against the cluster: every subcommand, in every output form, with metrics through
# the API server's service and pod proxies, `top` in a pseudo-terminal with refreshes, the
# completion helper, and the recovery paths (a restarted list, retries) — and the fake API
# server's request log holds GET requests only, nothing else (no POST, not even a
# SelfSubjectAccessReview; no PUT, PATCH, DELETE; no watch).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT KUBECTL_GPU_CHUNK_SIZE

# metrics through the proxies: the in-cluster Prometheus answers an empty result, one DCGM
# exporter pod answers a scrape, so both proxy paths are used
cat >"$T/prom.py" <<'PY'
import http.server, json, os, sys
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        b = json.dumps({"status": "success", "data": {"resultType": "vector", "result": []}}).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(b)))
        self.end_headers()
        self.wfile.write(b)
srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
open(sys.argv[1] + '.tmp', 'w').write(str(srv.server_address[1]))
os.rename(sys.argv[1] + '.tmp', sys.argv[1])
srv.serve_forever()
PY
python3 "$T/prom.py" "$T/prom.port" >"$T/prom.stderr" 2>&1 &
PROM_PID=$!
on_exit "kill $PROM_PID"
for i in $(seq 1 100); do [ -s "$T/prom.port" ] && break; sleep 0.1; done
fakeapi_proxy "{\"services\": {\"monitoring/prometheus-k8s:web\": \"http://127.0.0.1:$(cat "$T/prom.port")\"},
 \"pods\": {\"gpu-operator/nvidia-dcgm-exporter-x7k2p:9400\": {\"file\": \"$KGPU_ROOT/tests/fixtures/dcgm/whole-gpus.txt\"}}}"

run() {   # run ARGS... : the command must answer (exit 0), whatever it reads
  kgpu "$@"
  check_rc 0 "$*"
}

fakeapi_clear_log
for kind in token cert basic exec; do
  export KUBECONFIG=$T/kubeconfig-$kind
  run status
  run status -o wide
  run status -o json
  run status -o yaml gpu-h100-0
  run status -l nvidia.com/gpu.present=true -v=3
  run pending -A
  run pending -n team-a -o yaml
  run explain -n team-a train-large-0
  run explain -n team-a train-large-0 -o json
  run fit -f "$KGPU_ROOT/tests/cases/fit/manifests/cronjob.yaml" -n team-a
  run plan
  run plan -o yaml
  run plan -o json --strategy mig
  run plan -o script
  run snapshot -o "$T/snap-$kind.json"
  run version
  run completion bash
  kgpu __complete -- status ""
  check_contains "$OUT" "gpu-h100-0" "__complete lists nodes from the API ($kind)"
  kgpu __complete -- explain -n team-a ""
  check_contains "$OUT" "train-large-0" "__complete lists pods from the API ($kind)"
  kgpu __complete -- -n ""
  check_contains "$OUT" "team-a" "__complete lists namespaces from the API ($kind)"
  kgpu __complete -- --context ""
  check_rc 0 "__complete --context ($kind)"
done
export KUBECONFIG=$T/kubeconfig-token
check_match "$(fakeapi_count '/proxy/api/v1/query$')" '^[1-9]' "the Prometheus service proxy was used"
check_match "$(fakeapi_count '/pods/nvidia-dcgm-exporter-x7k2p:9400/proxy/metrics$')" '^[1-9]' "the DCGM exporter pod proxy was used"

# the recovery paths: a restarted list, retried answers
export KUBECTL_GPU_CHUNK_SIZE=2
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "expired", "times": 1},
                 {"path": "^/api/v1/nodes$", "code": 500, "times": 1},
                 {"path": "^/api/v1/events$", "code": 429, "retryAfter": 0, "times": 1}]'
run snapshot -o "$T/snap-restarted.json"
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "continue=", "action": "expired", "times": 1}]'
run pending -A
unset KUBECTL_GPU_CHUNK_SIZE
fakeapi_faults '[]'

# top in a pseudo-terminal: two refreshes at --interval 1s, a manual refresh, quit
cat >"$T/topdrive.py" <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'xterm'
    os.execv(sys.argv[1], sys.argv[1:])
def pump(secs):
    end = time.time() + secs
    out = b''
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out
seen = pump(float(os.environ.get('TOP_WARMUP', '3.5')))
os.write(fd, b'r')
seen += pump(1.0)
os.write(fd, b'q')
end = time.time() + 5
status = None
while time.time() < end:
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        status = st
        break
    pump(0.1)
if status is None:
    os.kill(pid, 9)
    print('top did not quit')
    sys.exit(2)
print('drew %d bytes' % len(seen))
sys.exit(os.waitstatus_to_exitcode(status))
PY
lists_before=$(fakeapi_count '^/api/v1/nodes$' '^(?!.*watch=1)')
watches_before=$(fakeapi_count '^/api/v1/nodes$' 'watch=1')
export TOP_WARMUP=3.5; [ -n "${KGPU_VALGRIND:-}" ] && TOP_WARMUP=15
pre=()
[ -n "${KGPU_VALGRIND:-}" ] && pre=("$(command -v valgrind)" -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
out=$(timeout 60 python3 "$T/topdrive.py" "${pre[@]}" "$KGPU_BIN" top --interval 1s 2>&1); rc=$?
check_eq "$rc" "0" "top ran in a terminal and quit on q ($out)"
check_eq "$(( $(fakeapi_count '^/api/v1/nodes$' '^(?!.*watch=1)') - lists_before ))" "1" "top listed the nodes once"
check_match "$(( $(fakeapi_count '^/api/v1/nodes$' 'watch=1') - watches_before ))" '^[1-9][0-9]*$' \
  "top then watched them (a GET with watch=1)"

# ---- the request log: GET and nothing else ----------------------------------------------
total=$(fakeapi_count '.*')
check_match "$total" '^[0-9]{3,}$' "$total requests logged"
check_eq "$(fakeapi_count '.*' '' GET)" "$total" "every request was a GET"
check_eq "$(python3 -c 'import json,sys; print(sorted({json.loads(l)["method"] for l in open(sys.argv[1])}))' "$FAKEAPI_LOG")" "['GET']" "methods used: GET only"
check_eq "$(fakeapi_count 'selfsubjectaccessreviews|selfsubjectrulesreviews|tokenreviews')" "0" "no access reviews"
check_eq "$(fakeapi_count '.*' '(^|&)dryRun=')" "0" "no dry-run writes (watches are GETs, counted above)"
check_eq "$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l).get("status") == 405))' "$FAKEAPI_LOG")" "0" "the server never had to refuse a write (405)"
