#!/usr/bin/env bash
# Metrics that are down, unreachable or wrong never fail or stall a command: status and plan
# still answer (exit 0, the same cluster numbers as with --no-metrics), say that metrics are
# unavailable and why, and finish quickly.  Sources: the in-cluster Prometheus through the API
# server's service proxy (no endpoints, 5xx with a Prometheus error, HTML, a backend that never
# answers), the DCGM exporter pods through the pod proxy (unreachable), and --prometheus URL
# (connection refused, 401, 422, HTML, no DCGM series, never answers).
# A small Prometheus stand-in (python, $T/fakeprom.py) answers by the first path segment of
# its URL: /err500 /err422 /unauth /html /empty /stall.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT KUBECTL_GPU_CHUNK_SIZE KUBECTL_GPU_PROMETHEUS_TOKEN KUBECTL_GPU_PROMETHEUS_BASIC_AUTH
SLOW=1; [ -n "${KGPU_VALGRIND:-}" ] && SLOW=4

cat >"$T/fakeprom.py" <<'PY'
import http.server, json, os, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self): self.answer()
    def do_POST(self): self.answer()
    def send(self, code, body, ctype='application/json'):
        b = body.encode()
        self.send_response(code)
        self.send_header('Content-Type', ctype)
        self.send_header('Content-Length', str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def answer(self):
        with open(sys.argv[1] + '.hits', 'a') as f:
            f.write(self.path + '\n')
        n = int(self.headers.get('Content-Length') or 0)
        if n: self.rfile.read(n)
        mode = self.path.lstrip('/').split('/')[0].split('?')[0]
        if mode == 'err500':
            self.send(500, json.dumps({"status": "error", "errorType": "internal",
                                       "error": "query processing would load too many samples into memory"}))
        elif mode == 'err422':
            self.send(422, json.dumps({"status": "error", "errorType": "execution",
                                       "error": "many-to-many matching not allowed"}))
        elif mode == 'unauth':
            self.send(401, 'Unauthorized\n', 'text/plain')
        elif mode == 'html':
            self.send(200, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html')
        elif mode == 'empty':
            self.send(200, json.dumps({"status": "success", "data": {"resultType": "vector", "result": []}}))
        elif mode == 'stall':
            time.sleep(120)
        else:
            self.send(404, 'not found\n', 'text/plain')
srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
srv.daemon_threads = True
with open(sys.argv[1] + '.tmp', 'w') as f:
    f.write(str(srv.server_address[1]))
os.rename(sys.argv[1] + '.tmp', sys.argv[1])
srv.serve_forever()
PY
python3 "$T/fakeprom.py" "$T/fakeprom.port" >"$T/fakeprom.log" 2>&1 &
PROM_PID=$!
on_exit "kill $PROM_PID"
for i in $(seq 1 100); do [ -s "$T/fakeprom.port" ] && break; sleep 0.1; done
PPORT=$(cat "$T/fakeprom.port" 2>/dev/null)
[ -n "$PPORT" ] || { fail "the Prometheus stand-in did not start"; exit 1; }
PROM="http://127.0.0.1:$PPORT"

# the cluster numbers metrics must not change
kgpu status --no-metrics -o json
check_rc 0 "status --no-metrics"
SUMMARY=$(json_get "$OUT" "json.dumps({k: v for k, v in d['summary'].items() if k != 'idleAllocatedGPUs'}, sort_keys=True)")
NODES=$(json_get "$OUT" "json.dumps([n['name'] for n in d['nodes']])")
check_match "$SUMMARY" '"physicalGPUs": 13' "the fixture's 13 GPUs"

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# status_without_metrics WHAT MAX_MS ARGS... : status -o json answers, metrics none, in time; $DETAIL
status_without_metrics() {
  local what=$1 max=$2 start; shift 2
  start=$(date +%s%N)
  kgpu status -o json "$@"
  local took; took=$(ms_since "$start")
  check_rc 0 "$what: status answers"
  check_eq "$(json_get "$OUT" "d['metrics']['source']")" "none" "$what: metrics source none"
  check_eq "$(json_get "$OUT" "json.dumps({k: v for k, v in d['summary'].items() if k != 'idleAllocatedGPUs'}, sort_keys=True)")" "$SUMMARY" "$what: the cluster numbers unchanged"
  check_eq "$(json_get "$OUT" "d['summary']['idleAllocatedGPUs']")" "None" "$what: idle GPUs unknown (null), not 0"
  check_eq "$(json_get "$OUT" "json.dumps([n['name'] for n in d['nodes']])")" "$NODES" "$what: every node"
  check_eq "$(json_get "$OUT" "any('gpus' in n or 'memoryUsedMiB' in n for n in d['nodes'])")" "False" "$what: no usage numbers made up"
  if [ "$took" -lt $((max * SLOW)) ]; then ok "$what: done in ${took} ms"; else fail "$what: took ${took} ms (limit ${max})"; fi
  DETAIL=$(json_get "$OUT" "d['metrics']['detail']")
}

# ---- 1. in-cluster Prometheus without endpoints, DCGM exporter pods unreachable ----------
# (the API server answers 503 at once: "no endpoints available", "connection refused"; these
#  are not retried, so status does not stall for 15 s per probe)
fakeapi_proxy '{}'
fakeapi_clear_log
status_without_metrics "no endpoints, exporters unreachable" 5000
check_contains "$DETAIL" 'Prometheus monitoring/prometheus-k8s: ' "the Prometheus service named"
check_contains "$DETAIL" 'no endpoints available for service "prometheus-k8s"' "why: no endpoints"
check_contains "$DETAIL" 'DCGM exporter pods not reachable: ' "the exporter pods named"
check_contains "$DETAIL" 'connection refused' "why: connection refused"
check_eq "$(fakeapi_count '^/api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy/api/v1/query$')" "1" "the Prometheus probe asked once (no retries of its 503)"
check_eq "$(fakeapi_count '^/api/v1/namespaces/gpu-operator/pods/nvidia-dcgm-exporter-[a-z0-9]+:9400/proxy/metrics$')" "3" "each of the 3 exporter pods scraped once"
start=$(date +%s%N)
kgpu status
check_rc 0 "status (table) without metrics"
check_contains "$OUT" "Metrics: none (no --prometheus given, Prometheus monitoring/prometheus-k8s: " "the table says metrics are unavailable and why"
check_contains "$OUT" "gpu-h100-0" "the table lists the nodes"
check_eq "$(grep -vc '^warning: metrics: DCGM exporter pod gpu-operator/nvidia-dcgm-exporter-[a-z0-9]* on node gpu-[a-z0-9-]*: .*connection refused$' <<<"$ERR")" "0" \
  "stderr: only one warning per unreachable exporter pod"
check_eq "$(grep -c . <<<"$ERR")" "3" "stderr: the 3 exporter pods"
took=$(ms_since "$start")
if [ "$took" -lt $((5000 * SLOW)) ]; then ok "status (table): ${took} ms"; else fail "status (table): ${took} ms"; fi
start=$(date +%s%N)
kgpu plan
check_rc 0 "plan without metrics"
check_contains "$OUT" "Usage: NOT MEASURED — no usage metrics (no --prometheus given, Prometheus monitoring/prometheus-k8s: " "plan says usage was not measured and why"
took=$(ms_since "$start")
if [ "$took" -lt $((5000 * SLOW)) ]; then ok "plan: ${took} ms"; else fail "plan: ${took} ms"; fi

# ---- 2. the in-cluster Prometheus answers errors through the service proxy ---------------
fakeapi_proxy "{\"services\": {\"monitoring/prometheus-k8s:web\": \"$PROM/err500\"}}"
fakeapi_clear_log
status_without_metrics "proxied Prometheus 500" 5000
check_contains "$DETAIL" "Prometheus monitoring/prometheus-k8s: " "proxied 500: the service named"
check_contains "$DETAIL" "500 internal: query processing would load too many samples into memory" "proxied 500: Prometheus' own error"
check_eq "$(fakeapi_count '^/api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy/api/v1/query$')" "1" "proxied 500: not retried"
fakeapi_proxy "{\"services\": {\"monitoring/prometheus-k8s:web\": \"$PROM/err422\"}}"
status_without_metrics "proxied Prometheus 422" 5000
check_contains "$DETAIL" "many-to-many matching not allowed" "proxied 422: Prometheus' own error"
fakeapi_proxy "{\"services\": {\"monitoring/prometheus-k8s:web\": \"$PROM/html\"}}"
status_without_metrics "proxied Prometheus HTML" 5000
check_contains "$DETAIL" "Prometheus monitoring/prometheus-k8s: the answer is not a Prometheus API response" "proxied HTML: said"
fakeapi_proxy "{\"services\": {\"monitoring/prometheus-k8s:web\": \"$PROM/empty\"}}"
status_without_metrics "proxied Prometheus without DCGM series" 5000
check_contains "$DETAIL" "Prometheus monitoring/prometheus-k8s has no DCGM series" "no DCGM series: said"
# a backend that never answers: bounded by --request-timeout
fakeapi_proxy "{\"services\": {\"monitoring/prometheus-k8s:web\": {\"url\": \"$PROM/stall\", \"timeout\": 60}}}"
status_without_metrics "proxied Prometheus that never answers" 8000 --request-timeout 3s
check_contains "$DETAIL" "Prometheus monitoring/prometheus-k8s: GET /api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy/api/v1/query: no complete answer from the API server $FAKEAPI_URL within 3s" "stalled Prometheus: the bound named"
# exporters through the pod proxy: one answers garbage, the others are unreachable
fakeapi_proxy '{"pods": {"gpu-operator/nvidia-dcgm-exporter-x7k2p:9400": {"body": "<html>not metrics</html>\n"}}}'
status_without_metrics "exporter answers garbage" 5000
check_contains "$DETAIL" "DCGM exporter pods have no GPU memory or utilization series" "garbage scrape: said"
check_contains "$(json_get "$OUT" "'\n'.join(d['warnings'])")" "metrics: DCGM exporter pod gpu-operator/nvidia-dcgm-exporter-x7k2p: 1 malformed line skipped (first at line 1)" "garbage scrape: the warning names the pod and line"
fakeapi_proxy '{}'

# ---- 3. --prometheus URL ------------------------------------------------------------------
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
status_without_metrics "--prometheus refused" 5000 --prometheus "http://127.0.0.1:$port"
check_match "$DETAIL" "^--prometheus http://127.0.0.1:$port: (Couldn't connect to server|Could not connect to server)" "refused: the URL and why"
status_without_metrics "--prometheus 401" 5000 --prometheus "$PROM/unauth" --prometheus-token kgpu-prom-token-not-valid
check_eq "$DETAIL" "--prometheus $PROM/unauth: unauthorized (check --prometheus-token / --prometheus-basic-auth): HTTP 401: Unauthorized" "401: says to check the credentials"
status_without_metrics "--prometheus 422" 5000 --prometheus "$PROM/err422"
check_contains "$DETAIL" "--prometheus $PROM/err422: execution: many-to-many matching not allowed" "422: Prometheus' error"
status_without_metrics "--prometheus 500" 5000 --prometheus "$PROM/err500"
check_contains "$DETAIL" "query processing would load too many samples into memory" "500: Prometheus' error"
status_without_metrics "--prometheus HTML" 5000 --prometheus "$PROM/html"
check_contains "$DETAIL" "--prometheus $PROM/html: the answer is not a Prometheus API response" "HTML: said"
status_without_metrics "--prometheus without DCGM series" 5000 --prometheus "$PROM/empty"
check_contains "$DETAIL" "--prometheus $PROM/empty has no DCGM series" "no DCGM series: said"
status_without_metrics "--prometheus that never answers" 8000 --prometheus "$PROM/stall" --request-timeout 2s
check_match "$DETAIL" "^--prometheus $PROM/stall: .*[Tt]imeout" "never answers: a timeout"
status_without_metrics "--prometheus not http" 3000 --prometheus "ftp://127.0.0.1:$PPORT/"
check_contains "$DETAIL" "ftp://127.0.0.1:$PPORT" "a bad URL is named"
start=$(date +%s%N)
kgpu plan --prometheus "http://127.0.0.1:$port"
check_rc 0 "plan with --prometheus refused"
check_contains "$OUT" "Usage: NOT MEASURED — no usage metrics (--prometheus http://127.0.0.1:$port: " "plan: why there is no usage"


# an explicit --prometheus that fails is a warning on stderr (whatever -o), and with
# --require-metrics an error: exit 1, one line naming the URL and why
kgpu status -o json --prometheus "http://127.0.0.1:$port"
check_rc 0 "status -o json, --prometheus refused"
check_match "$ERR" "^warning: metrics unavailable: --prometheus http://127.0.0.1:$port: " "status: the failed --prometheus is a warning on stderr"
kgpu status --prometheus "$PROM/err500" --require-metrics
check_rc 1 "status --require-metrics with a failing --prometheus"
check_one_line_err "status --require-metrics"
check_match "$ERR" "^error: no metrics \(--require-metrics\): --prometheus $PROM/err500: " "the error names the URL"
check_eq "$OUT" "" "status --require-metrics: nothing on stdout"
kgpu plan --prometheus "$PROM/empty" --require-metrics -o json
check_rc 1 "plan --require-metrics without DCGM series"
check_contains "$ERR" "has no DCGM series" "plan --require-metrics: why"
kgpu status --no-metrics
check_rc 0 "status --no-metrics"
check_eq "$ERR" "" "--no-metrics: no warning (metrics were not asked for)"

# commands that use no metrics never contact a metrics source: no Prometheus probe, no exporter
# scrape, no warning, also with a --prometheus that would fail
fakeapi_proxy '{}'
for cmd in "pending -A" "explain nonexistent-pod -n default"; do
  fakeapi_clear_log
  : >"$T/fakeprom.port.hits"
  kgpu $cmd --prometheus "$PROM/err500"
  check_eq "$(grep -c . "$T/fakeprom.port.hits")" "0" "$cmd: --prometheus not asked"
  check_eq "$(fakeapi_count '/proxy/')" "0" "$cmd: no request through the service or pod proxy"
  check_not_contains "$ERR" "metrics" "$cmd: no metrics warning"
done

check_eq "$(fakeapi_count '.*')" "$(fakeapi_count '.*' '' GET)" "only GET requests to the API server"
