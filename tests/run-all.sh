#!/usr/bin/env bash
# Runs every test against one build of kubectl-gpu and prints one closing line:
#   "<label>: N passed, N failed"
# Parts: C unit tests (cmocka, tests/unit), data-driven cases (tests/cases, run by
# tests/run_cases.py), integration scripts (tests/integration/test_*.sh).
# Each part prints "# RESULT passed=N failed=M" lines that are summed here.  A failed part's
# log is shown when it ends, and its failing checks are named again, "failed check: PART: ...",
# just before the closing line.
#   --bin PATH     binary under test     --units DIR   directory of unit-test binaries
#   --label NAME   name for the summary  --only REGEX  run only matching parts
set -u
cd "$(dirname "$0")/.."
BIN="" UNITS="" LABEL=tests ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;; --units) UNITS=$2; shift 2 ;;
    --label) LABEL=$2; shift 2 ;; --only) ONLY=$2; shift 2 ;;
    *) echo "run-all.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
export KGPU_BIN="$BIN" KGPU_ROOT="$PWD"
export TEST_TMP_ROOT="$PWD/tests/tmp/$LABEL"
rm -rf "$TEST_TMP_ROOT"; mkdir -p "$TEST_TMP_ROOT"
passed=0 failed=0 failed_parts=() failed_checks=()

tally() {   # tally NAME LOGFILE RC SECONDS
  local name=$1 log=$2 rc=$3 secs=$4 p=0 f=0 line
  while read -r line; do
    p=$((p + $(sed -n 's/.*passed=\([0-9]*\).*/\1/p' <<<"$line")))
    f=$((f + $(sed -n 's/.*failed=\([0-9]*\).*/\1/p' <<<"$line")))
  done < <(grep '^# RESULT ' "$log")
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi      # a crash or an unreported failure
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$f" != 0 ]; then
    failed_parts+=("$name"); echo "FAIL  $name ($p passed, $f failed, ${secs}s)"; sed 's/^/    | /' "$log" | grep -v '^    | ok ' | tail -n 60
    # the first line of each failing check (at most 10), repeated at the end: a log cut to its
    # tail still names them
    while IFS= read -r line; do failed_checks+=("$name: ${line:0:200}"); done \
      < <(grep -E '^(not ok - |\[  FAILED  \] )' "$log" | head -n 10)
    if [ "$rc" != 0 ] && ! grep -qE '^(not ok - |\[  FAILED  \] )' "$log"; then
      failed_checks+=("$name: exit $rc, no failing check reported")
    fi
  else
    echo "ok    $name ($p passed, ${secs}s)"
  fi
}

run_part() {   # run_part NAME CMD...
  local name=$1; shift
  if [ -n "$ONLY" ] && ! [[ "$name" =~ $ONLY ]]; then return; fi
  local log="$TEST_TMP_ROOT/$(echo "$name" | tr '/ ' '__').log"
  local t0=$SECONDS rc
  ( "$@" ) >"$log" 2>&1 </dev/null; rc=$?
  tally "$name" "$log" $rc $((SECONDS - t0))
}

# 1. unit tests: cmocka prints "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)"
unit_wrap() {
  local out rc p f
  if [ -n "${KGPU_VALGRIND:-}" ]; then
    out=$(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$1" 2>&1); rc=$?
  else
    out=$("$1" 2>&1); rc=$?
  fi
  echo "$out"
  p=$(grep -o '\[  PASSED  \] [0-9]* test' <<<"$out" | tail -1 | tr -dc 0-9)
  f=$(grep -o '\[  FAILED  \] [0-9]* test' <<<"$out" | tail -1 | tr -dc 0-9)
  echo "# RESULT passed=${p:-0} failed=${f:-0}"
  return $rc
}
if [ -n "$UNITS" ] && [ -d "$UNITS" ]; then
  for t in "$UNITS"/test_*; do
    [ -x "$t" ] || continue
    run_part "unit/$(basename "$t")" unit_wrap "$t"
  done
fi

# 2. data-driven cases
if [ -d tests/cases ] && [ -n "$(ls tests/cases 2>/dev/null)" ]; then
  run_part "cases" python3 tests/run_cases.py --bin "$BIN" tests/cases
fi

# 3. integration scripts
for t in tests/integration/test_*.sh; do
  [ -f "$t" ] || continue
  run_part "integration/$(basename "$t" .sh)" bash "$t"
done

# 4. after every other part: no fixed test secret in anything the suite wrote (logs, outputs)
if [ -f tests/integration/test_secrets.sh ]; then
  run_part "suite/no-secrets" bash tests/integration/test_secrets.sh --scan "$TEST_TMP_ROOT"
fi

echo
for c in "${failed_checks[@]}"; do echo "failed check: $c"; done
[ ${#failed_parts[@]} -gt 0 ] && echo "failed parts: ${failed_parts[*]}"
echo "$LABEL: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
