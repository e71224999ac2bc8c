#!/usr/bin/env bash
# The fake API server's --lean mode (make bench --huge / --finished: pods and nodes kept as
# compressed list-item JSON, the fixture read line by line, cached pages kept gzipped only)
# answers lists byte for byte as the plain server does: every page of nodes, pods (with and
# without the phase field selector, one namespace, label selectors), events, DaemonSets and
# namespaces, gzip and plain, twice (the second from the page cache), on a generated cluster
# with finished pods plus a fixture in another layout whose pod has neither namespace nor
# resourceVersion (packed after loading) and whose node carries a namespace (dropped).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

GEN="$T/lean-cluster.json"
if ! python3 "$KGPU_ROOT/tests/gen/gen_cluster.py" --nodes 30 --gpu-fraction 0.5 --pods-per-node 12 --seed 7 \
     --finished 150 -o "$GEN" --summary "$T/lean-cluster.summary.json"; then
  fail "gen_cluster.py failed"
  exit 1
fi
cat >"$T/lean-extra.json" <<'EOF'
[{"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "no-rv", "labels": {"app": "x"}},
  "spec": {"nodeName": "extra-node", "containers": [{"name": "c", "image": "i"}]},
  "status": {"phase": "Running"}},
 {"apiVersion": "v1", "kind": "Node",
  "metadata": {"name": "extra-node", "namespace": "oops", "resourceVersion": "12"},
  "status": {"allocatable": {"cpu": "4"}}}]
EOF

# pages MODE : every page of each list, in order, into $T/pages-MODE (one file per list and
# encoding); the continue token of each page is followed, limit 7
PATHS=('/api/v1/nodes' '/api/v1/pods' '/api/v1/pods?fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed'
       '/api/v1/namespaces/batch/pods' '/api/v1/pods?labelSelector=app' '/api/v1/nodes?labelSelector=nvidia.com%2Fgpu.present%3Dtrue'
       '/api/v1/events?fieldSelector=reason%3DFailedScheduling' '/apis/apps/v1/daemonsets' '/api/v1/namespaces')
pages() {
  mkdir -p "$T/pages-$1"
  python3 - "$FAKEAPI_URL" "$FAKEAPI_CERTS/ca.crt" "$FAKEAPI_TOKEN" "$T/pages-$1" "${PATHS[@]}" <<'PY'
import gzip, json, os, ssl, sys, urllib.request
url, ca, tok, out, paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
ctx = ssl.create_default_context(cafile=ca)
for n, path in enumerate(paths):
    for rnd, gz in ((0, True), (1, False), (2, True)):
        body, cont, pages = b'', '', 0
        while True:
            q = '%s%slimit=7%s' % (path, '&' if '?' in path else '?', '&continue=' + cont if cont else '')
            h = {'Authorization': 'Bearer ' + tok}
            if gz:
                h['Accept-Encoding'] = 'gzip'
            with urllib.request.urlopen(urllib.request.Request(url + q, headers=h), context=ctx, timeout=60) as r:
                b = r.read()
                if r.headers.get('Content-Encoding') == 'gzip':
                    b = gzip.decompress(b)
            body += b
            pages += 1
            cont = json.loads(b)['metadata'].get('continue', '')
            if not cont:
                break
        with open(os.path.join(out, '%d-%d' % (n, rnd)), 'wb') as fh:
            fh.write(body)
        print('%s %d pages' % (path, pages))
PY
}

for mode in plain lean; do
  args=(--fixture "$T/lean-extra.json" --cache-pages)
  [ "$mode" = lean ] && args+=(--lean)
  if ! fakeapi_start "$GEN" "${args[@]}"; then
    fail "fake API server ($mode) did not start"
    exit 1
  fi
  ok "fake API server ($mode) up"
  if pages "$mode" >"$T/pages-$mode.txt" 2>"$T/pages-$mode.err"; then
    ok "$mode: every list read ($(awk '{ s += $(NF-1) } END { print s }' "$T/pages-$mode.txt") pages)"
  else
    fail "$mode: reading the lists failed: $(head -c 600 "$T/pages-$mode.err")"
  fi
  fakeapi_stop
done

for f in "$T"/pages-plain/*; do
  b=$T/pages-lean/$(basename "$f")
  n=$(basename "$f"); i=${n%-*}; r=${n#*-}
  if cmp -s "$f" "$b"; then
    ok "--lean serves ${PATHS[$i]} (round $r) byte for byte ($(wc -c <"$f") bytes)"
  else
    fail "--lean differs on ${PATHS[$i]} (round $r)"
  fi
done
# the lists hold what the test is about: finished pods that the selector leaves out, the extra
# fixture's pod (packed after loading) and its node (without the namespace it was given)
all=$(cat "$T/pages-plain/1-0")
check_contains "$all" '"phase":"Succeeded"' "the pods list holds finished pods"
check_not_contains "$(cat "$T/pages-plain/2-0")" '"phase":"Succeeded"' "the phase selector leaves them out"
check_contains "$all" '"name":"no-rv","labels":{"app":"x"},"namespace":"default","resourceVersion":"' "the pod without namespace and RV got both"
check_not_contains "$(cat "$T/pages-plain/0-0")" '"namespace":"oops"' "the node's namespace is dropped"
