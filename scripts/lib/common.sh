# shellcheck shell=bash
# Output, numbered steps, errors and child-process helpers shared by ./navalha.
# Sourced, never run; expects ROOT (the repository root) to be set.

if [[ -t 1 ]]; then IS_TTY=1; else IS_TTY=0; fi
if [[ $IS_TTY == 1 && -z ${NO_COLOR:-} ]]; then
  BOLD=$'\e[1m' DIM=$'\e[2m' RED=$'\e[31m' GREEN=$'\e[32m' YELLOW=$'\e[33m' RESET=$'\e[0m'
else
  BOLD='' DIM='' RED='' GREEN='' YELLOW='' RESET=''
fi

# Paths as the user sees them: relative to the repository when inside it.
rel() { local p=$1; [[ $p == "$ROOT"/* ]] && p=${p#"$ROOT"/}; printf '%s' "$p"; }

# Free megabytes on the file system holding PATH (or its nearest existing parent).
disk_free_mb() {
  local path=$1
  until [[ -e $path ]]; do path=$(dirname "$path"); done
  df -Pm "$path" | awk 'NR == 2 { print $4 }'
}
DISK_NEEDED_MB=6000 # a clean `./navalha test`: target/ about 4.5 GB, node_modules, the clusters
DISK_FULL_MB=1000   # below this, a failed stage is put down to the disk

# warn_low_disk PATH: a full disk fails builds with errors that do not say so (a killed
# rustc, ENOENT from vite), so say it before they start.
warn_low_disk() {
  local free_mb
  free_mb=$(disk_free_mb "$1")
  ((free_mb >= DISK_NEEDED_MB)) ||
    warn "only $free_mb MB free on the disk of $(rel "$1"): a clean build and its databases need about $((DISK_NEEDED_MB / 1000)) GB and may fail"
}

info() { printf '%s\n' "$*"; }
warn() { _clear_step_line; printf '%swarning:%s %s\n' "$YELLOW" "$RESET" "$*" >&2; }
die() {
  ticker_stop
  _clear_step_line
  [[ -n $STEP_LABEL ]] && printf '%s %sfailed%s\n' "$STEP_LABEL" "$RED" "$RESET" >&2
  STEP_LABEL=''
  printf '%serror:%s %s\n' "$RED" "$RESET" "$*" >&2
  exit 1
}

# Print the last lines of a log, indented, so a failure explains itself.
show_tail() {
  local log=$1 n=${2:-30}
  [[ -s $log ]] || { printf '    (%s is empty)\n' "$(rel "$log")"; return 0; }
  printf '%s--- last %d lines of %s ---%s\n' "$DIM" "$n" "$(rel "$log")" "$RESET"
  tail -n "$n" "$log" | sed 's/^/    /'
  printf '%s---%s\n' "$DIM" "$RESET"
}

# ---------------------------------------------------------------------------
# Numbered steps: "[3/7] building services (cargo)… ok (43s)".
# On a terminal a ticker redraws the line every second with the elapsed time
# and, when the step writes a log, that log's last line, so a five-minute
# first build does not look frozen.

STEP_NO=0 STEP_TOTAL=0 STEP_LABEL='' STEP_T0=0 TICKER_PID=''

steps_begin() { STEP_TOTAL=$1; STEP_NO=0; }

# step LABEL [LOG]
step() {
  ticker_stop
  STEP_NO=$((STEP_NO + 1))
  STEP_LABEL="[$STEP_NO/$STEP_TOTAL] $1…"
  STEP_T0=$EPOCHSECONDS
  if [[ $IS_TTY == 1 ]]; then
    _ticker "$STEP_LABEL" "$STEP_T0" "${2:-}" 2>/dev/null &
    TICKER_PID=$!
    disown "$TICKER_PID" # no "Killed" job report when it is stopped
  else
    printf '%s\n' "$STEP_LABEL"
  fi
}

# step_ok [DETAIL]
step_ok() {
  ticker_stop
  local secs=$((EPOCHSECONDS - STEP_T0)) detail=${1:+, $1}
  if [[ $IS_TTY == 1 ]]; then
    printf '\r\e[K%s %sok%s (%ds%s)\n' "$STEP_LABEL" "$GREEN" "$RESET" "$secs" "$detail"
  else
    printf '    ok (%ds%s)\n' "$secs" "$detail"
  fi
  STEP_LABEL=''
}

# A message in the middle of a step; the ticker redraws the step line after it.
note() { _clear_step_line; printf '    %s\n' "$*"; }

# On a terminal a step's line stays open (no newline) until the step ends.
_clear_step_line() { if [[ $IS_TTY == 1 && -n $STEP_LABEL ]]; then printf '\r\e[K'; fi; }

ticker_stop() {
  [[ -n $TICKER_PID ]] || return 0
  # SIGKILL: the ticker holds nothing, and a TERM caught by bash mid-start
  # makes it print internal warnings.
  kill -KILL "$TICKER_PID" 2>/dev/null || true
  wait_gone "$TICKER_PID" 1
  TICKER_PID=''
}

_ticker() {
  local label=$1 t0=$2 log=$3 cols line last room
  while :; do
    cols=$(tput cols 2>/dev/null || echo 80)
    line="$label $((EPOCHSECONDS - t0))s"
    last=''
    if [[ -n $log && -s $log ]]; then
      last=$(tail -n 1 "$log" 2>/dev/null | tr -d '\r' | sed 's/\x1b\[[0-9;]*[A-Za-z]//g; s/^[[:space:]]*//')
    fi
    room=$((cols - ${#line} - 3))
    if ((room > 10)) && [[ -n $last ]]; then
      printf '\r\e[K%s  %s%s%s' "$line" "$DIM" "${last:0:room}" "$RESET"
    else
      printf '\r\e[K%s' "${line:0:cols-1}"
    fi
    sleep 1
  done
}

# ---------------------------------------------------------------------------
# Long commands (builds, installs, test runs) run in the background in their
# own session and are waited for: a SIGTERM then reaches our trap at once
# instead of after a ten-minute build, and the cleanup can stop the command's
# whole process tree (npm -> node -> chromium) by its process group.

FG_PID=''

# run_child [-C DIR] CMD...  (CMD is a program, not a shell function; its output
# goes wherever the caller redirected it)
run_child() {
  local dir=. rc=0
  if [[ $1 == -C ]]; then dir=$2; shift 2; fi
  (cd "$dir" && exec setsid "$@") &
  FG_PID=$!
  wait "$FG_PID" || rc=$?
  FG_PID=''
  return "$rc"
}

# run_logged LOG [-C DIR] CMD...  (output appended to LOG; on failure its tail is shown)
run_logged() {
  local log=$1 rc=0
  shift
  if [[ $1 == -C ]]; then
    printf '\n(in %s) $ %s\n' "$2" "${*:3}" >>"$log"
  else
    printf '\n$ %s\n' "$*" >>"$log"
  fi
  run_child "$@" >>"$log" 2>&1 || rc=$?
  if ((rc != 0)); then
    ticker_stop
    _clear_step_line
    printf '\n' >&2
    show_tail "$log" 40 >&2
  fi
  return "$rc"
}

kill_fg_child() {
  [[ -n $FG_PID ]] || return 0
  kill_tree "$FG_PID"
  FG_PID=''
}

# kill_tree PID: SIGTERM to the process group PID leads, SIGKILL after 10 s.
kill_tree() {
  local pid=$1
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || return 0
  wait_gone "$pid" 10 || kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
}

# A process that exited but is not yet reaped still answers kill -0.
alive() {
  local state=''
  kill -0 "$1" 2>/dev/null || return 1
  read -r _ _ state _ <"/proc/$1/stat" 2>/dev/null || return 0
  [[ $state != Z ]]
}

# wait_gone PID SECONDS: poll rather than `wait`, which can block forever
# inside a trap (bash holds SIGCHLD there and waits for any child).
wait_gone() {
  local pid=$1 tries=$(($2 * 10))
  while alive "$pid"; do
    ((tries-- > 0)) || return 1
    sleep 0.1
  done
}

# ---------------------------------------------------------------------------
# Ports and HTTP.

# True when nothing accepts connections on 127.0.0.1:PORT.
port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# find_free_port START: START or the first free port above it.
find_free_port() {
  local p=$1
  while ! port_is_free "$p"; do
    p=$((p + 1))
    ((p < $1 + 200)) || return 1
  done
  printf '%s' "$p"
}

# "127.0.0.1:8080" -> "8080"
addr_port() { printf '%s' "${1##*:}"; }

# An address a client can connect to: a wildcard listen address becomes loopback.
addr_connect() {
  local a=$1
  case $a in
    0.0.0.0:*) a="127.0.0.1:${a#0.0.0.0:}" ;;
    '[::]':*) a="[::1]:${a#\[::\]:}" ;;
  esac
  printf '%s' "$a"
}

# http_status URL: prints the HTTP status code, or 000 when nothing answers.
# curl when present; a bare /dev/tcp request otherwise (slim images lack curl).
http_status() {
  local url=$1
  if command -v curl >/dev/null 2>&1; then
    curl -s -o /dev/null -m 2 -w '%{http_code}' "$url" 2>/dev/null || true
    return 0
  fi
  local rest=${url#http://} hostport path host port code
  hostport=${rest%%/*}
  path=/${rest#*/}
  host=${hostport%:*}
  port=${hostport##*:}
  # shellcheck disable=SC2016 # expanded by the inner bash
  code=$(timeout 3 bash -c '
    exec 3<>"/dev/tcp/$1/$2" || exit 1
    printf "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n" "$3" "$1" >&3
    read -r _ code _ <&3 && printf "%s" "$code"' _ "$host" "$port" "$path" 2>/dev/null) || true
  printf '%s' "${code:-000}"
}

# ---------------------------------------------------------------------------
# apt needs root: sudo when we are not root (and have it).

ROOT_PREFIX=()
if [[ $EUID -ne 0 ]] && command -v sudo >/dev/null 2>&1; then ROOT_PREFIX=(sudo); fi
