#!/usr/bin/env bash
# scripts/check-sizes.py (run by `make check`): a .c of more than 800 lines fails the check,
# one of exactly 800 passes, and the checkout itself passes.
. "$(dirname "$0")/../lib/common.sh"
S="$KGPU_ROOT/scripts/check-sizes.py"
mkdir -p "$T/tree/src/sources" "$T/tree/src/model"
lines() { python3 -c 'import sys; sys.stdout.write("x;\n" * int(sys.argv[1]))' "$1"; }
lines 800 >"$T/tree/src/sources/at_limit.c"
lines 10 >"$T/tree/src/model/small.c"
OUT=$(python3 "$S" "$T/tree" 2>&1); RC=$?
check_rc 0 "800 lines is within the limit"
check_contains "$OUT" "(2 files, 0 known exceptions)" "every .c under src/ is counted"
lines 801 >"$T/tree/src/model/big.c"
OUT=$(python3 "$S" "$T/tree" 2>&1); RC=$?
check_rc 1 "801 lines fails"
check_contains "$OUT" "src/model/big.c: 801 lines, more than 800" "the file and its size are named"
check_not_contains "$OUT" "at_limit.c" "the file at the limit is not named"
OUT=$(python3 "$S" --max 5 "$T/tree" 2>&1); RC=$?
check_rc 1 "--max lowers the limit"
check_contains "$OUT" "src/sources/at_limit.c: 800 lines, more than 5" "each file over it is named"
lines 3 >"$T/tree/src/a.h"; lines 900 >"$T/tree/src/b.txt"
rm "$T/tree/src/model/big.c"
OUT=$(python3 "$S" "$T/tree" 2>&1); RC=$?
check_rc 0 "only .c files count"
OUT=$(python3 "$S" 2>&1); RC=$?
check_rc 0 "the checkout has no .c over 800 lines: $OUT"
