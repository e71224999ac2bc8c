#!/usr/bin/env bash
# tests/bench/fleet.sh — fleets (issue 33) at scale: `status --all-contexts` over many contexts
# of a large cluster each, against fake API servers this script starts (tests/fakeapi).
#
#   tests/bench/fleet.sh [--contexts 20] [--nodes 1000] [--pods-per-node 10] [--servers 4]
#                        [--limit-mib 128] [--max-concurrent N]
#
# The cluster (tests/gen/gen_cluster.py, cached under build/bench/data) is served by --servers
# fake API servers over HTTPS; the contexts are spread over them round-robin (each context is a
# whole load of its cluster: nodes, every pod, DaemonSets, ...; fewer servers than contexts only
# spares the machine the servers' memory).  Measured, with /usr/bin/time and by sampling /proc
# every 50 ms:
#   one context      status --context ctx-1 -o json (wall, peak RSS)
#   the fleet        status --all-contexts -o json: wall, the parent's peak RSS, the largest
#                    context process's, and the peak of the sum (PSS) over every kubectl-gpu
#                    process alive at once (parent + contexts in flight)
# Targets: every context answered; the parent's peak RSS and the sum at once (PSS) under
# --limit-mib (the parent holds one context's document at a time); the sum at once under --max-concurrent x one context + the
# parent (memory bounded by the contexts in flight, not by the fleet).  Prints ok / not ok
# lines and a table; exit 0 when every target holds, 1 otherwise, 2 on a setup failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export KGPU_ROOT=$ROOT
BENCH=$ROOT/build/bench
mkdir -p "$BENCH/data"
CONTEXTS=20 NODES=1000 PPN=10 SERVERS=4 LIMIT=128 CONC=8
while [ $# -gt 0 ]; do
  case "$1" in
    --contexts) CONTEXTS=$2; shift 2 ;;
    --nodes) NODES=$2; shift 2 ;;
    --pods-per-node) PPN=$2; shift 2 ;;
    --servers) SERVERS=$2; shift 2 ;;
    --limit-mib) LIMIT=$2; shift 2 ;;
    --max-concurrent) CONC=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "fleet.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
BIN=${KGPU_BIN:-$ROOT/kubectl-gpu}
[ -x "$BIN" ] || { echo "fleet.sh: $BIN is not built (make kubectl-gpu)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "fleet.sh: /usr/bin/time is missing (Debian package time)" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/kgpu-fleet-bench-XXXXXX")
PIDS=()
cleanup() { local p; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 2' INT TERM

DATA="$BENCH/data/fleet-$NODES-$PPN.json"
if [ ! -s "$DATA" ]; then
  echo "# generating $NODES nodes x $PPN pods per node -> $DATA" >&2
  python3 "$ROOT/tests/gen/gen_cluster.py" --nodes "$NODES" --gpu-fraction 0.5 --pods-per-node "$PPN" \
    --seed 1 -o "$DATA.tmp" && mv "$DATA.tmp" "$DATA" || exit 2
fi
bash "$ROOT/tests/fakeapi/gen-certs.sh" "$T/certs" || exit 2
TOKEN=kgpu-fleet-bench-token-4d1c
URLS=()
for s in $(seq 1 "$SERVERS"); do
  python3 "$ROOT/tests/fakeapi/server.py" --fixture "$DATA" --certs "$T/certs" --port-file "$T/port-$s" \
    --token "$TOKEN=gpu-admin" --parent-pid "$$" >"$T/server-$s.log" 2>&1 </dev/null &
  PIDS+=($!)
done
for s in $(seq 1 "$SERVERS"); do
  for i in $(seq 1 1200); do [ -s "$T/port-$s" ] && break; sleep 0.1; done
  [ -s "$T/port-$s" ] || { echo "fleet.sh: server $s did not start" >&2; cat "$T/server-$s.log" >&2; exit 2; }
  URLS+=("https://127.0.0.1:$(tr -dc 0-9 <"$T/port-$s")")
done
{
  echo "apiVersion: v1"; echo "kind: Config"; echo "current-context: ctx-1"
  echo "clusters:"
  for s in $(seq 1 "$SERVERS"); do
    printf -- '- name: server-%s\n  cluster:\n    server: %s\n    certificate-authority: %s\n' "$s" "${URLS[$((s - 1))]}" "$T/certs/ca.crt"
  done
  printf 'users:\n- name: bench\n  user:\n    token: %s\ncontexts:\n' "$TOKEN"
  for c in $(seq 1 "$CONTEXTS"); do
    printf -- '- name: ctx-%s\n  context:\n    cluster: server-%s\n    user: bench\n' "$c" $(( (c - 1) % SERVERS + 1 ))
  done
} >"$T/kubeconfig"
export KUBECONFIG="$T/kubeconfig"

# sample PID : the peaks (KiB) of the sum of Pss over PID and its descendants (proportional:
# pages the forked processes share counted once), and of PID's RSS alone, every 50 ms until
# PID ends -> "SUM PARENT" in $T/sample
sample() {
  python3 - "$1" >"$T/sample" <<'PY'
import os, sys, time
root = int(sys.argv[1]); peak_sum = peak_parent = 0
def rss(pid, key="Pss:"):
    # Pss: a page the forked processes share is counted once, split between them
    try:
        for line in open(f"/proc/{pid}/smaps_rollup"):
            if line.startswith(key): return int(line.split()[1])
    except OSError: pass
    return 0
def children(pid):
    out = []
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            out += [int(c) for c in open(f"/proc/{pid}/task/{t}/children").read().split()]
    except OSError: pass
    return out
while os.path.exists(f"/proc/{root}"):
    todo, total = [root], 0
    while todo:
        p = todo.pop(); total += rss(p); todo += children(p)
    peak_sum = max(peak_sum, total); peak_parent = max(peak_parent, rss(root, "Rss:"))
    time.sleep(0.05)
print(peak_sum, peak_parent)
PY
}

/usr/bin/time -f "%e %M" -o "$T/one.time" "$BIN" status --context ctx-1 --no-metrics -o json >"$T/one.json" 2>"$T/one.err" ||
  { echo "fleet.sh: status --context ctx-1 failed: $(cat "$T/one.err")" >&2; exit 2; }
read -r ONE_WALL ONE_RSS <"$T/one.time"

/usr/bin/time -f "%e %M" -o "$T/fleet.time" "$BIN" status --all-contexts --no-metrics --max-concurrent-contexts "$CONC" \
  -o json >"$T/fleet.json" 2>"$T/fleet.err" &
TPID=$!
sleep 0.05
KPID=$(cat "/proc/$TPID/task/$TPID/children" 2>/dev/null | awk '{print $1}')
[ -n "$KPID" ] && sample "$KPID"
wait "$TPID"; RC=$?
read -r FLEET_WALL FLEET_MAX_ONE <"$T/fleet.time"
read -r SUM_PEAK PARENT_PEAK <"$T/sample" 2>/dev/null || { SUM_PEAK=0; PARENT_PEAK=0; }
ANSWERED=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["answered"])' "$T/fleet.json" 2>/dev/null || echo 0)

mib() { python3 -c "print(f'{$1 / 1024:.1f}')"; }
printf '%-34s %10s %14s\n' "run" "wall (s)" "peak RSS (MiB)"
printf '%-34s %10s %14s\n' "one context ($NODES nodes)" "$ONE_WALL" "$(mib "$ONE_RSS")"
printf '%-34s %10s %14s\n' "fleet: $CONTEXTS contexts, $CONC at once" "$FLEET_WALL" "parent $(mib "$PARENT_PEAK")"
printf '%-34s %10s %14s\n' "  largest process of the fleet" "" "$(mib "$FLEET_MAX_ONE")"
printf '%-34s %10s %14s\n' "  all processes at once (PSS sum)" "" "$(mib "$SUM_PEAK")"
failed=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; failed=1; fi; }
check '[ "$RC" = 0 ] && [ "$ANSWERED" = "$CONTEXTS" ]' "every context answered ($ANSWERED of $CONTEXTS, exit $RC)"
check '[ "$PARENT_PEAK" -gt 0 ] && [ "$PARENT_PEAK" -lt $((LIMIT * 1024)) ]' \
  "the parent's peak RSS $(mib "$PARENT_PEAK") MiB < $LIMIT MiB"
check '[ "$SUM_PEAK" -gt 0 ] && [ "$SUM_PEAK" -lt $((LIMIT * 1024)) ]' \
  "the fleet's processes at once: $(mib "$SUM_PEAK") MiB (PSS) < $LIMIT MiB"
check '[ "$SUM_PEAK" -lt $(( (CONC * ONE_RSS + PARENT_PEAK) * 11 / 10 )) ]' \
  "memory bounded by the contexts in flight: peak sum $(mib "$SUM_PEAK") MiB <= $CONC x one context + the parent (+10%)"
exit $failed
