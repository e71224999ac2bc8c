#!/usr/bin/env bash
# The snapshot format (src/sources/snapshot_format.h): what it copies and what it never copies.
# A cluster seeded with secrets in every field a snapshot could copy (container env values and
# valueFrom, commands and args, annotations of every object, managedFields, a ClusterPolicy's
# driver env, a DaemonSet template's env), read with a kubeconfig token: the snapshot, gzip,
# plain and on stdout, holds none of them, and still gives the same status as the live
# cluster.  FILE.json.gz is gzip, FILE.json plain, both read back; a snapshot of the older
# format (no format version) loads with a note; a cut or damaged gzip file is one clear error.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT

SECRETS=(seed-env-s3cret-1a2b seed-ann-s3cret-3c4d seed-mf-s3cret-5e6f seed-arg-s3cret-7a8b
         seed-cp-env-s3cret-9c0d seed-ds-env-s3cret-2e4f seed-node-ann-s3cret-6a8c seed-vf-s3cret-1b3d)
python3 - "$KGPU_ROOT/tests/fixtures/api/small.json" "$T/seeded.json" "${SECRETS[@]}" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
env_s, ann_s, mf_s, arg_s, cp_s, ds_s, node_ann_s, vf_s = sys.argv[3:11]
d = json.load(open(src))
def seed_containers(spec, secret):
    for key in ("containers", "initContainers"):
        for c in spec.get(key, []):
            c.setdefault("env", []).extend([{"name": "API_KEY", "value": secret},
                                            {"name": "FROM", "valueFrom": {"secretKeyRef": {"name": vf_s, "key": "k"}}}])
            c["command"] = ["/bin/sh", "-c", "login --password " + arg_s]
            c["args"] = ["--token=" + arg_s]
for i in d["items"]:
    m = i.setdefault("metadata", {})
    m.setdefault("annotations", {})["example.com/secret"] = node_ann_s if i["kind"] == "Node" else ann_s
    m["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] = json.dumps({"password": ann_s})
    m["managedFields"] = [{"manager": "kubectl", "operation": "Update", "fieldsType": "FieldsV1",
                           "fieldsV1": {"f:data": {"f:" + mf_s: {}}}}]
    if i["kind"] == "Pod":
        seed_containers(i.setdefault("spec", {}), env_s)
    if i["kind"] == "DaemonSet":
        seed_containers(i["spec"]["template"].setdefault("spec", {}), ds_s)
    if i["kind"] == "ClusterPolicy":
        i["spec"].setdefault("driver", {})["env"] = [{"name": "LICENSE", "value": cp_s}]
json.dump(d, open(dst, "w"), indent=1)
PY
for s in "${SECRETS[@]}"; do
  grep -qF -- "$s" "$T/seeded.json" || fail "secret $s was not seeded"
done
fakeapi_start "$T/seeded.json" || { fail "fake API server did not start"; exit 1; }

kgpu status --no-metrics -o json
check_rc 0 "live status"
live=$(json_get "$OUT" "json.dumps([d['summary'], d['nodes'], d.get('operator')], sort_keys=True)")

kgpu snapshot -o "$T/snap.json.gz"
check_rc 0 "snapshot -o FILE.json.gz"
check_eq "$(head -c 2 "$T/snap.json.gz" | od -An -tx1 | tr -d ' ')" "1f8b" "FILE.json.gz is gzip-compressed"
kgpu snapshot -o "$T/snap.json"
check_rc 0 "snapshot -o FILE.json"
check_eq "$(head -c 1 "$T/snap.json")" "{" "FILE.json is plain JSON"
kgpu snapshot
check_rc 0 "snapshot to stdout"
printf '%s\n' "$OUT" >"$T/stdout.json"
check_eq "$(json_get "$OUT" "d['kind']")" "List" "stdout: plain JSON List"
gzip -dc "$T/snap.json.gz" >"$T/snap-gz.json"
# (two runs: their snapshot times may differ by a second)
check_eq "$(sed 's/"kubectl-gpu\/snapshot-time":"[^"]*"//' "$T/snap-gz.json" | cmp -s - <(sed 's/"kubectl-gpu\/snapshot-time":"[^"]*"//' "$T/snap.json") && echo same)" \
  "same" "the gzip and the plain file hold the same List"
for f in snap-gz.json snap.json stdout.json; do
  found=""
  for s in "${SECRETS[@]}" "$FAKEAPI_TOKEN"; do grep -qF -- "$s" "$T/$f" && found="$found $s"; done
  check_eq "$found" "" "$f: none of the seeded secrets nor the token"
done
check_eq "$(json_get "$OUT" "any('annotations' in i.get('metadata', {}) for i in d['items'])")" "False" "no annotations copied"
check_eq "$(json_get "$OUT" "sorted({k for i in d['items'] if i['kind'] == 'Pod' for c in i['spec']['containers'] for k in c})")" \
  "['name', 'resources']" "containers reduced to name and resources"
check_eq "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/snapshot-format']")" "2" "format version"
check_eq "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/context']")" "fake" "context name"
check_eq "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/server']")" "$FAKEAPI_URL" "server"
check_match "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/version']")" '^[0-9]+\.[0-9]+' "tool version"
check_match "$(json_get "$OUT" "d['metadata']['annotations']['kubectl-gpu/snapshot-time']")" '^20[0-9]{2}-' "time"

for f in snap.json.gz snap.json; do
  kgpu status --snapshot "$T/$f" -o json
  check_rc 0 "status --snapshot $f"
  check_eq "$(json_get "$OUT" "json.dumps([d['summary'], d['nodes'], d.get('operator')], sort_keys=True)")" "$live" "$f: the same status as live"
  check_eq "$ERR" "" "$f: nothing on stderr"
done
for cmd in "pending -A" "explain train-large-0 -n team-a" "plan"; do
  kgpu $cmd --snapshot "$T/snap.json.gz" --no-metrics -o json
  a=$OUT; ra=$RC
  check_eq "$(json_get "$a" "type(d).__name__")" "dict" "$cmd --snapshot: a JSON answer"
  kgpu $cmd --no-metrics -o json
  check_eq "$ra $(json_get "$a" "__import__('re').sub(r'\"ageSeconds\": -?[0-9]+', '', json.dumps({k: v for k, v in d.items() if k not in ('source', 'metrics')}, sort_keys=True))" 2>/dev/null | md5sum)" \
    "$RC $(json_get "$OUT" "__import__('re').sub(r'\"ageSeconds\": -?[0-9]+', '', json.dumps({k: v for k, v in d.items() if k not in ('source', 'metrics')}, sort_keys=True))" 2>/dev/null | md5sum)" "$cmd: the same answer from the snapshot as live"
done

# (ages differ by the seconds between the snapshot and the live read: compared without them)

# ---- an older snapshot: read as before, with a note ----
python3 - "$T/snap.json" "$T/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["metadata"]["annotations"]["kubectl-gpu/snapshot-format"]
json.dump(d, open(sys.argv[2], "w"))
PY
kgpu status --snapshot "$T/old.json" -o json
check_rc 0 "older format: read"
check_eq "$(json_get "$OUT" "json.dumps([d['summary'], d['nodes'], d.get('operator')], sort_keys=True)")" "$live" "older format: the same status"
check_contains "$ERR" "in the older snapshot format" "older format: a note on stderr"
check_eq "$(grep -c . <<<"$ERR")" "1" "older format: one line"

# ---- damaged files: one clear error ----
size=$(stat -c %s "$T/snap.json.gz")
head -c $((size / 2)) "$T/snap.json.gz" >"$T/cut.json.gz"
kgpu status --snapshot "$T/cut.json.gz"
check_rc 1 "a cut gzip file fails"
check_one_line_err "a cut gzip file"
check_contains "$ERR" "cut.json.gz" "a cut gzip file: named"
python3 - "$T/snap.json.gz" "$T/bad.json.gz" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
for i in range(200, min(len(b) - 8, 400)): b[i] ^= 0x5a
open(sys.argv[2], "wb").write(bytes(b))
PY
kgpu status --snapshot "$T/bad.json.gz"
check_rc 1 "a damaged gzip file fails"
check_one_line_err "a damaged gzip file"

# ---- PriorityClasses: kept, so fit judges a manifest from the snapshot as from the cluster ----
fakeapi_stop
fakeapi_start "$KGPU_ROOT/tests/fixtures/fit/fit-priority.json" || { fail "fake API server (priority) did not start"; exit 1; }
kgpu snapshot -o "$T/prio.json"
check_rc 0 "priority classes: snapshot written"
check_eq "$(json_get "$(cat "$T/prio.json")" "sorted((i['metadata']['name'], i['value'], i.get('globalDefault', False), i['preemptionPolicy']) for i in d['items'] if i['kind'] == 'PriorityClass')")" \
  "[('batch', 100, True, 'PreemptLowerPriority'), ('research', 5000, False, 'Never'), ('system-cluster-critical', 2000000000, False, 'PreemptLowerPriority'), ('system-node-critical', 2000001000, False, 'PreemptLowerPriority'), ('training-high', 1000000, False, 'PreemptLowerPriority')]" \
  "priority classes: every one kept, with value, globalDefault and preemptionPolicy"
for m in priority-high priority-default priority-never; do
  kgpu fit -f "$KGPU_ROOT/tests/cases/fit/manifests/$m.yaml" --no-metrics -o json
  live_fit=$(json_get "$OUT" "json.dumps([(i['verdict'], i['fixes'], i['notes']) for i in d['items']])")
  kgpu fit -f "$KGPU_ROOT/tests/cases/fit/manifests/$m.yaml" --snapshot "$T/prio.json" -o json
  check_eq "$(json_get "$OUT" "json.dumps([(i['verdict'], i['fixes'], i['notes']) for i in d['items']])")" "$live_fit" \
    "priority classes: fit $m from the snapshot as live"
done
check_contains "$live_fit" "preemptionPolicy: Never" "priority classes: the class's preemptionPolicy reached the pod"
