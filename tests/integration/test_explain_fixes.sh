#!/usr/bin/env bash
# Every fix explain prints is checked by applying it: tests/tools/apply_fixes.py edits each
# snapshot as the fix says (the pod's request / selector / tolerations, the pods it ends, the node
# it uncordons, makes Ready or lets advertise its GPUs), re-runs explain on the result and wants
# the pod to fit the node the fix names.  Run over every pending fixture, the verdict traps and
# the example clusters.  Also: status's pending count is the number of pods pending -A lists
# (owners whose pods were not created are rows of pending, not pods, and status says so).
. "$(dirname "$0")/../lib/common.sh"
cd "$KGPU_ROOT" || exit 1

out=$(python3 tests/tools/apply_fixes.py --bin "$KGPU_BIN" tests/fixtures/pending/*.json \
      tests/fixtures/pending/traps/*.json examples/clusters/*.json 2>&1)
rc=$?
echo "$out" | grep -v '^ok - ' | sed 's/^/# /'
if [ $rc = 0 ]; then ok "every re-checkable fix makes its pod fit ($(echo "$out" | grep -c '^ok - ') applied)"
else fail "fixes that do not make the pod fit: $(echo "$out" | grep '^not ok' | head -5)"; fi

for f in tests/fixtures/pending/*.json examples/clusters/*.json; do
  kgpu status --snapshot "$f" -o json
  st=$(json_get "$OUT" "d['summary']['pendingGPUPods']")
  kgpu pending --snapshot "$f" -A -o json
  pods=$(json_get "$OUT" "len([p for p in d['pods'] if p['created']])")
  check_eq "$st" "$pods" "$(basename "$f"): status pendingGPUPods = pods listed by pending -A"
done
