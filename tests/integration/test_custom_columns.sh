#!/usr/bin/env bash
# -o custom-columns and -o custom-columns-file, as kubectl's (cli-runtime
# pkg/printers/customcolumn.go): every cell equals what the same path gives on the item in
# -o json (evaluated here by a separate Python reading of the JSON), in the same order as
# -o json with the same --sort-by / -n / -l; --no-headers drops the header line; the file
# form (header line, path line) prints the same table as the spec; bad specs are usage errors
# with kubectl's messages, a bad index at run time exits 1.
. "$(dirname "$0")/../lib/common.sh"
MIXED="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
QUEUE="$KGPU_ROOT/tests/fixtures/pending/queue.json"
FRAG="$KGPU_ROOT/tests/fixtures/pending/fragmented.json"

# expect JSONFILE LISTKEY SPEC : the table Python computes from the JSON (LISTKEY "" = the
# document itself is the one item), headers first
expect() {
  python3 - "$@" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
items = doc[sys.argv[2]] if sys.argv[2] else [doc]
cols = [c.split(":", 1) for c in sys.argv[3].split(",")]

def steps(path):
    path = path.strip("{}").lstrip(".")
    out = []
    for tok in re.findall(r"(?:\\.|[^.\[])+|\[[^\]]*\]", path):
        if tok.startswith("["):
            inner = tok[1:-1]
            out.append(("all",) if inner == "*" else ("key", inner.strip("'\"")) if inner[0] in "'\"" else ("idx", int(inner)))
        else:
            out.append(("key", tok.replace("\\.", ".")))
    return out

def go(v):
    if v is None: return "<nil>"
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (int, float)) and float(v).is_integer(): return str(int(v))
    if isinstance(v, float): return repr(v)
    if isinstance(v, dict): return "map[" + " ".join(f"{k}:{go(v[k])}" for k in sorted(v)) + "]"
    if isinstance(v, list): return "[" + " ".join(go(x) for x in v) + "]"
    return str(v)

def walk(vals, st):
    for kind, *arg in st:
        nxt = []
        for v in vals:
            if kind == "key" and isinstance(v, dict) and arg[0] in v: nxt.append(v[arg[0]])
            elif kind == "all" and isinstance(v, list): nxt.extend(v)
            elif kind == "all" and isinstance(v, dict): nxt.extend(v.values())
            elif kind == "idx" and isinstance(v, list): nxt.append(v[arg[0]])
        vals = [x for x in nxt]
    return vals

rows = [[h for h, _ in cols]]
for it in items:
    row = []
    for _, p in cols:
        vals = walk([it], steps(p))
        row.append(",".join(go(v) for v in vals) if vals else "<none>")
    rows.append(row)
for r in rows: print("\t".join(r))
PY
}
# cells OUTPUT : the table's cells, columns split where the header line's columns start
cells() {
  python3 -c '
import re, sys
lines = sys.stdin.read().rstrip("\n").split("\n")
starts = [m.start() for m in re.finditer(r"(?:^|(?<=   ))\S", lines[0])]
for l in lines:
    print("\t".join(l[a:b].rstrip() for a, b in zip(starts, starts[1:] + [None])))
' <<<"$1"
}

# --- status: one row per node of -o json, also sorted ------------------------------------------
SPEC='NODE:.name,PRODUCT:.product,GPUS:{.physicalGPUs},GPU-ALLOC:.resources.nvidia\.com/gpu.allocated,SHARED:.resources['"'"'nvidia.com/gpu.shared'"'"'].allocatable,PODS:.pods[*].name,STRATEGY:sharing.strategy'
for sort in "" "--sort-by=.physicalGPUs"; do
  kgpu status --snapshot "$MIXED" -o json $sort; echo "$OUT" >"$T/status.json"
  kgpu status --snapshot "$MIXED" -o "custom-columns=$SPEC" $sort
  check_rc 0 "status -o custom-columns $sort"
  check_eq "$(cells "$OUT")" "$(expect "$T/status.json" nodes "$SPEC")" "status: every cell is the path's value on the node of -o json $sort"
done
N=$(json_get "$(cat "$T/status.json")" 'len(d["nodes"])')
check_eq "$(wc -l <<<"$OUT")" "$((N + 1))" "status: a header and one row per node ($N)"
kgpu status --snapshot "$MIXED" -o "custom-columns=$SPEC" --sort-by=.physicalGPUs --no-headers
check_eq "$(wc -l <<<"$OUT")" "$N" "status --no-headers: the rows alone"
check_not_contains "$OUT" "PRODUCT" "status --no-headers: no header line"
kgpu status --snapshot "$MIXED" -l nvidia.com/gpu.product=NVIDIA-A10G -o json; echo "$OUT" >"$T/a10g.json"
kgpu status --snapshot "$MIXED" -l nvidia.com/gpu.product=NVIDIA-A10G -o "custom-columns=N:.name"
check_eq "$(cells "$OUT")" "$(expect "$T/a10g.json" nodes 'N:.name')" "status -l: the nodes -o json lists"

# the file form: a header line and a path line, whitespace-separated, the same table
printf 'NODE   GPUS  PODS\n.name  {.physicalGPUs}\t.pods[*].name\n' >"$T/cols.txt"
kgpu status --snapshot "$MIXED" -o "custom-columns-file=$T/cols.txt"
FILE_OUT=$OUT
kgpu status --snapshot "$MIXED" -o "custom-columns=NODE:.name,GPUS:{.physicalGPUs},PODS:.pods[*].name"
check_eq "$FILE_OUT" "$OUT" "custom-columns-file prints what the same spec prints"

# --- pending: one row per pod of -o json ---------------------------------------------------------
PSPEC='NAMESPACE:.namespace,NAME:.name,VERDICT:.verdict,GPUS:.requests,NODE0:.nodes[0].name,CODES:.nodes[*].reasons[*].code'
for args in "-A" "-A --sort-by=.metadata.name" "-n ml"; do
  kgpu pending --snapshot "$QUEUE" $args -o json; echo "$OUT" >"$T/pending.json"
  kgpu pending --snapshot "$QUEUE" $args -o "custom-columns=$PSPEC"
  check_rc 0 "pending $args -o custom-columns"
  check_eq "$(cells "$OUT")" "$(expect "$T/pending.json" pods "$PSPEC")" "pending $args: every cell from the pod of -o json"
done
kgpu pending --snapshot "$FRAG" -A -o json; echo "$OUT" >"$T/frag.json"
kgpu pending --snapshot "$FRAG" -A -o "custom-columns=$PSPEC"
check_eq "$(cells "$OUT")" "$(expect "$T/frag.json" pods "$PSPEC")" "pending (fragmented): every cell from -o json"
kgpu pending --snapshot "$FRAG" -n nowhere -o "custom-columns=N:.name"
check_rc 0 "pending with nothing to list"
check_eq "$OUT" "" "nothing listed: no header either (as kubectl)"
check_contains "$ERR" "No pending GPU pods in namespace nowhere" "nothing listed: said on stderr"

# --- explain: the document is the one row ---------------------------------------------------------
ESPEC='NAME:.name,KIND:kind,VERDICT:.verdict,NODES:.nodes[*].name'
kgpu explain train-4f -n ml --snapshot "$FRAG" -o json; echo "$OUT" >"$T/explain.json"
kgpu explain train-4f -n ml --snapshot "$FRAG" -o "custom-columns=$ESPEC"
check_rc 0 "explain -o custom-columns"
check_eq "$(cells "$OUT")" "$(expect "$T/explain.json" "" "$ESPEC")" "explain: one row from the document"
kgpu explain train-4f -n ml --snapshot "$FRAG" -o "custom-columns=$ESPEC" --no-headers
check_eq "$(wc -l <<<"$OUT")" "1" "explain --no-headers: the row alone"

# --- errors: kubectl's messages; usage errors before anything is read --------------------------
kgpu status --snapshot /nonexistent.json -o custom-columns=NAME
check_rc 2 "a part without ':'"
check_contains "$ERR" "unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>" "kubectl's message"
kgpu pending --snapshot "$FRAG" -o custom-columns=
check_rc 2 "an empty spec"
check_contains "$ERR" "custom-columns format specified but no custom columns given" "kubectl's message"
kgpu status --snapshot "$MIXED" -o 'custom-columns=N:{.name'
check_rc 2 "an unbalanced brace"
check_contains "$ERR" "unexpected path string" "kubectl's message"
kgpu status --snapshot "$MIXED" -o 'custom-columns=N:..name'
check_rc 2 "recursive descent is refused"
check_contains "$ERR" "not supported" "says it is not supported"
printf 'A B\n.name\n' >"$T/bad.txt"
kgpu status --snapshot "$MIXED" -o "custom-columns-file=$T/bad.txt"
check_rc 2 "a file whose lines disagree"
check_contains "$ERR" "number of headers (2) and field specifications (1) don't match" "kubectl's message"
kgpu status --snapshot "$MIXED" -o "custom-columns-file=$T/none.txt"
check_rc 2 "a file that is not there"
check_contains "$ERR" "error reading template" "kubectl's message"
kgpu status --snapshot "$MIXED" -o 'custom-columns=N:.name,P:.pods[40].name'
check_rc 1 "an index past the end"
check_contains "$ERR" "array index out of bounds: index 40" "kubectl's message"
check_eq "$OUT" "" "nothing printed when a row fails"
kgpu status --snapshot "$MIXED" --by namespace -o custom-columns=N:.name
check_rc 2 "not with --by"
kgpu plan --snapshot "$MIXED" -o custom-columns=N
check_rc 2 "plan: a bad spec is a usage error"
kgpu plan --snapshot "$MIXED" -o bad
check_contains "$ERR" "allowed formats are text, yaml, json, script, custom-columns=..." "the error lists plan's formats"

# --- plan: one row per group of -o json, workloads included --------------------------------------
GSPEC='PRODUCT:.product,STRATEGY:.strategy,BEFORE:.gpusBefore,AFTER:.gpusAfter,NODES:.nodes[*],WORKLOADS:.workloads[*].name'
kgpu plan --snapshot "$MIXED" -o json; echo "$OUT" >"$T/plan.json"
kgpu plan --snapshot "$MIXED" -o "custom-columns=$GSPEC"
check_rc 0 "plan -o custom-columns"
check_eq "$(cells "$OUT")" "$(expect "$T/plan.json" groups "$GSPEC")" "plan: every cell from the group of -o json"
check_contains "$ERR" "warning:" "plan: the warnings on stderr"
kgpu plan --snapshot "$MIXED" -o "custom-columns=$GSPEC" --no-headers
check_eq "$(wc -l <<<"$OUT")" "$(json_get "$(cat "$T/plan.json")" 'len(d["groups"])')" "plan --no-headers: one row per group"

# --- completion: the open-ended formats leave the cursor after '=' --------------------------------
kgpu __complete -- status -o cu
check_contains "$OUT" "custom-columns=" "completion offers custom-columns="
check_eq "$(tail -n1 <<<"$OUT")" ":6" "completion: no space after custom-columns= (NoSpace|NoFileComp)"
kgpu __complete -- status -o j
check_eq "$(tail -n1 <<<"$OUT")" ":4" "completion: a closed format is followed by a space"

# --- --sort-by any JSONPath into the item (kubectl's --sort-by): the order -o json's items take
# when sorted by that value (numbers by value, no value last, ties in the unsorted order) -------
sorted_names() {   # sorted_names JSONFILE LISTKEY PYEXPR : names in the expected order
  python3 - "$@" <<'PY'
import json, sys
items = json.load(open(sys.argv[1]))[sys.argv[2]]
def key(it):
    try:
        v = eval(sys.argv[3], {}, {"d": it})
    except (KeyError, IndexError, TypeError):
        v = None
    return (1, 0) if v is None else (0, v)
for it in sorted(items, key=key):
    print(it["name"])
PY
}
kgpu status --snapshot "$MIXED" -o json; echo "$OUT" >"$T/status-unsorted.json"
kgpu status --snapshot "$MIXED" --sort-by='.resources.nvidia\.com/gpu.allocated' -o name
check_eq "$(sed 's|^node/||' <<<"$OUT")" \
  "$(sorted_names "$T/status-unsorted.json" nodes 'd["resources"]["nvidia.com/gpu"]["allocated"]')" \
  "status --sort-by a JSONPath: the nodes by that value, those without it last"
kgpu status --snapshot "$MIXED" --sort-by='{.sharing.replicas}' -o json
check_eq "$(json_get "$OUT" '[n["name"] for n in d["nodes"]]')" \
  "$(python3 -c 'import sys; print([l for l in sys.stdin.read().split()])' <<<"$(sorted_names "$T/status-unsorted.json" nodes 'd["sharing"]["replicas"]')")" \
  "status --sort-by {.sharing.replicas}: -o json in that order"
kgpu status --snapshot "$MIXED" --sort-by=.spec.foo
check_rc 2 "status --sort-by a path no node has"
check_contains "$ERR" 'unknown field ".spec.foo"' "says which field"
kgpu pending --snapshot "$QUEUE" -A -o json; echo "$OUT" >"$T/pending-unsorted.json"
kgpu pending --snapshot "$QUEUE" -A --sort-by='.requests.nvidia\.com/gpu' -o custom-columns=N:.name --no-headers
check_eq "$OUT" "$(sorted_names "$T/pending-unsorted.json" pods 'd["requests"]["nvidia.com/gpu"]')" \
  "pending --sort-by a JSONPath: the pods by that value"
kgpu pending --snapshot "$QUEUE" -A --sort-by=.nope
check_rc 2 "pending --sort-by a path no pod has"
