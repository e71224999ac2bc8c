#!/usr/bin/env bash
# Talking to a cluster, against the fake API server (tests/fakeapi): what needs more than one
# command.  Each credential kind (token, token file, client certificate files and data, basic
# auth, exec plugin and its failures, insecure, tls-server-name, impersonation, in-cluster
# service account), TLS failures, and no secret in any output at -v=1/3/9 are live cases:
# tests/cases/live/auth-*.case.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT

# what a snapshot of the fixture holds: the kinds read, pods not terminal, scheduling events,
# the ConfigMaps the ClusterPolicy names (device plugin, mig-parted) in its namespace
want_items=$(python3 - "$KGPU_ROOT/tests/fixtures/api/small.json" <<'PY'
import json, sys
n = 0
items = json.load(open(sys.argv[1]))['items']
cp = [i for i in items if i['kind'] == 'ClusterPolicy'][0]
named = {(cp['status']['namespace'], cp['spec'].get(s, {}).get('config', {}).get('name') or d)
         for s, d in (('devicePlugin', None), ('migManager', 'default-mig-parted-config'))}
for i in items:
    k = i['kind']
    if k == 'ConfigMap' and (i['metadata'].get('namespace'), i['metadata']['name']) in named: n += 1
    if k == 'Pod' and i.get('status', {}).get('phase') in ('Succeeded', 'Failed'): continue
    if k == 'Event' and i.get('reason') not in ('FailedScheduling', 'FailedCreate'): continue
    if k in ('Node', 'Pod', 'Event', 'ResourceQuota', 'DaemonSet', 'ClusterPolicy', 'Service'): n += 1
print(n)
PY
)

# -o FILE: written whole, nothing left behind; a snapshot reads back
kgpu snapshot -o "$T/snap.json"
check_rc 0 "snapshot -o FILE"
check_eq "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["items"]))' "$T/snap.json")" "$want_items" "FILE holds the List"
check_eq "$(ls "$T" | grep -c 'snap.json.tmp')" "0" "no temporary file left"
# the snapshot gives the same status as the live cluster
kgpu status --no-metrics -o json
live=$(json_get "$OUT" "json.dumps([d['summary'], d['nodes'], d.get('operator')], sort_keys=True)")
kgpu status --no-metrics -o json --snapshot "$T/snap.json"
check_rc 0 "status --snapshot"
check_eq "$(json_get "$OUT" "json.dumps([d['summary'], d['nodes'], d.get('operator')], sort_keys=True)")" "$live" "status from the snapshot = status live"
check_eq "$(fakeapi_count '.*')" "$(fakeapi_count '.*' '' GET)" "the whole run made only GET requests"
