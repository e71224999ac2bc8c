#!/usr/bin/env bash
# `kubectl gpu top` in tmux on the usage series of a snapshot (examples/clusters/gpu-week.json.gz,
# written by `snapshot` against a backfilled Prometheus): the pods view's idle sort orders by how
# long the pod's GPUs have been idle and shows it (IDLE-FOR), and the node view draws each GPU's
# utilization and memory sparklines, block characters in a UTF-8 locale and ASCII otherwise.
# Every expected value is computed here from the snapshot's records: a pod's idle time is the
# shortest, over its devices, trailing run of the device's utilSeries points under the stored
# idle threshold (one or two empty last points left out), times the step; a sparkline column at one point per column is the level
# ceil(v / top * 8) of ▁..█ (ASCII _.-:=+*#), top 100 for utilization and the GPU's memory.
# Then live: top --prometheus against a real Prometheus (backfilled, tests/lib/prometheus.sh)
# and the fake API server draws the same sparklines as a snapshot taken at that moment.
. "$(dirname "$0")/../lib/common.sh"

SNAP="$KGPU_ROOT/examples/clusters/gpu-week.json.gz"
. "$KGPU_ROOT/tests/lib/tmux.sh"

# ---- what the screens must show, from the snapshot's records ---------------------------------
python3 - "$SNAP" "$T/want.json" <<'PY' || { fail "reading the snapshot"; exit 1; }
import gzip, json, math, sys
d = json.load(gzip.open(sys.argv[1]))
usage = [i for i in d["items"] if i.get("apiVersion") == "kubectl-gpu/v1"]
src = [i for i in usage if i["kind"] == "UsageSource" and i["for"] == "devices"][0]
thr, step = src["idleThreshold"], src["seriesStepSeconds"]
devs = {(i["node"], i["gpu"], i["migInstance"]): i for i in usage if i["kind"] == "GPUUsage" and i["of"] == "device"}
def idle_for(series):
    # the last one or two intervals without a sample (the newest scrape not in) are left out
    series = list(series)
    for _ in range(2):
        if series and series[-1] is None:
            series.pop()
    run = 0
    for v in reversed(series):
        if v is None or not v < thr:
            break
        run += 1
    return run * step
def fmt(s):
    t = int(round(s))
    if t <= 0: return "-"
    if t < 60: return "%ds" % t
    if t < 3600: return "%dm" % (t // 60)
    if t < 86400 and t % 3600 < 60: return "%dh" % (t // 3600)
    if t < 86400: return "%dh%02dm" % (t // 3600, t % 3600 // 60)
    if t % 86400 < 3600: return "%dd" % (t // 86400)
    return "%dd%02dh" % (t // 86400, t % 86400 // 3600)
pods = {}
for i in usage:
    if i["kind"] == "GPUUsage" and i["of"] == "pod":
        dev = devs[(i["node"], i["gpu"], i["migInstance"])]
        f = idle_for(dev["utilSeries"])
        k = "%s/%s" % (i["namespace"], i["pod"])
        pods[k] = min(pods.get(k, f), f)
def spark(series, top, blocks):
    out = ""
    for v in series:
        if v is None:
            out += " "
            continue
        f = v / top if top > 0 else 0
        lvl = 0 if f <= 0 else min(7, max(0, math.ceil(f * 8) - 1))
        out += blocks[lvl]
    return out
longest = max(pods.values())
first = sorted(k for k, v in pods.items() if v == longest)
# the pod idle the longest: its node and the sparklines of its device
node = gpu = None
for i in usage:
    if i["kind"] == "GPUUsage" and i["of"] == "pod" and "%s/%s" % (i["namespace"], i["pod"]) == first[0]:
        node, gpu = i["node"], i["gpu"]
dev = [v for k, v in devs.items() if k[0] == node and k[1] == gpu][0]
json.dump({"pods": {k: fmt(v) for k, v in pods.items()}, "longest": fmt(longest), "first": first,
           "node": node, "gpu": gpu, "npoints": len(dev["utilSeries"]),
           "util_utf8": spark(dev["utilSeries"], 100, "▁▂▃▄▅▆▇█"),
           "mem_utf8": spark(dev["memSeries"], dev["memTotalMiB"], "▁▂▃▄▅▆▇█"),
           "util_ascii": spark(dev["utilSeries"], 100, "_.-:=+*#"),
           "mem_ascii": spark(dev["memSeries"], dev["memTotalMiB"], "_.-:=+*#"),
           "idle_pods": sum(1 for v in pods.values() if v > 0)}, open(sys.argv[2], "w"), ensure_ascii=False)
PY
W() { python3 -c 'import json,sys; print(eval(sys.argv[2], {"d": json.load(open(sys.argv[1]))}))' "$T/want.json" "$1"; }
# q until top has exited: each q waits (bounded) until the screen it was pressed on is gone
# (a view closed, or the shell back), so no q reaches the shell early or is lost
quit_top() {
  local name=$1 before i k
  for k in 1 2 3 4; do
    cap "$name"
    grep -qF "TOP-EXIT=" <<<"$SCREEN" && return 0
    before=$SCREEN
    keys "$name" q
    for i in $(seq 1 50); do cap "$name"; [ "$SCREEN" != "$before" ] && break; sleep 0.1; done
  done
  return 1
}
check_eq "$(W 'd["npoints"]')" 60 "the snapshot holds 60-point series"
check_eq "$(W 'd["idle_pods"] >= 3')" True "the snapshot has pods whose GPUs are idle now ($(W 'd["idle_pods"]'))"

# ---- the pods view, sorted by idle time ------------------------------------------------------
start_shell main 200 50
keys main "$KGPU_BIN top --snapshot $SNAP; echo TOP-EXIT=\$?" Enter
MSG="startup"; check_ok wait_for main "NODES " 15
keys main p
MSG="pods view"; check_ok wait_for main "Sort:gpus" 5
# the idle-time sort is offered once the pods carry the snapshot's usage and series (IDLE-FOR
# shows): before that, s only turns between GPUs and namespace (pods_view_key)
MSG="pods view with the series"; check_ok wait_for main "IDLE-FOR" 15
keys main s s s
MSG="s s s: sorted by idle time"; check_ok wait_for main "Sort:idle" 5
check_contains "$SCREEN" "IDLE-FOR$(printf '\xe2\x96\xbc')" "the IDLE-FOR header carries the sort mark"
# the rows: NAME ... IDLE-FOR PHASE (IDLE-FOR is the field before the phase)
rows=$(awk '/^ GPU PODS / { on = 1; next } on && NF == 0 { exit } on { print $1, $(NF-1) }' <<<"$SCREEN")
check_eq "$(head -n1 <<<"$rows" | cut -d' ' -f2)" "$(W 'd["longest"]')" "the first row is idle the longest ($(W 'd["longest"]'))"
check_contains "$(W 'd["first"]')" "$(head -n1 <<<"$rows" | cut -d' ' -f1)" "the first row is a pod idle that long"
printf '%s\n' "$rows" >"$T/rows.txt"
bad=$(python3 - "$T/want.json" "$T/rows.txt" <<'PY'
import json, sys
want = json.load(open(sys.argv[1]))["pods"]
def secs(s):
    if s == "-": return 0
    n, t = "", 0
    for c in s:
        if c.isdigit(): n += c
        else:
            t += int(n) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[c]; n = ""
    return t + (int(n) if n else 0)
bad, prev, n = [], None, 0
for line in open(sys.argv[2]).read().splitlines():
    name, f = line.split(" ")
    n += 1
    if want.get(name) != f: bad.append("%s: %s, want %s" % (name, f, want.get(name)))
    if prev is not None and secs(f) > prev: bad.append("%s: %s after a shorter one" % (name, f))
    prev = secs(f)
print("%d rows" % n if not bad and n >= 10 else "; ".join(bad) or "too few rows (%d)" % n)
PY
)
check_match "$bad" '^[0-9]+ rows$' "every row's IDLE-FOR equals the snapshot's series, longest first ($bad)"

# ---- the node view: sparklines of the pod's GPU ----------------------------------------------
keys main Home Enter        # read in order: Enter acts on the row Home selected
MSG="Enter opens the node of the pod idle the longest"; check_ok wait_for main "NODE $(W 'd["node"]')" 5
MSG="the node view explains the sparklines"; check_ok wait_for main "sparklines: the last 1h, highest per 1m" 5
devline=$(awk -v g="$(W 'd["gpu"]')" '/^   GPU  MIG/ { on = 1; next } on && $1 == g { getline; print; exit }' <<<"$SCREEN")
check_eq "$devline" "        util $(W 'd["util_utf8"]')  mem $(W 'd["mem_utf8"]')" \
  "UTF-8: the GPU's utilization and memory sparklines are its series, one block per minute"
quit_top main
MSG="q backs out to the shell"; check_ok wait_for main "TOP-EXIT=0" 5

# ---- ASCII outside a UTF-8 locale ------------------------------------------------------------
start_shell ascii 200 50 LANG=C
keys ascii "$KGPU_BIN top --snapshot $SNAP; echo TOP-EXIT=\$?" Enter
MSG="startup (C locale)"; check_ok wait_for ascii "NODES " 15
keys ascii p
MSG="pods view with the series (C locale)"; check_ok wait_for ascii "IDLE-FOR" 15
keys ascii s s s
MSG="pods view sorted by idle time (C locale)"; check_ok wait_for ascii "Sort:idle" 5
keys ascii Home Enter
MSG="the node view (C locale)"; check_ok wait_for ascii "sparklines: the last 1h" 5
devline=$(awk -v g="$(W 'd["gpu"]')" '/^   GPU  MIG/ { on = 1; next } on && $1 == g { getline; print; exit }' <<<"$SCREEN")
check_eq "$devline" "        util $(W 'd["util_ascii"]')  mem $(W 'd["mem_ascii"]')" "C locale: the same sparklines in ASCII"
quit_top ascii
MSG="q backs out to the shell (C locale)"; check_ok wait_for ascii "TOP-EXIT=0" 5

# ---- live, against a real Prometheus: the same sparklines as the snapshot of that moment --------
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
. "$KGPU_ROOT/tests/lib/prometheus.sh"
if ! prom_available; then
  ok "prometheus/promtool not installed: the live check is skipped"
  exit 0
fi
FIX="$KGPU_ROOT/tests/fixtures/plan"
python3 "$KGPU_ROOT/tests/gen/gen_plan_series.py" --spec "$FIX/prom-usage.json" --cluster "$FIX/prom-cluster.json" \
  --openmetrics "$T/plan.om" --expected "$T/expected.json" || { fail "generator failed"; exit 1; }
prom_backfill "$T/plan.om" "$T/prom-data" || { fail "backfill"; exit 1; }
prom_start "$T/prom-data" || { fail "prometheus did not start"; exit 1; }
NOW=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evalTime"])' "$T/expected.json")
fakeapi_start "$FIX/prom-cluster.json" || { fail "fake API server did not start"; exit 1; }
KUBECTL_GPU_NOW=$NOW kgpu snapshot --prometheus "$PROM_URL" -o "$T/live-snap.json"
check_rc 0 "snapshot of the live cluster"
want=$(python3 - "$T/live-snap.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
dev = [i for i in d["items"] if i.get("kind") == "GPUUsage" and i.get("of") == "device"
       and i["node"] == "a100-02" and i["gpu"] == 0][0]
def spark(series, top):
    out = ""
    for v in series:
        if v is None: out += " "; continue
        f = v / top if top > 0 else 0
        out += "▁▂▃▄▅▆▇█"[0 if f <= 0 else min(7, max(0, math.ceil(f * 8) - 1))]
    return out
print("        util %s  mem %s" % (spark(dev["utilSeries"], 100), spark(dev["memSeries"], dev["memTotalMiB"])))
PY
)
start_shell live 200 50
keys live "KUBECTL_GPU_NOW=$NOW KUBECONFIG=$KUBECONFIG $KGPU_BIN top --prometheus $PROM_URL --interval 1s; echo TOP-EXIT=\$?" Enter
MSG="live top starts"; check_ok wait_for live "NODES " 15
keys live / a 1 0 0 - 0 2 Enter
MSG="live: the filter is applied"; check_ok wait_for live "Filter:a100-02" 5
keys live Enter
MSG="live: the node view of a100-02"; check_ok wait_for live "NODE a100-02" 10
MSG="live: the sparklines come with the metrics"; check_ok wait_for live "sparklines: the last 1h" 15
# GPU 0's sparkline row, polled (bounded) until it shows the snapshot's series: the node view
# is drawn before the first metrics tick that brings the series, and on a loaded machine that
# tick comes seconds later; a row that never matches fails with the last one seen
for _ in $(seq 1 150); do
  cap live
  devline=$(awk '/^   GPU  MIG/ { on = 1; next } on && $1 == "0" { getline; print; exit }' <<<"$SCREEN")
  [ "$devline" = "$want" ] && break
  sleep 0.1
done
check_eq "$devline" "$want" "live: GPU 0's sparklines equal the snapshot's series of the same moment"
quit_top live
MSG="live: q backs out to the shell"; check_ok wait_for live "TOP-EXIT=0" 5
