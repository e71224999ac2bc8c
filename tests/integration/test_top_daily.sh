#!/usr/bin/env bash
# `kubectl gpu top` for daily use (issue 34), in tmux:
#  - rows the detail pane does not need go to the lists that have more rows than they show: at
#    160x45 every pending row shows (before, the pane stopped at a quarter of the body, 9 of 15);
#  - the header's Pending and the pane's PENDING are one count (pods, and owners whose pods a
#    quota refused: the pane lists them);
#  - VERDICT is never cut (NoDevicePlugin, 14 characters, whole at 80 columns), nor STATUS (its
#    brief form where the whole does not fit);
#  - while the first load runs every pane says "loading", not "no pending GPU pods";
#  - a lost watch says since when and how old the data is;
#  - the help says the cluster is followed by watches (not "lists every 5 intervals").
# Every wait polls capture-pane with a bound.
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
. "$KGPU_ROOT/tests/lib/tmux.sh"

# the fixture: examples/clusters/mixed-fleet.json and, made by the factory, 10 pods asking 16
# GPUs (more than any node has: TooLarge, one row each, no owner) and one pinned to a10g-02,
# whose GPU has no device plugin (NoDevicePlugin)
FIX="$T/many-pending.json"
python3 - "$KGPU_ROOT" "$FIX" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1] + "/tests/lib")
import k8s_objects as k
d = json.load(open(sys.argv[1] + "/examples/clusters/mixed-fleet.json"))
for i in range(10):
    c = k.container("t", "nvcr.io/nvidia/pytorch:24.05-py3", limits={"nvidia.com/gpu": "16"})
    d["items"].append(k.pod("daily", "big-%02d" % i, phase="Pending", containers=[c]))
c = k.container("t", "nvcr.io/nvidia/pytorch:24.05-py3", limits={"nvidia.com/gpu": "1"})
d["items"].append(k.pod("daily", "ndp-probe", phase="Pending", containers=[c],
                        node_selector={"kubernetes.io/hostname": "a10g-02"}))
json.dump(d, open(sys.argv[2], "w"))
PY
kgpu pending -A --snapshot "$FIX" -o json
NPEND=$(json_get "$OUT" 'len(d["pods"])')
check_eq "$(json_get "$OUT" '[p["verdict"] for p in d["pods"] if p["name"] == "ndp-probe"][0]')" "NoDevicePlugin" \
  "fixture: ndp-probe waits for a device plugin"
kgpu status --snapshot "$FIX" -o json
NGPUNODES=$(json_get "$OUT" 'd["summary"]["gpuNodes"]')
PODS_ONLY=$(json_get "$OUT" 'd["summary"]["pendingGPUPods"]')
if [ "$NPEND" -gt "$PODS_ONLY" ]; then ok "fixture: $NPEND pending rows, $PODS_ONLY of them pods (a quota-refused owner)"
else fail "fixture: want an owner not created beside the pods ($NPEND rows, $PODS_ONLY pods)"; fi

# rows of the pending pane: the lines under its header up to the function bar
pend_rows() { awk '/^ PENDING / { on = 1; next } on && /^ [A-Za-z0-9-]+\// { n++ } END { print n + 0 }' <<<"$SCREEN"; }

# ---- 160x45: every pending row shows; one count ------------------------------------------------
start_shell big 160 45
keys big "$KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="160x45: starts"; check_ok wait_for big "NODES $NGPUNODES" 15
# the screen may be caught while it is drawn (top to bottom): wait, bounded, until the pending
# pane is drawn to its last row, then judge that screen
for _ in $(seq 1 100); do cap big; [ "$(pend_rows)" -ge "$NPEND" ] && break; sleep 0.1; done
# the body is 45 - 4 header rows - 1 function bar = 40: nodes 1 + 14, pending 1 + 13, and the
# detail pane keeps at least a fifth (8)
check_eq "$(pend_rows)" "$NPEND" "160x45: all $NPEND pending rows show (the detail pane gave its spare rows)"
check_contains "$SCREEN" "Pending $NPEND " "header: Pending $NPEND, the pane's count"
check_match "$SCREEN" "^ PENDING $NPEND " "pane: PENDING $NPEND"
check_match "$SCREEN" "^ daily/ndp-probe +gpu:1 +NoDevicePlugin " "160x45: the verdict whole"
keys big q
MSG="160x45: q quits"; check_ok wait_re big "TOP-EXIT=[0-9]" 10
TM kill-session -t big

# ---- 80x24: VERDICT never cut ---------------------------------------------------------------------
start_shell small 80 24
keys small "$KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="80x24: starts"; check_ok wait_for small "NODES $NGPUNODES" 15
# judged once drawn to the function bar, the last line (bounded wait)
for _ in $(seq 1 100); do
  cap small; tail -n 1 <<<"$SCREEN" | grep -q 'q Quit' && grep -q '^ h100-02 ' <<<"$SCREEN" && break; sleep 0.1
done
# STATUS is a value: where the whole word does not fit, its brief form (the PROBLEM names), never
# a cut one (h100-02 is Ready with an unhealthy GPU in the fixture: Ready,Unhealthy unhealthy:1
# is 27 characters, wider than the column at 80)
NODE_ROWS=$(awk '/^ NODES / { on = 1; next } on && /^ [a-z0-9-]+ +[A-Z0-9-]+ / { print; next } on { exit }' <<<"$SCREEN")
check_match "$NODE_ROWS" '^ h100-02 .* Unhealthy( unhealthy:1)?( +↓)?$' "80x24: h100-02's STATUS in its brief form"
check_not_contains "$NODE_ROWS" "…" "80x24: no node's STATUS cut"
keys small Tab
for i in $(seq 1 "$NPEND"); do wait_re small '^ daily/ndp-probe ' 1 && break; keys small j; done
check_match "$SCREEN" "^ daily/ndp-probe +gpu:1 +NoDevicePlugin " "80x24: NoDevicePlugin whole (not cut to 12)"
keys small q
MSG="80x24: q quits"; check_ok wait_re small "TOP-EXIT=[0-9]" 10
TM kill-session -t small

# ---- live: loading says loading; a lost watch says since when and how old ----------------------
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" --watch-timeout 3 --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "^(?!.*watch=1)", "action": "delay", "seconds": 4}]'
start_shell live 80 24 KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
keys live "$KGPU_BIN top --interval 1s --no-metrics; echo TOP-EXIT=\$?" Enter
MSG="live: the panes say loading while the pods are listed"; check_ok wait_for live "loading the cluster" 10
cap live
check_not_contains "$SCREEN" "no pending GPU pods" "loading: the pending pane does not say none before it knows"
check_eq "$(grep -c 'loading\.\.\.' <<<"$SCREEN")" 3 "loading: the nodes, detail and pending panes each say loading..."
MSG="live: loaded"; check_ok wait_for live "live (watch)" 20
keys live '?'
MSG="help: opens"; check_ok wait_for live "KEYS" 5
keys live G                     # its end: REFRESH is the last section
MSG="help: its end"; check_ok wait_for live "Press q, Esc or ? to go back" 5
# the help wraps: the screen's lines joined
HELP=$(tr -s ' \n' ' ' <<<"$SCREEN")
check_contains "$HELP" "followed by watches" "help: the cluster is followed by watches"
check_not_contains "$HELP" "lists every" "help: no longer says the cluster lists every N intervals"
keys live q
MSG="help: back"; check_ok wait_for live "NODES" 5
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "watch=1", "code": 503}]'
t_lost=$(date +%s)
MSG="live: a lost watch says since when and how old the data is"
check_ok wait_re live "watch lost since [0-9]{2}:[0-9]{2}:[0-9]{2}, data [0-9]+s old" 15
since=$(grep -oE 'watch lost since [0-9:]{8}' <<<"$SCREEN" | awk '{print $4}')
# since: the clock of the moment the watch failed (the server refused it after t_lost - 3 s at
# the earliest: the watch timeout of 3 s renews it), within a few seconds of it
d=$(( $(date -d "$since" +%s) - t_lost ))
if [ "$d" -ge -4 ] && [ "$d" -le 6 ]; then ok "lost since $since: when the watch was refused (${d}s from the fault)"
else fail "lost since $since: ${d}s from the fault"; fi
fakeapi_faults '[]'
MSG="live: the watch comes back"; check_ok wait_for live "live (watch)" 15
keys live q
MSG="live: q quits"; check_ok wait_re live "TOP-EXIT=[0-9]" 10
check_contains "$SCREEN" "TOP-EXIT=0" "live: exit 0"
TM kill-session -t live
