#!/usr/bin/env bash
# status -w and pending -w print each picture through a buffer (cmd/watch_loop.c): on a
# terminal the tables in it are fitted to that terminal as the plain commands' are (the
# render/table.c rule), and piped they stay whole.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
FIX="$KGPU_ROOT/tests/fixtures/api/small.json"

# on_tty_watch COLS SECONDS ARGS... : the first pictures of a -w command on a pty of COLS
# columns, then Ctrl-C; stdout in $TTY_OUT
on_tty_watch() {
  local cols=$1 secs=$2; shift 2
  TTY_OUT=$(COLUMNS=$cols NO_COLOR=1 python3 - "$secs" "$KGPU_BIN" "$@" <<'PY'
import os, pty, select, signal, subprocess, sys, time
secs = float(sys.argv[1])
m, s = pty.openpty()
p = subprocess.Popen(sys.argv[2:], stdout=s, stderr=subprocess.DEVNULL)
os.close(s)
out, end = b'', time.time() + secs
while time.time() < end:
    r, _, _ = select.select([m], [], [], 0.1)
    if r:
        try:
            out += os.read(m, 65536)
        except OSError:
            break
p.send_signal(signal.SIGINT)
p.wait(timeout=10)
sys.stdout.write(out.decode('utf-8', 'replace').replace('\r\n', '\n'))
PY
)
}
over() { python3 -c 'import sys; print(sum(1 for l in sys.stdin.read().split("\n") if len(l) > int(sys.argv[1])))' "$1" <<<"$2"; }
rows() { grep -E '\S  +\S.*\S  +\S' <<<"$1"; }

fakeapi_start "$FIX" || { fail "fake API server did not start"; exit 1; }
kgpu pending -A
PIPED=$OUT
check_match "$(rows "$PIPED")" '^NAMESPACE' "pending piped: a table"
if [ "$(python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().split("\n")))' <<<"$PIPED")" -gt 50 ]; then
  ok "pending piped: rows wider than 50 (the terminal below must cut them)"
else
  fail "pending piped: rows too short to test the cut: $PIPED"
fi

on_tty_watch 50 3 pending -A -w
check_match "$TTY_OUT" '^NAMESPACE' "pending -w on a terminal: the table"
check_eq "$(over 50 "$(rows "$TTY_OUT")")" "0" "pending -w on 50 columns: every row fits"
check_contains "$TTY_OUT" "…" "pending -w on 50 columns: cut with an ellipsis"
on_tty_watch 50 3 status -w --no-metrics
check_match "$TTY_OUT" '^Nodes:' "status -w on a terminal: the picture"
check_eq "$(over 50 "$(rows "$TTY_OUT")")" "0" "status -w on 50 columns: every table row fits"

"$KGPU_BIN" pending -A -w >"$T/piped.out" 2>/dev/null &
PID=$!
wait_file "$T/piped.out" '' "$(wc -l <<<"$PIPED")" 10
stop_watch "$PID"
check_not_contains "$(cat "$T/piped.out")" "…" "pending -w piped: nothing cut"
check_eq "$(rows "$(cat "$T/piped.out")")" "$(rows "$PIPED")" "pending -w piped: the table pending prints"

# custom columns under -w: each picture is the table the command prints once
kgpu pending -A -o 'custom-columns=NS:.namespace,POD:.name,VERDICT:.verdict'
ONCE=$OUT
"$KGPU_BIN" pending -A -w -o 'custom-columns=NS:.namespace,POD:.name,VERDICT:.verdict' >"$T/cc.out" 2>/dev/null &
PID=$!
wait_file "$T/cc.out" '' "$(wc -l <<<"$ONCE")" 10
stop_watch "$PID"
check_eq "$(cat "$T/cc.out")" "$ONCE" "pending -w -o custom-columns: the first picture is pending -o custom-columns"
kgpu status --no-metrics -o 'custom-columns=NODE:.name,GPUS:.physicalGPUs'
ONCE=$OUT
"$KGPU_BIN" status -w --no-metrics -o 'custom-columns=NODE:.name,GPUS:.physicalGPUs' >"$T/cc2.out" 2>/dev/null &
PID=$!
wait_file "$T/cc2.out" '' "$(wc -l <<<"$ONCE")" 10
stop_watch "$PID"
check_eq "$(cat "$T/cc2.out")" "$ONCE" "status -w -o custom-columns: the first picture is status -o custom-columns"
check_match "$ONCE" '^NODE +GPUS$' "status -o custom-columns against the API: the header"
