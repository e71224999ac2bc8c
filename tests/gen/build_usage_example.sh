#!/usr/bin/env bash
# build_usage_example.sh — writes examples/clusters/gpu-week.json.gz, a snapshot with a week of
# usage, the way a user makes one: `kubectl gpu snapshot` against a cluster whose Prometheus
# holds the DCGM exporter's series.  Here the cluster is tests/gen/build_usage_example.py's,
# served by the fake API server (tests/fakeapi); its Prometheus service is a real Prometheus
# backfilled with promtool from tests/gen/gen_plan_series.py's week of series, reached through
# the API server's service proxy.  What depends on the run (the snapshot time, the fake API
# server's address) is then set to fixed values, and the file is compressed without a
# timestamp, so the output is the same on every run.
#
#   tests/gen/build_usage_example.sh [OUT.json.gz]     (needs prometheus and promtool)
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
. "$KGPU_ROOT/tests/lib/prometheus.sh"
DEST=${1:-$KGPU_ROOT/examples/clusters/gpu-week.json.gz}
GEN=$KGPU_ROOT/tests/gen
die() { echo "build_usage_example: $*" >&2; exit 1; }
prom_available || die "needs prometheus and promtool (scripts/install-deps.sh test)"
[ -x "$KGPU_BIN" ] || die "build kubectl-gpu first (make kubectl-gpu)"
python3 "$GEN/build_usage_example.py" --cluster "$T/cluster.json" --spec "$T/usage.json" || die "cluster"
python3 "$GEN/gen_plan_series.py" --spec "$T/usage.json" --cluster "$T/cluster.json" \
  --openmetrics "$T/week.om" --expected "$T/expected.json" || die "series"
prom_backfill "$T/week.om" "$T/prom-data" || die "promtool backfill"
prom_start "$T/prom-data" || die "prometheus did not start"
KUBECTL_GPU_NOW=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["evalTime"])' "$T/expected.json")
export KUBECTL_GPU_NOW
fakeapi_start "$T/cluster.json" || die "the fake API server did not start"
fakeapi_proxy "{\"services\": {\"monitoring/kube-prometheus-stack-prometheus:http-web\": \"$PROM_URL\"}}"
"$KGPU_BIN" snapshot --context fake -o "$T/snap.json" || die "kubectl gpu snapshot failed"
python3 - "$T/snap.json" "$DEST" "$KUBECTL_GPU_NOW" "$FAKEAPI_URL" <<'PY' || die "writing $DEST"
import gzip, sys, time
src, dest, now, server = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(src, encoding="utf-8").read()
import re
text = re.sub(r'"kubectl-gpu/snapshot-time":"[^"]*"',
              '"kubectl-gpu/snapshot-time":"%s"' % time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)), text)
assert server in text
text = text.replace(server, "https://api.gpu-week.example.com:6443")
text = text.replace('"kubectl-gpu/context":"fake"', '"kubectl-gpu/context":"gpu-week"')
with open(dest, "wb") as f, gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=f, mtime=0) as g:
    g.write(text.encode("utf-8"))
PY
echo "wrote $DEST" >&2
