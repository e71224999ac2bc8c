#!/usr/bin/env bash
# The fake API server is good enough for the real kubectl: discovery (aggregated and legacy),
# server-side tables, -o json, pagination with --chunk-size, token / client-certificate /
# basic / exec auth, 401 rendering.  Then kubectl's plugin lookup runs our binary as
# `kubectl gpu`.  Needs /usr/bin/kubectl (or kubectl on PATH): missing kubectl is a failure.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

FIX="$KGPU_ROOT/tests/fixtures/api/small.json"
KUBECTL=$(command -v kubectl || true)
[ -z "$KUBECTL" ] && [ -x /usr/bin/kubectl ] && KUBECTL=/usr/bin/kubectl
if [ -z "$KUBECTL" ]; then
  fail "kubectl not found on PATH: this test needs the real kubectl"
  exit 1
fi
ok "kubectl found at $KUBECTL"

# kc ARGS... : kubectl with a 60 s bound; $OUT $ERR $RC
kc() {
  OUT=$(timeout 60 "$KUBECTL" "$@" 2>"$T/.kstderr"); RC=$?
  ERR=$(cat "$T/.kstderr")
}
# rows OUTPUT: data rows of a table (header excluded)
rows() { tail -n +2 <<<"$1" | grep -c .; }

if ! fakeapi_start "$FIX"; then
  fail "fake API server did not start"
  exit 1
fi
ok "fake API server listening on $FAKEAPI_URL"

# --- token auth, aggregated discovery, server-side Table ---------------------------------
kc get nodes
check_rc 0 "kubectl get nodes (token)"
check_match "$OUT" '^NAME +STATUS +ROLES +AGE +VERSION' "get nodes: kubectl's node columns"
check_match "$OUT" '^gpu-h100-0 +Ready +<none> +[0-9]+[a-z0-9]* +v1\.31\.4' "get nodes: row for gpu-h100-0"
check_eq "$(rows "$OUT")" 3 "get nodes: 3 rows"
check_eq "$(fakeapi_count '^/api$' '' GET)" 1 "kubectl read /api once"
check_eq "$(fakeapi_count '^/api/v1$')" 0 "aggregated discovery: no per-group-version discovery requests"
if grep '"path":"/api/v1/nodes"' "$FAKEAPI_LOG" | grep -q 'as=Table'; then
  ok "kubectl asked for a server-side Table"
else
  fail "kubectl did not ask for as=Table: $(grep '/api/v1/nodes' "$FAKEAPI_LOG")"
fi

kc get nodes -o wide
check_rc 0 "kubectl get nodes -o wide"
check_match "$OUT" 'INTERNAL-IP +EXTERNAL-IP +OS-IMAGE +KERNEL-VERSION +CONTAINER-RUNTIME' "wide node columns"
check_match "$OUT" '^gpu-l4-0 .* 10\.0\.1\.13 +<none> +Ubuntu 22\.04\.5 LTS +5\.15\.0-1071-aws +containerd://1\.7\.22' "wide node row"

kc get pods -A
check_rc 0 "kubectl get pods -A"
check_match "$OUT" '^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE' "get pods -A: columns"
check_eq "$(rows "$OUT")" 14 "get pods -A: 14 rows"
check_match "$OUT" '^team-a +train-7f9c +1/1 +Running +0 ' "GPU pod row"
check_match "$OUT" '^team-a +train-large-0 +0/1 +Pending +0 ' "Pending GPU pod row"
check_match "$OUT" '^default +nightly-benchmark-28951200-6xk4d +0/1 +Completed ' "Succeeded pod prints Completed"
check_match "$OUT" '^default +debug-shell +0/1 +SchedulingGated ' "gated pod prints SchedulingGated"
check_match "$OUT" '^gpu-operator +nvidia-dcgm-exporter-b3n8r +1/1 +Running +1 \([0-9a-z]+ ago\)' "restart count with last restart"

kc get pods -n team-a
check_rc 0 "kubectl get pods -n team-a"
check_eq "$(rows "$OUT")" 2 "namespaced list: 2 rows"
check_eq "$(fakeapi_count '^/api/v1/namespaces/team-a/pods$')" 1 "namespaced list path used"

kc get pods -A --field-selector=spec.nodeName=gpu-a100-0,status.phase!=Succeeded -o name
check_rc 0 "kubectl get pods with field selector"
check_eq "$(grep -c . <<<"$OUT")" 5 "field selector: 5 non-Succeeded pods on gpu-a100-0"
kc get nodes -l 'nvidia.com/gpu.sharing-strategy=time-slicing' -o name
check_eq "$OUT" "node/gpu-l4-0" "label selector on nodes"
kc get pods -A --field-selector=spec.bogus=1
check_rc 1 "unsupported field selector fails"
check_contains "$ERR" 'field label not supported: spec.bogus' "field selector error from the server"

kc get clusterpolicies.nvidia.com
check_rc 0 "kubectl get clusterpolicies"
check_match "$OUT" '^cluster-policy +ready ' "ClusterPolicy printer columns (STATUS)"
kc get ds,svc,cm,quota -n gpu-operator
check_rc 0 "kubectl get ds,svc,cm,quota"
check_match "$OUT" 'daemonset.apps/nvidia-dcgm-exporter +3 +3 +3 +3 +3 ' "daemonset row"
check_match "$OUT" 'service/nvidia-dcgm-exporter +ClusterIP +10\.96\.142\.7 +<none> +9400/TCP' "service row"
kc get events -n team-a --field-selector reason=FailedScheduling
check_rc 0 "kubectl get events with field selector"
check_match "$OUT" 'Warning +FailedScheduling +pod/train-large-0 +0/3 nodes are available' "FailedScheduling event row"
kc get node does-not-exist
check_rc 1 "get of a missing node fails"
check_contains "$ERR" 'Error from server (NotFound): nodes "does-not-exist" not found' "NotFound rendered as kubectl does"

# --- -o json and pagination ------------------------------------------------------------
kc get nodes -o json
check_rc 0 "kubectl get nodes -o json"
check_eq "$(json_get "$OUT" 'd["kind"]')" "List" "nodes -o json: a List"
check_eq "$(json_get "$OUT" 'len(d["items"])')" 3 "nodes -o json: 3 items"
check_eq "$(json_get "$OUT" 'd["items"][0]["kind"]')" "Node" "kubectl restores item kind"
check_eq "$(json_get "$OUT" '[n["metadata"]["labels"]["nvidia.com/gpu.product"] for n in d["items"]]')" \
  "['NVIDIA-A100-SXM4-80GB', 'NVIDIA-H100-80GB-HBM3', 'NVIDIA-L4-SHARED']" "GFD product labels survive"

fakeapi_clear_log
kc get pods -A -o json --chunk-size=2
check_rc 0 "kubectl get pods -A -o json --chunk-size=2"
check_eq "$(json_get "$OUT" 'len(d["items"])')" 14 "paged list: all 14 pods"
check_eq "$(json_get "$OUT" 'len(set((p["metadata"]["namespace"], p["metadata"]["name"]) for p in d["items"]))')" 14 "paged list: no duplicates"
check_eq "$(fakeapi_count '^/api/v1/pods$' 'limit=2')" 7 "7 pages of 2"
check_eq "$(fakeapi_count '^/api/v1/pods$' 'continue=')" 6 "6 continue requests"
check_eq "$(grep -c '"method":"GET"' "$FAKEAPI_LOG")" "$(grep -c . "$FAKEAPI_LOG")" "kubectl get sent only GETs"

# --- legacy discovery: a server without aggregated discovery ------------------------------
fakeapi_start "$FIX" --no-aggregated-discovery || fail "restart without aggregated discovery"
rm -rf "$KUBECACHEDIR"
kc get pods -A -o name
check_rc 0 "kubectl with legacy discovery"
check_eq "$(grep -c . <<<"$OUT")" 14 "legacy discovery: 14 pods"
if [ "$(fakeapi_count '^/api/v1$')" -ge 1 ] && [ "$(fakeapi_count '^/apis/apps/v1$')" -ge 1 ]; then
  ok "kubectl walked the legacy group-version documents"
else
  fail "kubectl did not read /api/v1 and /apis/apps/v1: $(cut -c1-120 "$FAKEAPI_LOG")"
fi
kc get clusterpolicies -o name
check_eq "$OUT" "clusterpolicy.nvidia.com/cluster-policy" "CRD group found through legacy discovery"

# --- other credentials -----------------------------------------------------------------
fakeapi_start "$FIX" || fail "restart"
for kind in cert certdata basic exec; do
  fakeapi_clear_log
  kc --kubeconfig "$T/kubeconfig-$kind" get nodes -o name
  check_rc 0 "kubectl get nodes with kubeconfig-$kind"
  check_eq "$(grep -c . <<<"$OUT")" 3 "kubeconfig-$kind: 3 nodes"
  want=$kind; [ "$kind" = certdata ] && want=cert; [ "$kind" = exec ] && want=token
  check_eq "$(python3 -c 'import json,sys; print(sorted({json.loads(l)["auth"] for l in open(sys.argv[1])}))' "$FAKEAPI_LOG")" \
    "['$want']" "kubeconfig-$kind: server saw $want auth"
done
fakeapi_clear_log
kc --kubeconfig "$T/kubeconfig-cert" get pods -A -o json --chunk-size=5
check_rc 0 "client-cert auth with pagination"
check_eq "$(json_get "$OUT" 'len(d["items"])')" 14 "client-cert paged list: 14 pods"
check_eq "$(fakeapi_count '^/api/v1/pods$' 'continue=')" 2 "client-cert: 2 continue requests"
check_contains "$(fakeapi_requests)" '"user":"gpu-admin"' "client cert CN mapped to user gpu-admin"

kc --kubeconfig "$T/kubeconfig-insecure" get nodes -o name
check_rc 0 "insecure-skip-tls-verify works"
kc --kubeconfig "$T/kubeconfig-wrongca" get nodes -o name
check_rc 1 "wrong CA is rejected"
check_contains "$ERR" "certificate signed by unknown authority" "wrong CA: x509 error"
kc --kubeconfig "$T/kubeconfig-roguecert" get nodes -o name
check_rc 1 "client cert from an unrelated CA is rejected"

# --- tls-server-name against a server certificate for another host name -----------------
fakeapi_start "$FIX" --server-cert wronghost || fail "restart with the wronghost certificate"
kc get nodes -o name
check_rc 1 "server certificate without 127.0.0.1 is rejected"
check_contains "$ERR" "x509: cannot validate certificate for 127.0.0.1" "host name mismatch reported by kubectl"
kc --kubeconfig "$T/kubeconfig-tlsname" get nodes -o name
check_rc 0 "tls-server-name matches the certificate"
check_eq "$(grep -c . <<<"$OUT")" 3 "tls-server-name: 3 nodes"
fakeapi_start "$FIX" || fail "restart"

# --- watch (server-side Table stream) ------------------------------------------------------
OUT=$(timeout 60 "$KUBECTL" get nodes --watch --request-timeout=2s 2>"$T/.kstderr")
check_eq "$(rows "$OUT")" 3 "kubectl get --watch prints the nodes, then watches"
check_eq "$(fakeapi_count '^/api/v1/nodes$' 'watch=true')" 1 "kubectl opened one watch"

# --- 401 / 403 ---------------------------------------------------------------------------
kc --token not-a-valid-token get nodes
check_rc 1 "kubectl with a bad token fails"
check_contains "$ERR" "Unauthorized" "bad token: Unauthorized"
check_contains "$ERR" "error: You must be logged in to the server (Unauthorized)" "bad token: kubectl's 401 message"
fakeapi_rbac '[{"user":"gpu-viewer","verb":"list","resource":"pods","namespace":""}]'
kc --kubeconfig "$T/kubeconfig-viewer" get pods -A
check_rc 1 "denied cluster-wide pod list fails"
check_contains "$ERR" 'Error from server (Forbidden): pods is forbidden: User "gpu-viewer" cannot list resource "pods" in API group "" at the cluster scope' "403 rendered with the real message"
kc --kubeconfig "$T/kubeconfig-viewer" get pods -n team-b -o name
check_rc 0 "namespaced pod list still allowed for the viewer"
fakeapi_rbac '[]'

# --- kubectl's plugin lookup runs our binary ---------------------------------------------
if [ ! -x "$KGPU_BIN" ]; then
  fail "KGPU_BIN=$KGPU_BIN is not an executable (build with make)"
else
  bin=$(readlink -f "$KGPU_BIN")
  mkdir -p "$T/plugins"
  ln -sf "$bin" "$T/plugins/kubectl-gpu"
  OUT=$(PATH="$T/plugins:$PATH" timeout 60 "$KUBECTL" plugin list 2>&1)
  check_contains "$OUT" "$T/plugins/kubectl-gpu" "kubectl plugin list finds kubectl-gpu"
  OUT=$(PATH="$T/plugins:$PATH" timeout 60 "$KUBECTL" gpu version 2>"$T/.kstderr"); RC=$?
  ERR=$(cat "$T/.kstderr")
  check_rc 0 "kubectl gpu version"
  check_contains "$OUT" "kubectl-gpu" "kubectl gpu version prints kubectl-gpu"
  direct=$(timeout 60 "$bin" version 2>&1)
  check_eq "$OUT" "$direct" "kubectl gpu version = kubectl-gpu version"
fi
