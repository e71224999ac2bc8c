#!/usr/bin/env bash
# `kubectl gpu top` on a DRA cluster (tests/fixtures/dra/mixed.json) driven in tmux: DRA nodes in
# the node list with their allocated/published devices, the claims in the detail pane, every
# device with its claim and pods in the node screen, and the pods waiting for claims in the
# pending list with their verdicts (the same as `status`/`pending` compute).
. "$(dirname "$0")/../lib/common.sh"
FIX="$KGPU_ROOT/tests/fixtures/dra/mixed.json"
. "$KGPU_ROOT/tests/lib/tmux.sh"
start_shell main 120 40

kgpu pending --snapshot "$FIX" -A -o json
BIG_VERDICT=$(json_get "$OUT" '[p for p in d["pods"] if p["name"] == "big-train-0"][0]["verdict"]')

TM send-keys -t main "$KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="the node list shows"; check_ok wait_for main "NODES 4"
check_match "$SCREEN" "h100-dra-0 .* 6/8 " "h100-dra-0: 6 of its 8 DRA devices allocated"
check_match "$SCREEN" "a100-mig-dra-0 .* 2/3 " "a100-mig-dra-0: 2 of 3 (two MIG devices and a whole GPU)"
check_match "$SCREEN" "big-train-0 .*$BIG_VERDICT" "the pod waiting for its claim is pending with the verdict pending computes"
# the list is sorted by name: a100-dp-0, a100-mig-dra-0, h100-dra-0
TM send-keys -t main j j
MSG="the detail pane shows the DRA claims of h100-dra-0"; check_ok wait_for main "claim ml/train-llm-0-gpus-x8fz2"
check_contains "$SCREEN" "6/8 devices allocated (8 GPUs)" "detail pane: DRA devices allocated"
check_contains "$SCREEN" "claim ml/warm-pool-gpu" "detail pane: a claim no pod uses is listed too"
TM send-keys -t main Enter
MSG="the node screen lists the DRA devices"; check_ok wait_for main "DRA DEVICES (driver gpu.nvidia.com)"
check_match "$SCREEN" "gpu-4 .*research/notebook-gpu -> research/notebook-0" "node screen: a device, its claim and pod"
check_match "$SCREEN" "gpu-5 .*ml/warm-pool-gpu \(no pod\)" "node screen: allocated, no pod"
check_match "$SCREEN" "gpu-7 .*free" "node screen: a free device"
TM send-keys -t main q
TM send-keys -t main q
MSG="q quits"; check_ok wait_for main "TOP-EXIT=0"
