#!/usr/bin/env bash
# tests/fuzz/run.sh — builds every libFuzzer target (tests/fuzz/fuzz_*.c) with clang,
# -fsanitize=fuzzer,address,undefined against the library sources, and runs each one for a
# bounded time.  Any crash, sanitizer report, leak, timeout or out-of-memory fails the run.
#
#   tests/fuzz/run.sh [TARGET...]           build + fuzz (all targets when none are named)
#   tests/fuzz/run.sh --build-only          build only
#   tests/fuzz/run.sh --repro TARGET FILE   run one input once (reproduce an artifact)
#
#   FUZZ_SECONDS   time per target (default 45, 180 for the deep targets); 0 = only replay the
#                  seeds once (regression; tests/fuzz/replay.sh does it without clang)
#   FUZZ_TIMEOUT   seconds one input may take before it counts as a hang (default 10)
#   FUZZ_RSS_MB    memory limit (default 2048)
#
# Corpora: tests/tmp/fuzz/corpus/<target>/ (grows between runs; `make clean` removes it) is
# seeded from the test fixtures each run, plus the small curated seeds committed under
# tests/fuzz/corpus/<target>/ (read-only here).  Dictionaries: tests/fuzz/dict/<name>.dict.
# Crash artifacts: tests/tmp/fuzz/artifacts/<target>-crash-<sha1>, with a repro line printed.
# Every crash fixed in src/ gets its input as a regression test in tests/unit/test_regress_*.c.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
# time per target: FUZZ_SECONDS for every target when given; by default 45 s, and 180 s for
# the deep targets, whose inputs run whole commands or the whole ingest (a few hundred runs a
# second at best: fuzz_commands made 863 runs in 30 s)
DEEP_TARGETS=" fuzz_commands fuzz_ingest fuzz_apipage fuzz_snapshot "
seconds_for() {
  if [ -n "${FUZZ_SECONDS:-}" ]; then echo "$FUZZ_SECONDS"
  elif [[ "$DEEP_TARGETS" == *" $1 "* ]]; then echo 180
  else echo 45; fi
}
TIMEOUT=${FUZZ_TIMEOUT:-10}
RSS=${FUZZ_RSS_MB:-2048}
WORK=$ROOT/tests/tmp/fuzz
OUT=$ROOT/build/fuzz
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:abort_on_error=0:handle_abort=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# the targets must not reach out: no kubeconfig, no in-cluster config, no proxies
unset KUBECONFIG KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT http_proxy https_proxy HTTPS_PROXY HTTP_PROXY ALL_PROXY
export KUBECTL_GPU_SA_DIR=/nonexistent/kgpu-fuzz-sa NO_COLOR=1 HOME=$WORK/home

all_targets() { for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done; }

build() {   # build TARGET...
  command -v "${FUZZ_CC:-clang}" >/dev/null || { echo "fuzz: clang not found (make fuzz installs it)" >&2; return 1; }
  make --no-print-directory -f tests/fuzz/fuzz.mk -j"${FUZZ_BUILD_JOBS:-2}" TARGETS="$*"
}

# seeds TARGET DIR : copies the fixtures that suit TARGET into DIR
seeds() {
  local t=$1 d=$2 f
  case "$t" in
    fuzz_kubeconfig)
      find tests/fixtures/kubeconfig -type f \( -name '*.yaml' -o -name config \) -exec cp {} "$d/" \; ;;
    fuzz_snapshot|fuzz_snapshot_reduce|fuzz_commands|fuzz_ingest)
      for f in tests/fixtures/api/*.json tests/fixtures/pending/*.json tests/fixtures/model/*.json \
               tests/fixtures/plan/*.json examples/clusters/small.json; do
        [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 200000 ] && cp "$f" "$d/$(basename "$(dirname "$f")")-$(basename "$f")"
      done ;;
    fuzz_apipage)
      # first byte chooses the HTTP status ('0' = 200), the rest is the body
      for f in tests/fixtures/model/*.json tests/fixtures/pending/*.json; do
        { printf '0'; cat "$f"; } >"$d/$(basename "$(dirname "$f")")-$(basename "$f")"
      done ;;
    fuzz_dcgm_text)
      cp tests/fixtures/dcgm/*.txt "$d/" ;;
    fuzz_manifest)
      cp tests/cases/fit/manifests/* examples/manifests/*.yaml "$d/" ;;
    fuzz_yaml_writer)
      for f in tests/fixtures/api/*.json tests/fixtures/pending/*.json; do
        [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 100000 ] && cp "$f" "$d/$(basename "$(dirname "$f")")-$(basename "$f")"
      done ;;
    fuzz_schedmsg)
      # every scheduler message and event note of the fixtures, one file each
      python3 - "$d" tests/fixtures/pending/*.json <<'PY'
import hashlib, json, os, sys
out = sys.argv[1]
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ('message', 'note') and isinstance(v, str) and v:
                yield v
            else:
                yield from walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v)
for p in sys.argv[2:]:
    try:
        doc = json.load(open(p))
    except (OSError, ValueError):
        continue
    for m in walk(doc):
        name = hashlib.sha1(m.encode()).hexdigest()[:16]
        open(os.path.join(out, name), 'w').write(m)
PY
      ;;
  esac
  return 0
}

dict_for() {   # the -dict= argument for TARGET, if any
  local n
  case "$1" in
    fuzz_kubeconfig|fuzz_manifest) n=yaml ;;
    fuzz_snapshot|fuzz_snapshot_reduce|fuzz_commands|fuzz_ingest|fuzz_apipage|fuzz_prom_response|fuzz_watch|fuzz_exec_credential|fuzz_yaml_writer|fuzz_jsonskip) n=json ;;
    fuzz_dcgm_text) n=promtext ;;
    fuzz_schedmsg) n=schedmsg ;;
    fuzz_labels) n=labels ;;
    fuzz_plan_script) n=shell ;;
    *) n="" ;;
  esac
  [ -n "$n" ] && [ -f "tests/fuzz/dict/$n.dict" ] && echo "-dict=tests/fuzz/dict/$n.dict"
}

run_target() {   # run_target TARGET
  local t=$1 corpus=$WORK/corpus/$1 log=$WORK/logs/$1.log rc extra=() extra_args=() SECONDS_PER
  SECONDS_PER=$(seconds_for "$t")
  mkdir -p "$corpus" "$WORK/artifacts" "$WORK/logs" "$HOME"
  seeds "$t" "$corpus"
  [ -d "tests/fuzz/corpus/$t" ] && extra+=("tests/fuzz/corpus/$t")
  local dict; dict=$(dict_for "$t")
  case "$t" in fuzz_commands) extra_args=(-close_fd_mask=3) ;; *) extra_args=() ;; esac
  local args=("${extra_args[@]}" -timeout="$TIMEOUT" -rss_limit_mb="$RSS" -malloc_limit_mb="$RSS" -print_final_stats=1
              -artifact_prefix="$WORK/artifacts/$t-" ${dict:+"$dict"})
  if [ "$SECONDS_PER" = 0 ]; then
    args+=(-runs=0)
  else
    args+=(-max_total_time="$SECONDS_PER")
  fi
  printf '%-22s ' "$t"
  # a hard outer bound: libFuzzer's own timer cannot fire inside a hung input without -timeout
  timeout -k 10 $((SECONDS_PER + TIMEOUT * 3 + 120)) "$OUT/$t" "${args[@]}" "$corpus" "${extra[@]}" >"$log" 2>&1
  rc=$?
  local execs cov
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  if [ "$rc" = 0 ]; then
    echo "ok    ${execs:-?} runs, ${cov:-cov: ?}, corpus $(ls "$corpus" | wc -l)"
    return 0
  fi
  echo "FAIL  (exit $rc)"
  grep -E '^FUZZ: |ERROR: |runtime error|SUMMARY|Test unit written to|^    #[0-9]+ 0x[0-9a-f]+ in [^f]' "$log" | head -n 40 | sed 's/^/    | /'
  local art; art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
  [ -n "$art" ] && echo "    reproduce: tests/fuzz/run.sh --repro $t $art"
  echo "    log: $log"
  return 1
}

case "${1:-}" in
  --build-only) shift; build ${@:-$(all_targets)}; exit $? ;;
  --seeds) [ $# = 3 ] || { echo "usage: $0 --seeds TARGET DIR" >&2; exit 2; }
    seeds "$2" "$3"; exit $? ;;      # for tests/fuzz/replay.sh
  --repro)
    [ $# = 3 ] || { echo "usage: $0 --repro TARGET FILE" >&2; exit 2; }
    build "$2" || exit 1
    exec "$OUT/$2" -runs=1 "$3" ;;
  -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

targets=${*:-$(all_targets)}
build $targets || { echo "fuzz: build failed" >&2; exit 1; }
failed=()
for t in $targets; do
  run_target "$t" || failed+=("$t")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}"
  exit 1
fi
echo "fuzz: all $(wc -w <<<"$targets") targets clean"
