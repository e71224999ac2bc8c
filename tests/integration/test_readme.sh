#!/usr/bin/env bash
# The README is a front page and its samples, and the guide's (docs/*.md), are what the binary
# prints now:
#  - every `$ kubectl gpu ...` block of README.md and docs/*.md is run on the bundled examples
#    and compared, whole or as an excerpt ("..." lines) (tests/tools/check_readme.py);
#  - every `$ kubectl gpu top ...   # on a WxH terminal` block is drawn by top in tmux at that
#    size and the capture compared line by line (trailing blanks aside);
#  - the README (issue 34): short, install from what exists today before krew, five
#    quick-start commands, every relative link to a file that exists.
. "$(dirname "$0")/../lib/common.sh"
README="$KGPU_ROOT/README.md"

# ---- samples printed by the commands -------------------------------------------------------------
for f in "$README" "$KGPU_ROOT"/docs/*.md; do
  python3 "$KGPU_ROOT/tests/tools/check_readme.py" --root "$KGPU_ROOT" --bin "$KGPU_BIN" "$f" >"$T/readme.out" 2>&1
  while IFS= read -r line; do
    case "$line" in
      "ok - "*) ok "${line#ok - }" ;;
      "not ok - "*) fail "${line#not ok - }" ;;
      "# RESULT"*) ;;
      "#"*) echo "$line" ;;
      *) fail "check_readme $(basename "$f"): $line" ;;
    esac
  done <"$T/readme.out"
  cat "$T/readme.out" >>"$T/readme-all.out"
done
check_match "$(grep -c '^ok - README' "$T/readme-all.out")" '^[2-9]|^[1-9][0-9]' "the README's samples were found and run"
check_match "$(grep -c '^ok - docs/' "$T/readme-all.out")" '^[4-9]|^[1-9][0-9]' "the guide's samples were found and run"

# ---- top, drawn in tmux -------------------------------------------------------------------------------
# each block: "FILE<TAB>COLS<TAB>ROWS<TAB>ARGS" then its lines into $T/top-N.want
python3 - "$T" "$README" "$KGPU_ROOT"/docs/*.md >"$T/top-blocks" <<'PY'
import re, sys
out, n = sys.argv[1], 0
for path in sys.argv[2:]:
    lines, inside, cur = open(path, encoding="utf-8").read().split("\n"), False, None
    for l in lines:
        if l.startswith("```"):
            if inside and cur and cur[0].startswith("$ kubectl gpu top"):
                m = re.search(r"#.*on an? (\d+)x(\d+) terminal", cur[0])
                args = re.sub(r"\s+#.*$", "", cur[0])[len("$ kubectl gpu "):]
                n += 1
                open("%s/top-%d.want" % (out, n), "w").write("\n".join(x.rstrip() for x in cur[1:]) + "\n")
                print("%s\t%s\t%s\t%s" % (path, m.group(1) if m else "", m.group(2) if m else "", args))
            inside, cur = not inside, []
            continue
        if inside:
            cur.append(l)
PY
NTOP=$(grep -c . "$T/top-blocks")
check_match "$NTOP" '^[1-9]' "top's samples were found ($NTOP)"
. "$KGPU_ROOT/tests/lib/tmux.sh"
i=0
while IFS=$'\t' read -r file cols rows args; do
  i=$((i + 1))
  name="$(basename "$file"): kubectl gpu $args"
  if [ -z "$cols" ]; then fail "$name: the block does not say its terminal (# on a WxH terminal)"; continue; fi
  start_shell "top$i" "$cols" "$rows" NO_COLOR=1
  keys "top$i" "cd '$KGPU_ROOT' && clear && $KGPU_BIN $args" Enter
  # drawn: the function bar is the last line, and the screen holds still for a moment
  if ! wait_re "top$i" 'q Quit *$' 15; then fail "$name: top did not draw: $SCREEN"; continue; fi
  if ! wait_gone "top$i" 'loading' 30; then fail "$name: top did not load: $SCREEN"; continue; fi
  prev=""
  for k in $(seq 1 30); do cap "top$i"; [ "$SCREEN" = "$prev" ] && break; prev=$SCREEN; sleep 0.1; done
  sed 's/[[:space:]]*$//' <<<"$SCREEN" >"$T/top-$i.got"
  sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$T/top-$i.got"
  if diff -u "$T/top-$i.want" "$T/top-$i.got" >"$T/top-$i.diff"; then ok "$name: the sample is what top draws (${cols}x$rows)"
  else fail "$name: the sample differs from what top draws:"$'\n'"$(head -20 "$T/top-$i.diff")"; fi
  keys "top$i" q
  TM kill-session -t "top$i"
done <"$T/top-blocks"

# ---- the README is a front page --------------------------------------------------------------------
N=$(wc -l <"$README")
if [ "$N" -le 120 ]; then ok "README: a front page ($N lines)"; else fail "README: $N lines (the details belong in docs/)"; fi
first_sample=$(grep -n '^\$ kubectl gpu ' "$README" | head -1 | cut -d: -f1)
if [ -n "$first_sample" ] && [ "$first_sample" -le 30 ]; then ok "README: a real sample near the top (line $first_sample)"
else fail "README: the first sample at line ${first_sample:-none}"; fi
for h in "## Install" "## Quick start" "## More"; do
  check_match "$(cat "$README")" "^$h\$" "README: a section $h"
done
# install: what exists today (from source, an archive from make dist) before the krew index,
# which does not list the plugin yet and is said to be so
src_line=$(grep -n 'make && sudo make install' "$README" | head -1 | cut -d: -f1)
krew_line=$(grep -n 'krew' "$README" | head -1 | cut -d: -f1)
if [ -n "$src_line" ] && [ -n "$krew_line" ] && [ "$src_line" -lt "$krew_line" ]; then ok "README: install from source comes before krew"
else fail "README: install from source (line ${src_line:-none}) should come before krew (line ${krew_line:-none})"; fi
check_match "$(cat "$README")" 'krew install gpu` will work once .* not yet' "README: the krew index listing is said not to exist yet"
QS=$(awk '/^## Quick start/ { on = 1; next } /^## / { on = 0 } on' "$README" | grep -cE '^    kubectl gpu (status|pending|explain|plan|top)\b')
check_eq "$QS" 5 "README: five quick-start commands (status, pending, explain, plan, top)"
# every relative link of the README and the docs names a file that exists
python3 - "$KGPU_ROOT" "$README" "$KGPU_ROOT"/docs/*.md >"$T/links" <<'PY'
import os, re, sys
root = sys.argv[1]
for path in sys.argv[2:]:
    for m in re.finditer(r"\]\(([^)#:]+)(#[^)]*)?\)", open(path, encoding="utf-8").read()):
        target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
        print("%s %s %s" % ("ok" if os.path.exists(target) else "missing", os.path.relpath(path, root), m.group(1)))
PY
check_match "$(grep -c '^ok ' "$T/links")" '^[5-9]|^[1-9][0-9]' "README and docs: relative links found ($(grep -c '^ok ' "$T/links"))"
check_eq "$(grep '^missing ' "$T/links")" "" "README and docs: every relative link names a file that exists"
# the sections moved out are not in the README any more
for gone in "## Performance on large clusters" "## Releases" "## Development" "### Watching" "#### Where the numbers come from"; do
  check_not_contains "$(cat "$README")" "$gone" "README: '$gone' moved to docs/"
done
