#!/usr/bin/env bash
# Every libFuzzer target of tests/fuzz replays its seeds once (issue 28, item 6: CI runs a
# short pass), built with the ordinary compiler and tests/fuzz/standalone_main.c against the
# library archive of the build under test (tests/fuzz/replay.sh), so the normal test run needs
# no clang.  Under the ASan build the targets get the sanitizers too.  One check per target:
# it builds, and no input crashes it or breaks its invariants (the seeds include the inputs of
# bugs fixed, e.g. an exec credential token with CR/LF, tests/fuzz/corpus/fuzz_exec_credential).
. "$(dirname "$0")/../lib/common.sh"
case "$KGPU_BIN" in
  */build/asan/*) LIB=$KGPU_ROOT/build/asan/libkgpu.a; export REPLAY_SANITIZE=1
                  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} ;;
  *) LIB=$KGPU_ROOT/build/rel/libkgpu.a ;;
esac
relay_checks "replay" < <(bash "$KGPU_ROOT/tests/fuzz/replay.sh" "$LIB" "$T" 2>&1)
