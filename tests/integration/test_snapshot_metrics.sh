#!/usr/bin/env bash
# A snapshot taken with metrics reachable answers offline as the live cluster does: a real
# Prometheus (tests/lib/prometheus.sh) backfilled with the week of DCGM series of
# tests/gen/gen_plan_series.py for tests/fixtures/plan/prom-cluster.json, served live by the
# fake API server.  `plan -o json` and the usage of `status -o json` read live with --prometheus
# equal those read from `snapshot --prometheus ... -o FILE.json.gz` offline, without
# --prometheus (only the metrics detail says where the usage came from).  The Prometheus URL's
# password never reaches the snapshot.  The usage series, the held times per (device, pod) and
# the GPU-hours (status --by namespace, --price) are computed from the backfilled samples by
# tests/lib/check_hours.py, live and from the snapshot; the data gets one more pod that shared a
# GPU with a current one for a quarter of the last hour and is gone now.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
. "$KGPU_ROOT/tests/lib/prometheus.sh"
FIX="$KGPU_ROOT/tests/fixtures/plan"

if ! prom_available; then
  ok "prometheus/promtool not installed: snapshot metrics checks skipped"
  exit 0
fi
# a pod of chat-small on a100-01's GPU 7 (beside the current one) from 30 to 15 minutes ago
python3 - "$FIX/prom-usage.json" "$T/usage.json" <<'PY' || { fail "spec"; exit 1; }
import json, sys
s = json.load(open(sys.argv[1]))
s["gone"].append({"namespace": "inference", "pod": "chat-small-5c4b3a2d1e-yyyyy", "node": "a100-01", "gpu": 7,
                  "mem": [3000, 4000], "util": [1, 4], "from": 1800, "to": 900})
json.dump(s, open(sys.argv[2], "w"))
PY
python3 "$KGPU_ROOT/tests/gen/gen_plan_series.py" --spec "$T/usage.json" --cluster "$FIX/prom-cluster.json" \
  --openmetrics "$T/plan.om" --expected "$T/expected.json" || { fail "generator failed"; exit 1; }
prom_backfill "$T/plan.om" "$T/prom-data" && ok "backfilled with promtool" || { fail "backfill"; exit 1; }
prom_start "$T/prom-data" && ok "prometheus ready at $PROM_URL" || { fail "prometheus did not start"; exit 1; }
KUBECTL_GPU_NOW=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evalTime"])' "$T/expected.json")
export KUBECTL_GPU_NOW
fakeapi_start "$FIX/prom-cluster.json" || { fail "fake API server did not start"; exit 1; }
URL_SECRET=snap-url-s3cret-9c41
PROM_AUTH_URL="http://reader:$URL_SECRET@${PROM_URL#http://}"

# ---- live ----
kgpu plan --prometheus "$PROM_AUTH_URL" -o json
check_rc 0 "live plan with Prometheus"
live_plan=$OUT
check_eq "$(json_get "$OUT" 'd["metrics"]["usage"]')" "metrics" "live plan: measured usage"
kgpu status --prometheus "$PROM_AUTH_URL" -o json
check_rc 0 "live status with Prometheus"
live_status=$OUT
check_eq "$(json_get "$OUT" 'd["metrics"]["source"]')" "prometheus" "live status: Prometheus"
# hours: computed from the samples (tests/lib/check_hours.py), then compared offline below
PRICES="A100-SXM4-80GB=2.5,H100-80GB-HBM3=4"
# check_hours MODE FILE [PRICES]: counts the checker's ok / not ok lines
check_hours() {
  local mode=$1 file=$2
  relay_checks "$mode" < <(python3 "$KGPU_ROOT/tests/lib/check_hours.py" "$mode" "$T/plan.om" "$FIX/prom-cluster.json" \
             "$KUBECTL_GPU_NOW" 3600 5 "$file" "${3:-}" 2>&1)
}
kgpu status --prometheus "$PROM_AUTH_URL" --by namespace --price "$PRICES" -o json
check_rc 0 "live status --by namespace --price"
live_byns=$OUT
printf '%s' "$OUT" >"$T/live-byns.json"
check_hours groups "$T/live-byns.json" "$PRICES"
kgpu status --prometheus "$PROM_AUTH_URL" --by workload --price "$PRICES" -o json
check_rc 0 "live status --by workload"
live_bywl=$OUT
check_eq "$(json_get "$OUT" '[g["name"] for g in d["groups"] if g["name"].startswith("inference/")]')" \
  "['inference/Deployment/chat-small', 'inference/Deployment/embed']" "--by workload: the gone pod counts to its Deployment"
check_eq "$(json_get "$OUT" 'round(sum(g["gpuHours"] for g in d["groups"]), 2)')" \
  "$(json_get "$live_byns" 'round(sum(g["gpuHours"] for g in d["groups"]), 2)')" "--by workload: the same GPU-hours in all as --by namespace"
kgpu status --prometheus "$PROM_AUTH_URL" --price "$PRICES" -o json
check_rc 0 "live status --price"
live_price=$OUT
printf '%s' "$OUT" >"$T/live-price.json"
check_hours summary "$T/live-price.json" "$PRICES"
kgpu status --prometheus "$PROM_AUTH_URL" --price "$PRICES"
check_match "$OUT" '^GPU-hours \(last 1h\): [0-9.]+ held, [0-9.]+ idle = [0-9.]+ USD$' "status --price: the idle GPU-hours' cost in the summary"

# ---- the snapshot ----
kgpu snapshot --prometheus "$PROM_AUTH_URL" -o "$T/snap.json.gz"
check_rc 0 "snapshot with Prometheus"
check_eq "$(head -c 2 "$T/snap.json.gz" | od -An -tx1 | tr -d ' ')" "1f8b" "FILE.json.gz is gzip-compressed"
gzip -dc "$T/snap.json.gz" >"$T/snap.json"
check_hours series "$T/snap.json"
check_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); a=d["metadata"]["annotations"]; print(a["kubectl-gpu/snapshot-format"], "kubectl-gpu/version" in a)' "$T/snap.json")" \
  "2 True" "format and tool version annotated"
want=$(python3 - "$T/snap.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
kinds = {}
for i in d["items"]:
    if i["apiVersion"] == "kubectl-gpu/v1":
        k = i["kind"] + ("/" + i.get("of", i.get("for", "")) if i["kind"] != "WorkloadUsage" else "")
        kinds[k] = kinds.get(k, 0) + 1
print(sorted(kinds))
PY
)
check_eq "$want" "['GPUHeld/', 'GPUUsage/device', 'GPUUsage/pod', 'UsageSource/devices', 'UsageSource/workloads', 'WorkloadUsage']" \
  "usage stored: sources, devices, per-pod devices, workloads"
if grep -qF "$URL_SECRET" "$T/snap.json"; then fail "the Prometheus URL's password is in the snapshot"; else ok "no Prometheus URL password in the snapshot"; fi
if grep -qF "$FAKEAPI_TOKEN" "$T/snap.json"; then fail "the kubeconfig token is in the snapshot"; else ok "no token in the snapshot"; fi
check_contains "$(cat "$T/snap.json")" "\"detail\":\"Prometheus $PROM_URL\"" "the Prometheus URL is stored without its user info"

# ---- offline: the same answers, no Prometheus, no API server ----
fakeapi_stop
prom_stop
kgpu plan --snapshot "$T/snap.json.gz" -o json
check_rc 0 "plan --snapshot"
check_eq "$(json_get "$OUT" 'd["metrics"]["usage"]')" "metrics" "offline plan: measured usage from the snapshot"
check_contains "$(json_get "$OUT" 'd["metrics"]["detail"]')" "stored in the snapshot" "offline plan says where the usage came from"
# (the manifests' kubectl-gpu/usage annotation quotes the metrics detail: compared without it)
norm='json.dumps(dict({k: v for k, v in d.items() if k not in ("metrics", "source", "manifests")}, manifests=[dict(m, metadata=dict(m["metadata"], annotations={a: x for a, x in m["metadata"].get("annotations", {}).items() if a != "kubectl-gpu/usage"})) for m in d["manifests"]]), sort_keys=True)'
check_eq "$(json_get "$OUT" 'len(d["manifests"]) > 0')" "True" "the plan has manifests to compare"
check_eq "$(json_get "$OUT" "$norm")" "$(json_get "$live_plan" "$norm")" "plan --snapshot = live plan (groups, workloads, actions, manifests)"
check_eq "$(json_get "$OUT" 'd["metrics"]["source"]')" "$(json_get "$live_plan" 'd["metrics"]["source"]')" "same metrics source"
kgpu status --snapshot "$T/snap.json.gz" -o json
check_rc 0 "status --snapshot"
snorm='json.dumps([d["summary"], d["nodes"], {k: v for k, v in d["metrics"].items() if k != "detail"}], sort_keys=True)'
check_eq "$(json_get "$OUT" "$snorm")" "$(json_get "$live_status" "$snorm")" "status --snapshot = live status (usage per GPU, idle GPUs, summary)"
kgpu status --snapshot "$T/snap.json.gz" --by namespace --price "$PRICES" -o json
check_eq "$OUT" "$live_byns" "status --snapshot --by namespace --price = live (GPU-hours, idle GPU-hours, cost)"
kgpu status --snapshot "$T/snap.json.gz" --by workload --price "$PRICES" -o json
check_eq "$OUT" "$live_bywl" "status --snapshot --by workload --price = live"
kgpu status --snapshot "$T/snap.json.gz" --price "$PRICES" -o json
check_eq "$(json_get "$OUT" 'd["summary"]["hours"]')" "$(json_get "$live_price" 'd["summary"]["hours"]')" \
  "status --snapshot --price: the same hours and idle cost in the summary"
kgpu status --snapshot "$T/snap.json.gz"
check_rc 0 "status --snapshot, table"
check_match "$OUT" '^Metrics: prometheus' "the table shows the stored usage"
# a window the snapshot does not hold is said, not pretended
kgpu status --snapshot "$T/snap.json.gz" --window 2h -o json
check_contains "$(json_get "$OUT" 'd.get("warnings")')" "the snapshot holds usage over 1h" "another --window offline: warned"
kgpu plan --snapshot "$T/snap.json.gz" --percentile 99 -o json
check_contains "$OUT" "p99 cannot be computed offline" "another --percentile offline: warned"
# --no-metrics still wins
kgpu status --snapshot "$T/snap.json.gz" --no-metrics -o json
check_eq "$(json_get "$OUT" 'd["metrics"]["source"]')" "none" "--no-metrics ignores the stored usage"
