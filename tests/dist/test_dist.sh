#!/usr/bin/env bash
# The release archives `make dist` built (run by `make test-dist`, part of `make check`):
# - what they hold: the stripped binary with an $ORIGIN/lib rpath, every library it needs
#   outside glibc, terminfo entries, LICENSE, man page, completions; only directories and
#   regular files, owner 0:0, every mtime SOURCE_DATE_EPOCH, gzip without name or time;
#   no build path in any file; glibc symbol versions no newer than the README promises;
# - reproducible: the same sources, commit and SOURCE_DATE_EPOCH built in another directory
#   give the same bytes, and another SOURCE_DATE_EPOCH gives another build date;
# - linux/amd64 in a chroot that holds only the archive and Debian's libc6 (no -dev
#   packages, no curl/cJSON/yaml/ncurses, no terminfo, no CA bundle): version, status
#   --snapshot (the same text as the tree's own build), top in tmux (the archive's terminfo),
#   TLS against the fake API server verified with a CA bundle found where Fedora keeps it;
# - linux/arm64 in the same kind of chroot with arm64 glibc, under qemu-user: version and
#   status --snapshot;
# - the krew manifest `make dist` wrote: krew's rules, sha256 of each archive, and each
#   platform installed the way krew does; the amd64 install runs in the chroot through the
#   link krew puts in its bin directory.
# Needs root (chroot, mount namespaces): `make check` runs as root here and in CI.
. "$(dirname "$0")/../lib/common.sh"

VERSION=$(sed -n 's/^VERSION *:= *//p' "$KGPU_ROOT/Makefile")
MAKEVAR() { make --no-print-directory -s -C "$KGPU_ROOT" --eval "print-var: ; @echo \$($1)" print-var; }
EPOCH=$(MAKEVAR SOURCE_DATE_EPOCH) COMMIT=$(MAKEVAR GIT_COMMIT) TREE=$(MAKEVAR GIT_TREE_STATE)
A64="$KGPU_ROOT/build/kubectl-gpu-$VERSION-linux-amd64.tar.gz"
ARM="$KGPU_ROOT/build/kubectl-gpu-$VERSION-linux-arm64.tar.gz"
MANIFEST="$KGPU_ROOT/build/krew/gpu.yaml"
FIX="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
TOP=kubectl-gpu-$VERSION
for f in "$A64" "$ARM" "$MANIFEST"; do
  if [ -f "$f" ]; then ok "make dist wrote ${f#"$KGPU_ROOT/"}"; else fail "missing $f (run make dist)"; exit 1; fi
done
if [ "$(id -u)" != 0 ]; then fail "test_dist needs root (chroot)"; exit 1; fi
# the tree's own build: what the archives' binaries must print too
HOSTBIN="$KGPU_ROOT/kubectl-gpu"
make --no-print-directory -s -C "$KGPU_ROOT" kubectl-gpu >"$T/build.log" 2>&1 || { fail "make kubectl-gpu: $(tail -3 "$T/build.log")"; exit 1; }

# ---- contents -------------------------------------------------------------------------------
for arc in "$A64" "$ARM"; do
  a=$(basename "$arc" .tar.gz); a=${a##*-}
  X="$T/x-$a"; mkdir -p "$X"; tar -xzf "$arc" -C "$X"
  D="$X/$TOP"
  for f in kubectl-gpu LICENSE README.md kubectl-gpu.1 completions/kubectl_complete-gpu completions/kubectl-gpu.bash \
           completions/_kubectl-gpu completions/kubectl-gpu.fish lib/libcurl.so.4 lib/libcjson.so.1 lib/libyaml-0.so.2 \
           lib/libncursesw.so.6 share/terminfo/x/xterm-256color share/terminfo/t/tmux-256color share/terminfo/s/screen; do
    if [ -f "$D/$f" ]; then ok "$a: archive holds $f"; else fail "$a: archive lacks $f"; fi
  done
  check_eq "$(tar -tzf "$arc" | cut -d/ -f1 | sort -u)" "$TOP" "$a: one top directory, $TOP"
  check_eq "$(tar -tvzf "$arc" | cut -c1 | sort -u | tr -d '\n')" "-d" "$a: only regular files and directories"
  check_eq "$(tar -tvzf "$arc" --numeric-owner | awk '{print $2}' | sort -u)" "0/0" "$a: owner 0/0"
  check_eq "$(python3 -c 'import tarfile,sys; print(sorted({m.mtime for m in tarfile.open(sys.argv[1])}))' "$arc")" \
    "[$EPOCH]" "$a: every mtime is SOURCE_DATE_EPOCH"
  check_eq "$(tar -tzf "$arc" | LC_ALL=C sort -c 2>&1 && echo sorted)" "sorted" "$a: entries sorted by name"
  check_eq "$(od -An -tx1 -j3 -N5 "$arc" | tr -d ' ')" "0000000000" "$a: gzip header without name or time"
  check_eq "$(stat -c %a "$D/kubectl-gpu")" "755" "$a: the binary is executable"
  check_eq "$(LC_ALL=C readelf -d "$D/kubectl-gpu" | sed -n 's/.*(RPATH).*\[\(.*\)\]/\1/p')" '$ORIGIN/lib' \
    "$a: DT_RPATH \$ORIGIN/lib (serves the bundled libraries' own dependencies too)"
  check_eq "$(LC_ALL=C readelf -S "$D/kubectl-gpu" | grep -c '\.symtab\|\.debug_')" "0" "$a: stripped (no symbols, no debug info)"
  check_eq "$(grep -rlF "$KGPU_ROOT" "$D" | wc -l)" "0" "$a: no file holds the build directory's path"
  # every DT_NEEDED of the binary and of each bundled library is bundled or glibc's
  glibc=$(dpkg -L "libc6:$a" | sed -n 's,.*/,,p' | grep '\.so' | sort -u)
  missing=""
  for obj in "$D/kubectl-gpu" "$D"/lib/*; do
    for so in $(LC_ALL=C readelf -d "$obj" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      [ -f "$D/lib/$so" ] || grep -qxF "$so" <<<"$glibc" || missing="$missing $(basename "$obj")->$so"
    done
  done
  check_eq "$missing" "" "$a: every library needed is in lib/ or glibc"
  check_eq "$(ls "$D/lib" | grep -cxF -f <(echo "$glibc"))" "0" "$a: no glibc library in lib/"
  # README promises glibc 2.34 (Debian 12, Ubuntu 22.04, RHEL 9 and later)
  newest=$(for obj in "$D/kubectl-gpu" "$D"/lib/*; do objdump -T "$obj" 2>/dev/null | grep -o 'GLIBC_[0-9.]*'; done |
           sed 's/GLIBC_//' | sort -uV | tail -1)
  check_eq "$(printf '%s\n2.34\n' "$newest" | sort -V | tail -1)" "2.34" "$a: needs glibc $newest, no newer than 2.34"
  readme_glibc=$(grep -o 'glibc 2\.[0-9]*' "$KGPU_ROOT/README.md" | head -1)
  check_eq "$readme_glibc" "glibc 2.34" "README states the glibc the archives need"
done
check_eq "$(LC_ALL=C readelf -h "$T/x-amd64/$TOP/kubectl-gpu" | sed -n 's/ *Machine: *//p')" \
  "Advanced Micro Devices X86-64" "amd64 archive: an x86-64 binary"
check_eq "$(LC_ALL=C readelf -h "$T/x-arm64/$TOP/kubectl-gpu" | sed -n 's/ *Machine: *//p')" "AArch64" \
  "arm64 archive: an AArch64 binary"

# ---- reproducible ----------------------------------------------------------------------------
# the tree as it is (tracked and new files) copied elsewhere, built with the same identity
S="$T/src"; mkdir -p "$S"
(cd "$KGPU_ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 sh -c \
  'for f; do [ -e "$f" ] && cp -p --parents "$f" "$0"; done' "$S")
if make --no-print-directory -s -C "$S" "build/$(basename "$A64")" SOURCE_DATE_EPOCH="$EPOCH" GIT_COMMIT="$COMMIT" \
     GIT_TREE_STATE="$TREE" >"$T/repro.log" 2>&1; then
  check_eq "$(sha256sum <"$S/build/$(basename "$A64")")" "$(sha256sum <"$A64")" \
    "reproducible: built in another directory, the same bytes"
else
  fail "build in $S: $(tail -5 "$T/repro.log")"
fi
LATER=$((EPOCH + 86400))
if make --no-print-directory -s -C "$S" "build/$(basename "$A64")" SOURCE_DATE_EPOCH="$LATER" GIT_COMMIT="$COMMIT" \
     GIT_TREE_STATE="$TREE" >"$T/repro2.log" 2>&1; then
  if cmp -s "$S/build/$(basename "$A64")" "$A64"; then fail "another SOURCE_DATE_EPOCH, the same archive"
  else ok "another SOURCE_DATE_EPOCH, another archive"; fi
  mkdir -p "$T/later"; tar -m -xzf "$S/build/$(basename "$A64")" -C "$T/later"
  OUT=$("$T/later/$TOP/kubectl-gpu" version -o json)
  check_eq "$(json_get "$OUT" "d['buildDate']")" "$(date -u -d "@$LATER" +%Y-%m-%dT%H:%M:%SZ)" \
    "version's build date is SOURCE_DATE_EPOCH"
else
  fail "second build in $S: $(tail -5 "$T/repro2.log")"
fi

# ---- a machine with only glibc ------------------------------------------------------------------
# mkroot DIR ARCH : DIR holds only what Debian's libc6 for ARCH ships (loader, libc, gconv ...)
mkroot() {
  local r=$1 arch=$2 f
  mkdir -p "$r/proc" "$r/dev" "$r/tmp" "$r/etc"
  dpkg -L "libc6:$arch" | while read -r f; do
    if [ ! -d "$f" ] && { [ -f "$f" ] || [ -L "$f" ]; }; then (cd "$r" && cp -a --parents "$f" .); fi
  done
  chmod 1777 "$r/tmp"
}
# inroot DIR [VAR=VALUE...] CMD... : CMD in the chroot DIR with only the VARs (and PATH) in its
# environment, /proc (the loader reads /proc/self/exe for $ORIGIN) and /dev mounted in a
# private mount namespace that ends with it.  The chroot has no shell: CMD is the binary.
inroot() {
  local r=$1 envs=(); shift
  while [[ $1 == *=* ]]; do envs+=("$1"); shift; done
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "${envs[@]}" /usr/bin/unshare -m /bin/sh -c \
    'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"' "$r" "$@"
}
run_in() { OUT=$(inroot "$@" 2>&1); RC=$?; ERR=$OUT; }   # run_in like inroot: $OUT $RC $ERR
R="$T/root-amd64"
mkroot "$R" amd64
tar -xzf "$A64" -C "$R"
cp "$FIX" "$R/mixed-fleet.json"
found=$(cd "$R" && find . \( -name 'libcurl*' -o -name 'libcjson*' -o -name 'libyaml*' -o -name 'libncurses*' -o -name 'libssl*' \
        -o -name '*.h' -o -name terminfo -o -name 'ca-certificates.crt' \) -not -path "./$TOP/*" | head -3)
check_eq "$found" "" "the chroot holds no library, header, terminfo or CA bundle outside the archive"
ENVI=(HOME=/tmp LANG=C.UTF-8 KUBECONFIG=/nonexistent)
BIN=/$TOP/kubectl-gpu

run_in "$R" "${ENVI[@]}" "$BIN" version
check_rc 0 "amd64 in the chroot: version"
check_eq "$(head -1 <<<"$OUT")" "kubectl-gpu version $VERSION" "amd64 chroot: version line"
check_contains "$OUT" "commit:    $COMMIT ($TREE)" "amd64 chroot: the commit make dist built"
check_contains "$OUT" "built:     $(date -u -d "@$EPOCH" +%Y-%m-%dT%H:%M:%SZ) with gcc" "amd64 chroot: built at SOURCE_DATE_EPOCH"
check_contains "$OUT" "platform:  linux/amd64" "amd64 chroot: platform"
run_in "$R" "${ENVI[@]}" "$BIN" version -o json
check_rc 0 "amd64 chroot: version -o json"
# the libraries' own answers are those of the Debian packages the archive took them from
upstream() { dpkg-query -W -f '${Version}' "$1" | sed 's/^[0-9]*://; s/[-+~].*//'; }
check_eq "$(json_get "$OUT" "d['libraries']['libcurl']")" "$(upstream libcurl4:amd64)" "version -o json: libcurl of the archive"
check_eq "$(json_get "$OUT" "d['libraries']['cjson']")" "$(upstream libcjson1:amd64)" "version -o json: cJSON of the archive"
check_eq "$(json_get "$OUT" "d['libraries']['libyaml']")" "$(upstream libyaml-0-2:amd64)" "version -o json: libyaml of the archive"
check_contains "$(json_get "$OUT" "d['libraries']['ncurses']")" "$(upstream libncursesw6:amd64)" "version -o json: ncurses of the archive"
check_contains "$(json_get "$OUT" "d['libraries']['tls']")" "OpenSSL/$(upstream libssl3:amd64)" "version -o json: OpenSSL of the archive"
check_eq "$(json_get "$OUT" "d['gitCommit'] + ' ' + d['gitTreeState'] + ' ' + d['platform']")" "$COMMIT $TREE linux/amd64" \
  "version -o json: commit, tree state, platform"

want=$("$HOSTBIN" status --snapshot "$FIX" 2>&1)
run_in "$R" "${ENVI[@]}" "$BIN" status --snapshot /mixed-fleet.json
check_rc 0 "amd64 chroot: status --snapshot"
check_eq "$OUT" "$want" "amd64 chroot: status --snapshot prints what the tree's build prints"
run_in "$R" "${ENVI[@]}" "$BIN" status --snapshot /mixed-fleet.json -o json
check_eq "$OUT" "$("$HOSTBIN" status --snapshot "$FIX" -o json 2>&1)" "amd64 chroot: status -o json too"

# ---- top in tmux, in the chroot ------------------------------------------------------------------
SOCK="$T/tmux.sock"
TM() { tmux -S "$SOCK" "$@"; }
on_exit "tmux -S '$SOCK' kill-server"
TM new-session -d -s keep -x 80 -y 24 "sleep 600"
declare -f inroot >"$T/inroot.sh"
# top_in NAME ROOT TERM [BINARY] : top on the snapshot in the chroot ROOT, in a tmux pane; its
# stderr goes to $T/NAME.err, its exit status to $T/NAME.rc
top_in() {
  rm -f "$T/$1.rc" "$T/$1.err"
  cat >"$T/$1.sh" <<EOS
. "$T/inroot.sh"
inroot "$2" HOME=/tmp LANG=C.UTF-8 TERM=$3 ${4:-$BIN} top --snapshot /mixed-fleet.json 2>"$T/$1.err"
echo \$? >"$T/$1.rc"
sleep 600
EOS
  TM new-session -d -s "$1" -x 120 -y 40 "bash $T/$1.sh"
}
wait_for() {   # wait_for SESSION TEXT : until the pane shows TEXT (10 s)
  local i
  for i in $(seq 1 100); do
    SCREEN=$(TM capture-pane -p -t "$1")
    grep -qF -- "$2" <<<"$SCREEN" && return 0
    sleep 0.1
  done
  return 1
}
wait_rc() { local i; for i in $(seq 1 100); do [ -s "$T/$1.rc" ] && { cat "$T/$1.rc"; return; }; sleep 0.1; done; echo none; }
top_in top1 "$R" tmux-256color
if wait_for top1 "dgx-a100-01" && wait_for top1 "kubectl gpu top"; then ok "amd64 chroot: top draws the cluster (TERM=tmux-256color from the archive's terminfo)"
else fail "amd64 chroot: top did not draw: $SCREEN $(cat "$T/top1.err" 2>/dev/null)"; fi
TM send-keys -t top1 q
check_eq "$(wait_rc top1)" "0" "amd64 chroot: top quits with q, exit 0"
# without the archive's terminfo the same top cannot start: the entries above were the archive's
R2="$T/root-noterminfo"
cp -a "$R" "$R2"; rm -rf "$R2/$TOP/share/terminfo"
top_in top2 "$R2" tmux-256color
check_eq "$(wait_rc top2)" "1" "without share/terminfo: top exits 1"
check_contains "$(cat "$T/top2.err")" 'terminal type "tmux-256color" is unknown here' "without share/terminfo: says so"
rm -rf "$R2"

# ---- TLS in the chroot: the CA bundle where Fedora keeps it, or SSL_CERT_FILE -------------------
. "$KGPU_ROOT/tests/lib/fakeapi.sh"
if fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json"; then
  grep -v 'certificate-authority' "$T/kubeconfig-token" >"$R/kubeconfig"
  TENV=(HOME=/tmp KUBECONFIG=/kubeconfig KUBECTL_GPU_SA_DIR=/nonexistent KUBECACHEDIR=/tmp/cache)
  run_in "$R" "${TENV[@]}" "$BIN" status -o json
  check_rc 1 "chroot, no CA bundle anywhere: TLS verification fails"
  mkdir -p "$R/etc/pki/tls/certs"; cp "$FAKEAPI_CERTS/ca.crt" "$R/etc/pki/tls/certs/ca-bundle.crt"
  run_in "$R" "${TENV[@]}" "$BIN" status -o json
  check_rc 0 "chroot, CA bundle at /etc/pki/tls/certs/ca-bundle.crt (Fedora's place): verified"
  check_eq "$(json_get "$OUT" "d['kind']")" "GPUStatus" "chroot TLS: the status answers"
  rm -rf "$R/etc/pki"; cp "$FAKEAPI_CERTS/ca.crt" "$R/tmp/my-ca.pem"
  run_in "$R" "${TENV[@]}" SSL_CERT_FILE=/tmp/my-ca.pem "$BIN" status -o json
  check_rc 0 "chroot, SSL_CERT_FILE=/tmp/my-ca.pem: verified"
  fakeapi_stop
else
  fail "fake API server did not start"
fi

# ---- arm64 under qemu-user, in a chroot with arm64 glibc -----------------------------------------
QEMU=$(command -v qemu-aarch64-static || true)
if [ -z "$QEMU" ]; then fail "qemu-aarch64-static missing (scripts/install-deps.sh dist)"
else
  RA="$T/root-arm64"
  mkroot "$RA" arm64
  tar -xzf "$ARM" -C "$RA"
  cp "$FIX" "$RA/mixed-fleet.json"
  cp "$QEMU" "$RA/qemu-aarch64"          # static: needs nothing from the chroot
  run_in "$RA" "${ENVI[@]}" /qemu-aarch64 "$BIN" version
  check_rc 0 "arm64 under qemu-user in the chroot: version"
  check_eq "$(head -1 <<<"$OUT")" "kubectl-gpu version $VERSION" "arm64: version line"
  check_contains "$OUT" "platform:  linux/arm64" "arm64: platform linux/arm64"
  check_contains "$OUT" "commit:    $COMMIT ($TREE)" "arm64: the commit"
  run_in "$RA" "${ENVI[@]}" /qemu-aarch64 "$BIN" status --snapshot /mixed-fleet.json
  check_rc 0 "arm64 under qemu-user: status --snapshot"
  check_eq "$OUT" "$want" "arm64: status --snapshot prints what the tree's build prints"
fi

# ---- the krew manifest ------------------------------------------------------------------------------
Y2J="$T/yaml2json"
if cc -Wall -Wextra -Werror -o "$Y2J" "$KGPU_ROOT/tests/tools/yaml2json.c" $(pkg-config --cflags --libs yaml-0.1 libcjson) 2>"$T/cc.log"; then
  ok "built tests/tools/yaml2json"
else
  fail "yaml2json: $(cat "$T/cc.log")"; exit 1
fi
krewcheck() {   # krewcheck LABEL MANIFEST [--install ROOT ARCHIVE...]
  local label=$1 m=$2 line; shift 2
  mkdir -p "$T/krew-$label"; cp "$m" "$T/krew-$label/gpu.yaml"    # krew: the file is named after the plugin
  if ! "$Y2J" "$T/krew-$label/gpu.yaml" >"$T/krew-$label/gpu.json" 2>"$T/y2j.err" || [ "$(wc -l <"$T/krew-$label/gpu.json")" != 1 ]; then
    fail "$label: not one YAML document: $(cat "$T/y2j.err")"; return
  fi
  while IFS= read -r line; do
    case "$line" in
      PASS\ *) ok "$label: ${line#PASS }" ;;
      FAIL\ *) fail "$label: ${line#FAIL }" ;;
      *) fail "krewcheck: $line" ;;
    esac
  done < <(python3 "$KGPU_ROOT/tests/tools/krewcheck.py" "$T/krew-$label/gpu.yaml" "$T/krew-$label/gpu.json" "$VERSION" "$@" 2>&1)
}
KR="$T/krew"
krewcheck "make dist's manifest" "$MANIFEST" --install "$KR" "$A64" "$ARM"
for a in amd64 arm64; do
  check_eq "$(grep -A4 "arch: $a" "$MANIFEST" | sed -n 's/ *sha256: "\(.*\)"/\1/p')" "$(sha256sum <"$KGPU_ROOT/build/$TOP-linux-$a.tar.gz" | cut -d' ' -f1)" \
    "manifest: linux/$a's sha256 is the archive's"
done
# the committed plugins/gpu.yaml is make dist's output (its sha256s are of the archives built
# at the commit it names)
norm() { sed -e 's/sha256: ".*"/sha256: SUM/' -e 's/from commit [0-9a-f]*:/from commit C:/' "$1"; }
check_eq "$(norm "$KGPU_ROOT/plugins/gpu.yaml")" "$(norm "$MANIFEST")" "plugins/gpu.yaml is what make dist writes (sha256 aside)"
krewcheck "plugins/gpu.yaml" "$KGPU_ROOT/plugins/gpu.yaml"

# the amd64 install, as krew lays it out, runs in a glibc-only chroot through krew's bin link
RK="$T/root-krew"
mkroot "$RK" amd64
mkdir -p "$RK/krew/bin"; cp -a "$KR/linux-amd64/store" "$RK/krew/store"
ln -s /krew/store/kubectl-gpu "$RK/krew/bin/kubectl-gpu"
cp "$FIX" "$RK/mixed-fleet.json"
run_in "$RK" "${ENVI[@]}" /krew/bin/kubectl-gpu version
check_rc 0 "krew layout in the chroot: version through ~/.krew/bin's link"
run_in "$RK" "${ENVI[@]}" /krew/bin/kubectl-gpu status --snapshot /mixed-fleet.json
check_eq "$OUT" "$want" "krew layout in the chroot: status --snapshot"
top_in top3 "$RK" xterm-256color /krew/bin/kubectl-gpu
if wait_for top3 "dgx-a100-01"; then ok "krew layout in the chroot: top finds the installed share/terminfo through the link"
else fail "krew layout: top did not draw: $SCREEN $(cat "$T/top3.err" 2>/dev/null)"; fi
TM send-keys -t top3 q
check_eq "$(wait_rc top3)" "0" "krew layout: top quits, exit 0"
# kubectl finds the krew-installed plugin and its completion helper
if command -v kubectl >/dev/null; then
  OUT=$(PATH="$KR/linux-amd64/bin:/usr/bin:/bin" timeout 60 kubectl gpu version 2>&1); RC=$? ERR=$OUT
  check_eq "$(head -1 <<<"$OUT")" "kubectl-gpu version $VERSION" "kubectl gpu version runs the krew-installed plugin"
  ln -s "$KR/linux-amd64/store/kubectl_complete-gpu" "$KR/linux-amd64/bin/kubectl_complete-gpu"
  OUT=$(PATH="$KR/linux-amd64/bin:/usr/bin:/bin" timeout 60 kubectl __complete gpu ver 2>/dev/null | cut -f1)
  check_eq "$OUT" "$(printf 'version\n:4')" "kubectl completes through the archive's kubectl_complete-gpu (caveats' link)"
fi
