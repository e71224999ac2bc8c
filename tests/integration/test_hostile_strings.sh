#!/usr/bin/env bash
# Strings from outside are made harmless once, where they meet the terminal (render/text.h,
# the table writer): a cluster whose node names, namespaces, pod names, DaemonSet names, GFD
# labels, condition and event messages carry escape sequences (OSC retitle, SGR colour), CR,
# LF, backspace, BEL and a C1 CSI, rendered in every output format of status, pending, explain
# and plan.  Terminal text (table, wide, text, the script) and stderr never hold a control byte
# other than the newline (and no C1 control); JSON holds them escaped (\u001b) and stays valid;
# YAML stays valid and escapes them.  (cJSON writes a C1 character, valid JSON, as its UTF-8
# bytes: JSON may hold those.)  The cluster is examples/clusters/small.json with the
# strings appended (the fixture is otherwise real GPU Operator objects).
. "$(dirname "$0")/../lib/common.sh"
SMALL="$KGPU_ROOT/examples/clusters/small.json"
HOSTILE="$T/hostile.json"
python3 - "$SMALL" "$HOSTILE" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
E = '\x1b]0;pwned\x07\x1b[31m\r\n\x08\u009b2J'
ren = {}
for it in d['items']:
    m = it['metadata']
    if it['kind'] == 'Node':
        ren[m['name']] = m['name'] + E
        m['name'] += E
        lab = m.setdefault('labels', {})
        for k in ('nvidia.com/gpu.product', 'nvidia.com/mig.config.state'):
            if k in lab: lab[k] += E
        # a GPU health agent's condition (NVSentinel's shape) naming GPU 0: printed in problems
        it.setdefault('status', {}).setdefault('conditions', []).append(
            {'type': 'GpuXidError' + E, 'status': 'True', 'reason': 'R' + E, 'message': 'ErrorCode:79 GPU:0 ' + E + ';'})
for it in d['items']:
    m = it['metadata']
    if it['kind'] == 'Pod':
        m['name'] += E; m['namespace'] += E
        if it['spec'].get('nodeName') in ren: it['spec']['nodeName'] = ren[it['spec']['nodeName']]
        for c in it.get('status', {}).get('conditions', []):
            if 'message' in c: c['message'] += E
    elif it['kind'] == 'Event':
        it['message'] += E
        m['namespace'] += E
        for k in ('name', 'namespace'):
            if k in it.get('involvedObject', {}): it['involvedObject'][k] += E
    elif it['kind'] == 'DaemonSet':
        m['name'] += E
json.dump(d, open(sys.argv[2], 'w'))
PY
[ -s "$HOSTILE" ] || { fail "hostile fixture not written"; exit 1; }

# check_clean NAME FILE KIND: KIND text = no control byte but LF; json = valid, escapes kept;
# yaml = valid (when PyYAML is there) and no raw ESC
check_clean() {
  local why
  why=$(python3 - "$2" "$3" <<'PY'
import json, re, sys
b = open(sys.argv[1], 'rb').read()
kind = sys.argv[2]
model_clean = kind == 'json-model'      # strings the model keeps printable (model/json_fields.h)
kind = 'json' if model_clean else kind
allowed = b'\n\t' if kind in ('json', 'yaml') else b'\n'
pat = rb'[\x00-\x1f\x7f]' if kind == 'json' else rb'[\x00-\x1f\x7f]|\xc2[\x80-\x9f]'
bad = [c for c in re.findall(pat, b) if c not in (bytes([x]) for x in allowed)]
if bad: print('control bytes %r' % bad[:5]); sys.exit()
if kind == 'json':
    try: json.loads(b)
    except Exception as e: print('invalid JSON: %s' % e); sys.exit()
    if not model_clean and b'\\u001b' not in b: print('no escaped ESC: the names were lost?'); sys.exit()
    if model_clean and b'pwned' not in b: print('the names were lost'); sys.exit()
if kind == 'yaml':
    try:
        import yaml
        yaml.safe_load_all(b.decode()) and list(yaml.safe_load_all(b.decode()))
    except ImportError: pass
    except Exception as e: print('invalid YAML: %s' % e)
PY
)
  if [ -z "$why" ]; then ok "$1: clean"; else fail "$1: $why"; fi
}

run_one() {   # run_one NAME KIND ARGS...
  local name=$1 kind=$2; shift 2
  "$KGPU_BIN" "$@" --snapshot "$HOSTILE" >"$T/out" 2>"$T/err"
  local rc=$?
  check_eq "$rc" 0 "$name: exit 0"
  check_clean "$name: stdout" "$T/out" "$kind"
  check_clean "$name: stderr" "$T/err" text
  [ -s "$T/out" ] && ok "$name: output" || fail "$name: no output"
}

POD=$(printf 'train-lora-vxkvq\033]0;pwned\a\033[31m\r\n\b\302\2332J')
for f in table wide; do run_one "status -o $f" text status -o $f; done
run_one "status -o json" json status -o json
run_one "status -o yaml" yaml status -o yaml
for f in table wide; do run_one "pending -A -o $f" text pending -A -o $f; done
run_one "pending -A -o json" json pending -A -o json
run_one "pending -A -o yaml" yaml pending -A -o yaml
# templates print the cluster's strings raw: cleaned where they meet the terminal
run_one "pending -A -o jsonpath" text pending -A -o 'jsonpath={range .pods[*]}{.namespace} {.name} {.schedulerMessage} {.reason}{"\n"}{end}'
run_one "pending -A -o go-template" text pending -A -o 'go-template={{range .pods}}{{.namespace}} {{.name}} {{.schedulerMessage}} {{.}}{{"\n"}}{{end}}'
run_one "explain (text)" text explain -A "$POD"
run_one "explain -o json" json explain -A "$POD" -o json
run_one "explain -o yaml" yaml explain -A "$POD" -o yaml
run_one "explain --all-nodes" text explain -A "$POD" --all-nodes
run_one "plan (text)" text plan
run_one "plan -o yaml" yaml plan -o yaml
run_one "plan -o script" text plan -o script
# fit: a manifest whose names carry the same strings, judged against the hostile cluster
# (100 replicas of 1 GPU: more than small.json holds, so the holders' names are printed too)
python3 - "$T/hostile-manifest.json" <<'PY'
import json, sys
E = '\x1b]0;pwned\x07\x1b[31m\r\n\x08\u009b2J'
c = {"name": "w" + E, "image": "x", "resources": {"limits": {"nvidia.com/gpu": "1"}}}
d = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "serve" + E, "namespace": "ml" + E},
     "spec": {"replicas": 100, "template": {"metadata": {"labels": {"app": "a" + E}}, "spec": {"containers": [c]}}}}
json.dump(d, open(sys.argv[1], "w"))
PY
for f in text json yaml; do
  "$KGPU_BIN" fit -f "$T/hostile-manifest.json" -o $f --snapshot "$HOSTILE" >"$T/out" 2>"$T/err"
  rc=$?
  check_eq "$rc" 3 "fit -o $f: exit 3 (100 pods of 1 GPU do not all fit)"
  check_clean "fit -o $f: stdout" "$T/out" "$f"
  check_clean "fit -o $f: stderr" "$T/err" text
done
# the node names reach the table (cleaned, not dropped)
"$KGPU_BIN" status --snapshot "$HOSTILE" -o wide >"$T/out" 2>&1
check_contains "$(cat "$T/out")" "gpu-1 ]0;pwned  [31m" "status: the node name is shown with its control bytes as spaces"
# an error line that quotes the argument is clean too
"$KGPU_BIN" status --snapshot "$HOSTILE" "$POD" >"$T/out" 2>"$T/err"
check_eq "$?" 1 "status with an unknown node: exit 1"
check_clean "unknown node: stderr" "$T/err" text

# batch queues (tests/fixtures/queues): Workload, LocalQueue, ClusterQueue, cohort and PodGroup
# names and the controllers' messages carry the same bytes, every reference renamed alike; the
# model keeps their strings printable (control bytes as spaces, model/json_fields.h), so their
# JSON is checked for the text, not for escaped ESCs (json-model)
HOSTILE_Q="$T/hostile-queues.json"
python3 - "$KGPU_ROOT/tests/fixtures/queues/queues.json" "$HOSTILE_Q" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
E = '\x1b]0;pwned\x07\x1b[31m\r\n\x08\u009b2J'
for it in d['items']:
    k, m, spec = it['kind'], it['metadata'], it.get('spec', {})
    grp = it['apiVersion'].split('/')[0]
    if k == 'Workload':
        m['name'] += E
        spec['queueName'] += E
        for c in it.get('status', {}).get('conditions', []): c['message'] += E
        if 'admission' in it.get('status', {}): it['status']['admission']['clusterQueue'] += E
    elif k == 'LocalQueue':
        m['name'] += E; spec['clusterQueue'] += E
    elif k == 'ClusterQueue':
        m['name'] += E
        if 'cohortName' in spec: spec['cohortName'] += E
    elif k == 'PodGroup':
        m['name'] += E; spec['queue'] += E
        for c in it.get('status', {}).get('conditions', []) + it.get('status', {}).get('schedulingConditions', []): c['message'] += E
    elif k == 'Queue':
        m['name'] += E
json.dump(d, open(sys.argv[2], 'w'))
PY
HOSTILE_SAVED=$HOSTILE
HOSTILE=$HOSTILE_Q
for f in table wide; do run_one "queues: pending -A -o $f" text pending -A -o $f; done
run_one "queues: pending -A -o json" json-model pending -A -o json
run_one "queues: pending -A -o yaml" yaml pending -A -o yaml
run_one "queues: explain job/train-llm (text)" text explain job/train-llm -n team-a
run_one "queues: explain job/train-llm -o json" json-model explain job/train-llm -n team-a -o json
run_one "queues: status (table)" text status
run_one "queues: status -o json" json-model status -o json
HOSTILE=$HOSTILE_SAVED
