#!/usr/bin/env bash
# `kubectl gpu top` driven in tmux: the screen on examples/clusters/mixed-fleet.json (--snapshot)
# — header totals equal to `status -o json`, moving the selection, drilling into a node and
# into a pending pod's explanation, filtering, sorting, help, resizing, quitting to a clean
# shell, monochrome and ASCII — and against the fake API server, which top lists once and then
# watches: a refused watch shows in the header while the last data stays and the keys work, a
# pod created and deleted on the server's schedule appears and goes, a watch cut mid-event is
# resumed without a list, and quitting does not wait for the open watches.
# Every wait polls capture-pane with a bound; nothing sleeps long.
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"

FIX="$KGPU_ROOT/examples/clusters/mixed-fleet.json"

# ---- outside a terminal -------------------------------------------------------------------
kgpu top --snapshot "$FIX"
check_rc 1 "top without a terminal"
check_contains "$ERR" "top needs a terminal; use 'kubectl gpu status'" "top without a terminal: says what to use"
check_one_line_err "top without a terminal"
kgpu top --snapshot "$FIX" --interval 0s
check_rc 2 "top --interval 0s is a usage error"
kgpu top --help
check_contains "$OUT" "--interval" "top --help lists --interval"

. "$KGPU_ROOT/tests/lib/tmux.sh"
# the node the detail pane shows: the first word of the line above "Problems"/"Resources"
detail_node() {
  awk 'prev != "" && /^ (Problems|Resources) / { split(prev, f, " "); print f[1]; exit } { prev = $0 }' <<<"$SCREEN"
}
# names in the node list, top to bottom
# (rows start with the name; the detail pane's header has ", " after the product)
node_rows() {
  awk '/^ NODES / { on = 1; next } on && /^ [a-z0-9][a-z0-9.-]* / && !/, / { print $1; next } on { exit }' <<<"$SCREEN"
}
# the widest line of the screen, in characters
widest() { python3 -c 'import sys; print(max([len(l) for l in sys.stdin.read().splitlines()] + [0]))' <<<"$SCREEN"; }
# the pane's first row after its header
first_node() { node_rows | head -1; }
check_ok() { if "$@"; then ok "${MSG}"; else fail "${MSG}: screen was:"$'\n'"$SCREEN"; fi; }
# a view's content is checked by waiting (bounded) for it, not by reading the first frame that
# shows the view's title: under load the terminal may be captured halfway through a frame
expect_for() { MSG=$3; check_ok wait_for "$1" "$2" 5; }
expect_re() { MSG=$3; check_ok wait_re "$1" "$2" 5; }
# expect_rows NAME WANT MSG: the node rows (space-joined) become WANT within 5 s
expect_rows() {
  local i got=""
  for i in $(seq 1 50); do
    cap "$1"
    got=$(node_rows | tr '\n' ' ')
    [ "$got" = "$2" ] && break
    sleep 0.1
  done
  check_eq "$got" "$2" "$3"
}

# numbers the header must show: those of status -o json and pending -A -o json
kgpu status --snapshot "$FIX" -o json
STATUS_JSON=$OUT
J() { json_get "$STATUS_JSON" "$1"; }
NODES=$(J 'd["summary"]["nodes"]'); GPUNODES=$(J 'd["summary"]["gpuNodes"]')
PHYS=$(J 'd["summary"]["physicalGPUs"]')
GPU_TOTAL=$(J '"%d/%d" % (d["summary"]["resources"]["nvidia.com/gpu"]["allocated"], d["summary"]["resources"]["nvidia.com/gpu"]["allocatable"])')
DGX_POD=$(J '[n for n in d["nodes"] if n["name"] == "dgx-a100-01"][0]["pods"][0]["name"]')
kgpu pending --snapshot "$FIX" -A -o json
# the header's Pending is the pending pane's count: the pods and the owners whose pods a quota
# refused, as pending lists them (issue 34: one count everywhere)
PENDING=$(json_get "$OUT" 'len(d["pods"])')
LLAMA_VERDICT=$(json_get "$OUT" '[p for p in d["pods"] if p["name"] == "llama-70b-pretrain-worker-7"][0]["verdict"]')

# ---- the snapshot screen ----------------------------------------------------------------------
start_shell main 80 24
keys main "$KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="startup: the node list shows"; check_ok wait_for main "NODES $GPUNODES" 15
for n in a100-40gb-01 dgx-a100-01 h100-01; do check_contains "$SCREEN" "$n" "startup: node $n listed"; done
check_contains "$SCREEN" "Nodes $NODES ($GPUNODES GPU)" "header: node counts equal status -o json"
check_contains "$SCREEN" "GPUs $PHYS" "header: physical GPUs equal status -o json ($PHYS)"
check_contains "$SCREEN" "Pending $PENDING" "header: pending rows equal pending -A -o json"
check_contains "$SCREEN" "gpu $GPU_TOTAL" "header: nvidia.com/gpu allocated/allocatable equal status -o json"
check_contains "$SCREEN" "refresh disabled" "header: a snapshot says refresh is disabled"
check_contains "$SCREEN" "PENDING" "startup: the pending list shows"
check_contains "$SCREEN" "q Quit" "startup: the function bar shows the keys"
check_eq "$(TM display -p -t main '#{alternate_on}')" 1 "startup: on the alternate screen"
max=$(widest)
if [ "$max" -le 80 ]; then ok "80x24: no line wider than the terminal"; else fail "80x24: a line of $max columns"; fi
cap_e main
if grep -qE $'\e\\[(3[0-7]|4[0-7])m' <<<"$SCREEN"; then ok "colour by default"; else fail "no colour escapes by default"; fi

# navigation: the detail pane follows the selection
cap main
first=$(detail_node)
check_eq "$first" "$(first_node)" "detail pane shows the first (selected) node"
keys main j
MSG="j moves the selection"; check_ok wait_re main "^ a10g-01  A10G, " 5
second=$(detail_node)
check_eq "$second" "$(node_rows | sed -n 2p)" "j: the detail pane shows the second node"
keys main j j
MSG="j j moves two further"; check_ok wait_re main "^ dgx-a100-01  A100" 5
keys main k
MSG="k moves back"; check_ok wait_re main "^ a10g-02  A10G" 5
keys main j

# drill into dgx-a100-01 (MIG)
keys main Enter
MSG="Enter opens the node view"; check_ok wait_for main "NODE dgx-a100-01" 5
expect_for main "RESOURCES" "node view: resources"
expect_re main "Taints +none" "node view: no taints on dgx-a100-01"
# the fixture's nvidia.com/gpu.deploy.* labels of dgx-a100-01, counted
DEPLOYED=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=[i for i in d["items"] if i["kind"]=="Node" and i["metadata"]["name"]=="dgx-a100-01"][0]; print(sum(1 for k,v in n["metadata"]["labels"].items() if k.startswith("nvidia.com/gpu.deploy.") and v=="true"))' "$FIX")
expect_re main "Operator +$DEPLOYED components deployed" "node view: the GPU Operator's components ($DEPLOYED deploy labels)"
expect_for main "nvidia.com/mig-1g.10gb" "node view: its MIG resources"
expect_for main "MIG device" "node view: MIG devices named as such"
keys main NPage
MSG="node view: PgDn scrolls to the pods holding GPUs"; check_ok wait_for main "PODS HOLDING GPUS" 5
expect_for main "$DGX_POD" "node view: a pod of status -o json holding its GPUs ($DGX_POD)"
keys main q
MSG="q goes back to the main screen"; check_ok wait_for main "NODES $GPUNODES" 5

# the pending list and the explain view
keys main Tab
MSG="Tab: the function bar offers Explain"; check_ok wait_for main "Enter Explain" 5
keys main j
MSG="pending: j selects the second pending pod"; check_ok wait_re main "^ ml-training/llama-70b-pretrain-worker-7  " 5
keys main Enter
MSG="Enter explains the pending pod"; check_ok wait_for main "EXPLAIN ml-training/llama-70b-pretrain-worker-7" 5
expect_re main "Verdict +$LLAMA_VERDICT" "explain view: the verdict of pending -o json ($LLAMA_VERDICT)"
expect_for main "Scheduler" "explain view: the scheduler's message"
keys main Escape
MSG="Esc goes back"; check_ok wait_for main "Enter Explain" 5
keys main Tab
MSG="Tab back to the nodes"; check_ok wait_for main "Enter Node" 5

# filter by name, by label, cancel, clear
keys main / h 1 0 0
MSG="/ shows what is typed"; check_ok wait_for main "Filter: h100" 5
keys main Enter
MSG="filter by name narrows the list"; check_ok wait_for main "NODES 2/$GPUNODES" 5
expect_rows main "h100-01 h100-02 " "filter h100: only the H100 nodes"
keys main Enter
MSG="node view of an H100 node"; check_ok wait_re main "NODE h100-0[12] " 5
expect_re main "Taints +dedicated=training:NoSchedule" "node view: the node's taint"
keys main q
MSG="back from h100-01"; check_ok wait_for main "NODES 2/$GPUNODES" 5
keys main / C-u "nvidia.com/gpu.product=NVIDIA-A10G" Enter
MSG="filter by label selector"; check_ok wait_for main "Filter:nvidia.com/gpu." 5
expect_rows main "a10g-01 a10g-02 " "filter by label: the A10G nodes"
# wait for each state before the next key: "/ x y z Escape" sent at once, then Escape, can
# reach the view as ESC ESC (Alt-Esc, dropped whole) before the edit has even begun
keys main / x y z
MSG="/ xyz: the edit shows what is typed (after the filter applied)"; check_ok wait_for main "NVIDIA-A10Gxyz_" 5
keys main Escape
MSG="Esc cancels the edit"; check_ok wait_gone main "Filter: " 5
expect_rows main "a10g-01 a10g-02 " "Esc: the previous filter stays"
keys main Escape
MSG="Esc on the main screen clears the filter"; check_ok wait_re main "NODES $GPUNODES[^/0-9]" 5
# the filter matches the pods a node holds (namespace/name), and says when a selector is bad
keys main / C-u "$DGX_POD" Enter
MSG="filter by a pod's name"; check_ok wait_re main "NODES [0-9]+/$GPUNODES" 5
MSG="filter by pod name: the node holding $DGX_POD"; check_ok wait_re main "^ dgx-a100-01 " 5
check_not_contains "$(node_rows)" "t4-02" "filter by pod name: not the nodes without it"
# each state before the next key: the list follows what is typed, so "NODES 14" shows while
# the edit is empty, and the message while "app in (" is typed; an Escape sent then can find
# the edit still open, and the '?' after it read with it as Alt-?
keys main / C-u "app in (x"
MSG="a bad label selector: the edit shows what is typed"; check_ok wait_for main "app in (x_" 5
keys main Enter
MSG="Enter applies the filter"; check_ok wait_gone main "Filter: " 5
MSG="a bad label selector says so"; check_ok wait_for main "bad label selector" 5
keys main Escape
MSG="Esc clears it"; check_ok wait_re main "NODES $GPUNODES[^/0-9]" 5

# help
keys main '?'
MSG="? shows the help"; check_ok wait_for main "KEYS" 5
check_contains "$SCREEN" "filter by name or label" "help: explains the filter"
keys main q
MSG="q leaves the help"; check_ok wait_for main "NODES $GPUNODES" 5

# resize to 120x40 and back
TM resize-window -t main -x 120 -y 40
MSG="resize to 120x40: every node shows"; check_ok wait_for main "v100-01" 5
max=$(widest)
if [ "$max" -gt 80 ]; then ok "120x40: the screen uses the width ($max columns)"; else fail "120x40: widest line $max"; fi
check_eq "$(node_rows | wc -l | tr -d ' ')" "$GPUNODES" "120x40: all $GPUNODES node rows"
TM resize-window -t main -x 70 -y 20
MSG="below 80x24: a notice instead of cut panes"; check_ok wait_for main "terminal too small (70x20): top needs 80x24" 5
check_not_contains "$SCREEN" "NODES" "below 80x24: no pane drawn"
TM resize-window -t main -x 80 -y 24
MSG="resize back to 80x24"; check_ok wait_for main "NODES $GPUNODES" 5
MSG="resize back to 80x24: fewer rows"; check_ok wait_gone main "v100-01" 5
check_contains "$SCREEN" "NODES $GPUNODES" "80x24 again: redrawn"
max=$(widest)
if [ "$max" -le 80 ]; then ok "80x24 again: nothing wider than the terminal"; else fail "80x24 again: a line of $max columns"; fi

# sort
before=$(node_rows | tr '\n' ' ')
keys main s
MSG="s: sort by allocation"; check_ok wait_for main "Sort:allocation" 5
after=$(node_rows | tr '\n' ' ')
if [ "$before" != "$after" ]; then ok "s changes the order"; else fail "s: same order [$after]"; fi
check_eq "$(first_node)" "h100-01" "sort by allocation: the fullest node first (h100-01, 8/8)"
keys main s s s
MSG="s cycles back to name"; check_ok wait_for main "Sort:name" 5
expect_rows main "$before" "back to the name order"

# quit: the shell and its prompt are back, no alternate screen left
keys main q
MSG="q quits with exit 0"; check_ok wait_for main "TOP-EXIT=0" 10
check_not_contains "$SCREEN" "NODES" "after q: the screen of top is gone"
# bash prints its prompt after the echo's line: wait for it (bounded), not the first capture
last_line() { grep -v '^$' <<<"$SCREEN" | tail -1; }
for i in $(seq 1 50); do [[ "$(last_line)" =~ ^\$\ ?$ ]] && break; sleep 0.1; cap main; done
check_match "$(last_line)" '^\$ ?$' "after q: the prompt is back"
check_eq "$(TM display -p -t main '#{alternate_on}')" 0 "after q: alternate screen left"
TM kill-session -t main

# ---- a queue: identical waiting pods are one row; the explain view makes the fixes ---------------
QFIX="$KGPU_ROOT/tests/fixtures/pending/queue.json"
kgpu explain train-q-0 -n ml --snapshot "$QFIX"
QFIX1=$(grep -m1 -o 'when ml/full-[ab] ends' <<<"$OUT")
start_shell queue 140 60
keys queue "$KGPU_BIN top --snapshot $QFIX; echo TOP-EXIT=\$?" Enter
MSG="queue: starts"; check_ok wait_for queue "PENDING 9" 15
expect_re queue "^ ml/Job/train-q \(4 pods\) +gpu:1 +Insufficient" "queue: the 4 identical pods of Job train-q are one row"
expect_re queue "^ ml/Job/eval-q \(2 pods\) +gpu:1 +Insufficient" "queue: the 2 of Job eval-q are one row"
expect_re queue "^ ml/train-q-big +gpu:2 " "queue: a different request is its own row"
check_match "$SCREEN" "^ ml/train-q-gated +gpu:1 +Gated" "queue: a different verdict is its own row"
check_match "$SCREEN" "^ ml/lone-1 " "queue: a pod without an owner is its own row"
keys queue Tab j j Enter
MSG="queue: Enter on a group explains its first pod"; check_ok wait_for queue "EXPLAIN ml/train-q-0" 5
expect_for queue "FIXES" "queue: the explain view has the fixes (made for the pod shown)"
check_contains "$SCREEN" "$QFIX1" "queue: the fix explain prints ($QFIX1)"
keys queue q q
MSG="queue: q quits"; check_ok wait_re queue "TOP-EXIT=[0-9]" 10
check_contains "$SCREEN" "TOP-EXIT=0" "queue: exit 0"
TM kill-session -t queue

# ---- monochrome, ASCII, Ctrl-C --------------------------------------------------------------------
start_shell mono 80 24 NO_COLOR=1 LC_ALL=C
keys mono "$KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="NO_COLOR + C locale: starts"; check_ok wait_for mono "NODES $GPUNODES" 15
cap_e mono
if grep -qE $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7])(;[0-9;]*)?m' <<<"$SCREEN"; then fail "NO_COLOR: colour escapes found"; else ok "NO_COLOR: no colour"; fi
if grep -qE $'\e\\[([0-9;]*;)?7(;[0-9;]*)?m' <<<"$SCREEN"; then ok "NO_COLOR: selection in reverse video"; else fail "NO_COLOR: no reverse video"; fi
cap mono
if grep -q '█' <<<"$SCREEN"; then fail "C locale: Unicode bars"; else ok "C locale: no Unicode bars"; fi
check_match "$SCREEN" '4/8 #+\.' "C locale: ASCII bars"
keys mono j Enter
MSG="NO_COLOR: drill-down works"; check_ok wait_for mono "NODE a10g-01" 5
keys mono C-c
MSG="Ctrl-C quits"; check_ok wait_re mono "TOP-EXIT=[0-9]" 10
check_contains "$SCREEN" "TOP-EXIT=0" "Ctrl-C: exit 0"
check_eq "$(TM display -p -t mono '#{alternate_on}')" 0 "Ctrl-C: terminal restored"
TM kill-session -t mono

start_shell nocolor 80 24
keys nocolor "$KGPU_BIN top --no-color --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="--no-color: starts"; check_ok wait_for nocolor "NODES $GPUNODES" 15
cap_e nocolor
if grep -qE $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7])(;[0-9;]*)?m' <<<"$SCREEN"; then fail "--no-color: colour escapes found"; else ok "--no-color: no colour"; fi
keys nocolor q
MSG="--no-color: q quits"; check_ok wait_for nocolor "TOP-EXIT=0" 10
TM kill-session -t nocolor

# ---- live, against the fake API server: a lost watch, quitting with watches open ---------------------
if ! fakeapi_start "$FIX" --watch-timeout 3 --bookmark-interval 1; then fail "fake API server did not start"; exit 1; fi
start_shell live 80 24 KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
# the first load fails: one error line, exit 1, the terminal given back
fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 403}]'
keys live "$KGPU_BIN top --interval 1s --no-metrics; echo TOP-EXIT=\$?" Enter
MSG="live: a first load that fails exits"; check_ok wait_re live "TOP-EXIT=[0-9]" 20
check_contains "$SCREEN" "TOP-EXIT=1" "first load fails: exit 1"
check_match "$SCREEN" "^error: .*forbidden" "first load fails: the error on one line"
check_eq "$(TM display -p -t live '#{alternate_on}')" 0 "first load fails: terminal restored"
keys live clear Enter
MSG="clear"; check_ok wait_gone live "TOP-EXIT=1" 5
keys live "TERM=no-such-terminal $KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="unknown terminal type: exits"; check_ok wait_re live "TOP-EXIT=[0-9]" 10
check_contains "$SCREEN" "TOP-EXIT=1" "unknown terminal type: exit 1"
check_match "$SCREEN" '^error: .*"no-such-terminal"' "unknown terminal type: named in the error"
keys live clear Enter
MSG="clear"; check_ok wait_gone live "TOP-EXIT=1" 5
fakeapi_faults '[]'
keys live "$KGPU_BIN top --interval 1s --no-metrics; echo TOP-EXIT=\$?" Enter
MSG="live: starts"; check_ok wait_for live "NODES $GPUNODES" 20
check_contains "$SCREEN" "context fake" "live: the header names the context"
check_contains "$SCREEN" "live (watch)" "live: the header says the view follows the cluster"
check_contains "$SCREEN" "GPUs $PHYS" "live: same totals as the snapshot"

# a kind whose watch fails: the header says so, the last data stays, keys work, and the
# watch comes back by itself (with the server's 3 s watch timeout, watches are renewed often);
# a 503 is retried with backoff (a 403 on a watch would end following that kind: docs/watch.md)
fakeapi_faults '[{"path": "^/api/v1/pods$", "query": "watch=1", "code": 503}]'
MSG="live: a lost watch shows"; check_ok wait_re live "watch lost since [0-9:]{8}, data [0-9]+s old" 10
check_contains "$SCREEN" "NODES $GPUNODES" "live: the last good data stays while a watch is lost"
t0=$(date +%s%N)
keys live j
MSG="live: j works while a watch is lost"; check_ok wait_re live "^ a10g-01  A10G, " 3
keys live '?'
MSG="live: ? works while a watch is lost"; check_ok wait_for live "KEYS" 3
keys live q
MSG="live: back to the list"; check_ok wait_for live "NODES $GPUNODES" 3
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$ms" -lt 4000 ]; then ok "live: three keys answered in ${ms} ms while a watch is lost"; else fail "live: keys took ${ms} ms"; fi
fakeapi_faults '[]'
MSG="live: the watch comes back"; check_ok wait_for live "live (watch)" 15
check_eq "$(fakeapi_count '^/api/v1/pods$' '^(?!.*watch=1)')" 1 "live: a failing watch is retried, the pods are not listed again"

# a kind the rights let list but not watch (403 on the watch): not followed any more, and the
# header says so instead of a plain "live (watch)" (docs/watch.md)
keys live q
MSG="refused: q quits"; check_ok wait_for live "TOP-EXIT=0" 6
keys live clear Enter
MSG="clear"; check_ok wait_gone live "TOP-EXIT=0" 5
fakeapi_rbac '[{"user": "gpu-admin", "verb": "watch", "resource": "daemonsets"}]'
keys live "$KGPU_BIN top --interval 1s --no-metrics; echo TOP-EXIT=\$?" Enter
MSG="refused: starts"; check_ok wait_for live "NODES $GPUNODES" 20
MSG="refused: the header says one kind is not watched"; check_ok wait_re live "live \(1 refused\), changed [0-9:]{8}" 10
check_contains "$SCREEN" "GPUs $PHYS" "refused: the listed data stays"
fakeapi_rbac '[]'

# quitting while watches are open does not wait for them
t0=$(date +%s%N)
keys live q
MSG="live: q quits with watches open"; check_ok wait_for live "TOP-EXIT=0" 6
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$ms" -lt 4000 ]; then ok "live: quit in ${ms} ms although watches are open"; else fail "live: quit took ${ms} ms"; fi
check_eq "$(TM display -p -t live '#{alternate_on}')" 0 "live: terminal restored"
TM kill-session -t live
fakeapi_faults '[]'

# ---- top follows the cluster: a pod created and deleted, a watch cut mid-event ---------------------
# the scenario starts at the first watch request; each step waits for the one before (the pod
# comes 4 s after it, so that the first screen, drawn once the lists are in, shows it absent)
cat >"$T/top-scenario.json" <<EOF
{"steps": [
  {"after": 4, "op": "add", "object": {"apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "watch-new-0", "namespace": "research", "uid": "0f0e0d0c-1111-4222-8333-944445555666",
                 "creationTimestamp": "2026-11-24T03:00:00Z"},
    "spec": {"schedulerName": "default-scheduler", "nodeSelector": {"nvidia.com/gpu.product": "NVIDIA-B200"},
             "containers": [{"name": "t", "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                             "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
    "status": {"phase": "Pending"}}},
  {"after": 3, "op": "break-watches"},
  {"after": 1, "watches": 6, "op": "delete", "kind": "Pod", "namespace": "research", "name": "watch-new-0"}
]}
EOF
fakeapi_start "$FIX" --scenario "$T/top-scenario.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
start_shell live3 100 40 KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
keys live3 "$KGPU_BIN top --interval 1s --no-metrics; echo TOP-EXIT=\$?" Enter
MSG="follow: starts"; check_ok wait_for live3 "NODES $GPUNODES" 20
check_not_contains "$SCREEN" "watch-new-0" "follow: the pod is not there yet"
t0=$(date +%s%N)
MSG="follow: a pod created after the list appears"; check_ok wait_for live3 "watch-new-0" 10
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check_contains "$SCREEN" "Pending $((PENDING + 1)) " "follow: the pending count grew by one"
MSG="follow: the cut watch is resumed and the deletion shows"; check_ok wait_gone live3 "watch-new-0" 15
check_contains "$SCREEN" "Pending $PENDING " "follow: the pending count is back"
MSG="follow: the header says live again once every watch is back"; check_ok wait_for live3 "live (watch)" 10
check_eq "$(fakeapi_count '^/api/v1/pods$' '^(?!.*watch=1)')" 1 "follow: pods listed once (the cut watch resumed from its resourceVersion)"
check_match "$(fakeapi_count '^/api/v1/pods$' 'watch=1')" '^([2-9]|[1-9][0-9]+)$' "follow: the pods watch was made again"
keys live3 q
MSG="follow: q quits"; check_ok wait_for live3 "TOP-EXIT=0" 6
TM kill-session -t live3
fakeapi_start "$FIX" || { fail "fake API server did not start"; exit 1; }

# many quick refreshes (metrics every 0.3 s against a broken Prometheus; the cluster follows
# watches), then a normal quit: every TopData and TopCluster freed (leak-checked under ASan).
# The broken Prometheus accepts each connection and closes it at once, counting them in a file:
# the count proves the refreshes happened (each is one query plus at most one retry of the cut
# connection, src/sources/prometheus.c PROM_MAX_RETRIES), instead of a fixed sleep.
python3 - "$T/prom-conns" "$$" <<'PY' >"$T/prom-conns.log" 2>&1 &
import os, socket, sys
out, parent = sys.argv[1], int(sys.argv[2])
s = socket.socket()
s.bind(('127.0.0.1', 0))
s.listen(64)
s.settimeout(0.5)
with open(out + '.tmp', 'w') as f:
    f.write('port %d\n0\n' % s.getsockname()[1])
os.replace(out + '.tmp', out)
n = 0
while True:
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        sys.exit(0)
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    c.close()
    n += 1
    with open(out + '.tmp', 'w') as f:
        f.write('port %d\n%d\n' % (s.getsockname()[1], n))
    os.replace(out + '.tmp', out)
PY
PROM_PID=$!
on_exit "kill $PROM_PID"
prom_conns() { sed -n 2p "$T/prom-conns" 2>/dev/null; }
for i in $(seq 1 100); do [ -s "$T/prom-conns" ] && break; sleep 0.1; done
PROM_PORT=$(sed -n '1s/^port //p' "$T/prom-conns")
start_shell live2 80 24 KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
keys live2 "$KGPU_BIN top --interval 0.3s --prometheus http://127.0.0.1:$PROM_PORT; echo TOP-EXIT=\$?" Enter
MSG="quick refreshes: starts"; check_ok wait_for live2 "NODES $GPUNODES" 20
MSG="quick refreshes: the metrics come after the first screen (here: why there are none)"
check_ok wait_for live2 "Metrics none: --prometheus http://127.0.0.1:$PROM_PORT: " 5
n0=$(fakeapi_count '^/api/v1/nodes$' '^(?!.*watch=1)')
c0=$(prom_conns)
# ten more refreshes: 20 more connections (at most two per refresh), bounded
for i in $(seq 1 300); do [ "$(prom_conns)" -ge $((c0 + 20)) ] && break; sleep 0.1; done
check_match "$(prom_conns)" "^[0-9]+\$" "quick refreshes: the broken Prometheus counted its connections"
if [ "$(prom_conns)" -ge $((c0 + 20)) ]; then ok "quick refreshes: ten more metrics refreshes within 30 s ($c0 -> $(prom_conns) connections)"
else fail "quick refreshes: the metrics were not refreshed ten times within 30 s ($c0 -> $(prom_conns) connections)"; fi
n1=$(fakeapi_count '^/api/v1/nodes$' '^(?!.*watch=1)')
check_eq "$n1" "$n0" "quick refreshes: ten metrics refreshes, the lists are not read again (watches)"
keys live2 j k
keys live2 q
MSG="quick refreshes: q quits cleanly"; check_ok wait_re live2 "TOP-EXIT=[0-9]" 10
check_contains "$SCREEN" "TOP-EXIT=0" "quick refreshes: exit 0 (no leak report)"
TM kill-session -t live2
