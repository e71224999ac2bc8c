#!/usr/bin/env bash
# `kubectl gpu status` beyond the data-driven cases (tests/cases/status):
#   1. colour: only on a terminal (checked through script(1)), never with NO_COLOR, --no-color,
#      TERM=dumb or a pipe
#   2. the small table fits 80 columns, one line per node
#   3. -o yaml reads back to the same document as -o json (when PyYAML is installed)
#   4. a generated 500-node cluster: every total and every GPU node equal the generator's own
#      counts (tests/gen/gen_cluster.py --summary)
#   5. the same cluster live through the fake API server gives the same answer as the snapshot;
#      DaemonSets or ClusterPolicies refused (403) are warnings, not failures
#   6. the example clusters are what tests/gen/build_examples.py writes (no hand edits), and the
#      generator is deterministic
#   7. with metrics (a real Prometheus on tests/gen/gen_dcgm_series.py's series for mixed-fleet):
#      the table's idle count, MEM-USED / UTIL columns and device rows agree with the series'
#      expected values
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
. "$KGPU_ROOT/tests/lib/prometheus.sh"

SMALL="$KGPU_ROOT/examples/clusters/small.json"
MIXED="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
ESC=$'\033'

# ---- 1. colour --------------------------------------------------------------------------
if command -v script >/dev/null 2>&1; then
  tty_out=$(env -u NO_COLOR TERM=xterm script -qec "$KGPU_BIN status --snapshot $SMALL" /dev/null 2>&1)
  check_contains "$tty_out" "${ESC}[32mReady${ESC}[0m" "on a terminal: Ready is green"
  check_contains "$tty_out" "${ESC}[1mNodes:${ESC}[0m" "on a terminal: summary labels bold"
  # (COLUMNS=200: the table whole; cutting to the terminal is test_columns.sh's)
  tty_out=$(env -u NO_COLOR TERM=xterm COLUMNS=200 script -qec "$KGPU_BIN status --snapshot $MIXED" /dev/null 2>&1)
  check_contains "$tty_out" "${ESC}[31mNotReady${ESC}[0m" "on a terminal: NotReady is red"
  check_contains "$tty_out" "${ESC}[33mReady,SchedulingDisabled${ESC}[0m" "on a terminal: a cordoned node is yellow"
  tty_out=$(NO_COLOR=1 TERM=xterm script -qec "$KGPU_BIN status --snapshot $MIXED" /dev/null 2>&1)
  check_not_contains "$tty_out" "$ESC" "NO_COLOR on a terminal: no escape codes"
  tty_out=$(env -u NO_COLOR TERM=xterm script -qec "$KGPU_BIN status --no-color --snapshot $MIXED" /dev/null 2>&1)
  check_not_contains "$tty_out" "$ESC" "--no-color on a terminal: no escape codes"
  tty_out=$(env -u NO_COLOR TERM=dumb script -qec "$KGPU_BIN status --snapshot $MIXED" /dev/null 2>&1)
  check_not_contains "$tty_out" "$ESC" "TERM=dumb: no escape codes"
  tty_out=$(env -u NO_COLOR TERM=xterm script -qec "$KGPU_BIN status -o json --snapshot $MIXED" /dev/null 2>&1)
  check_not_contains "$tty_out" "$ESC" "-o json on a terminal: no escape codes"
else
  ok "script(1) not installed: terminal colour checks skipped"
fi
OUT=$(env -u NO_COLOR TERM=xterm "$KGPU_BIN" status -o wide --snapshot "$MIXED" 2>&1 | cat)
check_not_contains "$OUT" "$ESC" "into a pipe: no escape codes"

# ---- 2. width -----------------------------------------------------------------------------
kgpu status --snapshot "$SMALL"
check_rc 0 "small table"
check_eq "$(awk '{ n = length($0) } n > m { m = n } END { print (m <= 80) ? "yes" : m }' <<<"$OUT")" yes \
  "small table: every line fits 80 columns"
check_eq "$(grep -c '^gpu-[12] ' <<<"$OUT")" 2 "small table: one line per GPU node"
kgpu status --snapshot "$MIXED"
rows=$(awk '/^NAME /{ on = 1; next } on && /^$/ { exit } on' <<<"$OUT")
check_eq "$(grep -c . <<<"$rows")" 14 "mixed table: one line per GPU node"
hdr=$(grep '^NAME ' <<<"$OUT")
for col in PRODUCT GPUS MEMORY MODE ALLOC STATUS; do
  pos=$(awk -v h="$hdr" -v c="$col" 'BEGIN { print index(h, c) }')
  bad=$(awk -v p="$pos" '{ if (substr($0, p - 1, 1) != " " || substr($0, p, 1) == " ") n++ } END { print n + 0 }' <<<"$rows")
  check_eq "$bad" 0 "mixed table: column $col starts where its header does"
done

# ---- 3. YAML = JSON -----------------------------------------------------------------------
if python3 -c 'import yaml' 2>/dev/null; then
  for f in "$SMALL" "$MIXED"; do
    "$KGPU_BIN" status -o json --snapshot "$f" >"$T/doc.json" 2>/dev/null
    "$KGPU_BIN" status -o yaml --snapshot "$f" >"$T/doc.yaml" 2>/dev/null
    check_eq "$(python3 -c 'import json,sys,yaml; print(json.load(open(sys.argv[1])) == yaml.safe_load(open(sys.argv[2])))' \
      "$T/doc.json" "$T/doc.yaml")" True "$(basename "$f"): -o yaml reads back equal to -o json"
  done
else
  ok "PyYAML not installed: YAML read-back skipped"
fi

# ---- 4. a generated 500-node cluster ------------------------------------------------------
GEN="$KGPU_ROOT/tests/gen/gen_cluster.py"
if python3 "$GEN" --nodes 500 --gpu-fraction 0.4 --pods-per-node 20 --seed 11 -o "$T/large-500.json" \
     --summary "$T/large-500.summary.json"; then
  ok "generated a 500-node cluster ($(( $(stat -c %s "$T/large-500.json") / 1048576 )) MiB)"
  kgpu status -o json --snapshot "$T/large-500.json"
  check_rc 0 "status on 500 nodes"
  printf '%s\n' "$OUT" >"$T/large-500.status.json"
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) ok "500 nodes: ${line#ok - }" ;;
      *) fail "500 nodes: ${line#not ok - }" ;;
    esac
  done < <(python3 - "$T/large-500.summary.json" "$T/large-500.status.json" <<'EOF'
import json, sys
want = json.load(open(sys.argv[1]))
try:
    got = json.load(open(sys.argv[2]))
except ValueError as e:
    print("not ok - status output is not JSON: %s" % e)
    sys.exit()
for key in ("nodes", "gpuNodes", "physicalGPUs", "pendingGPUPods"):
    g = got["summary"][key]
    print(("ok - " if g == want[key] else "not ok - ") + "summary.%s = %s (generator: %s)" % (key, g, want[key]))
for res, w in want["resources"].items():
    g = got["summary"]["resources"].get(res)
    print(("ok - " if g == w else "not ok - ") + "summary.resources[%s] = %s (generator: %s)" % (res, g, w))
extra = sorted(set(got["summary"]["resources"]) - set(want["resources"]))
print(("ok - " if not extra else "not ok - ") + "no resource names beyond the generator's %s" % extra)
nodes = {n["name"]: n for n in got["nodes"]}
wrong = [name for name, w in want["gpuNodeDetail"].items()
         if name not in nodes or nodes[name]["physicalGPUs"] != w["physicalGPUs"]
         or nodes[name]["resources"] != w["resources"]]
print(("ok - " if not wrong else "not ok - ") +
      "every GPU node's GPUs and capacity/allocatable/allocated per resource (%d nodes; wrong: %s)"
      % (len(want["gpuNodeDetail"]), wrong[:5]))
print(("ok - " if len(nodes) == len(want["gpuNodeDetail"]) else "not ok - ") +
      "%d GPU nodes listed, generator made %d" % (len(nodes), len(want["gpuNodeDetail"])))
EOF
)
  rm -f "$T/large-500.json"
else
  fail "gen_cluster.py failed"
fi

# ---- 5. live, through the fake API server -------------------------------------------------
strip_live() {   # the parts that differ between a snapshot and a live read
  python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("metrics"); d.pop("warnings"); print(json.dumps(d, sort_keys=True))'
}
if fakeapi_start "$MIXED"; then
  ok "fake API server serves mixed-fleet.json"
  kgpu status -o json --no-metrics
  check_rc 0 "live status"
  live=$(strip_live <<<"$OUT")
  snap=$("$KGPU_BIN" status -o json --no-metrics --snapshot "$MIXED" 2>/dev/null | strip_live)
  check_eq "$live" "$snap" "live status equals the snapshot's"
  kgpu status h100-02 dgx-a100-03 -o json --no-metrics
  check_eq "$(json_get "$OUT" '[n["name"] for n in d["nodes"]]')" "['dgx-a100-03', 'h100-02']" "live: NODE filter"
  kgpu status -l 'nvidia.com/gpu.product in (Tesla-T4-SHARED,NVIDIA-L4-SHARED)' -o json --no-metrics
  check_eq "$(json_get "$OUT" '[n["name"] for n in d["nodes"]]')" "['l4-01', 't4-01', 't4-02']" "live: -l set selector"
  check_eq "$(fakeapi_count '^/api/v1/nodes$' 'labelSelector=')" 1 "live: -l is sent to the server as labelSelector"
  kgpu status no-such-node --no-metrics
  check_rc 1 "live: unknown node"
  check_one_line_err "live: unknown node"

  fakeapi_rbac '[{"user": "*", "verb": "list", "resource": "daemonsets", "apiGroup": "apps"}]'
  kgpu status -o json --no-metrics
  check_rc 0 "DaemonSets forbidden: still answers"
  check_contains "$(json_get "$OUT" 'd["warnings"]')" "daemonsets" "DaemonSets forbidden: a warning says so"
  check_eq "$(json_get "$OUT" 'd["operator"]["components"]')" "[]" "DaemonSets forbidden: no components"
  check_eq "$(json_get "$OUT" 'd["operator"]["daemonSetsReadable"]')" False "DaemonSets forbidden: daemonSetsReadable false"
  check_eq "$(json_get "$OUT" 'json.dumps([d["summary"], d["nodes"]], sort_keys=True)')" \
    "$(json_get "$snap" 'json.dumps([d["summary"], d["nodes"]], sort_keys=True)')" "DaemonSets forbidden: summary and nodes unchanged"
  kgpu status --no-metrics
  check_rc 0 "DaemonSets forbidden: table"
  check_contains "$ERR" "warning: daemonsets" "DaemonSets forbidden: warning on stderr"
  check_contains "$OUT" "GPU Operator: unknown (DaemonSets could not be listed)" "DaemonSets forbidden: the table says unknown, not absent"

  fakeapi_rbac '[{"user": "*", "verb": "list", "resource": "clusterpolicies", "apiGroup": "nvidia.com"}]'
  kgpu status -o json --no-metrics
  check_rc 0 "ClusterPolicies forbidden: still answers"
  check_contains "$(json_get "$OUT" 'd["warnings"]')" "clusterpolicies" "ClusterPolicies forbidden: a warning says so"
  check_eq "$(json_get "$OUT" 'd["operator"]["clusterPolicy"]')" None "ClusterPolicies forbidden: no state"
  check_eq "$(json_get "$OUT" 'd["operator"]["namespace"]')" gpu-operator "ClusterPolicies forbidden: operator still found"

  fakeapi_rbac '[{"user": "*", "verb": "list", "resource": "pods"}]'
  kgpu status --no-metrics
  check_rc 1 "pods forbidden: cannot answer"
  check_one_line_err "pods forbidden"
  fakeapi_rbac '[]'
  fakeapi_stop
else
  fail "fake API server did not start"
fi
if fakeapi_start "$SMALL"; then
  kgpu status -o json --no-metrics
  check_rc 0 "live small: no ClusterPolicy CRD (404) is not an error"
  check_eq "$(json_get "$OUT" 'd["operator"]["type"], d["operator"]["clusterPolicy"]')" "('device-plugin', None)" \
    "live small: device plugin alone, no ClusterPolicy"
  fakeapi_stop
fi

# ---- 6. fixtures are generated, generator deterministic ------------------------------------
mkdir -p "$T/examples"
if python3 "$KGPU_ROOT/tests/gen/build_examples.py" --out-dir "$T/examples"; then
  for f in mixed-fleet.json small.json; do
    if cmp -s "$T/examples/$f" "$KGPU_ROOT/examples/clusters/$f"; then ok "examples/clusters/$f is build_examples.py's output"
    else fail "examples/clusters/$f differs from build_examples.py's output (edit the builder, then rerun it)"; fi
  done
else
  fail "build_examples.py failed"
fi
a=$(python3 "$GEN" --nodes 40 --pods-per-node 5 --seed 5 | md5sum)
b=$(python3 "$GEN" --nodes 40 --pods-per-node 5 --seed 5 | md5sum)
c=$(python3 "$GEN" --nodes 40 --pods-per-node 5 --seed 6 | md5sum)
check_eq "$a" "$b" "gen_cluster.py: same seed, same bytes"
if [ "$a" != "$c" ]; then ok "gen_cluster.py: another seed, another cluster"; else fail "gen_cluster.py ignores --seed"; fi
python3 "$GEN" --nodes 30 --pods-per-node 4 --seed 2 --indent -o "$T/indented.json" --summary "$T/indented.sum.json"
kgpu status -o json --snapshot "$T/indented.json"
check_eq "$(json_get "$OUT" 'd["summary"]["physicalGPUs"]')" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["physicalGPUs"])' "$T/indented.sum.json")" \
  "--indent (kubectl layout) reads the same"

# ---- 7. with metrics ------------------------------------------------------------------------
if ! prom_available; then
  ok "prometheus/promtool not installed: metrics table checks skipped"
  exit 0
fi
if ! python3 "$KGPU_ROOT/tests/gen/gen_dcgm_series.py" --spec "$KGPU_ROOT/tests/fixtures/metrics/fleet-usage.json" \
     --cluster "$MIXED" --openmetrics "$T/dcgm.om" --expected "$T/expected.json" --scrape-dir "$T/scrape" ||
   ! prom_backfill "$T/dcgm.om" "$T/prom-data" || ! prom_start "$T/prom-data"; then
  fail "Prometheus with generated DCGM series did not come up"
  exit 1
fi
KUBECTL_GPU_NOW=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evalTime"])' "$T/expected.json")
export KUBECTL_GPU_NOW
exp() { python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/expected.json" "$1"; }
IDLE=$(exp 'e["idleAllocated"]')
kgpu status --snapshot "$MIXED" --prometheus "$PROM_URL"
check_rc 0 "table with metrics"
check_match "$OUT" "^Nodes: 17 \(14 with GPUs\)   GPUs: 68 physical \(\+1 node unknown\), $IDLE allocated but idle \(under 5% for 1h\)$" \
  "summary: $IDLE allocated but idle (the series' count)"
check_match "$OUT" '^NAME +PRODUCT +GPUS +MEMORY +MODE +ALLOC +MEM-USED +UTIL +IDLE +STATUS$' "MEM-USED, UTIL and IDLE columns"
# IDLE per node: its physical GPUs held whose held devices are all under the threshold (a MIG GPU
# counts once); over the nodes they add up to the summary's
idlesum=$(awk '/^NAME +PRODUCT/{ on = 1; next } on && /^$/ { exit } on { s += $(NF - 1) } END { print s + 0 }' <<<"$OUT")
check_eq "$idlesum" "$IDLE" "IDLE column adds up to the $IDLE idle GPUs"
check_match "$OUT" "^Physical GPUs: [0-9]+ in use \($IDLE idle\), [0-9]+ free, [0-9]+ unavailable$" "physical line: idle while allocated"
check_match "$OUT" "^Metrics: prometheus \(Prometheus $PROM_URL\)$" "metrics line names the source"
for node in h100-01 t4-01 a100-40gb-01; do
  # MEM-USED = used / total over the node's devices; UTIL = mean of the devices' utilization
  want=$(exp "(lambda ds: '%.0f%%   +%.0f%%' % (100 * sum(d['memoryUsedMiB'] for d in ds) / sum(d['memoryTotalMiB'] for d in ds), sum(d['utilization'] for d in ds) / len(ds)))([d for d in e['devices'] if d['node'] == '$node'])")
  check_match "$OUT" "^$node .* $want +[0-9]+ +Ready" "$node: memory used and utilization from its devices ($want)"
done
check_match "$OUT" '^l4-01 .* 4/32 +- +- +0 +Ready$' "a node without series: - -"
kgpu status --snapshot "$MIXED" --prometheus "$PROM_URL" -o wide
devrows=$(awk '/^NODE +GPU +UUID/{ on = 1; next } on && /^$/ { exit } on' <<<"$OUT")
check_eq "$(grep -c . <<<"$devrows")" "$(exp 'len(e["devices"])')" "wide: one row per device"
check_eq "$(grep -c ' idle$' <<<"$devrows")" "$(exp 'e["idleAllocatedDeviceCount"]')" "wide: every idle held device marked idle"
check_match "$devrows" '^t4-01 +0 .*\(2 pods\) +-$' "wide: a time-sliced GPU shared by 2 pods"
check_match "$devrows" '^dgx-a100-01 +0/2g\.20gb#3 ' "wide: MIG devices as index/profile#instance"
kgpu status --snapshot "$MIXED" --prometheus "$PROM_URL" --idle-threshold 100 -o json
check_eq "$(json_get "$OUT" 'd["summary"]["idleAllocatedGPUs"]')" \
  "$(exp 'len({(d["node"], d["gpu"]) for d in e["devices"] if d["holders"] > 0} - {(d["node"], d["gpu"]) for d in e["devices"] if d["holders"] > 0 and d["utilizationMax"] >= 100})')" \
  "--idle-threshold 100: every physical GPU whose held devices are all under 100% is idle"
check_eq "$(json_get "$OUT" 'd["metrics"]["idleThreshold"]')" 100 "--idle-threshold reaches the metrics query"
kgpu status --snapshot "$MIXED" --prometheus "$PROM_URL" --window 6h -o json
check_eq "$(json_get "$OUT" 'd["metrics"]["windowSeconds"]')" 21600 "--window 6h reaches the metrics query"
kgpu status --snapshot "$MIXED" --prometheus "$PROM_URL" --window 6h
check_contains "$OUT" "(under 5% for 6h)" "--window shown as typed"
prom_stop
