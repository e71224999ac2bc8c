# tests/lib/prometheus.sh — a real Prometheus (Debian package `prometheus`) on backfilled DCGM
# series, for integration scripts.  Source it after tests/lib/common.sh.
#
#   prom_backfill OPENMETRICS DATADIR   promtool tsdb create-blocks-from openmetrics into DATADIR
#   prom_start DATADIR                  starts prometheus on a free 127.0.0.1 port over DATADIR
#                                       (retention 100y: backfilled data is old), waits for
#                                       /-/ready (20 s at most), registers its stop with on_exit,
#                                       exports PROM_URL and PROM_PID.  Non-zero (and says why)
#                                       when it does not come up.
#   prom_stop                           stops it (only the process prom_start started)
#   prom_available                      true when prometheus and promtool are installed
#
# Backfilled data lies in the past; query it at a fixed time with KUBECTL_GPU_NOW=EPOCH (the
# hidden knob of src/sources/metrics.c) or ?time= in direct API calls.
PROM_PID=""
PROM_URL=""
_prom_registered=""

prom_available() { command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; }

prom_backfill() {   # prom_backfill OPENMETRICS DATADIR
  mkdir -p "$2" || return 1
  if ! promtool tsdb create-blocks-from openmetrics --max-block-duration=168h "$1" "$2" \
      >"$2.backfill.log" 2>&1; then
    echo "prometheus: backfill failed:" >&2
    tail -n 20 "$2.backfill.log" >&2
    return 1
  fi
}

_prom_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

prom_start() {   # prom_start DATADIR
  local data=${1:?prom_start DATADIR} port attempt i
  [ -n "$PROM_PID" ] && prom_stop
  local cfg="$data.yml"
  printf 'global:\n  evaluation_interval: 1m\nscrape_configs: []\n' >"$cfg"
  for attempt in 1 2 3; do
    port=$(_prom_free_port)
    prometheus --config.file="$cfg" --storage.tsdb.path="$data" \
      --storage.tsdb.retention.time=100y --web.listen-address="127.0.0.1:$port" \
      --log.level=warn >"$data.log" 2>&1 </dev/null &
    PROM_PID=$!
    if [ -z "$_prom_registered" ]; then on_exit prom_stop; _prom_registered=1; fi
    for i in $(seq 1 200); do    # 200 x 0.1 s = 20 s
      if ! kill -0 "$PROM_PID" 2>/dev/null; then break; fi
      if curl -fsS -m 2 "http://127.0.0.1:$port/-/ready" >/dev/null 2>&1; then
        PROM_URL="http://127.0.0.1:$port"
        export PROM_URL PROM_PID
        return 0
      fi
      sleep 0.1
    done
    prom_stop
    grep -q 'address already in use' "$data.log" 2>/dev/null || break
  done
  echo "prometheus: did not become ready; its log:" >&2
  tail -n 20 "$data.log" >&2
  return 1
}

prom_stop() {
  [ -n "$PROM_PID" ] || return 0
  local pid=$PROM_PID i
  PROM_PID=""
  kill "$pid" 2>/dev/null || return 0
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  return 0
}
