#!/usr/bin/env bash
# -v as kubectl's levels (kubectl's cheat sheet, "Kubectl output verbosity and debugging";
# client-go rest/request.go truncateBody: 1 KiB of a body at -v=8, 10 KiB at -v=9):
#   -v=1..5  decisions only (the load's totals, retries, metrics sources), no request lines;
#   -v=6     one line per request: method, URL, status, bytes, time;
#   -v=7     the headers too, credentials redacted;
#   -v=8     the start of each response body, cut at 1 KiB;  -v=9  cut at 10 KiB.
# And a timeout is named by what timed out with the limit that applied: a server that accepts
# the TCP connection but never answers the TLS handshake is "the TLS handshake ... within 2s
# (--request-timeout)", not a stalled answer of some other length.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
NODES_RE="GET $FAKEAPI_URL/api/v1/nodes\?limit=500 200 OK, [0-9]+ bytes, [0-9]+ ms"

kgpu status --no-metrics -v=1
check_rc 0 "status -v=1"
check_not_contains "$ERR" "$FAKEAPI_URL/api/v1/nodes" "-v=1: no request lines (kubectl logs requests from -v=6)"
check_contains "$ERR" "read the cluster with" "-v=1: the load's totals"

kgpu status --no-metrics -v=6
check_match "$ERR" "$NODES_RE" "-v=6: method, URL, status, bytes and time of each request"
check_not_contains "$ERR" "> Authorization" "-v=6: no headers"

kgpu status --no-metrics -v=7
check_match "$ERR" "$NODES_RE" "-v=7: the request lines still"
check_contains "$ERR" "> Authorization: <redacted>" "-v=7: request headers, the credential redacted"
check_match "$ERR" "^< Content-Type: application/json" "-v=7: response headers"
check_not_contains "$ERR" "$FAKEAPI_TOKEN" "-v=7: the token never shown"
check_not_contains "$ERR" "< body:" "-v=7: no bodies"

# the longest body line (without its "< body: " prefix and the cut note) bounds what was shown
longest_body() { grep '^< body: ' <<<"$ERR" | sed 's/^< body: //; s/ \.\.\. (cut: .*//' | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
kgpu status --no-metrics -v=8
check_contains "$ERR" "< body: {" "-v=8: response bodies"
check_contains "$ERR" "(cut: -v=8 shows 1 KiB of a body, -v=9 10 KiB)" "-v=8: a long body is cut, and says so"
L8=$(longest_body)
if [ "$L8" -le 1024 ] && [ "$L8" -gt 0 ]; then ok "-v=8: at most 1 KiB of a body ($L8)"; else fail "-v=8: body line of $L8 bytes"; fi
check_not_contains "$ERR" "$FAKEAPI_TOKEN" "-v=8: the token never shown"

kgpu status --no-metrics -v=9
L9=$(longest_body)
if [ "$L9" -gt 1024 ] && [ "$L9" -le 10240 ]; then ok "-v=9: more of a body, at most 10 KiB ($L9)"; else fail "-v=9: body line of $L9 bytes"; fi

# a listener that accepts TCP connections and never says a word: the TLS handshake never ends
python3 - "$T/blackhole.port" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
deadline = time.time() + 60
s.settimeout(1)
while time.time() < deadline:
    try:
        held.append(s.accept()[0])
    except socket.timeout:
        pass
PY
BH_PID=$!
on_exit "kill $BH_PID 2>/dev/null"
for _ in $(seq 100); do [ -s "$T/blackhole.port" ] && break; sleep 0.1; done
[ -s "$T/blackhole.port" ] || { fail "the silent listener did not start"; exit 1; }
sed "s#server: $FAKEAPI_URL#server: https://127.0.0.1:$(cat "$T/blackhole.port")#" "$T/kubeconfig-token" >"$T/kubeconfig-blackhole"
start=$(date +%s)
KUBECONFIG=$T/kubeconfig-blackhole kgpu status --no-metrics --request-timeout 2s
took=$(( $(date +%s) - start ))
check_rc 1 "a TLS handshake that never ends"
check_one_line_err "a TLS handshake that never ends"
check_contains "$ERR" "the TLS handshake with the API server https://127.0.0.1:" "the timeout is named: the TLS handshake"
check_contains "$ERR" "did not complete within 2s (--request-timeout)" "with the limit that applied"
if [ "$took" -lt 15 ]; then ok "bounded by --request-timeout (${took}s)"; else fail "took ${took}s"; fi
