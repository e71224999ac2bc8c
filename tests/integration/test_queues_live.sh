#!/usr/bin/env bash
# Live batch queues (src/sources/loader_queues.c): Kueue (kueue.x-k8s.io, the version the server
# prefers), Volcano (scheduling.volcano.sh/v1beta1) and KAI (scheduling.run.ai v2 queues, v2alpha2
# podgroups) read page by page like pods; one GET /apis/GROUP per system; a cluster without them
# costs one 404 each and says nothing; a forbidden list is a warning naming what is not shown;
# `snapshot` keeps the objects with their apiVersion; the real kubectl reads the same objects from
# the fake server (`kubectl get workloads -A`).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
. "$(dirname "$0")/../lib/tmux.sh"

FIX="$KGPU_ROOT/tests/fixtures/queues/queues.json"
fakeapi_start "$FIX" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_CHUNK_SIZE=4
kgpu pending -A -o json
check_rc 0 "pending against the queues cluster"
check_eq "$(json_get "$OUT" "sorted((p['kind'], p['name'], p['verdict']) for p in d['pods'])")" \
  "$("$KGPU_BIN" pending -A -o json --snapshot "$FIX" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted((p["kind"], p["name"], p["verdict"]) for p in d["pods"]))')" \
  "the same rows as from the snapshot file (tests/cases/pending/queue-*.case)"
check_eq "$(json_get "$OUT" "d['warnings']")" "[]" "no warning"
# 13 Workloads (4 admitted, 9 waiting) in pages of 4: 4 pages; one discovery GET per group
check_eq "$(fakeapi_count '^/apis/kueue.x-k8s.io/v1beta2/workloads$' 'limit=4')" "4" "workloads: 4 pages of at most 4"
check_eq "$(fakeapi_count '^/apis/kueue.x-k8s.io$' '')" "1" "Kueue's group asked once for its version"
check_eq "$(fakeapi_count '^/apis/scheduling.volcano.sh/v1beta1/podgroups$' 'limit=4')" "1" "Volcano podgroups listed"
check_eq "$(fakeapi_count '^/apis/scheduling.run.ai/v2alpha2/podgroups$' 'limit=4')" "1" "KAI podgroups listed (v2alpha2)"
check_eq "$(fakeapi_count '^/apis/scheduling.run.ai/v2/queues$' 'limit=4')" "1" "KAI queues listed (v2)"

# the real kubectl sees the same Workloads through the fake server's discovery
KUBECTL=$(command -v kubectl || true)
[ -z "$KUBECTL" ] && [ -x /usr/bin/kubectl ] && KUBECTL=/usr/bin/kubectl
if [ -z "$KUBECTL" ]; then
  fail "kubectl not found on PATH: this test needs the real kubectl"
else
  OUT=$(timeout 60 "$KUBECTL" get workloads -A -o json 2>"$T/.kerr"); RC=$?
  check_rc 0 "kubectl get workloads -A ($(head -c 300 "$T/.kerr"))"
  check_eq "$(json_get "$OUT" "len(d['items'])")" \
    "$(python3 -c 'import json,sys; print(sum(i["kind"] == "Workload" for i in json.load(open(sys.argv[1]))["items"]))' "$FIX")" \
    "kubectl lists every Workload of the fixture"
  OUT=$(timeout 60 "$KUBECTL" get podgroups.scheduling.volcano.sh -n ml -o name 2>"$T/.kerr"); RC=$?
  check_rc 0 "kubectl get podgroups.scheduling.volcano.sh ($(head -c 300 "$T/.kerr"))"
  check_contains "$OUT" "podgroup.scheduling.volcano.sh/vc-train-8d2f1" "kubectl finds the Volcano gang"
fi

kgpu snapshot -o "$T/queues-snap.json"
check_rc 0 "snapshot"
check_eq "$(python3 -c 'import json,sys,collections; d=json.load(open(sys.argv[1])); print(sorted(collections.Counter((i["apiVersion"], i["kind"]) for i in d["items"] if "." in i["apiVersion"].split("/")[0]).items()))' "$T/queues-snap.json")" \
  "$(python3 -c 'import json,sys,collections; d=json.load(open(sys.argv[1])); print(sorted(collections.Counter((i["apiVersion"], i["kind"]) for i in d["items"] if "." in i["apiVersion"].split("/")[0]).items()))' "$FIX")" \
  "the snapshot holds every queue object with its apiVersion"
kgpu pending -A -o json --snapshot "$T/queues-snap.json"
check_eq "$(json_get "$OUT" "sorted((p['name'], p['verdict']) for p in d['pods'])")" \
  "$("$KGPU_BIN" pending -A -o json --snapshot "$FIX" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted((p["name"], p["verdict"]) for p in d["pods"]))')" \
  "the snapshot reads back the same rows"

# forbidden workloads: a warning, the pods as they are
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": ["workloads"]}]'
kgpu pending -n team-a -o json
check_rc 0 "pending with the workloads forbidden"
check_contains "$(json_get "$OUT" "'\n'.join(d['warnings'])")" "workloads.kueue.x-k8s.io: forbidden" "a warning says the workloads could not be read"
check_eq "$(json_get "$OUT" "[(p['kind'], p['name'], p['verdict']) for p in d['pods']]")" "[('Pod', 'notebook-1', 'Gated')]" \
  "without its Workload the gated pod is a pod row again"
fakeapi_rbac '[]'

# no queue system installed: one 404 per group, nothing said
fakeapi_start "$KGPU_ROOT/examples/clusters/small.json" || { fail "fake API server did not start"; exit 1; }
kgpu pending -A -o json
check_rc 0 "pending against a cluster without queues"
check_eq "$(json_get "$OUT" "d['warnings']")" "[]" "no warning"
check_eq "$(fakeapi_count '^/apis/(kueue.x-k8s.io|scheduling.volcano.sh|scheduling.run.ai)' '')" "3" "one 404 per queue system, then nothing"

# pending -w watches the queue kinds too: a Workload deleted (Job orphan removed) and one admitted
# (team-a's job-eval given quota) leave (DELETED lines), and the rows behind it change
cat >"$T/qscenario.json" <<'JSON'
{"steps": [
  {"after": 1, "watches": 12, "op": "delete", "kind": "Workload", "apiVersion": "kueue.x-k8s.io/v1beta2",
   "namespace": "team-c", "name": "job-orphan-5d6e7"},
  {"after": 1, "op": "patch", "kind": "Workload", "apiVersion": "kueue.x-k8s.io/v1beta2", "namespace": "team-a",
   "name": "job-eval-0f3b9",
   "merge": {"status": {"conditions": [{"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                                        "message": "Quota reserved in ClusterQueue team-a"}],
                        "admission": {"clusterQueue": "team-a", "podSetAssignments": [
                          {"name": "main", "count": 1, "flavors": {"nvidia.com/gpu": "h100"}}]}}}}
]}
JSON
fakeapi_start "$FIX" --scenario "$T/qscenario.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
unset KUBECTL_GPU_CHUNK_SIZE
"$KGPU_BIN" pending -A -w --output-watch-events >"$T/qw.out" 2>"$T/qw.err" &
QPID=$!
if wait_file "$T/qw.out" '^DELETED +team-a +Workload +job/eval ' 1 30; then ok "pending -w: the admitted Workload leaves"
else fail "pending -w: job/eval not deleted; got: $(cat "$T/qw.out") $(cat "$T/qw.err")"; fi
stop_watch "$QPID"
OUT=$(cat "$T/qw.out")
check_match "$OUT" "ADDED +team-c +Workload +job/orphan " "first listing: the orphan Workload"
check_match "$OUT" "DELETED +team-c +Workload +job/orphan " "the deleted Workload leaves"
check_match "$OUT" "MODIFIED +team-a +Workload +job/train-llm .*position 2 of 3 " \
  "job/train-llm's line changes: 3 wait in team-a once job/eval is admitted"
check_match "$(fakeapi_count '^/apis/kueue.x-k8s.io/v1beta2/workloads$' 'watch=1')" '^[1-9]' "the Workloads are watched"

# Kueue's visibility API served: its positions are used, asked once per ClusterQueue
fakeapi_start "$KGPU_ROOT/tests/fixtures/queues/queues-visibility.json" || { fail "fake API server did not start"; exit 1; }
kgpu pending -n team-a -o json
check_rc 0 "pending with Kueue's visibility API"
check_eq "$(json_get "$OUT" "[(p['name'], p['queue']['position']) for p in d['pods']]")" \
  "[('job-eval-0f3b9', 3), ('job-train-llm-7c2e1', 1), ('pod-notebook-1-3a4b5', 4)]" \
  "the positions are Kueue's answer (tests/cases/pending/queue-visibility.case)"
check_eq "$(fakeapi_count '^/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/team-a/pendingworkloads$' '')" "1" \
  "team-a's pending workloads asked once"
check_eq "$(json_get "$OUT" "d['warnings']")" "[]" "no warning (ClusterQueues without an answer: 404, silent)"
kgpu snapshot -o "$T/vis-snap.json"
kgpu pending -n team-a -o json --snapshot "$T/vis-snap.json"
check_eq "$(json_get "$OUT" "[p['queue']['position'] for p in d['pods']]")" "[3, 1, 4]" "the snapshot keeps Kueue's answer"

# top: the queues' workloads in the pending pane; Q opens the queues view, q goes back
fakeapi_stop
start_shell q 120 30
keys q "$KGPU_BIN top --snapshot $FIX; echo TOP-EXIT=\$?" Enter
MSG="top: a Workload row of the pending pane names its owner and kind"; check_ok wait_for q "team-a/Job/train-llm (Workload)" 15
keys q Q
MSG="top: Q shows the queues view"; check_ok wait_re q "kueue +team-a +research +8 +4 +12 +13 +3" 5
keys q q
MSG="top: q goes back to the main screen"; check_ok wait_gone q "QUEUES" 5
keys q q
MSG="top: q quits"; check_ok wait_for q "TOP-EXIT=0" 5

# a snapshot keeps of a Workload's pod templates what the model reads (requests, nodeSelector),
# never the containers' command, args, env or image: no credential of a Job reaches the file
python3 - "$FIX" "$T/secret-wl.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for it in d['items']:
    if it['kind'] == 'Workload' and it['metadata']['name'] == 'job-train-llm-7c2e1':
        c = it['spec']['podSets'][0]['template']['spec']['containers'][0]
        c['args'] = ['--hf-token=hf_SECRETqueue123']
        c['env'] = [{'name': 'WANDB_API_KEY', 'value': 'wandb-SECRETqueue456'}]
        c['command'] = ['sh', '-c', 'export AWS_SECRET_ACCESS_KEY=SECRETqueue789; train']
json.dump(d, open(sys.argv[2], 'w'))
PY
fakeapi_start "$T/secret-wl.json" || { fail "fake API server did not start"; exit 1; }
kgpu snapshot -o "$T/secret-snap.json"
check_rc 0 "snapshot of a cluster whose Workload carries credentials"
check_not_contains "$(zcat -f "$T/secret-snap.json")" "SECRETqueue" "no credential of the Workload's pod template in the snapshot"
kgpu pending -n team-a -o json --snapshot "$T/secret-snap.json"
check_eq "$(json_get "$OUT" "[(p['name'], p['requests']) for p in d['pods'] if p['name'].startswith('job-train')]")" \
  "[('job-train-llm-7c2e1', {'nvidia.com/gpu': 8})]" "the reduced Workload still says what it asks"
fakeapi_stop
