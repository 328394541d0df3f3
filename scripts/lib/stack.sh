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
# Log files, not terminals: no colour codes in them.
PLAIN_LOGS=(env NO_COLOR=1)
STACK_SERVICES=(provider-sim projector command-api query-api gateway)
STACK_SIM_URL_SET=0
STACK_CEP_URL_SET=0
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
# terminal reaches only the launcher, which then stops services in order).
start_service() {
  local name=$1 log=$2
  shift 2
  printf '== %s: %s\n' "$(date '+%F %T')" "$*" >"$log"
  set -- "${PLAIN_LOGS[@]}" "$@"
  if [[ $HAVE_PDEATHSIG == 1 ]]; then set -- setpriv --pdeathsig TERM -- "$@"; fi
  setsid "$@" >>"$log" 2>&1 </dev/null &
  SVC_NAMES+=("$name")
  SVC_PIDS+=("$!")
  SVC_LOGS+=("$log")
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
  if [[ -z ${NAVALHA_CEP_URL:-} || $STACK_CEP_URL_SET == 1 ]]; then
    STACK_CEP_URL_SET=1
    export NAVALHA_CEP_URL="http://$(addr_connect "$sim_addr")/ws"
  fi
  start_service provider-sim "$STACK_LOG_DIR/provider-sim.log" \
    "$BIN_DIR/provider-sim" --listen "$sim_addr" \
    --webhook-url "http://$(addr_connect "$COMMAND_ADDR")/api/galaxpay/webhook" \
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

# stack_supervise: returns (non-zero) only when a service or our PostgreSQL
# dies. The sleep runs in the background so a signal interrupts `wait` at once.
stack_supervise() {
  local dead
  while :; do
    if dead=$(stack_dead); then
      report_dead_line "$dead"
      return 1
    fi
    if [[ $PG_STARTED == 1 ]] && ! pg_is_running; then
      printf '%serror:%s PostgreSQL stopped; its log is %s\n' "$RED" "$RESET" "$(rel "$PG_LOG")" >&2
      show_tail "$PG_LOG" 25 >&2
      PG_STARTED=0
      return 1
    fi
    sleep 1 &
    wait $! || true
  done
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
}

# Print the tail of every service log (after a failed end-to-end run).
stack_show_logs() {
  local name
  for name in "${STACK_SERVICES[@]}"; do
    printf '%s%s%s\n' "$BOLD" "$name" "$RESET"
    show_tail "$STACK_LOG_DIR/$name.log" "${1:-40}"
  done
}
