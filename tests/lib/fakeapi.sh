# tests/lib/fakeapi.sh — start and drive the fake API server (tests/fakeapi/server.py) from an
# integration script.  Source it after tests/lib/common.sh:
#   . "$(dirname "$0")/../lib/common.sh"; . "$(dirname "$0")/../lib/fakeapi.sh"
#
#   fakeapi_start FIXTURE [server args...]  start (stops a running one first); certificates are
#                              made once per test dir in $T/certs.  Exports FAKEAPI_URL,
#                              FAKEAPI_PORT, FAKEAPI_LOG, FAKEAPI_CERTS, KUBECONFIG
#                              (=$T/kubeconfig-token) and KUBECACHEDIR, and writes
#                              $T/kubeconfig-{token,cert,certdata,basic,exec,insecure,wrongca,
#                              viewer,roguecert,tlsname}.  Returns non-zero (and says why) when
#                              the server does not come up within $FAKEAPI_START_TIMEOUT s (30).
#   fakeapi_faults JSON        replace the faults file (the server re-reads it on the next request)
#   fakeapi_rbac JSON          replace the deny rules      fakeapi_proxy JSON  replace proxy config
#   fakeapi_requests           print the request log (one JSON object per line)
#   fakeapi_count PATH_RE [QUERY_RE]  number of logged requests whose path (and query) match
#   fakeapi_clear_log          empty the request log
#   fakeapi_wait_log REGEX SECONDS  until the request log has a line matching REGEX (bounded)
#   fakeapi_stop               stop the server (registered with on_exit by fakeapi_start)
#
# Identities the server accepts (exported for tests):
#   FAKEAPI_TOKEN        bearer token of user gpu-admin
#   FAKEAPI_VIEWER_TOKEN bearer token of user gpu-viewer (target of rbac deny rules)
#   FAKEAPI_EXEC_TOKEN   token printed by tests/fakeapi/exec-plugin.sh (user gpu-exec)
#   FAKEAPI_BASIC_USER / FAKEAPI_BASIC_PASSWORD  basic auth of user gpu-basic
#   client certificate $FAKEAPI_CERTS/client.crt+.key = CN gpu-admin, O system:masters
#   $FAKEAPI_CERTS/viewer.crt = CN gpu-viewer; rogue-client.crt is signed by an unrelated CA.

FAKEAPI_HOME="$KGPU_ROOT/tests/fakeapi"
FAKEAPI_TOKEN=kgpu-test-token-8c1f2e7a9b
FAKEAPI_VIEWER_TOKEN=kgpu-viewer-token-3d5e6f
FAKEAPI_EXEC_TOKEN=kgpu-exec-token-71b0c4
FAKEAPI_BASIC_USER=gpu-basic
FAKEAPI_BASIC_PASSWORD=basic-s3cret-pw
export FAKEAPI_TOKEN FAKEAPI_VIEWER_TOKEN FAKEAPI_EXEC_TOKEN FAKEAPI_BASIC_USER FAKEAPI_BASIC_PASSWORD
FAKEAPI_PID=""
_fakeapi_registered=""

_fakeapi_atomic_write() {   # _fakeapi_atomic_write FILE CONTENT
  printf '%s\n' "$2" >"$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"
}

fakeapi_certs() {
  FAKEAPI_CERTS="$T/certs"
  export FAKEAPI_CERTS
  if ! bash "$FAKEAPI_HOME/gen-certs.sh" "$FAKEAPI_CERTS"; then
    echo "fakeapi: certificate generation failed" >&2
    return 1
  fi
}

fakeapi_start() {
  local fixture=${1:?fakeapi_start FIXTURE [args]}; shift
  [ -n "$FAKEAPI_PID" ] && fakeapi_stop
  fakeapi_certs || return 1
  FAKEAPI_LOG="$T/fakeapi.log"
  FAKEAPI_FAULTS="$T/fakeapi-faults.json"
  FAKEAPI_RBAC="$T/fakeapi-rbac.json"
  FAKEAPI_PROXY="$T/fakeapi-proxy.json"
  export FAKEAPI_LOG FAKEAPI_FAULTS FAKEAPI_RBAC FAKEAPI_PROXY
  [ -f "$FAKEAPI_FAULTS" ] || _fakeapi_atomic_write "$FAKEAPI_FAULTS" '[]'
  [ -f "$FAKEAPI_RBAC" ] || _fakeapi_atomic_write "$FAKEAPI_RBAC" '[]'
  [ -f "$FAKEAPI_PROXY" ] || _fakeapi_atomic_write "$FAKEAPI_PROXY" '{}'
  : >"$FAKEAPI_LOG"
  local portfile="$T/fakeapi.port"
  rm -f "$portfile"
  python3 "$FAKEAPI_HOME/server.py" --fixture "$fixture" --certs "$FAKEAPI_CERTS" \
    --port-file "$portfile" --log "$FAKEAPI_LOG" --faults "$FAKEAPI_FAULTS" \
    --rbac "$FAKEAPI_RBAC" --proxy-config "$FAKEAPI_PROXY" \
    --token "$FAKEAPI_TOKEN=gpu-admin" --token "$FAKEAPI_VIEWER_TOKEN=gpu-viewer" \
    --token "$FAKEAPI_EXEC_TOKEN=gpu-exec" \
    --basic "$FAKEAPI_BASIC_USER:$FAKEAPI_BASIC_PASSWORD" --parent-pid "$$" \
    "$@" >"$T/fakeapi.stderr" 2>&1 </dev/null &
  FAKEAPI_PID=$!
  if [ -z "$_fakeapi_registered" ]; then
    on_exit fakeapi_stop
    _fakeapi_registered=1
  fi
  local i n=$(( ${FAKEAPI_START_TIMEOUT:-30} * 10 ))
  for i in $(seq 1 "$n"); do
    [ -s "$portfile" ] && break
    if ! kill -0 "$FAKEAPI_PID" 2>/dev/null; then
      echo "fakeapi: server exited during start-up:" >&2
      sed 's/^/fakeapi: | /' "$T/fakeapi.stderr" >&2
      FAKEAPI_PID=""
      return 1
    fi
    sleep 0.1
  done
  if [ ! -s "$portfile" ]; then
    echo "fakeapi: server did not write $portfile within ${FAKEAPI_START_TIMEOUT:-30} s" >&2
    sed 's/^/fakeapi: | /' "$T/fakeapi.stderr" >&2
    fakeapi_stop
    return 1
  fi
  FAKEAPI_PORT=$(tr -dc 0-9 <"$portfile")
  FAKEAPI_URL="https://127.0.0.1:$FAKEAPI_PORT"
  export FAKEAPI_PORT FAKEAPI_URL
  _fakeapi_kubeconfigs
  KUBECONFIG="$T/kubeconfig-token"
  KUBECACHEDIR="$T/kube-cache"
  export KUBECONFIG KUBECACHEDIR
  return 0
}

# _fakeapi_kubeconfig FILE CLUSTER-LINES USER-LINES : one-context kubeconfig
_fakeapi_kubeconfig() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: fake-cluster
  cluster:
    server: $FAKEAPI_URL
$2
users:
- name: fake-user
  user:
$3
contexts:
- name: fake
  context:
    cluster: fake-cluster
    user: fake-user
current-context: fake
preferences: {}
EOF
}

_fakeapi_kubeconfigs() {
  local c=$FAKEAPI_CERTS ca="    certificate-authority: $FAKEAPI_CERTS/ca.crt"
  _fakeapi_kubeconfig "$T/kubeconfig-token" "$ca" "    token: $FAKEAPI_TOKEN"
  _fakeapi_kubeconfig "$T/kubeconfig-viewer" "$ca" "    token: $FAKEAPI_VIEWER_TOKEN"
  _fakeapi_kubeconfig "$T/kubeconfig-cert" "$ca" "    client-certificate: $c/client.crt
    client-key: $c/client.key"
  _fakeapi_kubeconfig "$T/kubeconfig-certdata" "    certificate-authority-data: $(base64 -w0 <"$c/ca.crt")" \
    "    client-certificate-data: $(base64 -w0 <"$c/client.crt")
    client-key-data: $(base64 -w0 <"$c/client.key")"
  _fakeapi_kubeconfig "$T/kubeconfig-roguecert" "$ca" "    client-certificate: $c/rogue-client.crt
    client-key: $c/rogue-client.key"
  _fakeapi_kubeconfig "$T/kubeconfig-basic" "$ca" "    username: $FAKEAPI_BASIC_USER
    password: $FAKEAPI_BASIC_PASSWORD"
  _fakeapi_kubeconfig "$T/kubeconfig-exec" "$ca" "    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $FAKEAPI_HOME/exec-plugin.sh
      args: [\"get-token\", \"--cluster\", \"fake\"]
      env:
      - name: FAKEAPI_EXEC_TOKEN
        value: $FAKEAPI_EXEC_TOKEN
      interactiveMode: Never
      provideClusterInfo: true
      installHint: fake exec plugin from tests/fakeapi"
  _fakeapi_kubeconfig "$T/kubeconfig-insecure" "    insecure-skip-tls-verify: true" \
    "    token: $FAKEAPI_TOKEN"
  _fakeapi_kubeconfig "$T/kubeconfig-wrongca" "    certificate-authority: $c/other-ca.crt" \
    "    token: $FAKEAPI_TOKEN"
  _fakeapi_kubeconfig "$T/kubeconfig-tlsname" "$ca
    tls-server-name: kgpu-wronghost.test" "    token: $FAKEAPI_TOKEN"
}

fakeapi_faults() { _fakeapi_atomic_write "$FAKEAPI_FAULTS" "${1:-[]}"; }
fakeapi_rbac()   { _fakeapi_atomic_write "$FAKEAPI_RBAC" "${1:-[]}"; }
fakeapi_proxy()  { local empty='{}'; _fakeapi_atomic_write "$FAKEAPI_PROXY" "${1:-$empty}"; }
fakeapi_requests() { cat "$FAKEAPI_LOG"; }
fakeapi_clear_log() { : >"$FAKEAPI_LOG"; }
fakeapi_wait_log() {   # fakeapi_wait_log REGEX SECONDS : until the request log has a matching line
  local re=$1 secs=$2 i
  for i in $(seq 1 $((secs * 10))); do
    grep -qE -- "$re" "$FAKEAPI_LOG" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

fakeapi_count() {   # fakeapi_count PATH_RE [QUERY_RE [METHOD]]
  python3 - "$FAKEAPI_LOG" "${1:-.*}" "${2:-}" "${3:-}" <<'PY'
import json, re, sys
log, pre, qre, method = sys.argv[1:5]
n = 0
for line in open(log, encoding='utf-8'):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if not re.search(pre, e.get('path', '')):
        continue
    if qre and not re.search(qre, e.get('query', '')):
        continue
    if method and e.get('method') != method:
        continue
    n += 1
print(n)
PY
}

fakeapi_stop() {
  [ -n "$FAKEAPI_PID" ] || return 0
  local pid=$FAKEAPI_PID i
  FAKEAPI_PID=""
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  return 0
}
