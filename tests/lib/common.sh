# tests/lib/common.sh — helpers for integration scripts (bash).  Source it first:
#   . "$(dirname "$0")/../lib/common.sh"
# Provides: $KGPU (binary under test, wrapped in valgrind under `make valgrind`), $T (a fresh
# temp dir for this script), kgpu (run the binary: sets $OUT, $ERR, $RC), ok/fail/check_*
# assertions, relay_checks (a checker's ok / not ok lines), wait_file and stop_watch (for -w
# commands), and prints "# RESULT passed=N failed=M" on exit.  Every assertion counts.
set -u
KGPU_ROOT=${KGPU_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
KGPU_BIN=${KGPU_BIN:-$KGPU_ROOT/kubectl-gpu}
_name=$(basename "$0" .sh)
T="${TEST_TMP_ROOT:-$KGPU_ROOT/tests/tmp/manual}/$_name"
rm -rf "$T"; mkdir -p "$T"
_passed=0; _failed=0
_cleanups=()
on_exit() { _cleanups+=("$*"); }
_finish() {
  local c; for c in "${_cleanups[@]}"; do eval "$c" >/dev/null 2>&1 || true; done
  echo "# RESULT passed=$_passed failed=$_failed"
}
trap _finish EXIT

ok()   { _passed=$((_passed + 1)); echo "ok - $*"; }
fail() { _failed=$((_failed + 1)); echo "not ok - $*"; }

# kgpu ARGS... : runs the binary with a 60 s bound; $OUT $ERR $RC.
kgpu() {
  local pre=()
  if [ -n "${KGPU_VALGRIND:-}" ]; then
    pre=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
  fi
  OUT=$(timeout 60 "${pre[@]}" "$KGPU_BIN" "$@" 2>"$T/.stderr"); RC=$?
  ERR=$(cat "$T/.stderr")
}

check_rc()       { if [ "$RC" = "$1" ]; then ok "$2 (exit $1)"; else fail "$2: exit $RC, want $1; stderr: $ERR"; fi; }
check_contains() { if grep -qF -- "$2" <<<"$1"; then ok "$3"; else fail "$3: missing [$2] in: $(head -c 2000 <<<"$1")"; fi; }
check_not_contains() { if grep -qF -- "$2" <<<"$1"; then fail "$3: unexpected [$2]"; else ok "$3"; fi; }
check_eq()       { if [ "$1" = "$2" ]; then ok "$3"; else fail "$3: got [$1], want [$2]"; fi; }
check_match()    { if grep -qE -- "$2" <<<"$1"; then ok "$3"; else fail "$3: no match for /$2/ in: $(head -c 2000 <<<"$1")"; fi; }
# json_get JSON EXPR : evaluates a Python expression on the parsed document `d`
json_get() { python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(eval(sys.argv[1]))' "$2" <<<"$1"; }
# one line of stderr, no more: the contract's "one clear line"
check_one_line_err() {
  local n; n=$(grep -c . <<<"$ERR")
  if [ "$n" = 1 ]; then ok "$1: one error line"; else fail "$1: $n stderr lines: $ERR"; fi
}

# wait_file FILE REGEX COUNT SECONDS : until FILE has COUNT lines matching REGEX (polled, bounded)
wait_file() {
  local f=$1 re=$2 n=$3 secs=$4 i
  for i in $(seq 1 $((secs * 10))); do
    [ "$(grep -cE -- "$re" "$f" 2>/dev/null)" -ge "$n" ] && return 0
    sleep 0.1
  done
  return 1
}
# stop_watch PID : a -w command stopped as Ctrl-C does (SIGINT), then its exit code in RC
stop_watch() {
  kill -INT "$1" 2>/dev/null
  local i
  for i in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  wait "$1"; RC=$?
}
# relay_checks PREFIX < <(checker) : a checker's "ok - X" / "not ok - X" lines counted as ok / fail
# ("PREFIX: X"); any other line it prints is a failure that shows the line (read it from a
# process substitution, not a pipe: the counts live in this shell)
relay_checks() {
  local p=$1 line
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) ok "$p: ${line#ok - }" ;;
      "not ok - "*) fail "$p: ${line#not ok - }" ;;
      *) fail "$p: $line" ;;
    esac
  done
}
