#!/bin/sh
# Installs the Debian packages kubectl-gpu needs, by set:
#   build  compile kubectl-gpu                     test  run `make check`'s tests
#   dist   `make dist` and its test: the arm64 cross toolchain and arm64 -dev packages (dpkg
#          multiarch: adds the arm64 architecture), qemu-user-static, tmux
#   fuzz   `make fuzz` (clang and libFuzzer)
# Several sets may be given (`install-deps.sh test dist`).  Called by the Makefile when
# pkg-config cannot find a library, by `make check`, `make dist` and .ci/run.  As root it runs
# apt-get; otherwise it prints the exact command and fails.  On macOS it prints the Homebrew
# command instead (see README.md).
set -e
# libisal-dev (ISA-L's igzip: gzip decoded and the snapshot compressed faster than with zlib) is
# for the host only: Debian's package is not Multi-Arch "same", so libisal-dev:arm64 would
# replace the host's; the arm64 archive is built with zlib instead (the Makefile asks
# pkg-config per architecture).
BUILD_PKGS="build-essential pkg-config libcurl4-openssl-dev libcjson-dev libyaml-dev libncurses-dev zlib1g-dev libisal-dev"
TEST_PKGS="libcmocka-dev python3 curl openssl tmux prometheus mandoc valgrind bash bash-completion zsh fish time shellcheck"
DIST_PKGS="binutils gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
  libc6:arm64 libcurl4-openssl-dev:arm64 libcjson-dev:arm64 libyaml-dev:arm64 libncurses-dev:arm64 zlib1g-dev:arm64
  ncurses-base qemu-user-static tmux python3 util-linux"
FUZZ_PKGS="clang libclang-rt-14-dev"
[ $# -gt 0 ] || set -- build
if [ "$(uname -s)" = Darwin ]; then
  for p in pkg-config curl cjson libyaml ncurses; do
    brew list --versions "$p" >/dev/null 2>&1 || { missing_brew="$missing_brew $p"; }
  done
  [ -z "$missing_brew" ] && exit 0
  echo "kubectl-gpu: missing Homebrew packages:$missing_brew" >&2
  echo "run: brew install$missing_brew" >&2
  exit 1
fi
PKGS="$BUILD_PKGS" arm64=""
for set in "$@"; do
  case "$set" in
    build) ;;
    test)  PKGS="$PKGS $TEST_PKGS" ;;
    dist)  PKGS="$PKGS $DIST_PKGS"; arm64=1 ;;
    fuzz)  PKGS="$PKGS $FUZZ_PKGS" ;;
    *) echo "usage: $0 [build|test|dist|fuzz]..." >&2; exit 2 ;;
  esac
done
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
need_arch=""
if [ -n "$arm64" ] && [ "$(dpkg --print-architecture)" != arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  need_arch=1
fi
if [ "$(id -u)" != 0 ]; then
  echo "kubectl-gpu: missing Debian packages:$missing" >&2
  [ -n "$need_arch" ] && echo "run as root: dpkg --add-architecture arm64" >&2
  echo "run as root: apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
[ -n "$need_arch" ] && dpkg --add-architecture arm64
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
