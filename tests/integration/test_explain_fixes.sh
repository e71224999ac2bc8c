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

for f in tests/fixtures/pending/*.json examples/clusters/*.json examples/clusters/*.json.gz; do
  kgpu status --snapshot "$f" -o json
  st=$(json_get "$OUT" "d['summary']['pendingGPUPods']")
  kgpu pending --snapshot "$f" -A -o json
  pods=$(json_get "$OUT" "len([p for p in d['pods'] if p['created']])")
  check_eq "$st" "$pods" "$(basename "$f"): status pendingGPUPods = pods listed by pending -A"
done

# pending on a terminal: REASON cut to the width with an ellipsis; piped or -o wide: whole
tty_run() {   # tty_run COLUMNS ARGS... : the binary's output when stdout is a pty
  COLUMNS=$1 python3 - "$KGPU_BIN" "${@:2}" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b:
        break
    out += b
os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8").replace("\r", ""))
PY
}
snap=examples/clusters/mixed-fleet.json
out=$(tty_run 120 pending -A --snapshot "$snap" --no-color)
widest=$(python3 -c 'import sys; print(max(len(l) for l in sys.stdin.read().splitlines()))' <<<"$out")
check_eq "$widest" 120 "pending on a 120-column terminal: the widest line is 120 characters"
check_contains "$out" "…" "pending on a terminal: a cut REASON ends in an ellipsis"
kgpu pending -A --snapshot "$snap"
check_not_contains "$OUT" "…" "pending piped: REASON whole"
kgpu pending -A --snapshot "$snap" -o wide
check_contains "$OUT" "held by research/eval-harness-9cn99, ml-inference/vllm-llama-70b-0" "pending -o wide: REASON whole"
