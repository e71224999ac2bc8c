#!/bin/sh
# Installs the Debian packages kubectl-gpu needs to build and test.
# Called by the Makefile when pkg-config cannot find a library, and by .ci/run.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -e
BUILD_PKGS="build-essential pkg-config libcurl4-openssl-dev libcjson-dev libyaml-dev libncurses-dev"
TEST_PKGS="libcmocka-dev python3 curl openssl tmux prometheus mandoc valgrind bash bash-completion zsh fish time"
case "${1:-build}" in
  build) PKGS="$BUILD_PKGS" ;;
  test)  PKGS="$BUILD_PKGS $TEST_PKGS" ;;
  fuzz)  PKGS="$BUILD_PKGS clang libclang-rt-14-dev" ;;
  *) echo "usage: $0 [build|test|fuzz]" >&2; exit 2 ;;
esac
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "kubectl-gpu: missing Debian packages:$missing" >&2
  echo "run as root: apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
