#!/usr/bin/env bash
# The watch stream parser is linear in its input (issue 28, item 4; src/sources/watch.c
# on_data): a 64 MB event (64,000,000 bytes, under the 64 MiB per-event cap) and an endless
# line without a newline, each sent by the fake API server (a "watch-stream" fault on the pods
# watch), cost `pending -w` a bounded CPU time and peak RSS, read from /proc while it runs.
# Before the fix each 16 KiB chunk rescanned the whole line: ~10 s of CPU for 48 MB, and the
# endless line ~43 s of CPU in 70 s.  The endless line hits the cap and is reported as such
# (-v), and the watch is resumed; an unreadable event is reported as one (item 5), not as a
# broken connection.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
TICKS=$(getconf CLK_TCK)
# bounds: a linear read of 64 MB (TLS, one memchr pass, one cJSON parse) takes well under a
# second of CPU here (0.2 s), under ASan about one; the quadratic scan took 3.7 s for 64 MB here
# (8-10 s for 48 MB on the machine of the issue) and 8 s for the endless line to reach the cap
CPU_MAX=${HARDEN_WATCH_CPU_MAX:-2.5}
RSS_MAX_MB=${HARDEN_WATCH_RSS_MAX_MB:-600}

cpu_s() { awk -v t="$TICKS" '{ printf "%.1f", ($14 + $15) / t }' "/proc/$1/stat"; }
hwm_mb() { awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$1/status"; }
below() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$1" "$2"; }

# ---- one 64 MB event -----------------------------------------------------------------------
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "watch=1", "action": "watch-stream",
                  "eventBytes": 64000000, "times": 1}]'
"$KGPU_BIN" pending -A -w -v >"$T/big.out" 2>"$T/big.err" &
PID=$!
if wait_file "$T/big.out" "huge-event-0" 1 90; then ok "the 64 MB event was read (its pod is shown)"
else fail "the 64 MB event's pod never showed: $(tail -5 "$T/big.err")"; fi
cpu=$(cpu_s "$PID"); rss=$(hwm_mb "$PID")
below "$cpu" "$CPU_MAX" && ok "64 MB event: ${cpu}s CPU (< ${CPU_MAX}s)" || fail "64 MB event: ${cpu}s CPU (want < ${CPU_MAX}s)"
below "$rss" "$RSS_MAX_MB" && ok "64 MB event: peak RSS ${rss} MB (< ${RSS_MAX_MB})" || fail "64 MB event: peak RSS ${rss} MB (want < ${RSS_MAX_MB})"
stop_watch "$PID"
check_eq "$RC" 0 "64 MB event: SIGINT exits 0"

# ---- an endless line: the cap, a clear message, a resumed watch ----------------------------
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "watch=1", "action": "watch-stream",
                  "endless": true, "times": 2}]'
fakeapi_clear_log
"$KGPU_BIN" pending -A -w -v >"$T/endless.out" 2>"$T/endless.err" &
PID=$!
if wait_file "$T/endless.err" 'watch: Pod: event 1 of the stream: over 64 MiB without a line end; resuming the watch' 1 90; then
  ok "endless line: -v names the cap"
else fail "endless line: no cap message: $(grep -v '^GET\|^  ' "$T/endless.err" | tail -5)"; fi
cpu=$(cpu_s "$PID"); rss=$(hwm_mb "$PID")
below "$cpu" "$CPU_MAX" && ok "endless line: ${cpu}s CPU to reach the cap (< ${CPU_MAX}s)" || fail "endless line: ${cpu}s CPU (want < ${CPU_MAX}s)"
below "$rss" "$RSS_MAX_MB" && ok "endless line: peak RSS ${rss} MB (< ${RSS_MAX_MB})" || fail "endless line: peak RSS ${rss} MB (want < ${RSS_MAX_MB})"
check_not_contains "$(cat "$T/endless.err")" "watch lost" "endless line: not reported as a lost connection"
# the resumed watch (the fault fired twice, then the pods watch is served normally)
if fakeapi_wait_log '"path": ?"/api/v1/pods".*watch=1' 5 && \
   wait_file "$FAKEAPI_LOG" '"path": ?"/api/v1/pods".*watch=1' 3 90; then ok "endless line: the watch was resumed (3 watches)"
else fail "endless line: the watch was not resumed: $(grep -c watch=1 "$FAKEAPI_LOG") watches"; fi
stop_watch "$PID"
check_eq "$RC" 0 "endless line: SIGINT exits 0"

# ---- an unreadable event: named as such, not as a broken connection (item 5) ---------------
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "watch=1", "action": "body",
                  "body": "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{}}}\n<html>oops</html>\n", "times": 1}]'
"$KGPU_BIN" pending -A -w -v >"$T/bad.out" 2>"$T/bad.err" &
PID=$!
if wait_file "$T/bad.err" 'watch: Pod: event 2 of the stream: not JSON; resuming the watch' 1 30; then ok "unreadable event: -v says event 2 is not JSON"
else fail "unreadable event: $(grep '^watch' "$T/bad.err" | tail -3)"; fi
check_not_contains "$(grep '^watch' "$T/bad.err")" "watch lost" "unreadable event: not reported as a lost connection"
stop_watch "$PID"
check_eq "$RC" 0 "unreadable event: SIGINT exits 0"
