#!/usr/bin/env bash
# `kubectl gpu top -n NS` and `top -l SEL`: -n scopes the pods as kubectl's flag does, -l selects
# nodes as it does for status (product.md: "-l/--selector SEL (node label selector for
# status/top/plan)").
#  - -n: the lists and the watches of pods, events and quotas use the namespace's path: the
#    server is never asked for the other namespaces' (its request log); the header says
#    "pods: NS"; the header's GPU allocation and pending count equal `status -o json` of the
#    fixture with the other namespaces' pods removed (computed here in Python from the fixture);
#    a pending GPU pod created in the namespace shows, one in another does not;
#  - -l: nodes are listed and watched with the labelSelector (never without it); the header says
#    "nodes: SEL"; the numbers equal `status -l SEL -o json` of the fixture, before and after
#    pods are bound (one to a matching node counts, one to another node does not);
#  - --snapshot applies the same scopes (-n and -l together: status -l SEL of the -n fixture;
#    the header says "pods: NS  nodes: SEL", the short one first: a long snapshot path cuts it).
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"

FIX="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
. "$KGPU_ROOT/tests/lib/tmux.sh"

# scoped FILE NS : the fixture with only the pods, events and quotas of namespace NS (what top -n
# NS reads)
scoped() {
  python3 - "$FIX" "$@" <<'PY'
import json, sys
fix, out, ns = sys.argv[1:4]
d = json.load(open(fix))
def keep(i):
    md = i.get('metadata') or {}
    if i['kind'] in ('Pod', 'Event', 'ResourceQuota'):
        return md.get('namespace') == ns
    return True
d['items'] = [i for i in d['items'] if keep(i)]
json.dump(d, open(out, 'w'))
PY
}
# with_pods FILE POD_JSON... : the fixture with these pods added
with_pods() {
  python3 - "$FIX" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['items'] += [json.loads(p) for p in sys.argv[3:]]
json.dump(d, open(sys.argv[2], 'w'))
PY
}
# the header's numbers expected from status -o json of a file (and -l SEL): "gpu A/B" and the
# pending count: the pods status counts and the owners whose pods a quota refused, which the
# pending pane lists too (issue 34: one count; those do not depend on the nodes -l selects)
expect_of() {
  kgpu status --snapshot "$@" --no-metrics -o json
  EXP_GPU=$(json_get "$OUT" "d['summary']['resources']['nvidia.com/gpu']['allocated']")
  EXP_PENDING=$(json_get "$OUT" "d['summary']['pendingGPUPods']")
  kgpu pending --snapshot "$1" -A -o json
  EXP_PENDING=$((EXP_PENDING + $(json_get "$OUT" "len([p for p in d['pods'] if not p['created']])")))
}

NEW_IN='{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "whisper-asr-9952d387b-newpd", "namespace": "ml-inference",
  "labels": {"app": "whisper-asr", "pod-template-hash": "9952d387b"}, "uid": "7d0c1a2b-0000-4c5d-8e9f-000000000101",
  "creationTimestamp": "2026-11-24T03:00:00Z"},
  "spec": {"schedulerName": "default-scheduler", "containers": [{"name": "asr", "image": "nvcr.io/nvidia/riva/riva-speech:2.15.0",
  "resources": {"limits": {"nvidia.com/gpu": "1"}, "requests": {"cpu": "2", "memory": "6Gi", "nvidia.com/gpu": "1"}}}]},
  "status": {"phase": "Pending"}}'
NEW_OUT='{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "rl-sim-2", "namespace": "research",
  "labels": {"app": "rl-sim"}, "uid": "7d0c1a2b-0000-4c5d-8e9f-000000000102", "creationTimestamp": "2026-11-24T03:00:00Z"},
  "spec": {"schedulerName": "default-scheduler", "containers": [{"name": "sim", "image": "nvcr.io/nvidia/pytorch:24.05-py3",
  "resources": {"limits": {"nvidia.com/gpu": "2"}}}]}, "status": {"phase": "Pending"}}'
cat >"$T/scenario.json" <<EOF
{"steps": [{"after": 4, "op": "add", "object": $NEW_OUT}, {"after": 0.5, "op": "add", "object": $NEW_IN}]}
EOF

# ---- -n ml-inference ----------------------------------------------------------------------------
scoped "$T/scoped.json" ml-inference
expect_of "$T/scoped.json"
GPU0=$EXP_GPU PEND0=$EXP_PENDING
check_match "$GPU0" '^[0-9]+$' "the scoped fixture's allocation is computed ($GPU0 GPUs)"
fakeapi_start "$FIX" --scenario "$T/scenario.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
start_shell live 160 40 KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
keys live "$KGPU_BIN top --no-metrics -n ml-inference; echo TOP-EXIT=\$?" Enter
MSG="-n: starts"; check_ok wait_re live "live \(watch\)" 20
check_contains "$SCREEN" "pods: ml-inference" "the header says which pods were read"
check_not_contains "$(head -1 <<<"$SCREEN")" "nodes: " "the header claims no node selector"
MSG="GPU allocation as for a cluster of those pods only ($GPU0)"; check_ok wait_re live " gpu $GPU0/" 10
check_match "$SCREEN" "Pending $PEND0 " "pending count as for a cluster of those pods only ($PEND0)"
MSG="-n: the pending pod created in scope shows"; check_ok wait_re live "Pending $((PEND0 + 1)) " 15
check_contains "$SCREEN" "whisper-asr-9952d387b-newpd" "its row is in the pending list"
check_not_contains "$SCREEN" "rl-sim-2" "the pod created out of scope is not"
keys live q
MSG="-n: q quits"; check_ok wait_re live "TOP-EXIT=0" 10
check_eq "$(fakeapi_count '^/api/v1/pods$' '')" 0 "the server was never asked for every namespace's pods"
check_match "$(fakeapi_count '^/api/v1/namespaces/ml-inference/pods$' '^(?!.*watch=1)')" '^1$' "pods listed once, in the namespace"
check_match "$(fakeapi_count '^/api/v1/namespaces/ml-inference/pods$' 'watch=1')" '^[1-9]' "pods watched in the namespace"
check_eq "$(fakeapi_count '^/api/v1/(namespaces/[^/]+/)?pods$' 'labelSelector')" 0 "no pod label selector (-l is not given)"
check_eq "$(fakeapi_count '^/api/v1/nodes$' 'labelSelector')" 0 "no node label selector (-l is not given)"
check_match "$(fakeapi_count '^/api/v1/namespaces/ml-inference/events$' 'watch=1')" '^[1-9]' "events watched in the namespace"
check_eq "$(fakeapi_count '^/api/v1/(events|resourcequotas)$' '')" 0 "events and quotas never asked for every namespace"
TM kill-session -t live

# ---- -l SEL: nodes --------------------------------------------------------------------------------
# two running pods bound after the start: one to a10g-01 (does not match SEL), then one to
# h100-02 (matches, a GPU free); expected numbers from status -l SEL of the fixture, then of it
# with both pods
SEL=nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3
SEL_Q='nvidia\.com%2Fgpu\.product%3DNVIDIA-H100-80GB-HBM3'
BOUND_IN='{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "triton-llm-0", "namespace": "ml-inference",
  "labels": {"app": "triton-llm"}, "uid": "7d0c1a2b-0000-4c5d-8e9f-000000000103", "creationTimestamp": "2026-11-24T03:00:00Z"},
  "spec": {"nodeName": "h100-02", "schedulerName": "default-scheduler", "containers": [{"name": "triton",
  "image": "nvcr.io/nvidia/tritonserver:24.05-py3", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
  "status": {"phase": "Running"}}'
BOUND_OUT='{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "sd-xl-0", "namespace": "research",
  "labels": {"app": "sd-xl"}, "uid": "7d0c1a2b-0000-4c5d-8e9f-000000000104", "creationTimestamp": "2026-11-24T03:00:00Z"},
  "spec": {"nodeName": "a10g-01", "schedulerName": "default-scheduler", "containers": [{"name": "sd",
  "image": "nvcr.io/nvidia/pytorch:24.05-py3", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
  "status": {"phase": "Running"}}'
cat >"$T/scenario2.json" <<EOF
{"steps": [{"after": 4, "op": "add", "object": $BOUND_OUT}, {"after": 0.5, "op": "add", "object": $BOUND_IN}]}
EOF
expect_of "$FIX"
ALL0=$EXP_GPU
expect_of "$FIX" -l "$SEL"
GPU2=$EXP_GPU PEND2=$EXP_PENDING
with_pods "$T/bound.json" "$BOUND_IN" "$BOUND_OUT"
expect_of "$T/bound.json" -l "$SEL"
GPU3=$EXP_GPU
check_eq "$GPU3" "$((GPU2 + 1))" "the fixture: under -l the pod bound to h100-02 counts, the one on a10g-01 not"
expect_of "$T/bound.json"
check_eq "$EXP_GPU" "$((ALL0 + 2))" "the fixture: without -l both count (so the test tells them apart)"
fakeapi_start "$FIX" --scenario "$T/scenario2.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
start_shell live2 160 40 KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
keys live2 "$KGPU_BIN top --no-metrics -l $SEL; echo TOP-EXIT=\$?" Enter
MSG="-l: starts"; check_ok wait_re live2 "live \(watch\)" 20
check_contains "$SCREEN" "nodes: $SEL" "-l: the header says which nodes were read"
check_not_contains "$(head -1 <<<"$SCREEN")" "pods: " "-l: the header does not scope the pods"
MSG="-l: allocation of the matching nodes ($GPU2)"; check_ok wait_re live2 " gpu $GPU2/" 10
check_match "$SCREEN" "Pending $PEND2 " "-l: pending count as status -l gives ($PEND2)"
check_not_contains "$SCREEN" "a10g-01" "-l: a node that does not match is not shown"
MSG="-l: the pod bound to a matching node counts, the one on a10g-01 does not ($GPU3)"; check_ok wait_re live2 " gpu $GPU3/" 15
keys live2 q
MSG="-l: q quits"; check_ok wait_re live2 "TOP-EXIT=0" 10
check_match "$(fakeapi_count '^/api/v1/nodes$' "^(?!.*watch=1).*labelSelector=$SEL_Q")" '^1$' "-l: nodes listed once, with the label selector"
check_match "$(fakeapi_count '^/api/v1/nodes$' "watch=1.*labelSelector=$SEL_Q|labelSelector=$SEL_Q.*watch=1")" '^[1-9]' \
  "-l: nodes watched with the label selector"
check_eq "$(fakeapi_count '^/api/v1/nodes$' "^(?!.*labelSelector=$SEL_Q)")" 0 "-l: nodes never asked for without it"
check_eq "$(fakeapi_count '^/api/v1/(namespaces/[^/]+/)?pods$' 'labelSelector')" 0 "-l: pods are not read with a label selector"
TM kill-session -t live2

# ---- --snapshot: the same scopes (-n and -l together) --------------------------------------------
expect_of "$T/scoped.json" -l "$SEL"
GPU4=$EXP_GPU PEND4=$EXP_PENDING
start_shell snap 160 40
# from the fixture's directory: the header names the file as given, and a long checkout path
# would push "nodes: SEL" past the 200 columns
keys snap "cd '$(dirname "$FIX")' && $KGPU_BIN top --snapshot $(basename "$FIX") -n ml-inference -l $SEL; echo TOP-EXIT=\$?" Enter
MSG="--snapshot -n -l: starts"; check_ok wait_re snap "pods: ml-inference  nodes: nvidia\.com/gpu\.product=NVIDIA-H100" 15
MSG="--snapshot -n -l: allocation as status -l of the namespace's pods ($GPU4)"; check_ok wait_re snap " gpu $GPU4/" 10
check_match "$SCREEN" "Pending $PEND4 " "--snapshot -n -l: pending count ($PEND4)"
keys snap q
MSG="--snapshot: q quits"; check_ok wait_re snap "TOP-EXIT=0" 10
