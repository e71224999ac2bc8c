#!/usr/bin/env bash
# Talking to a cluster with every kind of credential, against the fake API server
# (tests/fakeapi): bearer token, token file, client certificate (files and data), basic auth,
# exec plugin (token, client certificate, caching, 401 refresh, every failure), insecure,
# tls-server-name, impersonation, in-cluster service account; TLS failures named; every
# request a GET; no secret in any output, even at -v=9.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT

# last_user: the user the server saw on the last logged request
last_user() { tail -n 1 "$FAKEAPI_LOG" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["user"])'; }
items() { json_get "$OUT" "len(d['items'])"; }
# what a snapshot of the fixture holds: the kinds read, pods not terminal, scheduling events,
# the ConfigMaps the ClusterPolicy names (device plugin, mig-parted) in its namespace
want_items=$(python3 - "$KGPU_ROOT/tests/fixtures/api/small.json" <<'PY'
import json, sys
n = 0
items = json.load(open(sys.argv[1]))['items']
cp = [i for i in items if i['kind'] == 'ClusterPolicy'][0]
named = {(cp['status']['namespace'], cp['spec'].get(s, {}).get('config', {}).get('name') or d)
         for s, d in (('devicePlugin', None), ('migManager', 'default-mig-parted-config'))}
for i in items:
    k = i['kind']
    if k == 'ConfigMap' and (i['metadata'].get('namespace'), i['metadata']['name']) in named: n += 1
    if k == 'Pod' and i.get('status', {}).get('phase') in ('Succeeded', 'Failed'): continue
    if k == 'Event' and i.get('reason') not in ('FailedScheduling', 'FailedCreate'): continue
    if k in ('Node', 'Pod', 'Event', 'ResourceQuota', 'DaemonSet', 'ClusterPolicy', 'Service'): n += 1
print(n)
PY
)

# ---- every auth kind gets the same snapshot ----
declare -A want_user=([token]=gpu-admin [cert]=gpu-admin [certdata]=gpu-admin [basic]=gpu-basic
                      [exec]=gpu-exec [insecure]=gpu-admin)
for kind in token cert certdata basic exec insecure; do
  fakeapi_clear_log
  KUBECONFIG=$T/kubeconfig-$kind kgpu snapshot
  check_rc 0 "snapshot with $kind"
  check_eq "$(json_get "$OUT" "d['kind']")" "List" "$kind: a List"
  check_eq "$(items)" "$want_items" "$kind: nodes, pods, events, quotas, daemonsets, clusterpolicy, services, configmaps"
  check_eq "$(last_user)" "${want_user[$kind]}" "$kind: the server saw ${want_user[$kind]}"
  check_eq "$(fakeapi_count '.*')" "$(fakeapi_count '.*' '' GET)" "$kind: every request was a GET"
done
check_eq "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/context']")" "fake" "context named in the snapshot"
check_match "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/snapshot-time']")" '^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' "snapshot time annotated"
check_eq "$(json_get "$OUT" "sorted({i['kind'] for i in d['items']})")" \
  "['ClusterPolicy', 'ConfigMap', 'DaemonSet', 'Event', 'Node', 'Pod', 'ResourceQuota', 'Service']" "items carry their kind"
check_eq "$(json_get "$OUT" "[i['apiVersion'] for i in d['items'] if i['kind'] in ('DaemonSet','ClusterPolicy')][-1]")" "nvidia.com/v1" "items carry their apiVersion"
check_eq "$(json_get "$OUT" "any('managedFields' in i['metadata'] for i in d['items'])")" "False" "managedFields left out"
ua=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["userAgent"])' "$FAKEAPI_LOG")
check_match "$ua" '^kubectl-gpu/v[0-9.]+ \(linux/[a-z0-9]+\) kubernetes/unknown$' "User-Agent as kubectl's"
check_eq "$(fakeapi_count '^/api/v1/pods$' 'fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed')" "1" "pods listed without terminal ones"
check_eq "$(fakeapi_count '^/api/v1/events$' 'fieldSelector=reason%3DFailedScheduling')" "1" "FailedScheduling events listed"
check_eq "$(fakeapi_count '.*' 'limit=500')" "$(fakeapi_requests | python3 -c 'import json,sys; print(sum(1 for l in sys.stdin if l.strip() and "/configmaps/" not in json.loads(l)["path"] and "/proxy" not in json.loads(l)["path"]))')" "every list paginated with limit=500 (the named ConfigMaps are single GETs; the metrics the snapshot stores are asked through the proxies)"

# status reads the cluster the same way, with every auth kind
for kind in token cert certdata basic exec insecure; do
  KUBECONFIG=$T/kubeconfig-$kind kgpu status --no-metrics -o json
  check_rc 0 "status with $kind"
  check_eq "$(json_get "$OUT" "d['summary']['nodes']")" "3" "status with $kind: the fixture's nodes"
done

# -o FILE: written whole, nothing left behind; a snapshot reads back
kgpu snapshot -o "$T/snap.json"
check_rc 0 "snapshot -o FILE"
check_eq "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["items"]))' "$T/snap.json")" "$want_items" "FILE holds the List"
check_eq "$(ls "$T" | grep -c 'snap.json.tmp')" "0" "no temporary file left"
# the snapshot gives the same status as the live cluster
kgpu status --no-metrics -o json
live=$(json_get "$OUT" "json.dumps([d['summary'], d['nodes'], d.get('operator')], sort_keys=True)")
kgpu status --no-metrics -o json --snapshot "$T/snap.json"
check_rc 0 "status --snapshot"
check_eq "$(json_get "$OUT" "json.dumps([d['summary'], d['nodes'], d.get('operator')], sort_keys=True)")" "$live" "status from the snapshot = status live"
kgpu snapshot extra-arg
check_rc 2 "snapshot takes no arguments"
kgpu snapshot --snapshot "$T/snap.json"
check_rc 2 "snapshot with --snapshot is a usage error"

# ---- tokenFile, relative to the kubeconfig ----
mkdir -p "$T/tf"
printf '%s\n' "$FAKEAPI_TOKEN" >"$T/tf/token"
sed "s|    token: $FAKEAPI_TOKEN|    tokenFile: token|" "$T/kubeconfig-token" >"$T/tf/config"
KUBECONFIG=$T/tf/config kgpu snapshot
check_rc 0 "tokenFile resolved against the kubeconfig's directory"
check_eq "$(last_user)" "gpu-admin" "tokenFile: the server saw gpu-admin"

# ---- a wrong token: 401 named with the context ----
sed "s|    token: $FAKEAPI_TOKEN|    token: not-a-valid-token|" "$T/kubeconfig-token" >"$T/kubeconfig-badtoken"
KUBECONFIG=$T/kubeconfig-badtoken kgpu snapshot
check_rc 1 "wrong token"
check_eq "$ERR" 'error: the server rejected the credentials of context "fake" (Unauthorized); check the token/certificate, or log in again' "401 message"
check_eq "$OUT" "" "nothing on stdout after a failure"

# ---- TLS problems named ----
KUBECONFIG=$T/kubeconfig-wrongca kgpu snapshot
check_rc 1 "wrong CA"
check_contains "$ERR" "TLS verification of the API server 127.0.0.1 failed" "wrong CA: names the host"
check_contains "$ERR" "using CA file $FAKEAPI_CERTS/other-ca.crt" "wrong CA: names the CA file"
check_one_line_err "wrong CA"
KUBECONFIG=$T/kubeconfig-roguecert kgpu snapshot --request-timeout 10s
check_rc 1 "client certificate from another CA"
check_contains "$ERR" "refused the TLS connection" "rogue cert: says the server refused"
check_contains "$ERR" 'check the client certificate of user "fake-user"' "rogue cert: names the user's certificate"
KUBECONFIG=$T/kubeconfig-tlsname kgpu snapshot
check_rc 1 "tls-server-name not in the server's certificate"
check_contains "$ERR" "(verified as kgpu-wronghost.test, the tls-server-name)" "tls-server-name named"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" --server-cert wronghost || fail "restart with the wronghost cert"
KUBECONFIG=$T/kubeconfig-tlsname kgpu snapshot
check_rc 0 "tls-server-name verifies a certificate for another name"
KUBECONFIG=$T/kubeconfig-token kgpu snapshot
check_rc 1 "without tls-server-name the same certificate fails"
check_contains "$ERR" "target host name '127.0.0.1'" "host name mismatch explained"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || fail "restart"

# ---- exec plugin ----
export FAKEAPI_EXEC_COUNT_FILE=$T/exec-count FAKEAPI_EXEC_INFO_FILE=$T/exec-info
rm -f "$FAKEAPI_EXEC_COUNT_FILE"
KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_rc 0 "exec plugin"
check_eq "$(wc -l <"$FAKEAPI_EXEC_COUNT_FILE")" "1" "exec plugin ran once for all requests (cached)"
info=$(cat "$FAKEAPI_EXEC_INFO_FILE")
check_eq "$(json_get "$info" "d['apiVersion']+' '+str(d['spec']['interactive'])")" "client.authentication.k8s.io/v1 False" "KUBERNETES_EXEC_INFO: apiVersion, not interactive"
check_eq "$(json_get "$info" "d['spec']['cluster']['server']")" "$FAKEAPI_URL" "KUBERNETES_EXEC_INFO: spec.cluster (provideClusterInfo)"
check_eq "$(json_get "$info" "'BEGIN CERTIFICATE' in __import__('base64').b64decode(d['spec']['cluster']['certificate-authority-data']).decode()")" "True" "KUBERNETES_EXEC_INFO: the cluster's CA"

# expired: the server answers 401, the plugin is run once more, then the error
rm -f "$FAKEAPI_EXEC_COUNT_FILE"
FAKEAPI_EXEC_MODE=expired KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_rc 1 "exec credential rejected"
check_eq "$(wc -l <"$FAKEAPI_EXEC_COUNT_FILE")" "2" "401 re-runs the plugin once"
check_contains "$ERR" 'the server rejected the credentials of context "fake" (Unauthorized)' "exec 401 message"

# the plugin returns a client certificate instead of a token
FAKEAPI_EXEC_MODE=cert FAKEAPI_EXEC_CERT=$FAKEAPI_CERTS/client.crt FAKEAPI_EXEC_KEY=$FAKEAPI_CERTS/client.key \
  KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_rc 0 "exec plugin returning a client certificate"
check_eq "$(last_user)" "gpu-admin" "exec cert: the server saw the certificate's user"

FAKEAPI_EXEC_MODE=expiring KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_rc 0 "exec credential that expires soon"

exec_plugin="$KGPU_ROOT/tests/fakeapi/exec-plugin.sh"
FAKEAPI_EXEC_MODE=fail KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_rc 1 "exec plugin failing"
check_contains "$ERR" "kubeconfig $T/kubeconfig-exec: user \"fake-user\": exec: executable $exec_plugin failed with exit code 1" "exit code named"
check_contains "$ERR" "fake-auth: could not get a token" "the plugin's stderr reaches the user"
FAKEAPI_EXEC_MODE=garbage KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_rc 1 "exec plugin printing garbage"
check_contains "$ERR" "exec: executable $exec_plugin returned invalid output: not JSON" "garbage named"
check_not_contains "$ERR" "ABCD-EFGH" "the plugin's stdout is not repeated"
FAKEAPI_EXEC_MODE=nostatus KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_contains "$ERR" "exec plugin didn't return a status field" "no status"
FAKEAPI_EXEC_MODE=notoken KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_contains "$ERR" "exec plugin didn't return a token or cert/key pair" "no token"
FAKEAPI_EXEC_MODE=wrongversion KUBECONFIG=$T/kubeconfig-exec kgpu snapshot
check_contains "$ERR" "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version client.authentication.k8s.io/v1beta1" "version mismatch"
start=$(date +%s)
FAKEAPI_EXEC_MODE=hang KUBECONFIG=$T/kubeconfig-exec kgpu snapshot --request-timeout 2s
check_rc 1 "hanging exec plugin"
check_contains "$ERR" "did not finish within 2 s and was stopped" "hang bounded"
check_eq "$(( $(date +%s) - start < 15 ))" "1" "hang stopped quickly"
sed "s|command: .*exec-plugin.sh|command: kgpu-no-such-auth-plugin|" "$T/kubeconfig-exec" >"$T/kubeconfig-noexec"
KUBECONFIG=$T/kubeconfig-noexec kgpu snapshot
check_rc 1 "exec plugin not installed"
check_eq "$ERR" "error: kubeconfig $T/kubeconfig-noexec: user \"fake-user\": exec: executable kgpu-no-such-auth-plugin not found; fake exec plugin from tests/fakeapi" "not found + installHint"
unset FAKEAPI_EXEC_COUNT_FILE FAKEAPI_EXEC_INFO_FILE

# ---- impersonation: the headers reach the server (which has no impersonation: it ignores them) ----
sed "s|    token: $FAKEAPI_TOKEN|    token: $FAKEAPI_TOKEN\n    as: jane\n    as-groups: [gpu-users]|" "$T/kubeconfig-token" >"$T/kubeconfig-as"
KUBECONFIG=$T/kubeconfig-as kgpu snapshot -v=3
check_rc 0 "impersonation"
check_contains "$ERR" "> Impersonate-User: jane" "Impersonate-User sent"
check_contains "$ERR" "> Impersonate-Group: gpu-users" "Impersonate-Group sent"

# ---- in-cluster service account ----
mkdir -p "$T/sa"
printf '%s' "$FAKEAPI_TOKEN" >"$T/sa/token"
cp "$FAKEAPI_CERTS/ca.crt" "$T/sa/ca.crt"
printf 'gpu-system\n' >"$T/sa/namespace"
KUBECONFIG=/nonexistent/config KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=$FAKEAPI_PORT \
  KUBECTL_GPU_SA_DIR=$T/sa kgpu snapshot
check_rc 0 "in-cluster config"
check_eq "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/context']")" "in-cluster" "in-cluster context"
check_eq "$(last_user)" "gpu-admin" "in-cluster: the service account token was sent"
KUBECONFIG=/nonexistent/config kgpu snapshot
check_rc 1 "no kubeconfig, not in a pod"
check_eq "$ERR" "error: no kubeconfig found (looked in /nonexistent/config); set KUBECONFIG or use --kubeconfig" "no kubeconfig message"

# ---- no secret in any output, at any verbosity ----
secrets=("$FAKEAPI_TOKEN" "$FAKEAPI_BASIC_PASSWORD" "$FAKEAPI_EXEC_TOKEN"
         "$(sed -n 2p "$FAKEAPI_CERTS/client.key")" "$(base64 -w0 <"$FAKEAPI_CERTS/client.key" | cut -c1-40)"
         "$(printf '%s:%s' "$FAKEAPI_BASIC_USER" "$FAKEAPI_BASIC_PASSWORD" | base64 -w0)")
for kind in token cert certdata basic exec insecure badtoken wrongca; do
  for v in 1 3 9; do
    KUBECONFIG=$T/kubeconfig-$kind kgpu snapshot -v=$v
    leaked=""
    for s in "${secrets[@]}"; do
      if grep -qF -- "$s" <<<"$OUT$ERR"; then leaked=yes; fi
    done
    if [ -z "$leaked" ]; then ok "no secret in the output: $kind -v=$v"; else fail "a secret leaked: $kind -v=$v"; fi
  done
done
KUBECONFIG=$T/kubeconfig-token kgpu snapshot -v=9
check_contains "$ERR" "> Authorization: <redacted>" "-v=9 shows the Authorization header redacted"
KUBECONFIG=$T/kubeconfig-basic kgpu snapshot -v=9
check_contains "$ERR" "> Authorization: <redacted>" "-v=9 basic auth redacted"
check_match "$ERR" "GET $FAKEAPI_URL/api/v1/nodes\?limit=500 200 OK, [0-9]+ bytes, [0-9]+ ms" "-v: one line per request"
check_eq "$(fakeapi_count '.*')" "$(fakeapi_count '.*' '' GET)" "the whole run made only GET requests"
