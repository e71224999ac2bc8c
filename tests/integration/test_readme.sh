#!/usr/bin/env bash
# The README's samples are what the binary prints now (tests/tools/check_readme.py): every
# `$ kubectl gpu ...` block of README.md is run on the bundled examples and compared, whole or
# as an excerpt ("..." lines).
. "$(dirname "$0")/../lib/common.sh"
python3 "$KGPU_ROOT/tests/tools/check_readme.py" --bin "$KGPU_BIN" "$KGPU_ROOT/README.md" >"$T/readme.out" 2>&1
while IFS= read -r line; do
  case "$line" in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) fail "${line#not ok - }" ;;
    "# RESULT"*) ;;
    "#"*) echo "$line" ;;
    *) fail "check_readme: $line" ;;
  esac
done <"$T/readme.out"
check_match "$(grep -c '^ok - README' "$T/readme.out")" '^[4-9]|^[1-9][0-9]' "the README's samples were found and run"
