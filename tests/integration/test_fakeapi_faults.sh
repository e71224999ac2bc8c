#!/usr/bin/env bash
# The fake API server's own behaviour, proven with curl (independent of our client):
# discovery, pagination tokens, 400/410 on continue, selectors, 401/403/404 bodies, 429 with
# Retry-After, 5xx, gzip over 128 KiB, mid-body cuts, truncated and stalled bodies, delays,
# faults re-read while running, service/pod proxies, and the request log.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

FIX="$KGPU_ROOT/tests/fixtures/api/small.json"
if ! fakeapi_start "$FIX"; then
  fail "fake API server did not start"
  exit 1
fi
ok "fake API server up at $FAKEAPI_URL"

# api PATH [curl args...] : GET with the admin token; sets $CODE $BODY $HDRS $CRC
api() {
  local p=$1; shift
  CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -H "Authorization: Bearer $FAKEAPI_TOKEN" \
    -D "$T/.hdrs" -o "$T/.body" -w '%{http_code}' "$@" "$FAKEAPI_URL$p" 2>"$T/.curlerr"); CRC=$?
  BODY=$(tr -d '\0' <"$T/.body" 2>/dev/null); HDRS=$(tr -d '\r' <"$T/.hdrs" 2>/dev/null)
}
hdr() { grep -i "^$1:" <<<"$HDRS" | head -1 | cut -d' ' -f2- ; }
jq_() { json_get "$BODY" "$1"; }

# --- discovery ---------------------------------------------------------------------------
api /version
check_eq "$CODE" 200 "/version 200"
check_eq "$(jq_ 'd["gitVersion"]')" "v1.31.4" "/version gitVersion"
api /api
check_eq "$(jq_ 'd["kind"]+" "+",".join(d["versions"])')" "APIVersions v1" "/api legacy APIVersions"
api /api -H 'Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'
check_eq "$(hdr Content-Type)" "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" "aggregated discovery content type"
check_eq "$(jq_ 'd["kind"]')" "APIGroupDiscoveryList" "aggregated /api kind"
check_contains "$(jq_ '[r["resource"] for r in d["items"][0]["versions"][0]["resources"]]')" "'nodes'" "aggregated /api lists nodes"
api /apis
check_contains "$(jq_ '[g["name"] for g in d["groups"]]')" "'nvidia.com'" "/apis lists nvidia.com when ClusterPolicy objects exist"
api /apis/nvidia.com/v1
check_eq "$(jq_ '[(r["name"], r["namespaced"], r["kind"]) for r in d["resources"]]')" "[('clusterpolicies', False, 'ClusterPolicy')]" "/apis/nvidia.com/v1 resource list"
api /api/v1
check_contains "$(jq_ '[r["name"] for r in d["resources"]]')" "'services/proxy'" "/api/v1 lists services/proxy"
api /openapi/v2
check_eq "$CODE" 404 "/openapi/v2 is 404"

python3 - "$FIX" "$T/no-operator.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['items'] = [i for i in d['items'] if i['kind'] != 'ClusterPolicy']
json.dump(d, open(sys.argv[2], 'w'))
PY
fakeapi_start "$T/no-operator.json" || fail "restart without ClusterPolicy"
api /apis/nvidia.com/v1
check_eq "$CODE" 404 "no ClusterPolicy objects: /apis/nvidia.com/v1 is 404"
check_eq "$BODY" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}' "404 Status body for a missing group"
api /apis/nvidia.com/v1/clusterpolicies
check_eq "$CODE" 404 "no CRD: clusterpolicies list is 404"
api /apis
check_not_contains "$(jq_ '[g["name"] for g in d["groups"]]')" "nvidia.com" "/apis omits nvidia.com"
fakeapi_start "$FIX" || fail "restart"

# --- lists, single objects, kinds ----------------------------------------------------------
api /api/v1/nodes
check_eq "$(jq_ 'd["kind"], d["apiVersion"], len(d["items"])')" "('NodeList', 'v1', 3)" "NodeList of 3"
check_eq "$(jq_ '"kind" in d["items"][0]')" "False" "list items carry no kind (as the real server)"
RV=$(jq_ 'd["metadata"]["resourceVersion"]')
check_match "$RV" '^[0-9]+$' "list resourceVersion is numeric"
api /api/v1/nodes/gpu-h100-0
check_eq "$(jq_ 'd["kind"], d["metadata"]["name"]')" "('Node', 'gpu-h100-0')" "single node GET"
api /api/v1/namespaces/team-a/pods/train-7f9c
check_eq "$(jq_ 'd["spec"]["nodeName"]')" "gpu-h100-0" "single pod GET"
api /api/v1/namespaces/team-a/pods/nope
check_eq "$CODE" 404 "missing pod 404"
check_eq "$BODY" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"nope\" not found","reason":"NotFound","details":{"name":"nope","kind":"pods"},"code":404}' "missing pod Status body"
api /apis/apps/v1/daemonsets
check_eq "$(jq_ 'd["kind"], len(d["items"])')" "('DaemonSetList', 2)" "daemonsets cluster-wide"
api /apis/apps/v1/namespaces/gpu-operator/daemonsets/nvidia-dcgm-exporter
check_eq "$(jq_ 'd["status"]["numberReady"]')" 3 "single daemonset GET"
api /apis/apps/v1/namespaces/gpu-operator/daemonsets/nope
check_contains "$BODY" '"message":"daemonsets.apps \"nope\" not found"' "NotFound names the group"
api /api/v1/resourcequotas
check_eq "$(jq_ 'd["kind"], len(d["items"])')" "('ResourceQuotaList', 2)" "resourcequotas"
api /api/v1/namespaces/gpu-operator/configmaps/time-slicing-config
check_contains "$(jq_ 'd["data"]["l4-time-slicing"]')" "replicas: 4" "configmap GET"
api /api/v1/services
check_eq "$(jq_ 'len(d["items"])')" 3 "services"
api /apis/nvidia.com/v1/clusterpolicies
check_eq "$(jq_ 'd["kind"], d["items"][0]["kind"], d["items"][0]["status"]["state"]')" "('ClusterPolicyList', 'ClusterPolicy', 'ready')" "clusterpolicies (custom resources keep kind)"
api /apis/events.k8s.io/v1/namespaces/team-a/events
check_eq "$(jq_ '[e["reason"] for e in d["items"] if e.get("regarding",{}).get("name")=="train-large-0"]')" "['FailedScheduling']" "events.k8s.io/v1 view of core events"
api /api/v1/namespaces
check_contains "$(jq_ '[n["metadata"]["name"] for n in d["items"]]')" "'team-a'" "namespaces synthesized"

# --- pagination ---------------------------------------------------------------------------
api '/api/v1/pods?limit=5'
TOK=$(jq_ 'd["metadata"]["continue"]')
check_eq "$(jq_ 'len(d["items"]), d["metadata"]["remainingItemCount"], d["metadata"]["resourceVersion"]')" "(5, 9, '$RV')" "first page: 5 items, 9 remaining, list RV"
check_eq "$(python3 -c 'import base64,json,sys; t=sys.argv[1]; print(json.loads(base64.urlsafe_b64decode(t+"="*(-len(t)%4))))' "$TOK")" \
  "{'v': 'meta.k8s.io/v1', 'rv': $RV, 'start': 'gpu-operator/nvidia-dcgm-exporter-q9w4m\\x00'}" "continue token = base64url JSON {v, rv, start key + NUL}"
check_not_contains "$TOK" "=" "continue token is unpadded (RawURLEncoding)"
names=$(jq_ '" ".join(p["metadata"]["name"] for p in d["items"])'); pages=1
while [ -n "$TOK" ] && [ "$pages" -lt 20 ]; do
  api "/api/v1/pods?limit=5&continue=$TOK"
  [ "$(jq_ 'd["metadata"]["resourceVersion"]')" = "$RV" ] || fail "page $pages: resourceVersion changed"
  names="$names $(jq_ '" ".join(p["metadata"]["name"] for p in d["items"])')"
  TOK=$(jq_ 'd["metadata"].get("continue","")'); pages=$((pages + 1))
done
check_eq "$pages" 3 "14 pods in 3 pages of 5"
check_eq "$(tr ' ' '\n' <<<"$names" | grep -c .)" 14 "pages hold 14 pods"
check_eq "$(tr ' ' '\n' <<<"$names" | sort -u | grep -c .)" 14 "no pod twice across pages"
check_eq "$(jq_ '"remainingItemCount" in d["metadata"]')" "False" "last page: no remainingItemCount"

api '/api/v1/namespaces/gpu-operator/pods?limit=4'
TOK=$(jq_ 'd["metadata"]["continue"]')
check_eq "$(python3 -c 'import base64,json,sys; t=sys.argv[1]; print(repr(json.loads(base64.urlsafe_b64decode(t+"="*(-len(t)%4)))["start"]))' "$TOK")" \
  "'nvidia-dcgm-exporter-x7k2p\\x00'" "namespaced list: start key relative to the namespace"
api "/api/v1/namespaces/gpu-operator/pods?limit=4&continue=$TOK"
check_eq "$(jq_ 'len(d["items"]), d["metadata"].get("continue","")')" "(3, '')" "namespaced second page"

api '/api/v1/pods?limit=3&fieldSelector=status.phase%3DRunning'
check_eq "$(jq_ 'len(d["items"]), "remainingItemCount" in d["metadata"], bool(d["metadata"].get("continue"))')" "(3, False, True)" "filtered page: continue but no remainingItemCount"

api "/api/v1/pods?limit=5&continue=$TOK&resourceVersion=$RV"
check_eq "$CODE" 400 "resourceVersion + continue is 400"
check_contains "$BODY" '"message":"specifying resource version is not allowed when using continue","reason":"BadRequest"' "resourceVersion + continue message"
api '/api/v1/pods?limit=5&continue=not-a-token!'
check_eq "$CODE" 400 "garbage continue token is 400"
check_contains "$BODY" 'invalid continue token: continue key is not valid' "garbage continue token message"
api '/api/v1/pods?limit=2&resourceVersion=0'
check_eq "$(jq_ 'len(d["items"]), d["metadata"].get("continue","")')" "(14, '')" "resourceVersion=0: watch cache ignores limit"
api '/api/v1/pods?resourceVersionMatch=NotOlderThan'
check_eq "$CODE" 422 "resourceVersionMatch without resourceVersion is 422"
check_contains "$BODY" 'resourceVersionMatch is forbidden unless resourceVersion is provided' "resourceVersionMatch message"
api "/api/v1/pods?resourceVersion=$((RV + 1000))"
check_eq "$CODE" 504 "future resourceVersion: 504 Too large resource version"
check_contains "$BODY" '"reason":"Timeout"' "too-large RV reason Timeout"

# --- selectors ----------------------------------------------------------------------------
count() { api "$1"; if [ "$CODE" = 200 ]; then jq_ 'len(d["items"])'; else echo "HTTP $CODE"; fi; }
check_eq "$(count '/api/v1/pods?fieldSelector=spec.nodeName%3Dgpu-a100-0')" 6 "pods on gpu-a100-0"
check_eq "$(count '/api/v1/pods?fieldSelector=spec.nodeName%3Dgpu-a100-0,status.phase!%3DSucceeded,status.phase!%3DFailed')" 5 "non-terminal pods on a node (describe node's selector)"
check_eq "$(count '/api/v1/pods?fieldSelector=spec.nodeName%3D,status.phase%3DPending')" 2 "unscheduled Pending pods"
check_eq "$(count '/api/v1/pods?fieldSelector=status.phase%3D%3DRunning')" 11 "== operator"
check_eq "$(count '/api/v1/pods?fieldSelector=metadata.namespace%3Dteam-b')" 2 "metadata.namespace"
check_eq "$(count '/api/v1/pods?fieldSelector=spec.schedulerName%3Ddefault-scheduler')" 14 "spec.schedulerName"
check_eq "$(count '/api/v1/namespaces/team-a/events?fieldSelector=involvedObject.kind%3DPod,involvedObject.name%3Dtrain-large-0,involvedObject.namespace%3Dteam-a')" 1 "events for a pod"
check_eq "$(count '/api/v1/events?fieldSelector=reason%3DFailedScheduling')" 1 "FailedScheduling events cluster-wide"
check_eq "$(count '/api/v1/events?fieldSelector=type%3DNormal')" 2 "events by type"
check_eq "$(count '/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse')" 3 "nodes spec.unschedulable=false"
check_eq "$(count '/api/v1/nodes?fieldSelector=metadata.name%3Dgpu-l4-0')" 1 "nodes metadata.name"
api '/api/v1/pods?fieldSelector=spec.containers.image%3Dx'
check_eq "$CODE" 400 "unsupported field selector is 400"
check_eq "$BODY" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"field label not supported: spec.containers.image","reason":"BadRequest","code":400}' "unsupported field selector Status"
api '/api/v1/nodes?fieldSelector=status.phase%3DRunning'
check_contains "$BODY" 'field label not supported: status.phase' "pod-only field refused on nodes"
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/gpu.present%3Dtrue')" 3 "label ="
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/gpu.product%3D%3DNVIDIA-L4-SHARED')" 1 "label =="
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/gpu.family!%3Dhopper')" 2 "label !="
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/gpu.family%20in%20(hopper,ampere)')" 2 "label in"
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/gpu.family%20notin%20(hopper)')" 2 "label notin"
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/mig.strategy')" 2 "label exists"
check_eq "$(count '/api/v1/nodes?labelSelector=!nvidia.com/mig.strategy')" 1 "label !exists"
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/gpu.count%3E2')" 2 "label > (integer)"
check_eq "$(count '/api/v1/nodes?labelSelector=nvidia.com/gpu.present%3Dtrue,nvidia.com/mig.capable%3Dtrue')" 2 "label comma = AND"
check_eq "$(count '/api/v1/namespaces/gpu-operator/pods?labelSelector=app%3Dnvidia-dcgm-exporter')" 3 "namespaced pods by label"
api '/api/v1/nodes?labelSelector=a%20in%20b'
check_eq "$CODE" 400 "malformed label selector is 400"

# --- tables -------------------------------------------------------------------------------
api '/api/v1/pods?limit=3' -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json'
check_eq "$(hdr Content-Type)" "application/json;as=Table;v=v1;g=meta.k8s.io" "Table content type"
check_eq "$(jq_ '[c["name"] for c in d["columnDefinitions"]]')" "['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']" "pod Table columns"
check_eq "$(jq_ 'd["rows"][0]["object"]["kind"], bool(d["metadata"].get("continue"))')" "('PartialObjectMetadata', True)" "Table rows carry metadata, Table pages"

# --- authentication and authorization -----------------------------------------------------
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -o "$T/.body" -w '%{http_code}' "$FAKEAPI_URL/api/v1/nodes"); BODY=$(cat "$T/.body")
check_eq "$CODE" 401 "no credentials: 401"
check_eq "$BODY" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}' "401 Status body"
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -H 'Authorization: Bearer wrong' -o /dev/null -w '%{http_code}' "$FAKEAPI_URL/version")
check_eq "$CODE" 401 "bad token: 401 even for /version"
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -u "$FAKEAPI_BASIC_USER:$FAKEAPI_BASIC_PASSWORD" -o /dev/null -w '%{http_code}' "$FAKEAPI_URL/api/v1/nodes")
check_eq "$CODE" 200 "basic auth accepted"
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -u "$FAKEAPI_BASIC_USER:wrong" -o /dev/null -w '%{http_code}' "$FAKEAPI_URL/api/v1/nodes")
check_eq "$CODE" 401 "basic auth with a wrong password: 401"
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" --cert "$FAKEAPI_CERTS/viewer.crt" --key "$FAKEAPI_CERTS/viewer.key" -o /dev/null -w '%{http_code}' "$FAKEAPI_URL/api/v1/nodes")
check_eq "$CODE" 200 "client certificate accepted"
timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" --cert "$FAKEAPI_CERTS/rogue-client.crt" --key "$FAKEAPI_CERTS/rogue-client.key" -o /dev/null "$FAKEAPI_URL/api/v1/nodes" 2>/dev/null
check_match "$?" '^(35|55|56)$' "client certificate of an unrelated CA: handshake refused (curl 35/55/56)"
timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/other-ca.crt" -o /dev/null "$FAKEAPI_URL/version" 2>/dev/null
check_eq "$?" 60 "server certificate does not verify against another CA (curl 60)"

fakeapi_rbac '{"deny":[{"user":"gpu-viewer","verb":"list","resource":"pods","namespace":""},
  {"user":"gpu-viewer","verb":"get","resource":"services/proxy"},
  {"user":"gpu-viewer","verb":"*","resource":"daemonsets","apiGroup":"apps","namespace":"gpu-operator"}]}'
vapi() { CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -H "Authorization: Bearer $FAKEAPI_VIEWER_TOKEN" -o "$T/.body" -w '%{http_code}' "$FAKEAPI_URL$1"); BODY=$(cat "$T/.body"); }
vapi /api/v1/pods
check_eq "$CODE" 403 "rbac: cluster-wide pod list denied"
check_eq "$BODY" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \"gpu-viewer\" cannot list resource \"pods\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"kind":"pods"},"code":403}' "403 Status body (cluster scope)"
vapi /api/v1/namespaces/team-a/pods
check_eq "$CODE" 200 "rbac: namespaced pod list allowed"
vapi /apis/apps/v1/namespaces/gpu-operator/daemonsets
check_contains "$BODY" '"message":"daemonsets.apps is forbidden: User \"gpu-viewer\" cannot list resource \"daemonsets\" in API group \"apps\" in the namespace \"gpu-operator\""' "403 namespaced form with group"
vapi /api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy/api/v1/query
check_contains "$BODY" '"message":"services \"prometheus-k8s:web\" is forbidden: User \"gpu-viewer\" cannot get resource \"services/proxy\" in API group \"\" in the namespace \"monitoring\""' "403 named form for services/proxy"
vapi /api/v1/nodes
check_eq "$CODE" 200 "rbac: other resources allowed"
api /api/v1/pods -H 'Impersonate-User: gpu-viewer' -H 'Impersonate-Group: team-b'
check_contains "$CODE $BODY" '403 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \"gpu-viewer\"' "Impersonate-User: rules apply to the impersonated user"
check_eq "$(tail -1 "$FAKEAPI_LOG" | python3 -c 'import json,sys; e=json.load(sys.stdin); print(e["user"], e["impersonatedBy"])')" "gpu-viewer gpu-admin" "log records impersonation"
fakeapi_rbac '[{"user":"gpu-viewer","verb":"impersonate","resource":"users"}]'
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -H "Authorization: Bearer $FAKEAPI_VIEWER_TOKEN" -H 'Impersonate-User: gpu-admin' -o "$T/.body" -w '%{http_code}' "$FAKEAPI_URL/api/v1/nodes"); BODY=$(cat "$T/.body")
check_contains "$CODE $BODY" '403 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"users \"gpu-admin\" is forbidden: User \"gpu-viewer\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope"' "impersonation needs the impersonate verb"
api /apis/authorization.k8s.io/v1/selfsubjectaccessreviews -X POST -H 'Content-Type: application/json' \
  -d '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":{"resourceAttributes":{"verb":"list","resource":"pods"}}}'
check_eq "$CODE $(jq_ 'd["status"]["allowed"]')" "201 True" "SelfSubjectAccessReview for the admin: allowed"
fakeapi_rbac '[]'

# --- faults: status codes -----------------------------------------------------------------
fakeapi_faults '[{"path":"^/api/v1/nodes$","action":"status","code":429,"retryAfter":3,"times":1}]'
api /api/v1/nodes
check_eq "$CODE" 429 "429 fault"
check_eq "$BODY" "Too many requests, please try again later." "429 body is APF plain text"
check_eq "$(hdr Retry-After)" 3 "429 Retry-After header"
check_eq "$(hdr Content-Type)" "text/plain; charset=utf-8" "429 content type text/plain"
api /api/v1/nodes
check_eq "$CODE" 200 "fault with times=1 fires once"

fakeapi_faults '[{"path":"^/api/v1/pods$","code":503,"retryAfter":1,"times":2},{"path":"^/api/v1/nodes$","code":500,"message":"etcdserver: leader changed"}]'
api /api/v1/pods; c1=$CODE; b1=$BODY; api /api/v1/pods; c2=$CODE; api /api/v1/pods; c3=$CODE
check_eq "$c1 $c2 $c3" "503 503 200" "503 twice, then OK"
check_eq "$b1" '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server is currently unable to handle the request","reason":"ServiceUnavailable","details":{"retryAfterSeconds":1},"code":503}' "503 Status body with retryAfterSeconds"
api /api/v1/nodes
check_eq "$CODE $(jq_ 'd["reason"], d["message"]')" "500 ('InternalError', 'etcdserver: leader changed')" "500 with a custom message"
fakeapi_faults '[{"path":"^/api/v1/nodes$","code":401}, {"path":"^/api/v1/pods$","code":403}, {"path":"^/api/v1/namespaces/team-a/pods/train-7f9c$","code":404}]'
api /api/v1/nodes
check_eq "$CODE $(jq_ 'd["reason"]')" "401 Unauthorized" "401 fault (token expired server-side)"
api /api/v1/pods
check_contains "$BODY" 'pods is forbidden: User \"gpu-admin\" cannot list resource \"pods\" in API group \"\" at the cluster scope' "403 fault uses the real message for the request"
api /api/v1/namespaces/team-a/pods/train-7f9c
check_contains "$BODY" '"message":"pods \"train-7f9c\" not found"' "404 fault names the object"

# --- faults: 410 on continue --------------------------------------------------------------
fakeapi_faults '[]'
api '/api/v1/pods?limit=5'; TOK=$(jq_ 'd["metadata"]["continue"]'); RV1=$(jq_ 'd["metadata"]["resourceVersion"]')
fakeapi_faults '[{"path":"^/api/v1/pods$","query":"continue=","action":"expired","times":1}]'
api "/api/v1/pods?limit=5&continue=$TOK"
check_eq "$CODE" 410 "expired continue: 410"
check_eq "$(jq_ 'd["reason"], d["code"]')" "('Expired', 410)" "410 reason Expired"
check_eq "$(jq_ 'd["message"]')" "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list." "410 message (with fresh token)"
NEWTOK=$(jq_ 'd["metadata"]["continue"]')
check_match "$NEWTOK" '^[A-Za-z0-9_-]+$' "410 Status carries a fresh continue token"
check_eq "$(python3 -c 'import base64,json,sys; t=sys.argv[1]; print(json.loads(base64.urlsafe_b64decode(t+"="*(-len(t)%4)))["rv"])' "$NEWTOK")" "-1" "fresh token continues at the latest RV (rv -1)"
api "/api/v1/pods?limit=5&continue=$TOK"
check_eq "$CODE" 410 "the old token stays expired (compacted), also after the fault is used up"
api "/api/v1/pods?limit=5&continue=$NEWTOK"
check_eq "$CODE $(jq_ 'd["items"][0]["metadata"]["name"]')" "200 nvidia-dcgm-exporter-x7k2p" "fresh token continues where the old one stopped"
api '/api/v1/pods?limit=5'
RV2=$(jq_ 'd["metadata"]["resourceVersion"]')
if [ "$RV2" -gt "$RV1" ]; then ok "a new list after compaction has a newer RV ($RV1 -> $RV2)"; else fail "RV did not move: $RV1 -> $RV2"; fi
TOK=$(jq_ 'd["metadata"]["continue"]')
api "/api/v1/pods?limit=5&continue=$TOK"
check_eq "$CODE" 200 "tokens of the new list work"
fakeapi_faults '[{"path":"^/api/v1/pods$","query":"continue=","action":"expired","fresh":false,"compact":false}]'
api "/api/v1/pods?limit=5&continue=$TOK"
check_eq "$(jq_ 'd["message"], "continue" in d["metadata"]')" "('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.', False)" "410 variant without a token"
api '/api/v1/pods?limit=5'
check_eq "$CODE" 200 "query regex: first page unaffected"

# --- faults: broken bodies, delays, stalls -----------------------------------------------
fakeapi_faults '[{"path":"^/api/v1/nodes$","action":"cut","after":300}]'
api /api/v1/nodes
check_eq "$CRC" 18 "cut mid-body: curl reports a partial transfer (18)"
check_eq "$(stat -c %s "$T/.body")" 300 "cut after 300 bytes"
fakeapi_faults '[{"path":"^/api/v1/nodes$","action":"truncate","after":500}]'
api /api/v1/nodes
check_eq "$CRC $CODE $(stat -c %s "$T/.body")" "0 200 500" "truncate: a complete HTTP response of 500 bytes"
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/.body" 2>/dev/null; then fail "truncated body parsed as JSON"; else ok "truncated body is invalid JSON"; fi
fakeapi_faults '[{"path":"^/api/v1/nodes$","action":"invalid"}]'
api /api/v1/nodes
check_eq "$CODE $(hdr Content-Type)" "200 application/json" "invalid: 200 application/json"
check_contains "$BODY" "<html>" "invalid: body is HTML, not JSON"
fakeapi_faults '[{"path":"^/api/v1/nodes$","action":"delay","seconds":1.5}]'
s=$(date +%s%N); api /api/v1/nodes; e=$(( ($(date +%s%N) - s) / 1000000 ))
if [ "$CODE" = 200 ] && [ "$e" -ge 1400 ]; then ok "delay: answered after ${e} ms"; else fail "delay: code $CODE after $e ms"; fi
fakeapi_faults '[{"path":"^/api/v1/nodes$","action":"stall","after":100,"seconds":30}]'
s=$(date +%s%N); api /api/v1/nodes --max-time 2; e=$(( ($(date +%s%N) - s) / 1000000 ))
check_eq "$CRC" 28 "stall: curl times out (28)"
check_eq "$(head -1 <<<"$HDRS")" "HTTP/1.1 200 OK" "stall: headers were sent"
check_eq "$(stat -c %s "$T/.body")" 100 "stall: 100 bytes, then nothing"
if [ "$e" -lt 5000 ]; then ok "stall: bounded by the client timeout"; else fail "stall took $e ms"; fi
fakeapi_faults '[{"path":"^/api/v1/nodes$","action":"close"}]'
api /api/v1/nodes
check_eq "$CRC" 52 "close: empty reply (curl 52)"
fakeapi_faults '[{"path":"^/version$","code":500,"method":"POST"}]'
api /version
check_eq "$CODE" 200 "method filter: GET not matched by a POST fault"
fakeapi_faults '[{"path":"^/version$","code":503,"skip":1,"times":1}]'
api /version; c1=$CODE; api /version; c2=$CODE; api /version; c3=$CODE
check_eq "$c1 $c2 $c3" "200 503 200" "skip=1 times=1: only the second request fails"
fakeapi_faults '[]'

# --- gzip ---------------------------------------------------------------------------------
python3 - "$FIX" "$T/big.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
tmpl = [i for i in d['items'] if i['kind'] == 'Pod' and i['metadata']['name'] == 'train-7f9c'][0]
for n in range(200):
    p = copy.deepcopy(tmpl)
    p['metadata']['name'] = 'bulk-%03d' % n
    p['metadata']['namespace'] = 'bulk'
    p['metadata']['uid'] = '00000000-0000-4000-8000-%012d' % n
    d['items'].append(p)
json.dump(d, open(sys.argv[2], 'w'))
PY
fakeapi_start "$T/big.json" || fail "restart with the big fixture"
api /api/v1/pods -H 'Accept-Encoding: gzip'
check_eq "$(hdr Content-Encoding)" "gzip" "list > 128 KiB with Accept-Encoding gzip: gzipped"
check_eq "$(hdr Transfer-Encoding)" "chunked" "large response is chunked"
raw=$(stat -c %s "$T/.body")
check_eq "$(gzip -dc <"$T/.body" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')" 214 "gunzipped list parses (214 pods)"
api /api/v1/pods
check_eq "$(hdr Content-Encoding)" "" "no Accept-Encoding: identity"
if [ "$(stat -c %s "$T/.body")" -gt 131072 ] && [ "$raw" -lt "$(stat -c %s "$T/.body")" ]; then ok "gzip body smaller than the identity body"; else fail "gzip sizes: $raw vs $(stat -c %s "$T/.body")"; fi
api /api/v1/nodes -H 'Accept-Encoding: gzip'
check_eq "$(hdr Content-Encoding)" "" "small response not gzipped"
api '/api/v1/pods?limit=500' --compressed
check_eq "$(jq_ 'len(d["items"])')" 214 "curl --compressed round trip"

# --- proxies ------------------------------------------------------------------------------
fakeapi_start "$FIX" || fail "restart"
cat >"$T/backend.py" <<'PY'
import http.server, json, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"status": "success", "path": self.path,
                           "auth": self.headers.get("Authorization")}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1] + ".tmp", "w").write(str(s.server_address[1])); import os; os.replace(sys.argv[1] + ".tmp", sys.argv[1])
s.serve_forever()
PY
python3 "$T/backend.py" "$T/backend.port" & BPID=$!
on_exit "kill $BPID"
for i in $(seq 1 100); do [ -s "$T/backend.port" ] && break; sleep 0.1; done
BPORT=$(cat "$T/backend.port")
printf '# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %%).\n# TYPE DCGM_FI_DEV_GPU_UTIL gauge\nDCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",Hostname="gpu-l4-0"} 37\n' >"$T/dcgm.txt"
api '/api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy/api/v1/query?query=up'
check_eq "$CODE" 503 "unconfigured service proxy: 503"
check_contains "$BODY" '"message":"no endpoints available for service \"prometheus-k8s\"","reason":"ServiceUnavailable"' "no endpoints message"
fakeapi_proxy "{\"services\":{\"monitoring/prometheus-k8s:web\":\"http://127.0.0.1:$BPORT\"},
  \"pods\":{\"gpu-operator/nvidia-dcgm-exporter-b3n8r:9400\":{\"file\":\"$T/dcgm.txt\"}}}"
api '/api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy/api/v1/query?query=sum(DCGM_FI_DEV_GPU_UTIL)'
check_eq "$CODE" 200 "service proxy forwards"
check_eq "$(jq_ 'd["path"]')" "/api/v1/query?query=sum(DCGM_FI_DEV_GPU_UTIL)" "path and query string forwarded"
check_eq "$(jq_ 'd["auth"]')" "None" "the user's token is not forwarded to the backend"
api '/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy/api/v1/status/buildinfo'
check_eq "$CODE $(jq_ 'd["path"]')" "200 /api/v1/status/buildinfo" "port number resolves to the named port"
api '/api/v1/namespaces/monitoring/services/prometheus-k8s:9999/proxy/'
check_eq "$CODE" 503 "unknown service port: 503"
api '/api/v1/namespaces/monitoring/services/nope:web/proxy/'
check_eq "$CODE" 404 "missing service: 404"
api '/api/v1/namespaces/gpu-operator/pods/nvidia-dcgm-exporter-b3n8r:9400/proxy/metrics'
check_eq "$CODE" 200 "pod proxy serves the configured file"
check_contains "$BODY" 'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",Hostname="gpu-l4-0"} 37' "pod proxy body"
check_contains "$(hdr Content-Type)" "text/plain; version=0.0.4" "pod proxy content type (Prometheus text)"
api '/api/v1/namespaces/gpu-operator/pods/nvidia-dcgm-exporter-x7k2p:9400/proxy/metrics'
check_eq "$CODE" 503 "unconfigured pod proxy: 503"
check_contains "$BODY" 'error trying to reach service: dial tcp 10.244.11.22:9400: connect: connection refused' "pod proxy dial error"

# --- watch and anonymous ------------------------------------------------------------------
out=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -H "Authorization: Bearer $FAKEAPI_TOKEN" \
  "$FAKEAPI_URL/api/v1/namespaces/team-a/pods?watch=1&timeoutSeconds=1&allowWatchBookmarks=true")
check_eq "$(python3 -c 'import json,sys; print([(e["type"], e["object"]["metadata"].get("name")) for e in map(json.loads, sys.stdin.read().splitlines())])' <<<"$out")" \
  "[('ADDED', 'train-7f9c'), ('ADDED', 'train-large-0'), ('BOOKMARK', None)]" "watch: ADDED per object, BOOKMARK, ends at timeoutSeconds"
fakeapi_start "$FIX" --anonymous || fail "restart with --anonymous"
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -o "$T/.body" -w '%{http_code}' "$FAKEAPI_URL/version")
check_eq "$CODE" 200 "anonymous may read /version"
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -o "$T/.body" -w '%{http_code}' "$FAKEAPI_URL/apis"); BODY=$(cat "$T/.body")
check_eq "$CODE $BODY" '403 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \"system:anonymous\" cannot get path \"/apis\"","reason":"Forbidden","details":{},"code":403}' "anonymous: non-resource 403 form"
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -H 'Authorization: Bearer wrong' -o /dev/null -w '%{http_code}' "$FAKEAPI_URL/version")
check_eq "$CODE" 401 "anonymous enabled: a bad token is still 401"
fakeapi_start "$FIX" || fail "restart"

# --- keep-alive and the request log -------------------------------------------------------
fakeapi_clear_log
out=$(timeout 30 curl -sS -v --cacert "$FAKEAPI_CERTS/ca.crt" -H "Authorization: Bearer $FAKEAPI_TOKEN" \
  -o /dev/null -o /dev/null "$FAKEAPI_URL/version" "$FAKEAPI_URL/api/v1/nodes" 2>&1)
check_contains "$out" "Re-using existing connection" "HTTP/1.1 keep-alive: one connection for two requests"
check_eq "$(fakeapi_count '.*')" 2 "log: one line per request"
check_eq "$(python3 -c 'import json,sys; e=json.loads(open(sys.argv[1]).readlines()[1]); print(sorted(k for k in e if k in ("method","path","query","auth","status","bytes")), e["auth"], e["status"])' "$FAKEAPI_LOG")" \
  "['auth', 'bytes', 'method', 'path', 'query', 'status'] token 200" "log fields"
if grep -qF -e "$FAKEAPI_TOKEN" -e "$FAKEAPI_BASIC_PASSWORD" "$T"/fakeapi.log; then
  fail "request log contains a secret"
else
  ok "request log never holds a token or password"
fi

# --- the exec credential plugin ------------------------------------------------------------
out=$(FAKEAPI_EXEC_TOKEN=abc timeout 10 bash "$KGPU_ROOT/tests/fakeapi/exec-plugin.sh")
check_eq "$(json_get "$out" 'd["apiVersion"], d["kind"], d["status"]["token"]')" "('client.authentication.k8s.io/v1', 'ExecCredential', 'abc')" "exec plugin: v1 ExecCredential"
out=$(KUBERNETES_EXEC_INFO='{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential"}' timeout 10 bash "$KGPU_ROOT/tests/fakeapi/exec-plugin.sh")
check_eq "$(json_get "$out" 'd["apiVersion"]')" "client.authentication.k8s.io/v1beta1" "exec plugin answers in the requested version"
FAKEAPI_EXEC_MODE=fail timeout 10 bash "$KGPU_ROOT/tests/fakeapi/exec-plugin.sh" >/dev/null 2>&1
check_eq "$?" 1 "exec plugin fail mode exits 1"
FAKEAPI_EXEC_MODE=hang timeout 1 bash "$KGPU_ROOT/tests/fakeapi/exec-plugin.sh" >/dev/null 2>&1
check_eq "$?" 124 "exec plugin hang mode hangs"
out=$(FAKEAPI_EXEC_MODE=garbage timeout 10 bash "$KGPU_ROOT/tests/fakeapi/exec-plugin.sh")
if python3 -c 'import json,sys; json.loads(sys.argv[1])' "$out" 2>/dev/null; then fail "garbage mode printed JSON"; else ok "exec plugin garbage mode prints non-JSON"; fi
out=$(FAKEAPI_EXEC_MODE=expired timeout 10 bash "$KGPU_ROOT/tests/fakeapi/exec-plugin.sh")
CODE=$(timeout 30 curl -sS --cacert "$FAKEAPI_CERTS/ca.crt" -H "Authorization: Bearer $(json_get "$out" 'd["status"]["token"]')" -o /dev/null -w '%{http_code}' "$FAKEAPI_URL/version")
check_eq "$CODE" 401 "exec plugin expired mode: the server rejects its token"
