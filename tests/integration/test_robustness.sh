#!/usr/bin/env bash
# Bad input of any kind through the whole binary: snapshot files that are not one (empty,
# binary, truncated, nested 100000 deep, items of every wrong type), hostile objects (terminal
# escape sequences, newlines and bytes that are not UTF-8 in names, labels and scheduler
# messages; negative, fractional and overflowing quantities), malformed kubeconfigs (binary,
# a YAML alias bomb, nested too deep, /dev/zero, a directory).  Every run ends with exit 0 and
# output, or exit 1 and one "error:" line; never a crash, a sanitizer report, a hang, a control
# character on a terminal or invalid JSON.  The crash inputs found by tests/fuzz are replayed
# here through the CLI too (tests/unit/test_regress_*.c pin them at the function level).
. "$(dirname "$0")/../lib/common.sh"
export KUBECTL_GPU_SA_DIR=/nonexistent/sa NO_COLOR=1
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT
export KUBECONFIG=/nonexistent/kubeconfig     # offline only: nothing here talks to a server

H=$T/hostile
mkdir -p "$H"
python3 - "$H" "$KGPU_ROOT/tests/fixtures/api/small.json" "$KGPU_ROOT/tests/fixtures/pending/insufficient.json" <<'PY'
import json, os, random, sys
out, small, pend = sys.argv[1], sys.argv[2], sys.argv[3]
def w(name, data):
    open(os.path.join(out, name), 'wb').write(data if isinstance(data, bytes) else data.encode('utf-8', 'surrogateescape'))
lst = lambda items: json.dumps({"apiVersion": "v1", "kind": "List", "items": items})
raw = open(small, 'rb').read()
w('empty.json', b'')
w('null.json', 'null')
w('array.json', '[]')
w('object.json', '{}')
w('list-no-items.json', '{"kind": "List"}')
w('items-object.json', '{"kind": "List", "items": {"a": 1}}')
w('items-wrong-types.json', '{"kind": "List", "items": [1, "x", null, true, [], {}, {"kind": 7}, {"kind": "Node"}, {"kind": "Pod", "metadata": []}]}')
w('truncated.json', raw[:len(raw) // 2])
w('truncated-in-string.json', raw[:raw.index(b'"name"') + 9])
random.seed(7)
w('binary.json', bytes(random.getrandbits(8) for _ in range(8192)))
w('nul-bytes.json', raw[:2000] + b'\0\0\0' + raw[2000:])
w('deep-array.json', '[' * 100000 + ']' * 100000)
w('deep-item.json', '{"kind": "List", "items": [' + '{"a":' * 20000 + '1' + '}' * 20000 + ']}')
w('deep-in-node.json', lst([{"kind": "Node", "metadata": {"name": "n", "labels": json.loads('{"a":' * 400 + '"x"' + '}' * 400)}}]))
w('numbers.json', '{"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "n"}, "status": {"capacity": {"nvidia.com/gpu": 1e999, "cpu": -1e308, "pods": 1.5e300}}}]}')
w('utf16.json', '{"kind":"List","items":[]}'.encode('utf-16'))
# hostile strings: terminal escapes, newlines, CR, bytes that are not UTF-8
d = json.load(open(pend))
items = d['items'] if isinstance(d, dict) else d
ESC = '\x1b]0;pwned\x07\x1b[2J\x1b[31m'
for i in items:
    md = i.setdefault('metadata', {})
    if i['kind'] == 'Node':
        md.setdefault('labels', {})['evil'] = 'a' + ESC + 'b'
        md['labels']['nvidia.com/gpu.product'] = md['labels'].get('nvidia.com/gpu.product', 'X') + '\udc9a\udcff'
    if i['kind'] == 'Pod':
        for c in i.get('status', {}).get('conditions', []):
            if c.get('message'):
                c['message'] += ESC + '\nINJECTED\rHIDDEN\udcff'
        md.setdefault('labels', {})['x'] = 'v\udc9a'
    if i['kind'] == 'Event':
        i['message'] = i.get('message', '') + ESC + '\r\nINJECTED'
w('hostile-strings.json', json.dumps(d, ensure_ascii=False))
# quantities: negative, fractional, overflowing, of the wrong type
node = lambda name, cap: {"kind": "Node", "metadata": {"name": name, "labels": {"nvidia.com/gpu.present": "true",
          "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu.count": "8"}},
          "status": {"capacity": cap, "allocatable": cap, "conditions": [{"type": "Ready", "status": "True"}]}}
pod = lambda name, nd, req, phase="Running": {"kind": "Pod", "metadata": {"name": name, "namespace": "ml"},
          "spec": {"nodeName": nd, "containers": [{"name": "c", "resources": {"requests": req, "limits": req}}]},
          "status": {"phase": phase}}
base = {"cpu": "8", "memory": "32Gi", "pods": "110"}
w('quantities.json', lst([
    node("neg", dict(base, **{"nvidia.com/gpu": "-8"})), node("frac", dict(base, **{"nvidia.com/gpu": "0.5"})),
    node("huge", dict(base, **{"nvidia.com/gpu": "1e30"})), node("max", dict(base, **{"nvidia.com/gpu": "9223372036854775807"})),
    node("num", dict(base, **{"nvidia.com/gpu": 8})), node("obj", dict(base, **{"nvidia.com/gpu": {"a": 1}})),
    node("ok", dict(base, **{"nvidia.com/gpu": "8"})),
    pod("p-neg", "ok", {"nvidia.com/gpu": "-3"}), pod("p-huge", "ok", {"nvidia.com/gpu": "4611686018427387904"}),
    pod("p-ok", "ok", {"nvidia.com/gpu": "2"}), pod("p-pending", None, {"nvidia.com/gpu": "99999999"}, "Pending"),
    pod("p-nonode", "ghost", {"nvidia.com/gpu": "1"})]))
# many duplicates and cross references that lead nowhere
w('duplicates.json', lst([node("dup", dict(base, **{"nvidia.com/gpu": "8"}))] * 50 +
                         [pod("same", "dup", {"nvidia.com/gpu": "1"})] * 50))
PY
# the crash inputs the fuzzers found (when a fuzz run left them here) replay through the CLI
for f in "$KGPU_ROOT"/tests/tmp/fuzz/artifacts/fuzz_snapshot-* "$KGPU_ROOT"/tests/tmp/fuzz/artifacts/fuzz_commands-*; do
  [ -f "$f" ] && cp "$f" "$H/fuzz-$(basename "$f").json"
done

sanitizer_free() {   # no sanitizer or valgrind report in $ERR
  if grep -qE 'Sanitizer|runtime error:|==[0-9]+== (Invalid|Conditional|Use of|[0-9,]+ bytes in)' <<<"$ERR"; then
    fail "$1: a sanitizer report: $(grep -m3 -E 'Sanitizer|runtime error|==[0-9]+==' <<<"$ERR")"
  else
    ok "$1: no sanitizer report"
  fi
}
# answered WHAT : exit 0 with output (or, with nothing to list, kubectl's "No resources found"-style
# line on stderr and an empty stdout, issue 34), or exit 1 with exactly one "error:" line and no output
answered() {
  case "$RC" in
    0) if [ -n "$OUT" ]; then ok "$1: exit 0 with output"
       elif grep -q '^No pending GPU pods' <<<"$ERR"; then ok "$1: exit 0, nothing to list (said on stderr)"
       else fail "$1: exit 0 without output"; fi ;;
    1) if [ "$(grep -c . <<<"$ERR")" = 1 ] && grep -q '^error: ' <<<"$ERR" && [ -z "$OUT" ]; then
         ok "$1: exit 1, one error line"
       else
         fail "$1: exit 1 but stderr [$(head -c 600 <<<"$ERR")] stdout [$(head -c 200 <<<"$OUT")]"
       fi ;;
    *) fail "$1: exit $RC (crash or hang?): $(tail -c 600 <<<"$ERR")" ;;
  esac
  sanitizer_free "$1"
}
printable() {   # no control characters but \n and \t in $OUT and $ERR (a terminal shows these)
  if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$OUT$ERR"; then
    fail "$1: control characters reach the terminal: $(LC_ALL=C grep -m1 $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$OUT$ERR" | cat -v | head -c 300)"
  else
    ok "$1: nothing but printable text"
  fi
}
valid_json() {
  if [ "$RC" != 0 ]; then return; fi
  if python3 -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' <<<"$OUT" 2>/dev/null; then
    ok "$1: valid JSON in UTF-8"
  else
    fail "$1: the output is not valid JSON / UTF-8"
  fi
}

CMDS=("status -o json" "status -o wide" "status -o yaml" "pending -A" "pending -A -o json"
      "explain -n ml train-4" "explain -n ml train-4 -o json" "plan -o json")
for f in "$H"/*.json; do
  name=$(basename "$f" .json)
  for cmd in "${CMDS[@]}"; do
    kgpu $cmd --snapshot "$f" --no-color
    answered "$name: $cmd"
    printable "$name: $cmd"
    case "$cmd" in *json) valid_json "$name: $cmd" ;; esac
  done
done

# ---- what the hostile files must give, exactly ----
kgpu status -o json --snapshot "$H/empty.json"
check_rc 1 "an empty file is no snapshot"
check_contains "$ERR" "error: snapshot $H/empty.json: " "the file is named"
kgpu status -o json --snapshot "$H/deep-array.json"
check_rc 1 "nesting 100000 deep is refused"
kgpu status -o json --snapshot "$H/quantities.json"
check_rc 0 "bad quantities: status answers"
check_eq "$(json_get "$OUT" "sorted((n['name'], n['resources'].get('nvidia.com/gpu', {}).get('allocatable')) for n in d['nodes'])")" \
  "[('frac', 1), ('huge', None), ('max', None), ('neg', None), ('num', 8), ('obj', None), ('ok', 8)]" \
  "bad quantities: negative and unreadable amounts are not counted, fractions round up"
check_eq "$(json_get "$OUT" "d['summary']['resources']['nvidia.com/gpu']['allocatable']")" "17" "bad quantities: no negative in the total"
check_eq "$(json_get "$OUT" "[n['resources']['nvidia.com/gpu']['allocated'] for n in d['nodes'] if n['name'] == 'ok'][0]")" "2" \
  "bad quantities: only the readable request is counted as allocated"
kgpu explain -n ml train-4 --snapshot "$H/hostile-strings.json"
check_rc 0 "hostile strings: explain answers"
check_contains "$OUT" "INJECTED" "hostile strings: the message is shown (made printable, not dropped)"
kgpu status -o yaml --snapshot "$H/hostile-strings.json"
check_contains "$OUT" $'\xef\xbf\xbd' "hostile strings: bytes that are not UTF-8 shown as U+FFFD"

# ---- kubeconfigs ----
K=$T/kubeconfigs
mkdir -p "$K/dir"
head -c 4096 /dev/urandom >"$K/binary"
: >"$K/empty"
{ echo 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'
  prev=a; for l in b c d e f g h i j k; do
    printf '%s: &%s [%s]\n' "$l" "$l" "$(printf '*%s,' $prev $prev $prev $prev $prev $prev $prev $prev $prev $prev | sed 's/,$//')"; prev=$l; done
  echo 'current-context: x'; } >"$K/alias-bomb"
python3 -c 'print("clusters:\n" + "".join("  " * i + "- a:\n" for i in range(1, 400)))' >"$K/deep"
printf 'apiVersion: v1\nkind: Config\nclusters: "not a list"\ncurrent-context: 7\n' >"$K/types"
printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: "https://[::1"\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user: {}\ncurrent-context: x\n' >"$K/bad-server"
printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n    certificate-authority: /dev/zero\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\nusers:\n- name: u\n  user:\n    tokenFile: /dev/zero\ncurrent-context: x\n' >"$K/dev-zero"
for k in binary empty alias-bomb deep types bad-server dev-zero dir; do
  start=$(date +%s)
  kgpu status --kubeconfig "$K/$k" --request-timeout 5s
  check_rc 1 "kubeconfig $k: refused"
  answered "kubeconfig $k"
  printable "kubeconfig $k"
  check_eq "$(( $(date +%s) - start < 30 ))" "1" "kubeconfig $k: quickly"
done
kgpu status --kubeconfig /dev/zero
check_rc 1 "--kubeconfig /dev/zero: refused"
check_eq "$ERR" 'error: error loading config file "/dev/zero": larger than 64 MiB' "--kubeconfig /dev/zero: bounded, said"
