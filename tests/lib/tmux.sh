# tmux.sh — drives top in tmux for the integration tests (source after common.sh).
# Sourcing it checks that tmux is there (fails the test otherwise), starts a tmux server on a
# socket under $T that the test's exit kills, and defines:
#   start_shell NAME W H [ENV...]  a bare shell (prompt "$ ", LANG=C.UTF-8 unless ENV says
#                                  otherwise) in a new session of W x H
#   keys NAME KEY...               tmux send-keys
#   cap NAME / cap_e NAME          the pane's text (cap_e: with its escape sequences) into SCREEN
#   wait_for NAME TEXT [SECONDS]   until the pane shows TEXT (fixed string); SCREEN holds it
#   wait_re NAME REGEX [SECONDS]   until the pane matches REGEX
#   wait_gone NAME TEXT [SECONDS]  until the pane no longer shows TEXT
#                                  (each wait ends on a settled pane: two captures alike)
#   check_ok CMD...                ok "$MSG" when CMD succeeds, else fail with the screen
# Every wait polls the pane every 0.1 s with a bound (default 10 s); nothing sleeps long.
if ! command -v tmux >/dev/null; then
  fail "tmux is not installed (scripts/install-deps.sh test)"
  exit 1
fi
SOCK="$T/tmux.sock"
TM() { tmux -S "$SOCK" "$@"; }
on_exit "tmux -S '$SOCK' kill-server"
SCREEN=""
# a session that lives as long as the test: the server does not exit (and race a new
# session) each time a test session is killed
TM new-session -d -s keep -x 80 -y 24 "sleep 600"

start_shell() {
  local name=$1 w=$2 h=$3; shift 3
  TM new-session -d -s "$name" -x "$w" -y "$h" \
    env -i PATH="$PATH" HOME="$T" TERM=tmux-256color LANG=C.UTF-8 PS1='$ ' "$@" bash --norc --noprofile
  TM set -t "$name" status off >/dev/null
}
keys() { local name=$1; shift; TM send-keys -t "$name" "$@"; }
cap() { SCREEN=$(TM capture-pane -p -t "$1"); }
cap_e() { SCREEN=$(TM capture-pane -p -e -t "$1"); }
# a match counts once the pane has settled: a second capture 0.05 s later is the same (a frame
# written in more than one piece, or a prompt printed after a command's last line, is not
# checked half-way)
_tmux_settled() {   # _tmux_settled NAME: SCREEN as captured, and unchanged 0.05 s later
  local before=$SCREEN
  sleep 0.05
  cap "$1"
  [ "$SCREEN" = "$before" ]
}
_tmux_wait() {   # _tmux_wait NAME SECONDS GREP-ARGS...
  local name=$1 secs=$2 i; shift 2
  for i in $(seq 1 $((secs * 10))); do
    cap "$name"
    grep -q "$@" <<<"$SCREEN" && _tmux_settled "$name" && return 0
    sleep 0.1
  done
  return 1
}
wait_for() { _tmux_wait "$1" "${3:-10}" -F -- "$2"; }
wait_re() { _tmux_wait "$1" "${3:-10}" -E -- "$2"; }
wait_gone() {
  local name=$1 text=$2 secs=${3:-10} i
  for i in $(seq 1 $((secs * 10))); do
    cap "$name"
    grep -qF -- "$text" <<<"$SCREEN" || { _tmux_settled "$name" && return 0; }
    sleep 0.1
  done
  return 1
}
check_ok() { if "$@"; then ok "${MSG}"; else fail "${MSG}: screen was:"$'\n'"$SCREEN"; fi; }
