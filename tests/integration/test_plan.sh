#!/usr/bin/env bash
# kubectl gpu plan end to end, without metrics (requests stand in): on each fixture cluster of
# tests/fixtures/plan (optimal answers worked by hand in make_fixtures.py) the GPUs after equal
# the optimum; every layout and replica count passes the independent checker
# (tests/fixtures/plan/check_plan.py); -o yaml parses (tests/tools/yaml2json, libyaml's loader)
# and every document is accepted by `kubectl apply --dry-run=client` against the fake API
# server; the live path (API server instead of --snapshot) gives the same plan; the script
# passes `bash -n` (it is run end to end in test_plan_apply.sh).
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
FIX="$KGPU_ROOT/tests/fixtures/plan"

KUBECTL=$(command -v kubectl || true)
Y2J="$T/yaml2json"
if cc -std=c11 -Wall -Wextra -Werror -o "$Y2J" "$KGPU_ROOT/tests/tools/yaml2json.c" \
     $(pkg-config --cflags --libs yaml-0.1 libcjson) 2>"$T/cc.log"; then
  ok "built tests/tools/yaml2json"
else
  fail "yaml2json: $(cat "$T/cc.log")"; exit 1
fi

# checker NAME : runs check_plan.py on $T/NAME.json and $T/NAME.jsonl
checker() {
  relay_checks "$1" < <(python3 "$FIX/check_plan.py" "$T/$1.json" "$T/$1.jsonl" "$Y2J" 2>&1)
}

# fixture  before  after  (hand-worked in make_fixtures.py)
while read -r name before after; do
  kgpu plan --snapshot "$FIX/$name.json" -o json
  check_rc 0 "$name: plan -o json"
  printf '%s\n' "$OUT" >"$T/$name.json"
  check_eq "$(json_get "$OUT" 'd["summary"]["gpusBefore"]')" "$before" "$name: GPUs before = $before"
  check_eq "$(json_get "$OUT" 'd["summary"]["gpusAfter"]')" "$after" "$name: GPUs after = the optimum $after"
  kgpu plan --snapshot "$FIX/$name.json" -o yaml
  check_rc 0 "$name: plan -o yaml"
  printf '%s\n' "$OUT" >"$T/$name.yaml"
  if "$Y2J" <"$T/$name.yaml" >"$T/$name.jsonl" 2>"$T/$name.y2j.err"; then ok "$name: -o yaml parses"
  else fail "$name: -o yaml does not parse: $(cat "$T/$name.y2j.err")"; fi
  checker "$name"
  kgpu plan --snapshot "$FIX/$name.json" -o script
  check_rc 0 "$name: plan -o script"
  printf '%s\n' "$OUT" >"$T/$name.sh"
  if bash -n "$T/$name.sh" 2>"$T/$name.bashn"; then ok "$name: the script passes bash -n"
  else fail "$name: bash -n: $(cat "$T/$name.bashn")"; fi
  if shellcheck -s bash "$T/$name.sh" >"$T/$name.sc" 2>&1; then ok "$name: the script is shellcheck clean"
  else fail "$name: shellcheck: $(head -c 600 "$T/$name.sc")"; fi
  kgpu plan --snapshot "$FIX/$name.json"
  check_rc 0 "$name: plan (text)"
  check_contains "$OUT" "Summary: GPUs before $before, after $after, freed $((before - after))." "$name: text summary"
  check_contains "$OUT" "Usage: NOT MEASURED" "$name: the text says usage was not measured"
done <<'EOF'
a100-mig 8 7
t4-timeslice 4 3
h100-whole 4 4
mixed 16 15
custom 15 13
EOF

# --- every document accepted by kubectl apply --dry-run=client (kubectl needs a server) -----
# The fake API server serves discovery but no OpenAPI documents, so kubectl's schema validation
# is off (--validate=false): kubectl still maps every apiVersion/kind through discovery and
# decodes every object; names, keys and quantities are checked by check_plan.py.
if [ -z "$KUBECTL" ]; then
  fail "kubectl not found: the manifests cannot be checked with kubectl apply"
elif fakeapi_start "$FIX/mixed.json"; then
  ok "fake API server up"
  for name in a100-mig t4-timeslice mixed; do
    n=$(grep -c . "$T/$name.jsonl")
    if timeout 60 "$KUBECTL" apply --dry-run=client --validate=false -f - <"$T/$name.yaml" >"$T/$name.apply" 2>"$T/$name.apply.err"; then
      ok "$name: kubectl apply --dry-run=client accepts the stream"
    else
      fail "$name: kubectl apply --dry-run=client: $(head -c 1500 "$T/$name.apply.err")"
    fi
    check_eq "$(grep -c '(dry run)$' "$T/$name.apply")" "$n" "$name: kubectl took all $n documents"
  done
  # the live path: the same cluster through the API server gives the same plan
  kgpu plan --no-metrics -o json
  check_rc 0 "live: plan -o json through the API server"
  check_eq "$(json_get "$OUT" 'd["summary"]')" "{'gpusBefore': 16, 'gpusAfter': 15, 'gpusFreed': 1}" "live: same summary as the snapshot"
  check_eq "$(json_get "$OUT" '[g["strategy"] for g in d["groups"]]')" "['mig', 'none', 'none']" "live: same strategies"
  check_eq "$(json_get "$OUT" 'd["metrics"]["detail"]')" "disabled by --no-metrics" "live: says why there are no metrics"
  check_eq "$(fakeapi_count '.*' '' POST)$(fakeapi_count '.*' '' PATCH)$(fakeapi_count '.*' '' PUT)$(fakeapi_count '.*' '' DELETE)" \
    "0000" "the plan never writes to the cluster"
else
  fail "fake API server did not start"
fi

# --- the script --------------------------------------------------------------------------------
# bash -n here; run end to end with the real kubectl against the fake API server simulating the
# GPU Operator in tests/integration/test_plan_apply.sh
