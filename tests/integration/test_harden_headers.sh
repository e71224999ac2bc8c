#!/usr/bin/env bash
# Nothing from a kubeconfig, a token file, an exec plugin or a flag goes out as extra HTTP
# header lines (issue 28, item 3).  A value that becomes a header (token, tokenFile content,
# username/password, as, as-uid, as-groups, as-user-extra keys and values, an exec plugin's
# status.token, --prometheus-token / --prometheus-basic-auth) holding CR, LF, NUL or another
# control character (RFC 9110 §5.5 field-value) is refused with one error line naming the
# field, never the value; the fake API server logs the headers of every request it gets
# (tests/fakeapi/server.py "headers", credentials hashed), so "nothing injected reached it" is
# checked there.
# A token file's surrounding whitespace is trimmed as client-go does (transport/token_source.go,
# fileTokenSource.Token: strings.TrimSpace), so "TOKEN\n" still works.
# Also (item 5): an exec plugin that exits 0 but leaves a child holding its stdout does not
# hold the command up.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
CA="    certificate-authority: $FAKEAPI_CERTS/ca.crt"

injected() {   # the number of logged requests that carried a header named x-injected*
  python3 - "$FAKEAPI_LOG" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    n += any(h.lower().startswith('x-injected') for h in r.get('headers', {}))
print(n)
PY
}
requests() { grep -c . "$FAKEAPI_LOG"; }

# refused NAME USER-LINES FIELD-TEXT WHY : the kubeconfig is refused before any request
refused() {
  local name=$1 user=$2 field=$3 why=$4
  _fakeapi_kubeconfig "$T/kubeconfig-h-$name" "$CA" "$user"
  fakeapi_clear_log
  KUBECONFIG="$T/kubeconfig-h-$name" kgpu status --no-metrics
  check_rc 1 "$name: refused"
  check_one_line_err "$name"
  check_contains "$ERR" "user \"fake-user\"" "$name: the error names the user"
  check_contains "$ERR" "$field $why and cannot be sent as an HTTP header" "$name: the error names the field"
  check_not_contains "$ERR" "X-Injected" "$name: the value is not printed"
  check_eq "$(requests)" "0" "$name: no request reached the server"
}

# the sanity of the check itself: a plain token works and its requests are logged with their
# headers (a header the log does not show could not be looked for)
fakeapi_clear_log
kgpu status --no-metrics
check_rc 0 "plain token"
[ "$(requests)" -gt 0 ] && grep -q '"headers": \?{[^}]*"authorization"' "$FAKEAPI_LOG" \
  && ok "the server logs the request headers" || fail "the server logs no request headers"

refused token "    token: \"$FAKEAPI_TOKEN\\r\\nX-Injected: yes\"" "token" "contains a line break (CR/LF)"
refused token-lf "    token: \"$FAKEAPI_TOKEN\\nX-Injected: yes\"" "token" "contains a line break (CR/LF)"
refused token-ctl "    token: \"$FAKEAPI_TOKEN\\x01\"" "token" "contains a control character"
refused as "    token: $FAKEAPI_TOKEN
    as: \"bob\\r\\nX-Injected-As: yes\"" "as" "contains a line break (CR/LF)"
refused as-uid "    token: $FAKEAPI_TOKEN
    as: bob
    as-uid: \"1\\nX-Injected-Uid: yes\"" "as-uid" "contains a line break (CR/LF)"
refused as-groups "    token: $FAKEAPI_TOKEN
    as: bob
    as-groups: [\"ok\", \"g\\r\\nX-Injected-Group: yes\"]" "an as-groups entry" "contains a line break (CR/LF)"
refused as-extra-value "    token: $FAKEAPI_TOKEN
    as: bob
    as-user-extra: {scopes: [\"a\", \"b\\nX-Injected-Extra: yes\"]}" "an as-user-extra value" "contains a line break (CR/LF)"
refused as-extra-key "    token: $FAKEAPI_TOKEN
    as: bob
    as-user-extra: {\"k\\r\\nX-Injected-Key: yes\": [\"a\"]}" "an as-user-extra key" "contains a line break (CR/LF)"
refused username "    username: \"$FAKEAPI_BASIC_USER\\r\\nX-Injected: yes\"
    password: $FAKEAPI_BASIC_PASSWORD" "username" "contains a line break (CR/LF)"
refused password "    username: $FAKEAPI_BASIC_USER
    password: \"pw\\nX-Injected: yes\"" "password" "contains a line break (CR/LF)"

# tokenFile: surrounding whitespace trimmed as client-go does; a line break inside refused
# (token files live in $T/tf and kubeconfigs are named kubeconfig-*: the suite-wide secret scan
# of test_secrets.sh skips such credential material written on purpose)
mkdir -p "$T/tf"
printf '  %s\n\n' "$FAKEAPI_TOKEN" >"$T/tf/token-trailing"
_fakeapi_kubeconfig "$T/kubeconfig-h-tokenfile-ok" "$CA" "    tokenFile: $T/tf/token-trailing"
fakeapi_clear_log
KUBECONFIG="$T/kubeconfig-h-tokenfile-ok" kgpu status --no-metrics
check_rc 0 "tokenFile with surrounding whitespace: trimmed, accepted"
check_eq "$(grep -c '"user":"gpu-admin"' "$FAKEAPI_LOG")" "$(requests)" "tokenFile: every request authenticated as gpu-admin"
printf '%s\r\nX-Injected: yes\n' "$FAKEAPI_TOKEN" >"$T/tf/token-crlf"
_fakeapi_kubeconfig "$T/kubeconfig-h-tokenfile-crlf" "$CA" "    tokenFile: $T/tf/token-crlf"
fakeapi_clear_log
KUBECONFIG="$T/kubeconfig-h-tokenfile-crlf" kgpu status --no-metrics
check_rc 1 "tokenFile with CR/LF inside: refused"
check_one_line_err "tokenFile CR/LF"
check_contains "$ERR" "tokenFile $T/tf/token-crlf contains a line break (CR/LF) and cannot be sent as an HTTP header" "tokenFile: the error names the file"
check_not_contains "$ERR" "X-Injected" "tokenFile: the value is not printed"
check_not_contains "$ERR" "$FAKEAPI_TOKEN" "tokenFile: the token is not printed"
check_eq "$(injected)" "0" "tokenFile: no injected header reached the server"
printf '%s\0X-Injected: yes\n' "$FAKEAPI_TOKEN" >"$T/tf/token-nul"
_fakeapi_kubeconfig "$T/kubeconfig-h-tokenfile-nul" "$CA" "    tokenFile: $T/tf/token-nul"
KUBECONFIG="$T/kubeconfig-h-tokenfile-nul" kgpu status --no-metrics
check_rc 1 "tokenFile with a NUL byte: refused"
check_contains "$ERR" "contains a NUL byte" "tokenFile NUL: named"

# exec plugin: a token ending in CR LF + a header line
_fakeapi_kubeconfig "$T/kubeconfig-h-exec-crlf" "$CA" "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $FAKEAPI_HOME/exec-plugin.sh
      env:
      - {name: FAKEAPI_EXEC_TOKEN, value: $FAKEAPI_EXEC_TOKEN}
      - {name: FAKEAPI_EXEC_MODE, value: crlf}
      interactiveMode: Never"
fakeapi_clear_log
KUBECONFIG="$T/kubeconfig-h-exec-crlf" kgpu status --no-metrics
check_rc 1 "exec plugin token with CR/LF: refused"
check_one_line_err "exec CR/LF"
check_contains "$ERR" "exec plugin's status.token contains a line break (CR/LF) and cannot be sent as an HTTP header" "exec: the error names status.token"
check_not_contains "$ERR" "$FAKEAPI_EXEC_TOKEN" "exec: the token is not printed"
check_eq "$(injected)" "0" "exec: no injected header reached the server"
check_eq "$(requests)" "0" "exec: no request sent"

# --prometheus-token with a line break: refused, named, not printed, never sent
python3 -c 'import base64,http.server,sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        a = self.headers.get("Authorization") or ""
        ok = a == "Basic " + base64.b64encode(b"pu:pw-harden").decode()
        open(sys.argv[1], "a").write(" ".join(k.lower() for k in self.headers.keys()) + (" basic-ok" if ok else "") + "\n")
        self.send_response(500); self.end_headers()
    do_POST = do_GET
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.serve_forever()' "$T/prom-headers" "$T/prom-port" & prom=$!
on_exit "kill $prom"
for i in $(seq 50); do [ -s "$T/prom-port" ] && break; sleep 0.1; done
: >"$T/prom-headers"
kgpu status --prometheus "http://127.0.0.1:$(cat "$T/prom-port")" --prometheus-token $'tok\r\nX-Injected: yes'
check_contains "$ERR" "--prometheus-token contains a line break (CR/LF) and cannot be sent as an HTTP header" "--prometheus-token: named"
check_not_contains "$ERR" "X-Injected" "--prometheus-token: not printed"
check_eq "$(grep -c . "$T/prom-headers")" "0" "--prometheus-token: no request sent to Prometheus"
# a good --prometheus-basic-auth still goes out as one "Authorization: Basic" header (built by
# us now, not by libcurl, so that our copy can be wiped)
kgpu status --prometheus "http://127.0.0.1:$(cat "$T/prom-port")" --prometheus-basic-auth pu:pw-harden
check_match "$(cat "$T/prom-headers")" "authorization.* basic-ok$" "--prometheus-basic-auth: Basic user:password sent"
kgpu status --prometheus "http://127.0.0.1:$(cat "$T/prom-port")" --prometheus-basic-auth $'pu:pw\nX-Injected: 1'
check_contains "$ERR" "--prometheus-basic-auth contains a line break (CR/LF) and cannot be sent as an HTTP header" "--prometheus-basic-auth: named"

# item 5: a plugin that exits 0 but leaves a child holding its stdout
_fakeapi_kubeconfig "$T/kubeconfig-h-exec-linger" "$CA" "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $FAKEAPI_HOME/exec-plugin.sh
      env:
      - {name: FAKEAPI_EXEC_TOKEN, value: $FAKEAPI_EXEC_TOKEN}
      - {name: FAKEAPI_EXEC_MODE, value: linger}
      interactiveMode: Never"
t0=$(date +%s.%N)
KUBECONFIG="$T/kubeconfig-h-exec-linger" kgpu status --no-metrics
t1=$(date +%s.%N)
check_rc 0 "exec plugin with a lingering child: works"
secs=$(python3 -c "print(int(float('$t1') - float('$t0')))")
[ "$secs" -lt 10 ] && ok "lingering child: done in ${secs}s (< 10 s; the child holds stdout 30 s)" \
  || fail "lingering child: took ${secs}s"
