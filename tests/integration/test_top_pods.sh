#!/usr/bin/env bash
# `kubectl gpu top` in tmux: the GPU pods view (p) and its namespace totals, checked against
# `status -o json` on examples/clusters/mixed-fleet.json (--snapshot): counts, the first row of
# each sort order, the totals per namespace, Enter to the pod's node and back, the filter;
# columns cut with an ellipsis at 80 columns and whole on a wide terminal; keys read through
# ncurses' keypad: an escape sequence it does not know (bracketed paste's ESC [ 2 0 0 ~, Alt-q
# as ESC q) neither quits nor acts, Home/End go to the first/last row.
# Every wait polls capture-pane with a bound; a check that something did NOT happen is
# followed by a key whose effect is waited for (the loop read past the sequence).
. "$(dirname "$0")/../lib/common.sh"

FIX="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
. "$KGPU_ROOT/tests/lib/tmux.sh"
# the first row under the pods header: "ns/name node gpus ..."
first_pod_row() { awk '/^ GPU PODS / { getline; print; exit }' <<<"$SCREEN"; }
# the row of namespace NS in the namespace pane: "NS PODS GPUS"
ns_row() { awk -v ns="$1" '/^ NAMESPACES / { on = 1; next } on && $1 == ns { print $1, $2, $3; exit }' <<<"$SCREEN"; }
# the node the detail pane shows (main screen)
detail_node() {
  awk 'prev != "" && /^ (Problems|Resources) / { split(prev, f, " "); print f[1]; exit } { prev = $0 }' <<<"$SCREEN"
}

# ---- what the view must show, from status -o json -----------------------------------------
kgpu status --snapshot "$FIX" -o json
SJ=$OUT
J() { json_get "$SJ" "$1"; }
PODS='[(p["namespace"], p["name"], n["name"], sum(p["resources"].values())) for n in d["nodes"] for p in n["pods"]]'
NPODS=$(J "len($PODS)")
MAXG=$(J "max(x[3] for x in $PODS)")
# ties on GPUs go by namespace/name
FIRST_BY_GPUS=$(J "'%s/%s %s %d' % sorted($PODS, key=lambda x: (-x[3], x[0], x[1]))[0][:4]" )
FIRST_BY_NS=$(J "'%s/%s' % sorted($PODS, key=lambda x: (x[0], x[1]))[0][:2]")
NSLIST=$(J "' '.join(sorted(set(x[0] for x in $PODS)))")
NRESEARCH=$(J "len([x for x in $PODS if x[0] == 'research'])")
LONGEST=$(J "max(('%s/%s' % x[:2] for x in $PODS), key=len)")
if [ "$NPODS" -gt 0 ] && [ "${#LONGEST}" -gt 40 ]; then ok "fixture: $NPODS pods hold GPUs, the longest name has ${#LONGEST} characters"
else fail "fixture: want pods and a name over 40 characters (got $NPODS, '$LONGEST')"; fi

start_shell main 80 24
keys main "$KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="startup"; check_ok wait_for main "NODES " 15
MSG="the function bar offers the pods view"; check_ok wait_for main "p Pods" 3
# the title row: " kubectl gpu top  snapshot PATH of DATE" left of "refresh disabled "
if [ $(( 28 + ${#FIX} + 21 )) -gt $(( 80 - 17 - 1 )) ]; then
  check_match "$SCREEN" "^ kubectl gpu top  snapshot .*… +refresh disabled" "80 columns: the title row's long snapshot path ends in an ellipsis"
fi

# ---- the pods view --------------------------------------------------------------------------
keys main p
MSG="p opens the pods view with every pod holding GPUs ($NPODS)"; check_ok wait_for main "GPU PODS $NPODS" 5
# the function bar is drawn last: once it shows, the capture holds the whole frame
MSG="pods view: sorted by GPUs first, the function bar says so"; check_ok wait_for main "Sort:gpus" 5
check_contains "$SCREEN" "GPUS$(printf '\xe2\x96\xbc')" "pods view: the GPUS header carries the sort mark"
# a name cut with an ellipsis: compare what shows before it
same_row() {
  local gn gr wn wr
  read -r gn gr <<<"$1"; read -r wn wr <<<"$2"
  [ "$gr" = "$wr" ] || return 1
  [ "$gn" = "$wn" ] && return 0
  case "$gn" in *…) [ "${wn#"${gn%…}"}" != "$wn" ] ;; *) return 1 ;; esac
}
# wait_first NAME WANT [SECONDS]: until the pods view's first row is WANT ("name node", a name
# cut with an ellipsis allowed): the screen follows a key within a refresh, under load later;
# bounded, then the caller's check says what was there
wait_first() {
  local name=$1 want=$2 secs=${3:-5} i pn pd
  for i in $(seq 1 $((secs * 10))); do
    cap "$name"
    read -r pn pd _ <<<"$(first_pod_row)"
    same_row "$pn $pd" "$want" && return 0
    sleep 0.1
  done
  return 1
}
read -r P_NAME P_NODE P_GPUS _ <<<"$(first_pod_row)"
if same_row "$P_NAME $P_NODE $P_GPUS" "$FIRST_BY_GPUS"; then ok "pods view: the first row holds the most GPUs ($MAXG), as status -o json says"
else fail "pods view: first row [$P_NAME $P_NODE $P_GPUS], want [$FIRST_BY_GPUS]"; fi
for ns in $NSLIST; do
  want=$(J "'%s %d %d' % ('$ns', len([x for x in $PODS if x[0] == '$ns']), sum(x[3] for x in $PODS if x[0] == '$ns'))")
  check_eq "$(ns_row "$ns")" "$want" "namespace totals: $ns pods and GPUs equal status -o json"
done
check_contains "$SCREEN" "$(printf '\xe2\x80\xa6') " "pods view at 80 columns: a long pod name ends in an ellipsis"
check_not_contains "$SCREEN" "$LONGEST" "pods view at 80 columns: the longest name ($LONGEST) is cut"

keys main s
MSG="s: sorted by namespace (no metrics: memory, utilization and idle are skipped)"; check_ok wait_for main "Sort:namespace" 5
keys main Home
MSG="sort by namespace, Home: the first row is the first namespace/name"; check_ok wait_for main " ${FIRST_BY_NS%"${FIRST_BY_NS:36}"}" 5
keys main s
MSG="s cycles back to GPUs"; check_ok wait_for main "Sort:gpus" 5

keys main End
MSG="End: the last pod selected (the list scrolls to it)"; check_ok wait_re main "↑" 5
keys main Home
MSG="Home: back at the first row (the scroll mark gone)"; check_ok wait_gone main "↑" 5
keys main Enter
MSG="Enter opens the node of the first (selected) pod"; check_ok wait_for main "NODE $P_NODE" 5
MSG="the pod's node view"; check_ok wait_re main "^ Node +$P_NODE\$" 5
keys main q
MSG="q from that node goes back to the pods view"; check_ok wait_for main "GPU PODS $NPODS" 5

keys main / r e s e a r c h Enter
MSG="the filter narrows the pods to research's ($NRESEARCH of $NPODS)"; check_ok wait_for main "GPU PODS $NRESEARCH/$NPODS" 5
MSG="filtered: one namespace in the totals"; check_ok wait_for main "NAMESPACES 1 " 5
keys main q
MSG="q goes back to the main screen"; check_ok wait_for main "Enter Node Tab Pane" 5
# the filter was left as typed: Esc on the main screen clears it, a second quits; clear it here
keys main Escape
MSG="Esc clears the filter"; check_ok wait_for main "/ Filter s" 5

# ---- unknown escape sequences and Home/End on the main screen --------------------------------
keys main -H 1b 5b 32 30 30 7e
keys main -H 1b 71
keys main -H 1b 5b 39 39 3b 39 39 7a
keys main '?'
MSG="an unknown escape sequence and Alt-q do not quit: ? still opens the help"; check_ok wait_for main "KEYS" 5
check_not_contains "$SCREEN" "TOP-EXIT" "still running after ESC [ 2 0 0 ~, ESC q, ESC [ 9 9 ; 9 9 z"
keys main q
MSG="back from the help"; check_ok wait_for main "Enter Node Tab Pane" 5
LAST=$(J 'sorted(n["name"] for n in d["nodes"])[-1]'); FIRSTN=$(J 'sorted(n["name"] for n in d["nodes"])[0]')
keys main End
MSG="End selects the last node ($LAST)"; check_ok wait_re main "^ $LAST .*(, |GPUs)" 5
cap main; check_eq "$(detail_node)" "$LAST" "End: the detail pane shows the last node"
keys main Home
MSG="Home selects the first node ($FIRSTN)"; check_ok wait_re main "^ $FIRSTN  .*, " 5
cap main; check_eq "$(detail_node)" "$FIRSTN" "Home: the detail pane shows the first node"

# ---- a wide terminal: the name column takes the width ---------------------------------------
TM resize-window -t main -x 200 -y 50
keys main p
MSG="200 columns: the pods view"; check_ok wait_for main "GPU PODS $NPODS" 5
MSG="200 columns: the whole frame"; check_ok wait_for main "q Back" 5
ROWS=$(awk '/^ GPU PODS / { on = 1; next } /^ NAMESPACES / { on = 0 } on' <<<"$SCREEN")
check_not_contains "$ROWS" "…" "200 columns: no pod name, node or resource is cut"
keys main /
keys main -l "$LONGEST"
keys main Enter
MSG="200 columns: the longest pod name ($LONGEST) shows whole"; check_ok wait_re main "^ $LONGEST +[a-z0-9]"
keys main q
MSG="back to the main screen"; check_ok wait_for main "Enter Node Tab Pane" 5
keys main Escape
MSG="Esc clears the filter"; check_ok wait_for main "/ Filter s" 5
TM resize-window -t main -x 80 -y 24
MSG="back to the main screen at 80x24"; check_ok wait_for main "Enter Node Tab Pane" 5
keys main q
MSG="q quits with exit 0"; check_ok wait_for main "TOP-EXIT=0" 10
TM kill-session -t main

# ---- with metrics: a real Prometheus on generated DCGM series (tests/lib/prometheus.sh) -------
. "$KGPU_ROOT/tests/lib/prometheus.sh"
if ! prom_available; then
  ok "prometheus/promtool not installed: the pods view with metrics is not checked"
  exit 0
fi
if ! python3 "$KGPU_ROOT/tests/gen/gen_dcgm_series.py" --spec "$KGPU_ROOT/tests/fixtures/metrics/fleet-usage.json" \
     --cluster "$FIX" --openmetrics "$T/dcgm.om" --expected "$T/expected.json" --scrape-dir "$T/scrape"; then
  fail "metrics: generator failed"; exit 1
fi
prom_backfill "$T/dcgm.om" "$T/prom-data" || { fail "metrics: backfill"; exit 1; }
prom_start "$T/prom-data" || { fail "metrics: prometheus did not start"; exit 1; }
NOW=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evalTime"])' "$T/expected.json")
KUBECTL_GPU_NOW=$NOW kgpu status --snapshot "$FIX" --prometheus "$PROM_URL" -o json
check_rc 0 "metrics: status -o json"
MJ=$OUT
M() { json_get "$MJ" "$1"; }
MP='[(p["namespace"] + "/" + p["name"], n["name"], p.get("memoryUsedMiB"), p.get("utilization")) for n in d["nodes"] for p in n["pods"]]'
# the first pod by memory used and by utilization (unknown last; ties by namespace/name)
BY_MEM=$(M "'%s %s' % sorted($MP, key=lambda x: (x[2] is None, -(x[2] or 0), x[0]))[0][:2]")
BY_UTIL=$(M "'%s %s' % sorted($MP, key=lambda x: (x[3] is None, -(x[3] or 0), x[0]))[0][:2]")
check_match "$(M "len([x for x in $MP if x[2] is not None])")" "^[1-9]" "metrics: some pods have usage"

start_shell met 120 40 KUBECTL_GPU_NOW="$NOW"
keys met "$KGPU_BIN top --snapshot $FIX --prometheus $PROM_URL; echo TOP-EXIT=\$?" Enter
MSG="metrics: top starts with metrics"; check_ok wait_re met "Idle [0-9]" 20
keys met p
MSG="metrics: the pods view has MEMORY, UTIL and IDLE"; check_ok wait_re met "GPU PODS .*MEMORY +UTIL +IDLE" 5
keys met s
MSG="metrics: s sorts by memory"; check_ok wait_for met "Sort:memory" 5
keys met Home
wait_first met "$BY_MEM" 5
read -r P_NAME P_NODE _ <<<"$(first_pod_row)"
if same_row "$P_NAME $P_NODE" "$BY_MEM"; then ok "metrics: the first row uses the most memory ($BY_MEM)"
else fail "metrics: by memory first row [$P_NAME $P_NODE], want [$BY_MEM]"; fi
keys met s
MSG="metrics: s sorts by utilization"; check_ok wait_for met "Sort:utilization" 5
keys met Home
wait_first met "$BY_UTIL" 5
read -r P_NAME P_NODE _ <<<"$(first_pod_row)"
if same_row "$P_NAME $P_NODE" "$BY_UTIL"; then ok "metrics: the first row has the highest utilization ($BY_UTIL)"
else fail "metrics: by utilization first row [$P_NAME $P_NODE], want [$BY_UTIL]"; fi
# idle devices per pod: the devices whose metrics name the pod and are held idle
IDLE='{(p["namespace"] + "/" + p["name"], n["name"]): sum(1 for g in n.get("gpus", []) if g.get("idleAllocated") and g.get("pod") and g["pod"]["name"] == p["name"] and (g["pod"].get("namespace") or "") == p["namespace"]) for n in d["nodes"] for p in n["pods"]}'
MAXIDLE=$(M "max($IDLE.values())")
IDLE_TOTAL=$(M "sum($IDLE.values())")
BY_IDLE=$(M "'%s %s' % sorted($MP, key=lambda x: (-$IDLE[(x[0], x[1])], x[3] is None, x[3] if x[3] is not None else 0, x[0]))[0][:2]")
keys met s
MSG="metrics: s sorts by idle devices"; check_ok wait_for met "Sort:idle" 5
keys met Home
wait_first met "$BY_IDLE" 5
read -r P_NAME P_NODE _ <<<"$(first_pod_row)"
if same_row "$P_NAME $P_NODE" "$BY_IDLE"; then ok "metrics: the first row holds the most idle devices ($MAXIDLE: $BY_IDLE)"
else fail "metrics: by idle first row [$P_NAME $P_NODE], want [$BY_IDLE]"; fi
check_eq "$(awk '/^ NAMESPACES / { on = 1; next } on && NF >= 6 { s += $NF } END { print s + 0 }' <<<"$SCREEN")" "$IDLE_TOTAL" \
  "metrics: the namespaces' idle devices add up to the pods' ($IDLE_TOTAL)"
keys met q q
MSG="metrics: q quits with exit 0"; check_ok wait_for met "TOP-EXIT=0" 10
TM kill-session -t met
