#!/usr/bin/env bash
# kubectl gpu plan on measured usage: a real Prometheus (tests/lib/prometheus.sh) backfilled with
# a week of DCGM series made by tests/gen/gen_plan_series.py for the workloads of
# tests/fixtures/plan/prom-cluster.json (ranges in tests/fixtures/plan/prom-usage.json).
#
# The optimum, by hand, from the ranges alone (headroom 10 %; "sized" = p95 x 1.1; A100 80GB
# profiles 1g.10gb 9728 MiB, 2g.20gb 19968, 3g.40gb 40192):
#   A100 (a100-01, a100-02: 16 whole GPUs held -> before 16)
#     chat-small x8: p95 <= 8500 (its replaced pod's maximum) -> <= 9350 MiB, <= 8.8 % -> 1g.10gb
#     embed x2: 15400..19800 MiB, 19.8..27.5 % (2 slices) -> 2g.20gb
#     rerank x2: 33000..39600 MiB -> 3g.40gb
#     train-llm: 4 GPUs -> whole x4
#     MIG: 8x 1g + 2x 2g + 2x 3g = 18 compute slices > 2 x 7 -> >= 3 GPUs, and 3 suffice:
#     {3g, 2g, 1g, 1g} twice + 4x 1g  ->  3 + 4 = 7.  Time-slicing / MPS need >= 7 (all 12
#     sharing needs r >= 6, but the two rerank pods alone take 66000+ MiB; without them the
#     best is 1 shared GPU + 2 + 4 = 7), a tie goes to MIG.  After 7.
#   T4 (t4-01: 4 held): ocr x4 <= 2200 MiB, <= 16.5 %: 4 per GPU either way (MPS limit
#     15360/4 = 3840 MiB, 100/4 = 25 %) -> 1 GPU (device plugin v0.20.0: packed allocation,
#     so the pool's other 3 GPUs are not counted); the tie goes to MPS because the measured
#     peaks (<= 2200 MiB) fit MPS's per-client limit, and MPS is allowed: the ClusterPolicy sets
#     no MIG strategy (the A100's config file says mixed, the T4's none).  4 replicas.  After 1.
#   H100 (h100-01: 2 held): llm-70b 66000+ MiB, 77+ %: nothing to gain -> none, after 2;
#     it started 12 h ago: "little data".
#   Total: before 22, after 10.
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/prometheus.sh"
FIX="$KGPU_ROOT/tests/fixtures/plan"

if ! prom_available; then
  ok "prometheus/promtool not installed: Prometheus plan checks skipped"
  exit 0
fi
if ! python3 "$KGPU_ROOT/tests/gen/gen_plan_series.py" --spec "$FIX/prom-usage.json" --cluster "$FIX/prom-cluster.json" \
     --openmetrics "$T/plan.om" --expected "$T/expected.json"; then
  fail "generator failed"; exit 1
fi
ok "generated $(grep -c . "$T/plan.om") OpenMetrics lines"
prom_backfill "$T/plan.om" "$T/prom-data" && ok "backfilled with promtool" || { fail "backfill"; exit 1; }
prom_start "$T/prom-data" && ok "prometheus ready at $PROM_URL" || { fail "prometheus did not start"; exit 1; }
KUBECTL_GPU_NOW=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evalTime"])' "$T/expected.json")
export KUBECTL_GPU_NOW

kgpu plan --snapshot "$FIX/prom-cluster.json" --prometheus "$PROM_URL" -o json
check_rc 0 "plan -o json with --prometheus"
printf '%s\n' "$OUT" >"$T/plan.json"
check_eq "$(json_get "$OUT" 'd["metrics"]["source"], d["metrics"]["usage"]')" "('prometheus', 'metrics')" "usage measured through Prometheus"
check_eq "$(json_get "$OUT" 'd["summary"]')" "{'gpusBefore': 22, 'gpusAfter': 10, 'gpusFreed': 12}" "GPUs before 22, after the optimum 10"
check_eq "$(json_get "$OUT" '[(g["product"], g["strategy"], g["gpusBefore"], g["gpusAfter"], g["replicas"]) for g in d["groups"]]')" \
  "[('NVIDIA-A100-SXM4-80GB', 'mig', 16, 7, None), ('NVIDIA-H100-80GB-HBM3', 'none', 2, 2, None), ('Tesla-T4', 'mps', 4, 1, 4)]" \
  "per group: strategy and GPUs as worked by hand"
check_eq "$(json_get "$OUT" 'sorted((w["name"], w["assigned"], w["pods"]) for g in d["groups"] for w in g["workloads"])')" \
  "[('chat-small', 'mig-1g.10gb', 8), ('embed', 'mig-2g.20gb', 2), ('llm-70b', 'whole', 2), ('ocr', 'shared', 4), ('rerank', 'mig-3g.40gb', 2), ('train-llm', 'whole', 1)]" \
  "every workload assigned as worked by hand, pods grouped by owner"

# observed values = what the generator computed from the very samples (p95 and peak, max over
# the workload's pods, the replaced chat-small pod included)
python3 - "$T/plan.json" "$T/expected.json" >"$T/values.out" 2>&1 <<'PY'
import json, sys
plan = json.load(open(sys.argv[1])); exp = json.load(open(sys.argv[2]))
got = {(w["namespace"], w["name"]): w for g in plan["groups"] for w in g["workloads"]}
for e in exp["workloads"]:
    w = got.get((e["namespace"], e["name"]))
    name = "%s/%s" % (e["namespace"], e["name"])
    if w is None:
        print("not ok - %s missing" % name); continue
    for key, want, tol in (("observedMemoryMiB", e["memoryPercentileMiB"], 0), ("peakMemoryMiB", e["memoryPeakMiB"], 0),
                           ("observedUtilization", e["utilizationPercentile"], 1e-6), ("peakUtilization", e["utilizationPeak"], 1e-6)):
        ok = w[key] is not None and abs(w[key] - want) <= tol
        print("%s - %s: %s = %s (generator %s)" % ("ok" if ok else "not ok", name, key, w[key], want))
    print("%s - %s: usageSource metrics" % ("ok" if w["usageSource"] == "metrics" else "not ok", name))
PY
while IFS= read -r line; do
  case "$line" in "ok - "*) ok "${line#ok - }" ;; "not ok - "*) fail "${line#not ok - }" ;; *) fail "values: $line" ;; esac
done <"$T/values.out"
check_eq "$(json_get "$OUT" '[w["peakMemoryMiB"] for g in d["groups"] for w in g["workloads"] if w["name"] == "chat-small"][0] > 7000')" \
  True "chat-small's peak comes from its replaced pod (its current pods stay <= 7000 MiB)"
check_contains "$(json_get "$OUT" '[r for g in d["groups"] for r in g["risks"]]')" "ml/llm-70b: little data" "llm-70b (12 h of a 7 d window) is flagged as little data"
check_not_contains "$(json_get "$OUT" '[r for g in d["groups"] for r in g["risks"]]')" "inference/chat-small: little data" "chat-small (replaced pod + current pods) is not"

# the layouts and replicas pass the independent checker; the YAML parses
Y2J="$T/yaml2json"
cc -std=c11 -Wall -Wextra -Werror -o "$Y2J" "$KGPU_ROOT/tests/tools/yaml2json.c" $(pkg-config --cflags --libs yaml-0.1 libcjson) \
  && ok "built yaml2json" || fail "yaml2json does not build"
kgpu plan --snapshot "$FIX/prom-cluster.json" --prometheus "$PROM_URL" -o yaml
check_rc 0 "plan -o yaml with --prometheus"
check_contains "$OUT" "kubectl-gpu/usage: 'metrics: Prometheus $PROM_URL'" "manifests say where usage came from"
if printf '%s\n' "$OUT" | "$Y2J" >"$T/plan.jsonl" 2>"$T/y2j.err"; then ok "-o yaml parses"; else fail "-o yaml: $(cat "$T/y2j.err")"; fi
relay_checks checker < <(python3 "$FIX/check_plan.py" "$T/plan.json" "$T/plan.jsonl" "$Y2J" 2>&1)

# --strategy time-slicing on the T4: replicas from measured usage, memory-safe (checker)
kgpu plan --snapshot "$FIX/prom-cluster.json" --prometheus "$PROM_URL" -l nvidia.com/gpu.product=Tesla-T4 --strategy time-slicing -o json
check_eq "$(json_get "$OUT" '[(g["strategy"], g["replicas"], g["gpusAfter"]) for g in d["groups"]]')" "[('time-slicing', 4, 1)]" \
  "T4 forced time-slicing: 4 replicas on 1 GPU"
check_eq "$(json_get "$OUT" '[g["product"] for g in d["groups"]]')" "['Tesla-T4']" "-l selects the T4 node only"

# the text report states measured usage, the trade-off and the risks
kgpu plan --snapshot "$FIX/prom-cluster.json" --prometheus "$PROM_URL"
check_rc 0 "plan (text) with --prometheus"
check_contains "$OUT" "Usage: Prometheus $PROM_URL; per workload the p95 and the peak" "text: where usage came from"
check_not_contains "$OUT" "NOT MEASURED" "text: usage measured"
check_contains "$OUT" "Summary: GPUs before 22, after 10, freed 12." "text: summary"
check_contains "$OUT" "nvidia.com/mig-1g.10gb: 1" "text: what chat-small must request"

# a shorter window sees less (the replaced pod's days fall out of 3 d): chat-small's peak drops
kgpu plan --snapshot "$FIX/prom-cluster.json" --prometheus "$PROM_URL" --window 3d -o json
check_eq "$(json_get "$OUT" 'd["window"]')" "3d" "the window is reported as given"
check_eq "$(json_get "$OUT" '[w["peakMemoryMiB"] <= 7000 for g in d["groups"] for w in g["workloads"] if w["name"] == "chat-small"][0]')" \
  True "--window 3d: the replaced pod is outside the window"
