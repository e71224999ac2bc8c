#!/usr/bin/env bash
# Tables fit the terminal: on a terminal (a pty here, COLUMNS=80 as kubectl reads it) every
# table row of status and pending fits 80 columns, the widest column cut with "…"; piped, or
# with -o wide, nothing is cut (the same rows, whole).
. "$(dirname "$0")/../lib/common.sh"
MIXED="$KGPU_ROOT/examples/clusters/mixed-fleet.json"

# on_tty COLS ARGS... : stdout of the binary on a pty of COLS columns into $TTY_OUT
on_tty() {
  local cols=$1; shift
  TTY_OUT=$(COLUMNS=$cols NO_COLOR=1 python3 - "$KGPU_BIN" "$@" <<'PY'
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdout=s, stderr=subprocess.DEVNULL)
os.close(s)
out = b''
while True:
    try:
        d = os.read(m, 65536)
    except OSError:
        break
    if not d:
        break
    out += d
p.wait()
sys.stdout.write(out.decode('utf-8', 'replace').replace('\r\n', '\n'))
PY
)
}
# table rows: lines of the column tables (two or more runs of 3+ spaces), not prose
rows() { grep -E '\S   +\S.*\S   +\S' <<<"$1"; }
# rows2: table rows whose columns may be 2 spaces apart (a step of the fitting rule)
rows2() { grep -E '\S  +\S.*\S  +\S.*\S  +\S' <<<"$1"; }
# characters (not bytes: "…" is one) of the longest line, and how many lines are longer than N
longest() { python3 -c 'import sys; print(max([len(l) for l in sys.stdin.read().split("\n")] + [0]))' <<<"$1"; }
over() { python3 -c 'import sys; print(sum(1 for l in sys.stdin.read().split("\n") if len(l) > int(sys.argv[1])))' "$1" <<<"$2"; }

on_tty 80 status --snapshot "$MIXED"
check_eq "$(over 80 "$(rows2 "$TTY_OUT")")" "0" "status on an 80-column terminal: every table row fits"
check_contains "$TTY_OUT" "…" "status: free text (a problem's DETAIL) cut with an ellipsis"
# issue 34: a quantity, a resource or MIG profile and STATUS are never cut; where the width is
# short they take their brief forms: resources without "nvidia.com/" (as top writes them), STATUS
# as the node's problems by the PROBLEM table's names (a100-40gb-01 is cordoned in the fixture:
# spec.unschedulable; dgx-a100-02's mig.config.state is failed)
check_match "$TTY_OUT" '^a100-40gb-01 .* Cordoned$' "status on 80 columns: a cordoned node's STATUS whole, in its brief form"
check_match "$TTY_OUT" '^dgx-a100-02 .* MIGConfigFailed$' "status on 80 columns: a failed MIG config named whole"
check_match "$TTY_OUT" '^A100-SXM4-40GB|a100-40gb-01 +A100-SXM4-40GB ' "status on 80 columns: the product whole (40GB vs 80GB is a quantity)"
check_not_contains "$(grep -E '^(NAME|[a-z0-9-]+ +[A-Z0-9?-]+ +[0-9?*]+ )' <<<"$TTY_OUT" | grep -E '…')" "…" \
  "status on 80 columns: no node row cut"

kgpu status --snapshot "$MIXED"
check_not_contains "$OUT" "…" "status piped: nothing cut"
check_match "$OUT" '^a100-40gb-01 .* Ready,SchedulingDisabled$' "status piped: the whole STATUS"
check_eq "$(wc -l <<<"$TTY_OUT")" "$(wc -l <<<"$OUT")" "the same lines on a terminal as piped"

on_tty 80 status --snapshot "$MIXED" -o wide
check_not_contains "$TTY_OUT" "…" "status -o wide on a terminal: nothing cut"
if [ "$(longest "$(rows "$TTY_OUT")")" -gt 80 ]; then ok "status -o wide: rows as long as they are"; else fail "status -o wide: rows were cut to 80"; fi

on_tty 80 pending -A --snapshot "$MIXED"
check_eq "$(over 80 "$(rows2 "$TTY_OUT")")" "0" "pending on an 80-column terminal: every row fits"
# issue 34: GPUS is never cut: the count of a pod and its MIG profile stay (llama-70b-pretrain
# asks nvidia.com/gpu 8 and sdxl-train nvidia.com/mig-7g.80gb 1 in the fixture); AGE and VERDICT whole
check_match "$TTY_OUT" '^ml-training +llama-70b\S* +gpu:8 +[0-9]+m +Insufficient ' "pending on 80 columns: gpu:8, the count kept"
check_match "$TTY_OUT" '^research +sdxl-train\S* +mig-7g\.80gb:1 +[0-9]+m +ResourceName ' "pending on 80 columns: the MIG profile kept"
kgpu pending -A --snapshot "$MIXED"
check_match "$OUT" '^ml-training +llama-70b-pretrain\S* +nvidia\.com/gpu:8 ' "pending piped: the full resource name"
on_tty 120 status --snapshot "$MIXED"
check_match "$TTY_OUT" '^a100-40gb-01 .* Ready,SchedulingDisabled$' "status on 120 columns: the whole STATUS"

# --- the one fitting rule (render/table.c fit_widths) on the tables that were wider ---------------
WEEK="$KGPU_ROOT/examples/clusters/gpu-week.json.gz"
QUEUE="$KGPU_ROOT/tests/fixtures/pending/queue.json"

# status with metrics (MEM-USED, UTIL, IDLE): the headers alone need 83 columns at 3 spaces
on_tty 80 status --snapshot "$WEEK"
check_eq "$(over 80 "$(rows2 "$TTY_OUT")")" "0" "status with metrics on 80 columns: every table row fits"
check_match "$TTY_OUT" '^NAME +PRODUCT +GPUS +MEMORY +MODE +ALLOC +MEM-USED +UTIL +IDLE +STATUS$' \
  "status with metrics on 80 columns: every header whole"
kgpu status --snapshot "$WEEK"
check_not_contains "$OUT" "…" "status with metrics piped: nothing cut"
check_match "$OUT" '^NAME {3,}PRODUCT {3,}GPUS' "status piped: kubectl's 3 spaces between columns"
if [ "$(longest "$(rows "$OUT")")" -gt 80 ]; then ok "status with metrics piped: rows as long as they are"; else fail "status piped: rows were cut"; fi

# plan's workloads table is indented by 4: it fits the width beside its indentation
on_tty 80 plan --snapshot "$MIXED"
PLAN_ROWS=$(grep -A40 'Workloads' <<<"$TTY_OUT" | grep -E '^    \S.*\S  +\S.*\S  +\S')
check_match "$PLAN_ROWS" '^    NAMESPACE +WORKLOAD' "plan on 80 columns: the workloads table, indented"
check_eq "$(over 80 "$PLAN_ROWS")" "0" "plan on 80 columns: every workloads row fits"
kgpu plan --snapshot "$MIXED"
check_not_contains "$(grep -A40 'Workloads' <<<"$OUT")" "…" "plan piped: the workloads table whole"

# pending: REASON gives way first (down to 12), then the widest other column (one rule, in
# table.c, for pending and every other table)
on_tty 80 pending -A --snapshot "$QUEUE"
check_eq "$(over 80 "$(rows "$TTY_OUT")")" "0" "pending (a queue) on 80 columns: every row fits"
# (GPUS in its brief form first: REASON keeps the room that frees)
check_match "$TTY_OUT" '^ml +lone-1 +gpu:1 +[0-9]+m +Insufficient +.{11,}…$' "pending: REASON cut first (to no less than 12)"
on_tty 200 pending -A --snapshot "$QUEUE"
check_not_contains "$TTY_OUT" "…" "pending on 200 columns: nothing cut"
kgpu pending -A --snapshot "$QUEUE"
check_eq "$(rows "$TTY_OUT")" "$(rows "$OUT")" "pending on 200 columns prints what a pipe gets"
