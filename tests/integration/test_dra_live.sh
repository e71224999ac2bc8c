#!/usr/bin/env bash
# Live DRA lists (src/sources/loader_dra.c): resource.k8s.io/v1 deviceclasses, resourceslices,
# resourceclaims and resourceclaimtemplates read page by page like pods; a cluster that serves
# only v1beta1 (Kubernetes 1.32) is read through it; a cluster without DRA (404 on every version)
# gives no warning; a forbidden list (403) is a warning naming what is not shown, and the rest
# of the answer stands; `snapshot` keeps the objects and the version they were read in.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

fakeapi_start "$KGPU_ROOT/tests/fixtures/dra/mixed.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_CHUNK_SIZE=3
kgpu status -o json
check_rc 0 "status against a DRA cluster"
check_eq "$(json_get "$OUT" "(d['summary']['physicalGPUs'], d['summary']['dra']['devices'], d['summary']['dra']['allocatedDevices'])")" \
  "(26, 19, 8)" "the same counts as from the snapshot (tests/cases/dra/status-mixed.case)"
check_eq "$(json_get "$OUT" "d['warnings']")" "[]" "no warning"
# 4 slices (one stale) in pages of 3: 2 pages; 8 claims: 3 pages
check_eq "$(fakeapi_count '^/apis/resource.k8s.io/v1/resourceslices$' 'limit=3')" "2" "slices: 2 pages of at most 3"
check_eq "$(fakeapi_count '^/apis/resource.k8s.io/v1/resourceclaims$' 'limit=3')" "3" "claims: 3 pages of at most 3"
check_eq "$(fakeapi_count '^/apis/resource.k8s.io/v1beta' '')" "0" "v1 served: no older version asked"

kgpu explain big-train-0 -n ml -o json
check_rc 0 "explain a pod waiting for its claim"
check_eq "$(json_get "$OUT" "(d['verdict'], d['agreesWithScheduler'])")" "('Insufficient', True)" "verdict as from the snapshot"

kgpu snapshot -o "$T/dra-snap.json"
check_rc 0 "snapshot"
check_eq "$(python3 -c 'import json,sys,collections; d=json.load(open(sys.argv[1])); print(sorted(collections.Counter((i["apiVersion"], i["kind"]) for i in d["items"] if i["apiVersion"].startswith("resource.k8s.io")).items()))' "$T/dra-snap.json")" \
  "[(('resource.k8s.io/v1', 'DeviceClass'), 2), (('resource.k8s.io/v1', 'ResourceClaim'), 8), (('resource.k8s.io/v1', 'ResourceClaimTemplate'), 3), (('resource.k8s.io/v1', 'ResourceSlice'), 4)]" \
  "the snapshot holds every DRA object with its apiVersion"
kgpu status --snapshot "$T/dra-snap.json" -o json
check_eq "$(json_get "$OUT" "(d['summary']['physicalGPUs'], d['summary']['dra']['allocatedDevices'])")" "(26, 8)" "the snapshot reads back the same"

# forbidden: a warning per list, the answer without what it could not see
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": ["resourceclaims", "resourceclaimtemplates"]}]'
kgpu status -o json
check_rc 0 "status with the claims forbidden"
check_contains "$(json_get "$OUT" "'\n'.join(d['warnings'])")" "resourceclaims.resource.k8s.io: forbidden" "a warning says the claims could not be read"
check_eq "$(json_get "$OUT" "(d['summary']['dra']['devices'], d['summary']['dra']['allocatedDevices'])")" "(19, 0)" \
  "the devices are shown, none known to be allocated"
fakeapi_rbac '[]'

# Kubernetes 1.32: only v1beta1
fakeapi_start "$KGPU_ROOT/tests/fixtures/dra/v1beta1.json" || { fail "fake API server did not start"; exit 1; }
kgpu status -o json
check_rc 0 "status against a v1beta1-only cluster"
check_eq "$(fakeapi_count '^/apis/resource.k8s.io/v1/deviceclasses$' '')" "1" "v1 asked first"
check_eq "$(fakeapi_count '^/apis/resource.k8s.io/v1beta2/deviceclasses$' '')" "1" "then v1beta2"
check_eq "$(fakeapi_count '^/apis/resource.k8s.io/v1beta1/resourceclaims$' '')" "1" "then v1beta1 for every list"
check_eq "$(json_get "$OUT" "(d['summary']['dra']['devices'], d['summary']['dra']['allocatedDevices'], d['warnings'])")" "(8, 3, [])" \
  "v1beta1 objects read (tests/cases/dra/status-v1beta1.case)"
kgpu snapshot -o "$T/beta-snap.json"
check_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted({i["apiVersion"] for i in d["items"] if i["kind"] == "ResourceSlice"}))' "$T/beta-snap.json")" \
  "['resource.k8s.io/v1beta1']" "the snapshot says the version the objects were read in"

# no DRA at all: nothing to say about it
fakeapi_start "$KGPU_ROOT/examples/clusters/small.json" || { fail "fake API server did not start"; exit 1; }
kgpu status -o json
check_rc 0 "status against a cluster without DRA"
check_eq "$(json_get "$OUT" "('dra' in d['summary'], d['warnings'])")" "(False, [])" \
  "no DRA: no dra summary, no warning"
check_eq "$(fakeapi_count '^/apis/resource.k8s.io/' '')" "3" "one 404 per version of the first list, then nothing"
kgpu status
check_not_contains "$OUT" "DRA" "the table says nothing about DRA"

# the claims forbidden: a pod with claims is not called a pod without GPUs, nor its claim missing
fakeapi_start "$KGPU_ROOT/tests/fixtures/dra/mixed.json" || { fail "fake API server did not start"; exit 1; }
fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": ["resourceclaims", "resourceclaimtemplates"]}]'
kgpu explain big-train-0 -n ml -o json
check_rc 0 "explain with the claims forbidden"
check_eq "$(json_get "$OUT" "(d['verdict'], d['reason'])")" \
  "('Unknown', 'ResourceClaim ml/big-train-0-gpus-7d9kq could not be read (see the warnings): its devices cannot be judged')" \
  "the claim could not be read, which is not 'does not exist'"
kgpu pending -n ml -o json
check_eq "$(json_get "$OUT" "[p['name'] for p in d['pods']]")" "['big-train-0', 'prep-0']" "pods with claims are listed when the claims cannot be read"
kgpu status -o json
check_eq "$(json_get "$OUT" "d['summary']['pendingGPUPods']")" "4" \
  "status counts the pods pending lists (the 3 of status-mixed.case and prep-0, whose claims it cannot read)"
fakeapi_rbac '[]'
