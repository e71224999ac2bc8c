#!/usr/bin/env bash
# Pods that ask for the same thing share one evaluation (src/analysis/explain_intent.c).  The
# shared evaluation must give exactly what each pod's own evaluation gives: on every cluster
# fixture and example, `pending -A` (JSON: verdicts, reasons, every node's reasons, fixes and
# notes; and the wide table) is run with the sharing and with KGPU_EXPLAIN_PLAIN=1 (every pod
# evaluated on its own, node by node) and the outputs must be equal.  A generated full cluster
# with a queue (tests/gen/gen_cluster.py --fill 1 --pending: Jobs of identical pods, gated ones
# among them) makes sure pods do share there.
. "$(dirname "$0")/../lib/common.sh"
cd "$KGPU_ROOT" || exit 1

python3 tests/gen/gen_cluster.py --nodes 40 --gpu-fraction 1 --pods-per-node 12 --fill 1 --pending 90 \
  --queue-owner 20 --seed 3 -o "$T/queue.json" || fail "gen_cluster --fill 1 --pending 90"

compared=0 differ=0
for f in $(find tests/fixtures examples/clusters -name '*.json' -o -name '*.json.gz' | sort) "$T/queue.json"; do
  "$KGPU_BIN" pending -A -o json --snapshot "$f" >"$T/shared.json" 2>"$T/shared.err" || continue
  grep -q '"verdict"' "$T/shared.json" || continue      # no pending pod: nothing to compare
  KGPU_EXPLAIN_PLAIN=1 "$KGPU_BIN" pending -A -o json --snapshot "$f" >"$T/plain.json" 2>"$T/plain.err"
  "$KGPU_BIN" pending -A -o wide --snapshot "$f" >"$T/shared.txt" 2>&1
  KGPU_EXPLAIN_PLAIN=1 "$KGPU_BIN" pending -A -o wide --snapshot "$f" >"$T/plain.txt" 2>&1
  compared=$((compared + 1))
  if cmp -s "$T/shared.json" "$T/plain.json" && cmp -s "$T/shared.txt" "$T/plain.txt"; then :; else
    differ=$((differ + 1))
    fail "$f: shared and plain evaluation differ: $(diff "$T/plain.json" "$T/shared.json" | head -c 600)"
  fi
done
[ "$compared" -ge 10 ] && ok "pending -A compared on $compared clusters with pending pods" ||
  fail "only $compared clusters with pending pods compared"
[ "$differ" = 0 ] && ok "shared evaluation = per-pod evaluation on every one"

# the queue has 90 pending pods of a few intents: the plain run evaluates every node 90 times
kgpu pending -A -o json --snapshot "$T/queue.json"
n=$(json_get "$OUT" "len(d['pods'])")
check_eq "$n" 90 "the generated queue lists its 90 pending pods"
kinds=$(json_get "$OUT" "len({(p['verdict'], p['reason']) for p in d['pods']})")
[ "$kinds" -ge 2 ] && [ "$kinds" -le 10 ] && ok "the queue's pods fall into $kinds verdict/reason kinds (shared)" ||
  fail "the queue's pods fall into $kinds verdict/reason kinds, want 2..10"
