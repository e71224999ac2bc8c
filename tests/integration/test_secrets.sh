#!/usr/bin/env bash
# No secret in any output.  Every command (status, pending, explain, plan, snapshot, __complete;
# top is interactive and left out) at -v, -v=3 and -v=9, with every kind of credential (token,
# client certificate files and data, basic auth, exec plugin, Prometheus bearer token and basic
# auth, credentials in a --prometheus URL or a proxy-url) and on the error paths (401 with a
# wrong token or password, an expired exec token, a failing exec plugin, wrong CA, a proxy that
# refuses, malformed kubeconfigs holding secrets): stdout, stderr and the snapshot files written
# are searched for every secret (the values, the base64 of user:password, every line of the
# client key PEM and chunks of its base64).  The checks are not vacuous: the server's request
# log shows each credential was sent, and -v=9 shows "Authorization: <redacted>".
#
#   bash tests/integration/test_secrets.sh --scan DIR
# is the suite-wide check (tests/run-all.sh runs it after every other part): every file the
# suite left under DIR (logs, outputs, snapshots, request logs), except the credential files the
# tests wrote on purpose (kubeconfigs, keys, token files), must hold none of the fixed test
# secrets of tests/lib/fakeapi.sh and this script, nor any line of a test client key.
set -u
PROM_TOKEN=kgpu-prom-token-5e2d9a61
PROM_USER=prom-reader
PROM_PASSWORD=prom-s3cret-pw-77c1
PROM_URL_PASSWORD=prom-url-s3cret-31f0
PROM_WRONG_TOKEN=kgpu-prom-wrong-token-0b8e
WRONG_TOKEN=kgpu-wrong-token-4a7d20
WRONG_PASSWORD=basic-wrong-pw-93ce
PROXY_PASSWORD=proxy-s3cret-pw-5d1a

# ---------------------------------------------------------------------------------------------
# --scan DIR: the suite-wide check (does not source common.sh: that would wipe its own dir)
if [ "${1:-}" = --scan ]; then
  dir=${2:?--scan DIR}
  KGPU_ROOT=${KGPU_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
  . "$KGPU_ROOT/tests/lib/fakeapi.sh"
  pat=$(mktemp); trap 'rm -f "$pat"' EXIT
  printf '%s\n' "$FAKEAPI_TOKEN" "$FAKEAPI_VIEWER_TOKEN" "$FAKEAPI_EXEC_TOKEN" "$FAKEAPI_BASIC_PASSWORD" \
    "$(printf '%s:%s' "$FAKEAPI_BASIC_USER" "$FAKEAPI_BASIC_PASSWORD" | base64 -w0)" \
    "$PROM_TOKEN" "$PROM_PASSWORD" "$PROM_URL_PASSWORD" "$PROM_WRONG_TOKEN" "$WRONG_TOKEN" "$WRONG_PASSWORD" \
    "$PROXY_PASSWORD" "$(printf '%s:%s' "$PROM_USER" "$PROM_PASSWORD" | base64 -w0)" >"$pat"
  nkeys=0
  while IFS= read -r key; do
    nkeys=$((nkeys + 1))
    grep -v -- '-----' "$key" | awk 'length($0) >= 40' >>"$pat"
    base64 -w0 <"$key" | cut -c 30-90 >>"$pat"
  done < <(find "$dir" -path '*/certs/*.key' -type f 2>/dev/null)
  sed -i '/^.\{0,11\}$/d' "$pat"       # no short (or empty) pattern: it would match anything
  passed=0 failed=0 scanned=0
  # the search finds what it must (the token, and a client key line when there are keys)
  key1=$(find "$dir" -path '*/certs/*.key' -type f 2>/dev/null | head -1)
  if [ "$(grep -cF -f "$pat" <<<"$(printf '%s\n' "x $FAKEAPI_TOKEN y" ${key1:+"$(sed -n 3p "$key1")"})")" = "$([ -n "$key1" ] && echo 2 || echo 1)" ]; then
    passed=$((passed + 1)); echo "ok - the search finds a planted token${key1:+ and a line of $key1}"
  else
    failed=$((failed + 1)); echo "not ok - the search does not find a planted secret"
  fi
  # the files to scan (NUL-separated), then one grep over all of them (a grep per file compiled
  # the patterns thousands of times: two minutes per suite)
  list=$(mktemp); trap 'rm -f "$pat" "$list"' EXIT
  while IFS= read -r -d '' f; do
    case "$f" in
      */certs/*|*/sa/*|*/tf/*|*/home/*|*/kube-cache/*) continue ;;   # credential material on purpose
    esac
    case "${f##*/}" in
      kubeconfig*|config|*.kubeconfig|token|*.patterns|*.key|*.crt|*.csr|*.pem|*.srl|*.ext|exec-info|exec-count|fakeprom.py|prom-auth.py) continue ;;
      suite_no-secrets.log) continue ;;                               # this check's own log
    esac
    scanned=$((scanned + 1))
    printf '%s\0' "$f" >>"$list"
  done < <(find "$dir" -type f -print0 2>/dev/null)
  while IFS= read -r -d '' f; do
    failed=$((failed + 1))
    n=$(grep -caF -f "$pat" -- "$f")
    echo "not ok - a test secret in ${f#"$dir"/} ($n line(s); run: grep -nF -f <secrets> on it)"
  done < <(xargs -0 -r grep -laZF -f "$pat" -- <"$list" 2>/dev/null)
  if [ "$scanned" -gt 0 ]; then
    passed=$((passed + 1)); echo "ok - $scanned files the suite wrote under $dir scanned (the lines of $nkeys client keys included)"
  else
    failed=$((failed + 1)); echo "not ok - nothing to scan under $dir"
  fi
  [ "$failed" = 0 ] && { passed=$((passed + 1)); echo "ok - no fixed test secret in any of them"; }
  echo "# RESULT passed=$passed failed=$failed"
  [ "$failed" = 0 ]
  exit
fi

# ---------------------------------------------------------------------------------------------
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT KUBECTL_GPU_CHUNK_SIZE KUBECTL_GPU_PROMETHEUS_TOKEN KUBECTL_GPU_PROMETHEUS_BASIC_AUTH

# every secret this run knows, one per line; $T/secrets.patterns (excluded from the suite scan)
PAT=$T/secrets.patterns
LABELS=()
add_secret() { printf '%s\n' "$2" >>"$PAT"; LABELS+=("$1"); }
: >"$PAT"
add_secret "bearer token" "$FAKEAPI_TOKEN"
add_secret "viewer token" "$FAKEAPI_VIEWER_TOKEN"
add_secret "exec plugin token" "$FAKEAPI_EXEC_TOKEN"
add_secret "exec plugin expired token" "kgpu-expired-token"
add_secret "basic password" "$FAKEAPI_BASIC_PASSWORD"
add_secret "basic user:password base64" "$(printf '%s:%s' "$FAKEAPI_BASIC_USER" "$FAKEAPI_BASIC_PASSWORD" | base64 -w0)"
add_secret "wrong token" "$WRONG_TOKEN"
add_secret "wrong password" "$WRONG_PASSWORD"
add_secret "wrong basic base64" "$(printf '%s:%s' "$FAKEAPI_BASIC_USER" "$WRONG_PASSWORD" | base64 -w0)"
add_secret "proxy password" "$PROXY_PASSWORD"
add_secret "Prometheus token" "$PROM_TOKEN"
add_secret "Prometheus wrong token" "$PROM_WRONG_TOKEN"
add_secret "Prometheus password" "$PROM_PASSWORD"
add_secret "Prometheus user:password base64" "$(printf '%s:%s' "$PROM_USER" "$PROM_PASSWORD" | base64 -w0)"
add_secret "password in a --prometheus URL" "$PROM_URL_PASSWORD"
i=0
while IFS= read -r line; do
  i=$((i + 1)); add_secret "client key PEM line $i" "$line"
done < <(grep -v -- '-----' "$FAKEAPI_CERTS/client.key" | awk 'length($0) >= 40')
keyb64=$(base64 -w0 <"$FAKEAPI_CERTS/client.key")
for off in 1 30 200 600 1000; do add_secret "client-key-data base64 at $off" "${keyb64:$off:48}"; done
check_match "${#LABELS[@]}" '^[0-9]{2,}$' "$(printf '%s' "${#LABELS[@]}") secrets to look for"

# secrets_in TEXT [FILE...] : the labels (never the values) of the secrets found
secrets_in() {
  local text=$1 n=0 s; shift
  while IFS= read -r s; do
    if grep -qaF -- "$s" <<<"$text" || { [ $# -gt 0 ] && grep -qaF -- "$s" "$@" 2>/dev/null; }; then
      printf '[%s] ' "${LABELS[$n]}"
    fi
    n=$((n + 1))
  done <"$PAT"
}
RUNS=0
check_clean() {   # check_clean WHAT [FILE...] : $OUT, $ERR and the files hold no secret
  local what=$1 hits; shift
  RUNS=$((RUNS + 1))
  hits=$(secrets_in "$OUT$ERR" "$@")
  if [ -z "$hits" ]; then ok "no secret: $what"; else fail "SECRET LEAKED: $what: $hits"; fi
}
# the detector itself finds what it must (else every check below would pass for nothing)
check_eq "$(secrets_in "x Authorization: Basic $(printf '%s:%s' "$FAKEAPI_BASIC_USER" "$FAKEAPI_BASIC_PASSWORD" | base64 -w0) y")" \
  "[basic user:password base64] " "the search finds the base64 of user:password"
check_eq "$(secrets_in "$(sed -n 5p "$FAKEAPI_CERTS/client.key")")" "[client key PEM line 4] " "the search finds a line of the client key"
check_match "$(secrets_in "client-key-data: $keyb64")" '\[client-key-data base64 at 30\]' "the search finds the client-key-data"

# ---- a Prometheus stand-in that checks the credentials it gets (and says so, not what) -----
cat >"$T/prom-auth.py" <<'PY'
import base64, http.server, json, os, sys
want_bearer = 'Bearer ' + os.environ['PROM_TOKEN']
want_basic = 'Basic ' + base64.b64encode(('%s:%s' % (os.environ['PROM_USER'], os.environ['PROM_PASSWORD'])).encode()).decode()
want_url = 'Basic ' + base64.b64encode(('%s:%s' % (os.environ['PROM_USER'], os.environ['PROM_URL_PASSWORD'])).encode()).decode()
log = open(sys.argv[2], 'a', buffering=1)
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        n = int(self.headers.get('Content-Length') or 0)
        if n: self.rfile.read(n)
        a = self.headers.get('Authorization', '')
        kind = 'bearer-ok' if a == want_bearer else 'basic-ok' if a in (want_basic, want_url) else 'bad' if a else 'none'
        log.write(kind + '\n')
        if kind in ('bearer-ok', 'basic-ok'):
            body, code = json.dumps({"status": "success", "data": {"resultType": "vector", "result": []}}), 200
        else:
            body, code = json.dumps({"status": "error", "errorType": "unauthorized", "error": "bad credentials"}), 401
        b = body.encode()
        self.send_response(code)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(b)))
        self.end_headers()
        self.wfile.write(b)
srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
srv.daemon_threads = True
open(sys.argv[1] + '.tmp', 'w').write(str(srv.server_address[1]))
os.rename(sys.argv[1] + '.tmp', sys.argv[1])
srv.serve_forever()
PY
PROM_TOKEN=$PROM_TOKEN PROM_USER=$PROM_USER PROM_PASSWORD=$PROM_PASSWORD PROM_URL_PASSWORD=$PROM_URL_PASSWORD \
  python3 "$T/prom-auth.py" "$T/prom.port" "$T/prom-auth.log" >"$T/prom.stderr" 2>&1 &
PROM_PID=$!
on_exit "kill $PROM_PID"
for i in $(seq 1 100); do [ -s "$T/prom.port" ] && break; sleep 0.1; done
PROM="http://127.0.0.1:$(cat "$T/prom.port" 2>/dev/null)"
[ -s "$T/prom.port" ] || fail "the Prometheus stand-in did not start"

# ---- more kubeconfigs: wrong credentials, a proxy with a password, malformed ones ----------
sed "s|    token: $FAKEAPI_TOKEN|    token: $WRONG_TOKEN|" "$T/kubeconfig-token" >"$T/kubeconfig-badtoken"
sed "s|    password: $FAKEAPI_BASIC_PASSWORD|    password: $WRONG_PASSWORD|" "$T/kubeconfig-basic" >"$T/kubeconfig-badbasic"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
sed "s|    certificate-authority: |    proxy-url: http://proxyuser:$PROXY_PASSWORD@127.0.0.1:$port\n    certificate-authority: |" \
  "$T/kubeconfig-token" >"$T/kubeconfig-proxy"
# malformed: the secret sits where the parser complains
sed "s|    token: $FAKEAPI_TOKEN|    token: {value: $FAKEAPI_TOKEN}|" "$T/kubeconfig-token" >"$T/kubeconfig-tokenmap"
sed "s|    password: $FAKEAPI_BASIC_PASSWORD|    password: [$FAKEAPI_BASIC_PASSWORD|" "$T/kubeconfig-basic" >"$T/kubeconfig-yamlerror"
sed "s|    token: $FAKEAPI_TOKEN|    token: $FAKEAPI_TOKEN\n    tokenFile: /nonexistent/$FAKEAPI_VIEWER_TOKEN|" "$T/kubeconfig-token" >"$T/kubeconfig-tokenfile"
sed "s|client-key-data: |client-key-data: !!binary |" "$T/kubeconfig-certdata" >"$T/kubeconfig-keytag"
sed "s|client-key-data: \(.\{20\}\)|client-key-data: \1%%|" "$T/kubeconfig-certdata" >"$T/kubeconfig-badkeydata"

# the commands, each with the words that make it read the cluster; snapshot writes a file
SNAP=$T/snapshots
mkdir -p "$SNAP"
commands() {   # prints one command line per line (word-split by the caller)
  echo "status"
  echo "status -o wide"
  echo "pending -A -o json"
  echo "explain -n team-a train-large-0"
  echo "plan -o yaml"
  echo "snapshot -o $SNAP/snap-@.json"
  echo "__complete -- explain -n team-a t"
  echo "__complete -- status gpu"
}
# run_all KIND [ENV=...] : every command at every verbosity with kubeconfig-KIND
LEVELS=(-v -v=3 -v=9)
[ -n "${KGPU_VALGRIND:-}" ] && LEVELS=(-v=9)      # valgrind is slow: the most verbose level only
run_all() {
  local kind=$1 cmd v n=0 file
  for v in "${LEVELS[@]}"; do
    while IFS= read -r cmd; do
      n=$((n + 1))
      file=$SNAP/snap-$kind-$n.json
      cmd=${cmd//@/$kind-$n}
      # shellcheck disable=SC2086
      KUBECONFIG=$T/kubeconfig-$kind kgpu $v $cmd --request-timeout 10s
      check_clean "$kind $v $cmd (exit $RC)" $( [ -f "$file" ] && echo "$file")
    done < <(commands)
  done
}

# ---- every credential kind, every command, every level -------------------------------------
for kind in token cert certdata basic exec insecure; do
  fakeapi_clear_log
  run_all "$kind"
  check_eq "$(fakeapi_count '.*' '' GET)" "$(fakeapi_count '.*')" "$kind: only GETs"
  case $kind in
    cert|certdata) want=cert ;; basic) want=basic ;; *) want=token ;;
  esac
  check_eq "$(python3 -c 'import json,sys; print(sorted({json.loads(l)["auth"] for l in open(sys.argv[1])}))' "$FAKEAPI_LOG")" \
    "['$want']" "$kind: the server saw the $want credential on every request (the checks above are not vacuous)"
done
KUBECONFIG=$T/kubeconfig-token kgpu -v=9 snapshot -o "$T/snapshots/v9.json"
check_contains "$ERR" "> Authorization: <redacted>" "-v=9 logs the Authorization header, redacted"
check_match "$(ls "$SNAP" | grep -c 'snap-.*\.json')" '^[1-9][0-9]*$' "snapshot files were written and searched"

# ---- error paths ---------------------------------------------------------------------------
for kind in badtoken badbasic wrongca tlsname proxy; do
  run_all "$kind"
  KUBECONFIG=$T/kubeconfig-$kind kgpu status
  check_rc 1 "$kind: status fails"
  check_clean "$kind: status, without -v (exit $RC)"
done
for mode in expired fail garbage; do
  FAKEAPI_EXEC_MODE=$mode run_all exec
done
for kind in tokenmap yamlerror tokenfile keytag badkeydata; do
  for v in "${LEVELS[@]}"; do
    KUBECONFIG=$T/kubeconfig-$kind kgpu $v status
    check_clean "malformed kubeconfig $kind $v (exit $RC)"
  done
done
# 401 from a fault (the server answers 401 to a good token)
fakeapi_faults '[{"path": "^/api/v1/pods$", "code": 401}]'
run_all token
fakeapi_faults '[]'

# ---- Prometheus credentials ----------------------------------------------------------------
: >"$T/prom-auth.log"
for v in "${LEVELS[@]}"; do
  for cmd in status plan; do
    kgpu $v $cmd --prometheus "$PROM" --prometheus-token "$PROM_TOKEN"
    check_clean "$cmd $v --prometheus-token (exit $RC)"
    kgpu $v $cmd --prometheus "$PROM" --prometheus-basic-auth "$PROM_USER:$PROM_PASSWORD"
    check_clean "$cmd $v --prometheus-basic-auth (exit $RC)"
    KUBECTL_GPU_PROMETHEUS_TOKEN=$PROM_TOKEN kgpu $v $cmd --prometheus "$PROM"
    check_clean "$cmd $v \$KUBECTL_GPU_PROMETHEUS_TOKEN (exit $RC)"
    KUBECTL_GPU_PROMETHEUS_BASIC_AUTH=$PROM_USER:$PROM_PASSWORD kgpu $v $cmd --prometheus "$PROM"
    check_clean "$cmd $v \$KUBECTL_GPU_PROMETHEUS_BASIC_AUTH (exit $RC)"
    kgpu $v $cmd --prometheus "http://$PROM_USER:$PROM_URL_PASSWORD@${PROM#http://}"
    check_clean "$cmd $v credentials in the --prometheus URL (exit $RC)"
    kgpu $v $cmd --prometheus "$PROM" --prometheus-token "$PROM_WRONG_TOKEN"
    check_clean "$cmd $v a wrong --prometheus-token (exit $RC)"
    check_contains "$OUT$ERR" "unauthorized (check --prometheus-token / --prometheus-basic-auth)" "$cmd $v: the rejection is said"
  done
done
check_eq "$(grep -c bearer-ok "$T/prom-auth.log")" "$(( ${#LEVELS[@]} * 2 * 2 ))" "Prometheus got the bearer token each time it was given"
check_eq "$(grep -c basic-ok "$T/prom-auth.log")" "$(( ${#LEVELS[@]} * 2 * 3 ))" "Prometheus got basic auth each time it was given"
kgpu -v=9 status --prometheus "http://$PROM_USER:$PROM_URL_PASSWORD@${PROM#http://}" -o json
check_contains "$(json_get "$OUT" "d['metrics']['detail']")" "$PROM" "the URL is shown without its user:password"

echo "# $RUNS runs searched for ${#LABELS[@]} secrets"
