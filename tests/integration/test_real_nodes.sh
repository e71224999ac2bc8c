#!/usr/bin/env bash
# Real GPU nodes collected from NVIDIA's documentation and public GitHub issues and PRs
# (tests/fixtures/real/README.md: source, what is verbatim, what was filled in) read by
# `status`, against the truth worked out by hand from each object (tests/fixtures/real/truth.json):
# physical GPUs (or "cannot be counted"), whether a count comes from advertised units alone,
# MIG, sharing strategy and replicas, memory per GPU, and the header's total.
# The checker is tests/tools/check_real_nodes.py; this script also shows it catches a wrong truth.
. "$(dirname "$0")/../lib/common.sh"

while IFS= read -r line; do
  case "$line" in
    ok\ -\ *) ok "${line#ok - }" ;;
    not\ ok\ -\ *) fail "${line#not ok - }" ;;
    *) fail "check_real_nodes: $line" ;;
  esac
done < <(python3 "$KGPU_ROOT/tests/tools/check_real_nodes.py" "$KGPU_BIN" 2>&1)

# the checker fails when the truth is wrong: a copy of the fixtures with one count changed
mkdir -p "$T/real/nodes"
cp "$KGPU_ROOT"/tests/fixtures/real/nodes/*.json "$T/real/nodes/"
python3 - "$KGPU_ROOT/tests/fixtures/real/truth.json" "$T/real/truth.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
t[0]["physicalGPUs"] = (t[0]["physicalGPUs"] or 0) + 1
json.dump(t, open(sys.argv[2], "w"))
PY
if KGPU_REAL_DIR="$T/real" python3 "$KGPU_ROOT/tests/tools/check_real_nodes.py" "$KGPU_BIN" >"$T/bad.out" 2>&1; then
  fail "checker accepted a wrong truth"
else
  check_contains "$(cat "$T/bad.out")" "not ok - " "checker reports a wrong truth"
fi
