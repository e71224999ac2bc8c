#!/usr/bin/env bash
# tests/fuzz/replay.sh — replays every fuzz target's seeds once, as a regression test of the
# normal test run, without clang or libFuzzer: each tests/fuzz/fuzz_*.c is built with the
# ordinary compiler ($CC, default cc) and tests/fuzz/standalone_main.c against a library
# archive of a build (build/rel/libkgpu.a, or build/asan/libkgpu.a with the sanitizers), then
# run over its seeds (tests/fuzz/run.sh --seeds: the test fixtures that suit it) and its
# curated corpus (tests/fuzz/corpus/<target>/).  The corpora libFuzzer grows in tests/tmp/fuzz
# are not replayed here (they are large); `FUZZ_SECONDS=0 tests/fuzz/run.sh` does that.
#
#   tests/fuzz/replay.sh LIBKGPU.A WORKDIR [TARGET...]
#   REPLAY_SANITIZE=1   compile with -fsanitize=address,undefined (for the asan archive)
#
# Prints one "ok - TARGET: N inputs" or "not ok - TARGET: ..." line per target.
set -u
cd "$(dirname "$0")/../.."
LIB=${1:?usage: replay.sh LIBKGPU.A WORKDIR [TARGET...]}
WORK=${2:?usage: replay.sh LIBKGPU.A WORKDIR [TARGET...]}
shift 2
CC=${CC:-cc}
PKGS="libcurl libcjson yaml-0.1 ncursesw zlib"
SAN=()
[ -n "${REPLAY_SANITIZE:-}" ] && SAN=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
# the targets must not reach out: no kubeconfig, no in-cluster config, no proxies (as run.sh)
unset KUBECONFIG KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT http_proxy https_proxy HTTPS_PROXY HTTP_PROXY ALL_PROXY
export KUBECTL_GPU_SA_DIR=/nonexistent/kgpu-fuzz-sa NO_COLOR=1 HOME=$WORK/home
mkdir -p "$WORK/home"
[ -f "$LIB" ] || { echo "not ok - library archive $LIB not built"; exit 1; }
# ISA-L's igzip when the archive was built with it (the Makefile's ISAL_PKG: where pkg-config finds
# libisal, unless KGPU_NO_ISAL): its objects then need isal_* symbols
if nm -u "$LIB" 2>/dev/null | grep -q ' U isal_inflate'; then PKGS="$PKGS libisal"; fi
# shellcheck disable=SC2086
read -r -a PKG_CFLAGS <<<"$(pkg-config --cflags $PKGS)"
# shellcheck disable=SC2086
read -r -a PKG_LIBS <<<"$(pkg-config --libs $PKGS)"
targets=${*:-$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done)}
rc=0
for t in $targets; do
  bin=$WORK/$t
  if ! "$CC" -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DKGPU_VERSION='"0.1.0-replay"' \
       -Iinclude -Isrc/sources -O1 -g "${SAN[@]}" -Wall -Wno-unused-parameter "${PKG_CFLAGS[@]}" \
       "tests/fuzz/$t.c" tests/fuzz/standalone_main.c -o "$bin" "$LIB" "${PKG_LIBS[@]}" -lm -lpthread \
       >"$WORK/$t.build.log" 2>&1; then
    echo "not ok - $t: does not build: $(grep -m1 -E 'error|undefined' "$WORK/$t.build.log")"
    rc=1; continue
  fi
  seeds=$WORK/$t.seeds
  rm -rf "$seeds"; mkdir -p "$seeds"
  tests/fuzz/run.sh --seeds "$t" "$seeds"
  args=("$seeds")
  [ -d "tests/fuzz/corpus/$t" ] && args+=("tests/fuzz/corpus/$t")
  # fuzz_commands prints what the commands print: not wanted here (libFuzzer: -close_fd_mask)
  if timeout -k 5 "${REPLAY_TIMEOUT:-120}" "$bin" "${args[@]}" >"$WORK/$t.out" 2>"$WORK/$t.log"; then
    echo "ok - $t: $(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$WORK/$t.out" | tail -1) inputs"
  else
    code=$?
    echo "not ok - $t: exit $code on $(grep '^replay: ' "$WORK/$t.log" | tail -1 | sed 's/^replay: //') ($(grep -m1 -E 'FUZZ:|ERROR:|runtime error' "$WORK/$t.log"))"
    rc=1
  fi
done
exit $rc
