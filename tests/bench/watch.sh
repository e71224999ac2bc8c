#!/usr/bin/env bash
# tests/bench/watch.sh — `make bench` (watch part): `kubectl gpu top` kept open on a large
# cluster that changes, against the fake API server (issue 15's targets).
#
#   tests/bench/watch.sh [--nodes 5000] [--pods-per-node 30] [--gpu-fraction 0.4] [--seed 1]
#                        [--minutes 2] [--out FILE]
#
# The cluster (tests/gen/gen_cluster.py; the same cached files as run.sh: 5,000 nodes x 30 =
# 150,000 pods by default) is served by tests/fakeapi with a scenario (k8s_watch.py) that
# changes it for the whole run: every 2 s a node's heartbeat (MODIFIED) and a pod without GPUs
# created or deleted; at 30 s a Pending GPU pod is created (before minute 1, where the
# flatness is measured from).  top runs in tmux (160x50,
# --no-metrics: the cluster's side is measured).  Measured:
#   - list requests after the first list (the server's request log): want 0;
#   - how long after its creation (the server's log) the new pending pod is counted in top's
#     header: want <= 2 s;
#   - top's RSS (/proc/PID/status VmRSS) once the view is up, at minute 1 and at the end:
#     want < 64 MiB, and no growth from minute 1 to the end (<= 2 MiB, allocator noise).
# The issue's period is 10 minutes; --minutes shortens it (the default, 2, is stated in the
# output).  Results: stdout and build/bench/results/watch-<UTC time>.txt (or --out FILE).
# Exit status: 0 when every target holds, 1 otherwise, 2 on a setup failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export KGPU_ROOT=$ROOT
BENCH=$ROOT/build/bench
mkdir -p "$BENCH/data" "$BENCH/results"
export TEST_TMP_ROOT=$BENCH/tmp

NODES=5000 PPN=30 GPUF=0.4 SEED=1 MINUTES=2 OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) NODES=$2; shift 2 ;;
    --pods-per-node) PPN=$2; shift 2 ;;
    --gpu-fraction) GPUF=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --minutes) MINUTES=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "watch.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

. "$ROOT/tests/lib/common.sh"
. "$ROOT/tests/lib/fakeapi.sh"
trap 'exit 130' INT TERM
FAKEAPI_START_TIMEOUT=900
command -v tmux >/dev/null || { echo "watch.sh: tmux is missing (scripts/install-deps.sh test)" >&2; exit 2; }
[ -x "$ROOT/kubectl-gpu" ] || { echo "watch.sh: build kubectl-gpu first (make)" >&2; exit 2; }
cp -f "$ROOT/kubectl-gpu" "$BENCH/kubectl-gpu-watch" && KGPU=$BENCH/kubectl-gpu-watch
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
[ -n "$OUT" ] || OUT=$BENCH/results/watch-$STAMP.txt
: >"$OUT"
say() { echo "$*" | tee -a "$OUT"; }

F="$BENCH/data/cluster-${NODES}n-$(printf %s "$GPUF" | tr . _)g-${PPN}p-s$SEED.json"
if [ ! -s "$F" ]; then
  echo "# generating $NODES nodes x $PPN pods per node into $F" >&2
  python3 "$ROOT/tests/gen/gen_cluster.py" --nodes "$NODES" --gpu-fraction "$GPUF" --pods-per-node "$PPN" \
    --seed "$SEED" -o "$F.tmp" --summary "${F%.json}.summary.json" && mv -f "$F.tmp" "$F" || exit 2
fi

# the scenario: churn for the whole run, the pending GPU pod at 30 s
python3 - "$F" "$MINUTES" >"$T/scenario.json" <<'PY'
import json, sys
path, minutes = sys.argv[1], float(sys.argv[2])
nodes = []
with open(path) as fh:
    for line in fh:
        if '"kind":"Node"' in line.replace(' ', '') and len(nodes) < 200:
            try:
                o = json.loads(line.strip().rstrip(','))
            except ValueError:
                continue
            if o.get('kind') == 'Node':
                nodes.append(o['metadata']['name'])
steps, t, i = [], 0.0, 0
end = minutes * 60
new_at = 30.0 if end > 40 else end / 2
pending_done = False
while t < end:
    if not pending_done and t + 2 > new_at:
        steps.append({"after": new_at - t, "op": "add", "object": {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "bench-new-0", "namespace": "bench", "uid": "b0000000-0000-4000-8000-000000000001",
                         "creationTimestamp": "2026-11-24T00:00:00Z"},
            "spec": {"schedulerName": "default-scheduler",
                     "containers": [{"name": "t", "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                                     "resources": {"limits": {"nvidia.com/gpu": "64"}}}]},
            "status": {"phase": "Pending"}}})
        t, pending_done = new_at, True
        continue
    node = nodes[i % len(nodes)] if nodes else None
    if node:
        steps.append({"after": 2, "op": "patch", "kind": "Node", "name": node,
                      "merge": {"metadata": {"annotations": {"bench/heartbeat": str(i)}}}})
    name = "churn-%d" % (i // 2)
    if i % 2 == 0:
        steps.append({"after": 0, "op": "add", "object": {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "bench", "uid": "c0000000-0000-4000-8000-%012d" % i},
            "spec": {"nodeName": node, "containers": [{"name": "c", "image": "busybox",
                     "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]},
            "status": {"phase": "Running"}}})
    else:
        steps.append({"after": 0, "op": "delete", "kind": "Pod", "namespace": "bench", "name": name})
    t += 2
    i += 1
print(json.dumps({"steps": steps}))
PY

t0=$SECONDS
fakeapi_start "$F" --scenario "$T/scenario.json" --watch-timeout 60 --bookmark-interval 30 || exit 2
PERIOD="the issue's period"
awk "BEGIN { exit !($MINUTES < 10) }" && PERIOD="shortened: the issue's period is 10 min"
say "# watch bench: $NODES nodes x $PPN pods/node, top kept open $MINUTES min ($PERIOD), server up in $((SECONDS - t0)) s"

SOCK="$T/tmux.sock"
TM() { tmux -S "$SOCK" "$@"; }
on_exit "tmux -S '$SOCK' kill-server"
TM new-session -d -s top -x 160 -y 50 \
  env -i PATH="$PATH" HOME="$T" TERM=tmux-256color LANG=C.UTF-8 KUBECONFIG="$KUBECONFIG" \
  KUBECACHEDIR="$KUBECACHEDIR" sh -c "echo \$\$ >'$T/top.pid'; exec '$KGPU' top --no-metrics --interval 2s"
cap() { TM capture-pane -p -t top 2>/dev/null; }
rss_mib() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$(cat "$T/top.pid")/status" 2>/dev/null; }
for i in $(seq 1 9000); do cap | grep -q "live (watch)" && break; sleep 0.1; done
cap | grep -q "live (watch)" || { say "not ok - top did not come up: $(cap | head -3)"; exit 1; }
up=$SECONDS
LISTS0=$(fakeapi_count '^/api' '^(?!.*watch=1)' GET)
PEND0=$(cap | grep -oE 'Pending [0-9]+' | head -1 | tr -dc 0-9)
RSS_UP=$(rss_mib)
say "# top up after $((up - t0)) s: $LISTS0 list requests, RSS $RSS_UP MiB, Pending $PEND0"

# the new pending pod: counted in the header how long after the server created it?
LAT=""
RSS_1=""
SERIES=""
DUR=$(awk "BEGIN { print int($MINUTES * 60) }")
while [ $((SECONDS - up)) -lt "$DUR" ]; do
  if [ -z "$LAT" ] && cap | grep -q "Pending $((PEND0 + 1)) "; then
    seen=$(date +%s.%N)
    made=$(python3 - "$FAKEAPI_LOG" <<'PY'
import datetime, json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get('op') == 'add' and e.get('what') == 'bench-new-0':
        t = datetime.datetime.strptime(e['ts'], '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=datetime.timezone.utc)
        print(t.timestamp())
        break
PY
)
    [ -n "$made" ] && LAT=$(python3 -c "print('%.2f' % ($seen - $made))")
  fi
  if [ -z "$RSS_1" ] && [ $((SECONDS - up)) -ge 60 ]; then RSS_1=$(rss_mib); fi
  el=$((SECONDS - up))
  if [ "$el" -ge "${next_sample:-0}" ]; then SERIES="$SERIES ${el}s:$(rss_mib)"; next_sample=$((el + 15)); fi
  sleep 0.1
done
[ -n "$RSS_1" ] || RSS_1=$RSS_UP
RSS_END=$(rss_mib)
LISTS1=$(fakeapi_count '^/api' '^(?!.*watch=1)' GET)
WATCHES=$(fakeapi_count '^/api' 'watch=1' GET)
TM send-keys -t top q
say "# after $MINUTES min: $WATCHES watch requests, RSS at minute 1 $RSS_1 MiB, at the end $RSS_END MiB"
say "# RSS (MiB) every 15 s:$SERIES"
say "# results: lists_after_first=$((LISTS1 - LISTS0)) new_pending_latency_s=${LAT:-none} rss_up_mib=$RSS_UP rss_min1_mib=$RSS_1 rss_end_mib=$RSS_END"

rc=0
target() { if [ "$1" = 1 ]; then say "ok - $2"; else say "not ok - $2"; rc=1; fi; }
target "$([ $((LISTS1 - LISTS0)) -eq 0 ] && echo 1)" "no list request after the first list in $MINUTES min ($((LISTS1 - LISTS0)))"
target "$([ -n "$LAT" ] && python3 -c "import sys; sys.exit(0 if $LAT <= 2.0 else 1)" && echo 1)" \
  "a new pending GPU pod counted within 2 s of its creation (${LAT:-never} s)"
target "$(python3 -c "import sys; sys.exit(0 if $RSS_END < 64 else 1)" && echo 1)" "RSS under 64 MiB ($RSS_END MiB)"
target "$(python3 -c "import sys; sys.exit(0 if $RSS_END - $RSS_1 <= 2 else 1)" && echo 1)" \
  "RSS flat from minute 1 to the end ($RSS_1 -> $RSS_END MiB)"
exit $rc
