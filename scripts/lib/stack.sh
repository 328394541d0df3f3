# shellcheck shell=bash
# The service stack: the payment provider simulator, projector, command-api,
# query-api and the gateway, each a supervised child with its own log. Used by `up` and by the end-to-end stage
# of `test`, with different addresses and log directories.
#
# Set before stack_start: BIN_DIR, DATABASE_URL (exported; or stack_use_roles), STACK_LOG_DIR,
# GATEWAY_ADDR, COMMAND_ADDR, QUERY_ADDR, PROJECTOR_ADDR, WEB_DIST,
# NAVALHA_OUTBOX_DIR (exported); PROVIDER_SIM_ADDR (default 127.0.0.1:8090).
# Unless NAVALHA_GALAXPAY_URL names a real provider, command-api is pointed at
# the simulator, whose webhooks go back to command-api. Unless NAVALHA_CEP_URL
# names a postal-code service, the gateway's CEP lookups go to the simulator's
# ViaCEP twin (/ws), since the real ViaCEP is out of reach from here and from CI.

SVC_NAMES=() SVC_PIDS=() SVC_LOGS=()
# For stack_supervise's restarts, by the same index: each service's command line (printf %q,
# for eval), when it last started (epoch s), its restarts so far, its next backoff (s), its
# deaths within the last window (epoch s, space-separated) and when its pending restart is due
# (epoch ms; empty while it runs).
SVC_CMDS=() SVC_SINCE=() SVC_RESTARTS=() SVC_BACKOFF=() SVC_DEATHS=() SVC_DUE=()
SVC_SPAWNED='' NOW_MS=0 STACK_ERR=2
# The restart policy: back off 0, 1, 2, 4 … STACK_BACKOFF_MAX s; a service that stayed up
# STACK_STABLE_S s starts over at 0; STACK_MAX_DEATHS deaths within STACK_DEATH_WINDOW_S s
# stop everything.
STACK_BACKOFF_MAX=30 STACK_STABLE_S=60 STACK_MAX_DEATHS=5 STACK_DEATH_WINDOW_S=120
# Log files, not terminals: no colour codes in them.
PLAIN_LOGS=(env NO_COLOR=1)
STACK_SERVICES=(provider-sim projector command-api query-api gateway)
STACK_SIM_URL_SET=0
STACK_CEP_URL_SET=0
STACK_WHATSAPP_URL_SET=0
# Each part's connection string; empty means DATABASE_URL (a developer's own database).
STACK_DB_OWNER='' STACK_DB_COMMAND='' STACK_DB_QUERY='' STACK_DB_PROJECTOR=''

# stack_use_roles DB: migrations as navalha_owner, each service as its own role, on the
# private cluster's database DB (after pg_setup_roles DB), as in production (docs/deploy.md).
stack_use_roles() {
  STACK_DB_OWNER=$(pg_role_url navalha_owner "$1")
  STACK_DB_COMMAND=$(pg_role_url navalha_command "$1")
  STACK_DB_QUERY=$(pg_role_url navalha_query "$1")
  STACK_DB_PROJECTOR=$(pg_role_url navalha_projector "$1")
}

# stack_db PART: the connection string of owner, command, query or projector.
stack_db() {
  local var="STACK_DB_${1^^}"
  printf '%s' "${!var:-$DATABASE_URL}"
}

# Services die with the launcher even if it is killed with SIGKILL.
if setpriv --help 2>/dev/null | grep -q -- --pdeathsig; then HAVE_PDEATHSIG=1; else HAVE_PDEATHSIG=0; fi

# start_service NAME LOG CMD...: start CMD in its own session (so Ctrl-C on the
# terminal reaches only the launcher, which then stops services in order), LOG emptied first.
start_service() {
  local name=$1 log=$2
  shift 2
  printf '== %(%F %T)T: %s\n' -1 "$*" >"$log"
  _svc_spawn "$log" "$@"
  SVC_NAMES+=("$name")
  SVC_PIDS+=("$SVC_SPAWNED")
  SVC_LOGS+=("$log")
  SVC_CMDS+=("$(printf '%q ' "$@")")
  SVC_SINCE+=("$EPOCHSECONDS")
  SVC_RESTARTS+=(0) SVC_BACKOFF+=(0) SVC_DEATHS+=('') SVC_DUE+=('')
}

# _svc_spawn LOG CMD...: CMD in its own session, its output appended to LOG, its pid in
# SVC_SPAWNED. Never call it in $(…): the service must be the launcher's own child.
_svc_spawn() {
  local log=$1
  shift
  set -- "${PLAIN_LOGS[@]}" "$@"
  if [[ $HAVE_PDEATHSIG == 1 ]]; then set -- setpriv --pdeathsig TERM -- "$@"; fi
  setsid "$@" >>"$log" 2>&1 </dev/null &
  SVC_SPAWNED=$!
}

stack_check_binaries() {
  local b
  for b in provider-sim command-api projector query-api gateway; do
    [[ -x $BIN_DIR/$b ]] || die "$BIN_DIR/$b not found: did \`cargo build --workspace\` succeed?"
  done
}

stack_check_ports() {
  local name addr
  for name in "${STACK_SERVICES[@]}"; do
    addr=$(stack_addr "$name")
    port_is_free "$(addr_port "$addr")" ||
      die "port $(addr_port "$addr") ($name) is already in use: stop what holds it, or set $(stack_env_var "$name")"
  done
}

stack_addr() {
  case $1 in
    provider-sim) printf '%s' "${PROVIDER_SIM_ADDR:=${NAVALHA_PROVIDER_SIM_LISTEN:-127.0.0.1:8090}}" ;;
    projector) printf '%s' "$PROJECTOR_ADDR" ;;
    command-api) printf '%s' "$COMMAND_ADDR" ;;
    query-api) printf '%s' "$QUERY_ADDR" ;;
    gateway) printf '%s' "$GATEWAY_ADDR" ;;
  esac
}

stack_env_var() {
  case $1 in
    provider-sim) printf NAVALHA_PROVIDER_SIM_LISTEN ;;
    projector) printf NAVALHA_PROJECTOR_HEALTH_LISTEN ;;
    command-api) printf NAVALHA_COMMAND_LISTEN ;;
    query-api) printf NAVALHA_QUERY_LISTEN ;;
    gateway) printf NAVALHA_GATEWAY_LISTEN ;;
  esac
}

stack_health_url() {
  local addr
  addr=$(addr_connect "$(stack_addr "$1")")
  if [[ $1 == gateway ]]; then
    printf 'http://%s/gateway/health' "$addr"
  else
    printf 'http://%s/health' "$addr"
  fi
}

# stack_start: all five, the simulator and the projector first.
stack_start() {
  mkdir -p "$STACK_LOG_DIR" "$NAVALHA_OUTBOX_DIR"
  local sim_addr
  sim_addr=$(stack_addr provider-sim)
  if [[ -z ${NAVALHA_GALAXPAY_URL:-} || $STACK_SIM_URL_SET == 1 ]]; then
    STACK_SIM_URL_SET=1
    export NAVALHA_GALAXPAY_URL="http://$(addr_connect "$sim_addr")/v2"
    export NAVALHA_GALAXPAY_ID=${NAVALHA_GALAXPAY_ID:-5473}
    export NAVALHA_GALAXPAY_HASH=${NAVALHA_GALAXPAY_HASH:-sim-galax-hash}
    export NAVALHA_GALAXPAY_WEBHOOK_HASH=${NAVALHA_GALAXPAY_WEBHOOK_HASH:-sim-webhook-hash}
    # The checkout page loads the simulator's copy of GalaxPay's card tokenizer.
    export NAVALHA_GALAXPAY_JS_URL="http://$(addr_connect "$sim_addr")/checkout.min.js"
    export NAVALHA_GALAXPAY_PUBLIC_TOKEN=${NAVALHA_GALAXPAY_PUBLIC_TOKEN:-sim-public-token}
  fi
  # WhatsApp goes to the simulator's twin of Meta's Cloud API (docs/messages.md) unless
  # NAVALHA_WHATSAPP_URL names the real one.
  if [[ -z ${NAVALHA_WHATSAPP_URL:-} || $STACK_WHATSAPP_URL_SET == 1 ]]; then
    STACK_WHATSAPP_URL_SET=1
    export NAVALHA_WHATSAPP_URL="http://$(addr_connect "$sim_addr")/whatsapp/v21.0"
    export NAVALHA_WHATSAPP_TOKEN=${NAVALHA_WHATSAPP_TOKEN:-sim-whatsapp-token}
    export NAVALHA_WHATSAPP_PHONE_NUMBER_ID=${NAVALHA_WHATSAPP_PHONE_NUMBER_ID:-106540352242922}
    export NAVALHA_WHATSAPP_APP_SECRET=${NAVALHA_WHATSAPP_APP_SECRET:-sim-whatsapp-secret}
    export NAVALHA_WHATSAPP_VERIFY_TOKEN=${NAVALHA_WHATSAPP_VERIFY_TOKEN:-sim-verify-token}
  fi
  if [[ -z ${NAVALHA_CEP_URL:-} || $STACK_CEP_URL_SET == 1 ]]; then
    STACK_CEP_URL_SET=1
    export NAVALHA_CEP_URL="http://$(addr_connect "$sim_addr")/ws"
  fi
  start_service provider-sim "$STACK_LOG_DIR/provider-sim.log" \
    "$BIN_DIR/provider-sim" --listen "$sim_addr" \
    --webhook-url "http://$(addr_connect "$COMMAND_ADDR")/api/galaxpay/webhook" \
    --whatsapp-webhook-url "http://$(addr_connect "$COMMAND_ADDR")/api/no-auth/whatsapp/webhook" \
    --public-url "http://$(addr_connect "$sim_addr")"
  start_service projector "$STACK_LOG_DIR/projector.log" DATABASE_URL="$(stack_db projector)" \
    "$BIN_DIR/projector" run --health-listen "$PROJECTOR_ADDR"
  start_service command-api "$STACK_LOG_DIR/command-api.log" DATABASE_URL="$(stack_db command)" \
    "$BIN_DIR/command-api" serve --listen "$COMMAND_ADDR"
  start_service query-api "$STACK_LOG_DIR/query-api.log" DATABASE_URL="$(stack_db query)" \
    "$BIN_DIR/query-api" serve --listen "$QUERY_ADDR"
  start_service gateway "$STACK_LOG_DIR/gateway.log" \
    "$BIN_DIR/gateway" --listen "$GATEWAY_ADDR" \
    --command-url "http://$(addr_connect "$COMMAND_ADDR")" \
    --query-url "http://$(addr_connect "$QUERY_ADDR")" \
    --web-dist "$WEB_DIST"
}

# stack_dead: prints "NAME PID LOG" of the first service that has exited.
stack_dead() {
  local i
  for i in "${!SVC_PIDS[@]}"; do
    if ! alive "${SVC_PIDS[$i]}"; then
      printf '%s %s %s' "${SVC_NAMES[$i]}" "${SVC_PIDS[$i]}" "${SVC_LOGS[$i]}"
      return 0
    fi
  done
  return 1
}

# report_dead_line "NAME PID LOG": say which service died, with its exit status and log.
report_dead_line() {
  local name pid log rc=0
  read -r name pid log <<<"$1"
  wait "$pid" 2>/dev/null || rc=$?
  ticker_stop
  _clear_step_line
  printf '%serror:%s %s exited (status %s); its log is %s\n' "$RED" "$RESET" "$name" "$rc" "$(rel "$log")" >&2
  show_tail "$log" 25 >&2
}

# stack_wait_healthy [TIMEOUT_S]: until every /health answers 200. Fails as
# soon as a service exits, or at the timeout.
stack_wait_healthy() {
  local timeout=${1:-90} deadline name url code dead pending
  deadline=$((EPOCHSECONDS + timeout))
  pending=("${STACK_SERVICES[@]}")
  while ((${#pending[@]} > 0)); do
    if dead=$(stack_dead); then
      report_dead_line "$dead"
      return 1
    fi
    local still=()
    for name in "${pending[@]}"; do
      url=$(stack_health_url "$name")
      code=$(http_status "$url")
      [[ $code == 200 ]] || still+=("$name")
    done
    pending=("${still[@]}")
    ((${#pending[@]} == 0)) && break
    if ((EPOCHSECONDS >= deadline)); then
      ticker_stop
      _clear_step_line
      for name in "${pending[@]}"; do
        printf '%serror:%s %s did not become healthy in %ss (%s answered %s); its log is %s\n' \
          "$RED" "$RESET" "$name" "$timeout" "$(stack_health_url "$name")" \
          "$(http_status "$(stack_health_url "$name")")" "$(rel "$STACK_LOG_DIR/$name.log")" >&2
        show_tail "$STACK_LOG_DIR/$name.log" 20 >&2
      done
      return 1
    fi
    sleep 0.5
  done
}

# stack_supervise (under `up`): a service that exits is started again with the same command
# line, the others running on; see the restart policy above. Returns (non-zero) only when a
# service dies STACK_MAX_DEATHS times within STACK_DEATH_WINDOW_S s, or our PostgreSQL stops.
# Bash reports a child killed by a signal ("line N: PID Killed  setsid …") on stderr at a time
# of its own choosing; the loop's stderr goes to /dev/null, and what it says to STACK_ERR.
stack_supervise() {
  local rc=0
  exec {STACK_ERR}>&2
  _stack_supervise 2>/dev/null || rc=$?
  exec {STACK_ERR}>&-
  return "$rc"
}

# The sleep runs in the background so a signal interrupts `wait` at once.
_stack_supervise() {
  local i nap naps
  while :; do
    if [[ $PG_STARTED == 1 ]] && ! pg_is_running; then
      printf '%serror:%s PostgreSQL stopped; its log is %s\n' "$RED" "$RESET" "$(rel "$PG_LOG")" >&"$STACK_ERR"
      show_tail "$PG_LOG" 25 >&"$STACK_ERR"
      PG_STARTED=0
      return 1
    fi
    _now_ms
    nap=1000
    for i in "${!SVC_PIDS[@]}"; do
      if [[ -z ${SVC_DUE[$i]} ]]; then
        alive "${SVC_PIDS[$i]}" && continue
        _svc_died "$i" || return 1
      fi
      if ((NOW_MS >= SVC_DUE[i])); then
        _svc_restart "$i"
      elif ((SVC_DUE[i] - NOW_MS < nap)); then
        nap=$((SVC_DUE[i] - NOW_MS))
      fi
    done
    printf -v naps '%d.%03d' $((nap / 1000)) $((nap % 1000))
    sleep "$naps" &
    wait $! || true
  done
}

# NOW_MS: the time in milliseconds (no fork).
_now_ms() {
  local t=${EPOCHREALTIME/[.,]/}
  NOW_MS=$((t / 1000))
}

# _svc_exit_words STATUS: "exit status 101", or "killed by SIGKILL" for 128 + a signal.
_svc_exit_words() {
  local sig
  if (($1 > 128)) && sig=$(kill -l "$(($1 - 128))" 2>/dev/null); then
    printf 'killed by SIG%s' "$sig"
  else
    printf 'exit status %s' "$1"
  fi
}

# _svc_died I: service I has exited. Says so on the terminal and in its log, and schedules its
# restart (SVC_DUE) after its backoff; fails, after showing its log's tail, when it has died
# too often.
_svc_died() {
  local i=$1 rc=0 why up delay when t
  local name=${SVC_NAMES[$1]} log=${SVC_LOGS[$1]} deaths=() recent=()
  wait "${SVC_PIDS[$i]}" 2>/dev/null || rc=$?
  why=$(_svc_exit_words "$rc")
  up=$((EPOCHSECONDS - SVC_SINCE[i]))
  read -r -a deaths <<<"${SVC_DEATHS[$i]}"
  for t in "${deaths[@]}"; do
    if ((EPOCHSECONDS - t < STACK_DEATH_WINDOW_S)); then recent+=("$t"); fi
  done
  recent+=("$EPOCHSECONDS")
  SVC_DEATHS[i]=${recent[*]}
  ticker_stop
  _clear_step_line
  if ((${#recent[@]} >= STACK_MAX_DEATHS)); then
    printf '== %(%F %T)T: exited (%s); %d exits within %ds: not restarting\n' -1 \
      "$why" "${#recent[@]}" "$STACK_DEATH_WINDOW_S" >>"$log"
    printf '%serror:%s %s exited (%s), %d times within %ds: not restarting it; its log is %s\n' \
      "$RED" "$RESET" "$name" "$why" "${#recent[@]}" "$STACK_DEATH_WINDOW_S" "$(rel "$log")" >&"$STACK_ERR"
    show_tail "$log" 25 >&"$STACK_ERR"
    return 1
  fi
  if ((up >= STACK_STABLE_S)); then SVC_BACKOFF[i]=0; fi
  delay=${SVC_BACKOFF[$i]}
  SVC_BACKOFF[i]=$((delay == 0 ? 1 : (delay * 2 > STACK_BACKOFF_MAX ? STACK_BACKOFF_MAX : delay * 2)))
  SVC_RESTARTS[i]=$((SVC_RESTARTS[i] + 1))
  SVC_DUE[i]=$((NOW_MS + delay * 1000))
  when=restarting
  if ((delay > 0)); then when="restarting in ${delay}s"; fi
  printf '== %(%F %T)T: exited (%s); %s (restart %d)\n' -1 "$why" "$when" "${SVC_RESTARTS[$i]}" >>"$log"
  printf '%swarning:%s %(%T)T %s exited (%s) after %ds; %s (restart %d); its log is %s\n' \
    "$YELLOW" "$RESET" -1 "$name" "$why" "$up" "$when" "${SVC_RESTARTS[$i]}" "$(rel "$log")" >&"$STACK_ERR"
}

# _svc_restart I: start service I again as start_service did, appending to its log.
_svc_restart() {
  local i=$1
  eval "set -- ${SVC_CMDS[$i]}"
  printf '== %(%F %T)T: restart %d: %s\n' -1 "${SVC_RESTARTS[$i]}" "$*" >>"${SVC_LOGS[$i]}"
  _svc_spawn "${SVC_LOGS[$i]}" "$@"
  SVC_PIDS[i]=$SVC_SPAWNED
  SVC_SINCE[i]=$EPOCHSECONDS
  SVC_DUE[i]=''
}

# stack_stop: SIGTERM in reverse start order (the gateway first, so no new
# requests arrive), then SIGKILL whatever is left after 10 s.
stack_stop() {
  local i pid deadline
  ((${#SVC_PIDS[@]} > 0)) || return 0
  for ((i = ${#SVC_PIDS[@]} - 1; i >= 0; i--)); do
    pid=${SVC_PIDS[$i]}
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  deadline=$((EPOCHSECONDS + 10))
  for pid in "${SVC_PIDS[@]}"; do
    while alive "$pid" && ((EPOCHSECONDS < deadline)); do sleep 0.1; done
    if alive "$pid"; then
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  SVC_NAMES=() SVC_PIDS=() SVC_LOGS=()
  SVC_CMDS=() SVC_SINCE=() SVC_RESTARTS=() SVC_BACKOFF=() SVC_DEATHS=() SVC_DUE=()
}

# Print the tail of every service log (after a failed end-to-end run).
stack_show_logs() {
  local name
  for name in "${STACK_SERVICES[@]}"; do
    printf '%s%s%s\n' "$BOLD" "$name" "$RESET"
    show_tail "$STACK_LOG_DIR/$name.log" "${1:-40}"
  done
}
