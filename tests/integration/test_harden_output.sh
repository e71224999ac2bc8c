#!/usr/bin/env bash
# snapshot -o PATH never replaces what is not a regular file (issue 28, item 2;
# src/util/outfile.c): a character device (a node made like /dev/null in a temp dir, never the
# real one), a FIFO and a symlink to a FIFO are written into and stay what they were; a regular
# file is replaced atomically (a new inode: a hard link to the old one keeps the old bytes)
# with mode 0600; a symlink to a regular file stays a link and its file gets the snapshot;
# "-o -" is stdout; a directory is one error line naming it.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }

# the number of items the fixture's lists give a snapshot, from a plain stdout run
kgpu snapshot --no-metrics
check_rc 0 "snapshot to stdout"
want_items=$(json_get "$OUT" "len(d['items'])")

is_list() {   # is_list FILE WHAT : FILE holds the whole List (gunzipped when it is gzip)
  local n
  n=$(python3 - "$1" <<'PY' 2>/dev/null
import gzip, json, sys
b = open(sys.argv[1], 'rb').read()
if b[:2] == b'\x1f\x8b':
    b = gzip.decompress(b)
d = json.loads(b)
print(len(d['items']) if d.get('kind') == 'List' else -1)
PY
)
  check_eq "${n:-none}" "$want_items" "$2: the whole List arrived"
}

# 1. a character device: /dev/null's numbers (1,3) in a temp dir
if mknod "$T/null" c 1 3 2>/dev/null; then
  kgpu snapshot --no-metrics -o "$T/null"
  check_rc 0 "snapshot -o CHARDEV"
  if [ -c "$T/null" ]; then ok "the character device is still one"; else fail "the character device was replaced: $(stat -c %F "$T/null")"; fi
  check_eq "$(stat -c %t,%T "$T/null")" "1,3" "same device numbers"
  ls "$T"/null.tmp.* >/dev/null 2>&1 && fail "a temporary file was left next to the device" || ok "no temporary left"
else
  ok "# skip: mknod not permitted (not root): character device case not run"
fi

# 2. a FIFO with a reader gets the bytes, stays a FIFO
mkfifo "$T/fifo.json"
cat "$T/fifo.json" >"$T/fifo-got" & reader=$!
kgpu snapshot --no-metrics -o "$T/fifo.json"
check_rc 0 "snapshot -o FIFO"
timeout 10 tail --pid=$reader -f /dev/null; kill $reader 2>/dev/null; wait $reader
is_list "$T/fifo-got" "FIFO reader"
if [ -p "$T/fifo.json" ]; then ok "the FIFO is still a FIFO"; else fail "the FIFO was replaced: $(stat -c %F "$T/fifo.json")"; fi

# 3. a symlink to a FIFO: written through, both stay what they were
ln -s "$T/fifo.json" "$T/link-to-fifo.json.gz"
cat "$T/fifo.json" >"$T/fifo-got2" & reader=$!
kgpu snapshot --no-metrics -o "$T/link-to-fifo.json.gz"
check_rc 0 "snapshot -o SYMLINK-TO-FIFO"
timeout 10 tail --pid=$reader -f /dev/null; kill $reader 2>/dev/null; wait $reader
check_eq "$(head -c 2 "$T/fifo-got2" | od -An -tx1 | tr -d ' ')" "1f8b" "gzip by the link's name (.gz)"
is_list "$T/fifo-got2" "FIFO reader through a symlink"
if [ -L "$T/link-to-fifo.json.gz" ] && [ -p "$T/fifo.json" ]; then ok "the symlink and the FIFO stay"; else fail "symlink or FIFO replaced"; fi

# 4. a regular file: replaced atomically (new inode), mode 0600
echo old >"$T/snap.json"; chmod 644 "$T/snap.json"; ln "$T/snap.json" "$T/hardlink"
kgpu snapshot --no-metrics -o "$T/snap.json"
check_rc 0 "snapshot -o REGULAR"
is_list "$T/snap.json" "regular file"
check_eq "$(cat "$T/hardlink")" "old" "the old inode was not written into (rename, not rewrite)"
check_eq "$(stat -c %a "$T/snap.json")" "600" "mode 0600"

# 5. a symlink to a regular file: the link stays, its file is replaced (0600)
mkdir -p "$T/data"; echo old >"$T/data/real.json"; ln -s data/real.json "$T/link.json"
kgpu snapshot --no-metrics -o "$T/link.json"
check_rc 0 "snapshot -o SYMLINK-TO-FILE"
if [ -L "$T/link.json" ]; then ok "the symlink is still a symlink"; else fail "the symlink was replaced by a file"; fi
is_list "$T/data/real.json" "the symlink's file"
check_eq "$(stat -c %a "$T/data/real.json")" "600" "the symlink's file: mode 0600"
ls "$T"/data/real.json.tmp.* "$T"/link.json.tmp.* >/dev/null 2>&1 && fail "a temporary was left" || ok "no temporary left"

# 6. -o - is stdout (plain JSON), no file named "-"
(cd "$T" && OUT=$(timeout 60 "$KGPU_BIN" snapshot --no-metrics -o - 2>/dev/null); echo "$?" >rc-dash; printf '%s' "$OUT" >dash-out)
check_eq "$(cat "$T/rc-dash")" "0" "snapshot -o - exits 0"
is_list "$T/dash-out" "-o -"
[ -e "$T/-" ] && fail "a file named - was written" || ok "no file named -"

# 7. a directory and a dangling symlink: one error line naming the path
mkdir "$T/adir"
kgpu snapshot --no-metrics -o "$T/adir"
check_rc 1 "snapshot -o DIRECTORY"
check_one_line_err "snapshot -o DIRECTORY"
check_contains "$ERR" "$T/adir: it is a directory" "the error names the directory"
ln -s "$T/nowhere/x.json" "$T/dangling.json"
kgpu snapshot --no-metrics -o "$T/dangling.json"
check_rc 1 "snapshot -o DANGLING-SYMLINK"
check_contains "$ERR" "$T/dangling.json" "the error names the link"

# 8. a symlink to stdout (/proc/self/fd/1, as /dev/stdout is): written into the pipe, the
#    output is not swallowed (gzip: the name does not end in .json)
"$KGPU_BIN" snapshot --no-metrics -o /proc/self/fd/1 2>"$T/procfd.err" | gzip -dc >"$T/procfd.json"
check_eq "${PIPESTATUS[0]}" "0" "snapshot -o /proc/self/fd/1 exits 0"
is_list "$T/procfd.json" "-o /proc/self/fd/1 into a pipe"
