#!/usr/bin/env bash
# tests/fakeapi/exec-plugin.sh — a client-go exec credential plugin for the fake API server.
# Prints an ExecCredential (client.authentication.k8s.io/v1 unless the request asks for
# v1beta1) carrying a bearer token.  Environment (from the caller or the kubeconfig's exec.env):
#   FAKEAPI_EXEC_TOKEN       token to return (default kgpu-exec-token)
#   FAKEAPI_EXEC_MODE        ok (default) | fail (exit 1, message on stderr) | hang (never
#                            answers) | garbage (not JSON) | expired (a token the server
#                            rejects, expirationTimestamp in the past) | nostatus (no status
#                            field) | notoken (status without token or cert) | wrongversion
#                            (answers with the other apiVersion) | cert (client cert/key PEM
#                            from FAKEAPI_EXEC_CERT / FAKEAPI_EXEC_KEY instead of a token) |
#                            expiring (valid token that expires in 2 seconds) | crlf (the
#                            token followed by "\r\nX-Injected: yes\r\n") | linger (a valid
#                            credential, then exit 0 leaving a child that holds stdout 30 s)
#   FAKEAPI_EXEC_COUNT_FILE  if set, one line is appended per invocation (to count calls)
#   FAKEAPI_EXEC_INFO_FILE   if set, $KUBERNETES_EXEC_INFO is written there
set -u
mode=${FAKEAPI_EXEC_MODE:-ok}
token=${FAKEAPI_EXEC_TOKEN:-kgpu-exec-token}
[ -n "${FAKEAPI_EXEC_COUNT_FILE:-}" ] && echo "$mode $$" >>"$FAKEAPI_EXEC_COUNT_FILE"
[ -n "${FAKEAPI_EXEC_INFO_FILE:-}" ] && printf '%s\n' "${KUBERNETES_EXEC_INFO:-}" >"$FAKEAPI_EXEC_INFO_FILE"

api=client.authentication.k8s.io/v1
case "${KUBERNETES_EXEC_INFO:-}" in
  *'client.authentication.k8s.io/v1beta1'*) api=client.authentication.k8s.io/v1beta1 ;;
esac

ts() { date -u -d "$1" +%Y-%m-%dT%H:%M:%SZ; }
json_str() { python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()))' "$1"; }

case "$mode" in
  ok)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{"token":"%s","expirationTimestamp":"%s"}}\n' \
      "$api" "$token" "$(ts '+1 hour')" ;;
  expiring)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{"token":"%s","expirationTimestamp":"%s"}}\n' \
      "$api" "$token" "$(ts '+2 seconds')" ;;
  crlf)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{"token":"%s\\r\\nX-Injected: yes\\r\\n"}}\n' \
      "$api" "$token" ;;
  linger)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{"token":"%s","expirationTimestamp":"%s"}}\n' \
      "$api" "$token" "$(ts '+1 hour')"
    sleep 30 &
    exit 0 ;;
  expired)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{"token":"kgpu-expired-token","expirationTimestamp":"%s"}}\n' \
      "$api" "$(ts '-1 hour')" ;;
  fail)
    echo "fake-auth: could not get a token: the refresh token has expired (run fake-auth login)" >&2
    exit 1 ;;
  hang)
    exec sleep 3600 ;;
  garbage)
    echo "Please visit https://login.example.test/device and enter code ABCD-EFGH" ;;
  nostatus)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false}}\n' "$api" ;;
  notoken)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{}}\n' "$api" ;;
  wrongversion)
    other=client.authentication.k8s.io/v1beta1
    [ "$api" = "$other" ] && other=client.authentication.k8s.io/v1
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{"token":"%s"}}\n' "$other" "$token" ;;
  cert)
    printf '{"kind":"ExecCredential","apiVersion":"%s","spec":{"interactive":false},"status":{"clientCertificateData":%s,"clientKeyData":%s}}\n' \
      "$api" "$(json_str "${FAKEAPI_EXEC_CERT:?}")" "$(json_str "${FAKEAPI_EXEC_KEY:?}")" ;;
  *)
    echo "exec-plugin.sh: unknown FAKEAPI_EXEC_MODE=$mode" >&2
    exit 2 ;;
esac
