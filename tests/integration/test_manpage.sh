#!/usr/bin/env bash
# man/kubectl-gpu.1: `mandoc -T lint` clean, renders, and agrees with --help: the same commands,
# and for each command (and the global flags) the same flags, short names and -o formats,
# both ways (tests/tools/mancheck.py).  The checker itself is shown to catch a flag missing
# from either side.
. "$(dirname "$0")/../lib/common.sh"

MAN="$KGPU_ROOT/man/kubectl-gpu.1"
if [ ! -f "$MAN" ]; then fail "no man page at man/kubectl-gpu.1"; exit 1; fi
if ! command -v mandoc >/dev/null; then fail "mandoc not installed (scripts/install-deps.sh test)"; exit 1; fi

LINT=$(mandoc -T lint "$MAN" 2>&1); rc=$?
if [ "$rc" = 0 ] && [ -z "$LINT" ]; then ok "mandoc -T lint: clean"; else fail "mandoc -T lint (exit $rc): $LINT"; fi
TEXT=$(mandoc -T utf8 "$MAN" 2>&1 | col -b)
check_match "$TEXT" '^NAME' "renders a NAME section"
check_contains "$TEXT" "kubectl-gpu – GPUs" "NAME line: name and description"
check_contains "$TEXT" "kubectl gpu status" "renders the synopsis"

if ! python3 "$KGPU_ROOT/tests/tools/helpflags.py" "$KGPU_BIN" >"$T/help.json"; then
  fail "could not read --help of $KGPU_BIN"
  exit 1
fi
# mancheck MANFILE : runs the checker, one assertion per line it prints; $MC_RC
mancheck() {
  local line
  MC_OUT=$(python3 "$KGPU_ROOT/tests/tools/mancheck.py" "$1" "$T/help.json" 2>&1); MC_RC=$?
}
mancheck "$MAN"
while IFS= read -r line; do
  case "$line" in
    PASS\ *) ok "man page: ${line#PASS }" ;;
    FAIL\ *) fail "man page: ${line#FAIL } (update man/kubectl-gpu.1 from 'kubectl gpu SUB --help')" ;;
    *) fail "mancheck: $line" ;;
  esac
done <<<"$MC_OUT"
check_eq "$MC_RC" 0 "mancheck exit status"

# --- the checker catches drift, both ways ------------------------------------------------------
grep -v '^\.It Fl \\-no-metrics$' "$MAN" >"$T/drop.1"
mancheck "$T/drop.1"
check_eq "$MC_RC" 1 "checker: a global flag missing from the man page fails"
check_contains "$MC_OUT" "--no-metrics is in --help but not in the man page" "checker names the missing flag"

awk '{print} /^\.Ss version$/ {v=1} v && /^\.Bl -tag -width Ds$/ && !done {print ".It Fl \\-frobnicate Ar level"; print "Nonsense."; done=1}' \
  "$MAN" >"$T/extra.1"
mancheck "$T/extra.1"
check_eq "$MC_RC" 1 "checker: a flag only in the man page fails"
check_contains "$MC_OUT" "--frobnicate is in the man page but not in --help" "checker names the extra flag"

python3 - "$T/help.json" "$T/help2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cmd"]["version"]["output"]["choices"] = ["json", "yaml", "toml"]
json.dump(d, open(sys.argv[2], "w"))
PY
MC_OUT=$(python3 "$KGPU_ROOT/tests/tools/mancheck.py" "$MAN" "$T/help2.json" 2>&1); MC_RC=$?
check_eq "$MC_RC" 1 "checker: an output format missing from the man page fails"
check_contains "$MC_OUT" "values json|yaml|toml in --help" "checker names the formats"
