#!/usr/bin/env bash
# Live: the device-plugin ConfigMap the ClusterPolicy names is listed by name (its ClusterPolicy
# has no status.namespace, as older operators write it; with one, the map is a GET there)
# (fieldSelector=metadata.name=time-slicing-config) and gives the replicas of nodes whose labels
# do not say (numbers worked out in tests/cases/status/dpconfig.case); refused (403), status
# still answers, says what it could not read, and counts those nodes from resources, flagged.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

fakeapi_start "$KGPU_ROOT/tests/fixtures/model/cluster-dpconfig.json" || { fail "fake API server did not start"; exit 1; }

kgpu status -o json
check_rc 0 "status with the ConfigMap readable"
check_eq "$(fakeapi_count '^/api/v1/configmaps$' 'fieldSelector=metadata.name%3Dtime-slicing-config')" "1" \
  "the ConfigMap the ClusterPolicy names is listed once, by name"
check_eq "$(fakeapi_count '^/api/v1/configmaps$' 'fieldSelector=metadata.name%3Ddefault-mig-parted-config')" "1" \
  "without a custom mig-parted map, the operator's built-in one is looked up by name too (plan carries it over)"
check_eq "$(fakeapi_count 'configmaps' '')" "2" "no other ConfigMap request"
check_eq "$(json_get "$OUT" "[(n['physicalGPUs'], n['sharing']['replicas'], n['sharing'].get('source')) for n in d['nodes'] if n['name'] == 'nogfd-default'][0]")" \
  "(3, 4, 'inferred')" "nogfd-default: 12 units / 4 replicas of the default key = 3 GPUs"
check_eq "$(json_get "$OUT" "d['summary']['physicalGPUs']")" "20" "physical total as in dpconfig.case"

fakeapi_rbac '[{"user": "gpu-admin", "verb": "list", "resource": "configmaps"}]'
kgpu status -o json
check_rc 0 "status with configmaps forbidden"
check_contains "$(json_get "$OUT" "'\n'.join(d['warnings'])")" "configmaps: forbidden" "a warning says the ConfigMap could not be read"
check_eq "$(json_get "$OUT" "[(n['physicalGPUs'], n['sources']['physicalGPUs'].get('resourcesOnly')) for n in d['nodes'] if n['name'] == 'nogfd-default'][0]")" \
  "(12, True)" "nogfd-default: without the config, 12 counted from resources and flagged"
fakeapi_rbac '[]'
