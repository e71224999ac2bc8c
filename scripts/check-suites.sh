#!/usr/bin/env bash
# check-suites.sh — the test suites of `make check`, the normal build's and the ASan build's,
# run at the same time (each suite runs its parts one after the other, so two suites keep two
# cores busy).  Every line is prefixed with its suite.  At the end, each suite's failed parts
# with their failing checks (the first line of each, at most 40) and its closing line are
# repeated: a CI log cut to its tail still says which check failed.  Exit 0 only when both
# pass.  Usage: scripts/check-suites.sh MAKE
set -u
cd "$(dirname "$0")/.."
MAKE=${1:-make}
mkdir -p tests/tmp
run() {   # run LABEL TARGET
  local label=$1 target=$2
  set -o pipefail
  "$MAKE" --no-print-directory "$target" 2>&1 | tee "tests/tmp/check-$label.out" | sed -u "s/^/[$label] /"
}
run rel test & rel=$!
run asan test-asan & asan=$!
wait "$rel"; r=$?
wait "$asan"; a=$?
echo
for l in rel asan; do
  out="tests/tmp/check-$l.out"
  grep -E '^failed (check|parts): ' "$out" | head -n 40 | sed "s/^/[$l] /"
  grep -E "^$l: [0-9]+ passed, [0-9]+ failed" "$out" || tail -n 1 "$out"
done
[ "$r" = 0 ] && [ "$a" = 0 ]
