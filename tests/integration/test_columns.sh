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
# characters (not bytes: "…" is one) of the longest line, and how many lines are longer than N
longest() { python3 -c 'import sys; print(max([len(l) for l in sys.stdin.read().split("\n")] + [0]))' <<<"$1"; }
over() { python3 -c 'import sys; print(sum(1 for l in sys.stdin.read().split("\n") if len(l) > int(sys.argv[1])))' "$1" <<<"$2"; }

on_tty 80 status --snapshot "$MIXED"
check_eq "$(over 80 "$(rows "$TTY_OUT")")" "0" "status on an 80-column terminal: every table row fits"
check_contains "$TTY_OUT" "…" "status: the widest column cut with an ellipsis"
check_match "$TTY_OUT" '^a100-40gb-01 .*Ready,S.*…$' "status: the node's STATUS cut, its start kept"

kgpu status --snapshot "$MIXED"
check_not_contains "$OUT" "…" "status piped: nothing cut"
check_match "$OUT" '^a100-40gb-01 .* Ready,SchedulingDisabled$' "status piped: the whole STATUS"
check_eq "$(rows "$TTY_OUT" | wc -l)" "$(rows "$OUT" | wc -l)" "the same rows on a terminal as piped"

on_tty 80 status --snapshot "$MIXED" -o wide
check_not_contains "$TTY_OUT" "…" "status -o wide on a terminal: nothing cut"
if [ "$(longest "$(rows "$TTY_OUT")")" -gt 80 ]; then ok "status -o wide: rows as long as they are"; else fail "status -o wide: rows were cut to 80"; fi

on_tty 80 pending -A --snapshot "$MIXED"
check_eq "$(over 80 "$(rows "$TTY_OUT")")" "0" "pending on an 80-column terminal: every row fits"
on_tty 120 status --snapshot "$MIXED"
check_match "$TTY_OUT" '^a100-40gb-01 .* Ready,SchedulingDisabled$' "status on 120 columns: the whole STATUS"
