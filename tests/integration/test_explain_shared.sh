#!/usr/bin/env bash
# Pods that ask for the same thing share one evaluation (src/analysis/explain_intent.c), and the
# fix searches visit only the nodes a per-resource index says could hold the changed pod
# (explain_node.c, NodeCands).  Both must give exactly what each pod's own evaluation over
# every node gives: on every cluster fixture (tests/fixtures, where the cases' fixtures are) and
# example, `pending -A` (JSON with --all-nodes: verdicts, reasons, every node's reasons, fixes
# and notes; the default JSON with the nearest nodes; and the wide table) is run indexed and
# with KGPU_EXPLAIN_PLAIN=1 (no sharing, no index: every pod evaluated on its own, node by
# node, every fix re-checked on every node) and the outputs must be equal.  A generated full cluster
# with a queue (tests/gen/gen_cluster.py --fill 1 --pending: Jobs of identical pods, gated ones
# among them) makes sure pods do share there.
. "$(dirname "$0")/../lib/common.sh"
cd "$KGPU_ROOT" || exit 1

python3 tests/gen/gen_cluster.py --nodes 40 --gpu-fraction 1 --pods-per-node 12 --fill 1 --pending 90 \
  --queue-owner 20 --seed 3 -o "$T/queue.json" || fail "gen_cluster --fill 1 --pending 90"

compared=0 differ=0
for f in $(find tests/fixtures examples/clusters -name '*.json' -o -name '*.json.gz' | sort) "$T/queue.json"; do
  "$KGPU_BIN" pending -A -o json --all-nodes --snapshot "$f" >"$T/shared.json" 2>"$T/shared.err" || continue
  grep -q '"verdict"' "$T/shared.json" || continue      # no pending pod: nothing to compare
  KGPU_EXPLAIN_PLAIN=1 "$KGPU_BIN" pending -A -o json --all-nodes --snapshot "$f" >"$T/plain.json" 2>"$T/plain.err"
  "$KGPU_BIN" pending -A -o json --snapshot "$f" >>"$T/shared.json" 2>&1
  KGPU_EXPLAIN_PLAIN=1 "$KGPU_BIN" pending -A -o json --snapshot "$f" >>"$T/plain.json" 2>&1
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

# per pod the JSON lists the nearest nodes only (at most 10 of the 40), and counts them all
bounded=$(json_get "$OUT" "all(len(p['nodes']) == p['nodeCounts']['listed'] <= 10 and p['nodeCounts']['total'] == 40 for p in d['pods'])")
check_eq "$bounded" True "pending -o json: at most 10 nodes per pod, nodeCounts.total 40"
kgpu pending -A -o json --all-nodes --snapshot "$T/queue.json"
every=$(json_get "$OUT" "all(len(p['nodes']) == 40 for p in d['pods'])")
check_eq "$every" True "pending -o json --all-nodes: all 40 nodes per pod"

# busy nodes that share their GPUs (MIG single here) are named in one bounded note per kind of
# sharing, not one note per node
kgpu pending -A -o json --snapshot "$T/queue.json"
one=$(json_get "$OUT" "max(sum(1 for n in p['notes'] if 'GPUs (MIG single strategy)' in n) for p in d['pods'])")
check_eq "$one" 1 "the MIG-single nodes where no pod's end is offered: one note per pod"
check_match "$OUT" 'nodes gpu-a100-single-[0-9]+, gpu-a100-single-[0-9]+.* share their GPUs \(MIG single strategy\)' \
  "that note names the nodes"
