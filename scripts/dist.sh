#!/usr/bin/env bash
# scripts/dist.sh ARCH TRIPLET VERSION BINARY ARCHIVE — one release archive (called by make dist).
#
# The archive (tar.gz, one top directory kubectl-gpu-VERSION/) holds:
#   kubectl-gpu              the stripped binary, rpath $ORIGIN/lib
#   lib/                     every library it needs outside glibc, found by following DT_NEEDED
#                            from the binary through each library (readelf, so it works for a
#                            cross-built binary too), copied from Debian's packages for ARCH
#   share/terminfo/          the terminfo entries of Debian's ncurses-base (xterm*, screen*,
#                            tmux*, rxvt*, linux, vt100 ...), used by `top` only when the system
#                            has no entry for $TERM
#   LICENSE README.md kubectl-gpu.1 completions/
# glibc (what Debian's libc6 package ships) is the one thing taken from the machine.
# Only regular files and directories (krew's tar extraction knows no links).
# Reproducible: files sorted by name, owner 0:0, modes fixed, every mtime SOURCE_DATE_EPOCH,
# gzip without name and time.
set -euo pipefail
arch=$1 triplet=$2 version=$3 bin=$4 archive=$5
: "${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH must be set}"
root=$(cd "$(dirname "$0")/.." && pwd)
stage=$root/build/dist/$arch/stage
top=kubectl-gpu-$version
d=$stage/$top
rm -rf "$stage"; mkdir -p "$d/lib" "$d/share/terminfo" "$d/completions"

install -m 755 "$bin" "$d/kubectl-gpu"
install -m 644 "$root/LICENSE" "$root/README.md" "$d/"
install -m 644 "$root/man/kubectl-gpu.1" "$d/kubectl-gpu.1"
for f in "$root"/completions/*; do
  if [ -x "$f" ]; then install -m 755 "$f" "$d/completions/"; else install -m 644 "$f" "$d/completions/"; fi
done

# --- libraries: DT_NEEDED closure, minus glibc -------------------------------------------------
libdirs=("/usr/lib/$triplet" "/lib/$triplet")
glibc=$(dpkg -L "libc6:$arch" | sed -n 's,.*/,,p' | grep '\.so' | sort -u)
needed() { LC_ALL=C readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
find_lib() {
  local dir
  for dir in "${libdirs[@]}"; do [ -e "$dir/$1" ] && { echo "$dir/$1"; return 0; }; done
  return 1
}
declare -A seen=()
queue=("$d/kubectl-gpu")
while [ ${#queue[@]} -gt 0 ]; do
  obj=${queue[0]}; queue=("${queue[@]:1}")
  for so in $(needed "$obj"); do
    [ -n "${seen[$so]:-}" ] && continue
    seen[$so]=1
    grep -qxF "$so" <<<"$glibc" && continue
    src=$(find_lib "$so") || { echo "dist.sh: $so (needed by $(basename "$obj")) not found for $arch" >&2; exit 1; }
    install -m 644 "$(readlink -f "$src")" "$d/lib/$so"
    queue+=("$d/lib/$so")
  done
done

# --- terminfo: ncurses-base's entries, links resolved ------------------------------------------
dpkg -L ncurses-base | grep '/terminfo/./' | while read -r f; do
  [ -f "$f" ] || continue
  sub=${f#*/terminfo/}
  mkdir -p "$d/share/terminfo/$(dirname "$sub")"
  install -m 644 "$(readlink -f "$f")" "$d/share/terminfo/$sub"
done

# --- the archive ---------------------------------------------------------------------------------
find "$stage" -type d -exec chmod 755 {} +
mkdir -p "$(dirname "$archive")"
LC_ALL=C tar --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
  --mtime="@$SOURCE_DATE_EPOCH" -C "$stage" -cf - "$top" | gzip -9 -n >"$archive.tmp"
mv -f "$archive.tmp" "$archive"
echo "  DIST    $archive ($(ls "$d/lib" | wc -l) libraries, $(find "$d/share/terminfo" -type f | wc -l) terminfo entries)"
