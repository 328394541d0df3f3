#!/usr/bin/env bash
# Under `./navalha up`, a service that dies is restarted and the rest keep running (issue 16):
# starts `./navalha up --no-build` on free ports with its own data directory (never the
# developer's .data), kills query-api with SIGKILL, and checks that query-api answers again
# within 10 s, that the launcher and the gateway kept running, and that the launcher's output
# and query-api's log say what happened; then stops the launcher with SIGTERM and checks that
# nothing it started is left.
#
# Needs the binaries in target/debug (or CARGO_TARGET_DIR) and web/dist, as after
# `cargo build --workspace` and `npm run build`; no internet. Alone: scripts/test-supervise.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
# shellcheck source=lib/pg.sh
source "$ROOT/scripts/lib/pg.sh"

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
[[ $TARGET_DIR == /* ]] || TARGET_DIR=$ROOT/$TARGET_DIR
BIN_DIR=$TARGET_DIR/debug
WORK=$(mktemp -d /tmp/navalha-supervise.XXXXXX)
chmod 755 "$WORK" # the cluster's directory must be reachable by the postgres OS user
DATA=$WORK/data
OUT=$WORK/up.out
LAUNCHER=''

fail() {
  printf 'supervise test: FAILED: %s\n' "$*" >&2
  if [[ -f $OUT ]]; then
    printf -- '--- the launcher'\''s output ---\n' >&2
    tail -n 40 "$OUT" >&2
  fi
  exit 1
}
ok() { printf 'supervise test: %s (%ss)\n' "$*" "$((EPOCHSECONDS - T0))"; }

# pids_of PATTERN: the pids whose command line matches PATTERN (pgrep -f), one a line.
pids_of() { pgrep -f -- "$1" || true; }

# A dot in an address must match only a dot.
re() { printf '%s' "${1//./\\.}"; }

finish() {
  local rc=$? pat
  if [[ -n $LAUNCHER ]] && alive "$LAUNCHER"; then
    kill -TERM "$LAUNCHER" 2>/dev/null || true
    wait_gone "$LAUNCHER" 30 || kill -KILL "$LAUNCHER" 2>/dev/null || true
  fi
  # Whatever a launcher killed before its cleanup left behind.
  for pat in "${SERVICE_PATTERNS[@]}"; do
    pkill -KILL -f -- "$pat" 2>/dev/null || true
  done
  if [[ -f $DATA/pg/postmaster.pid ]] && pg_find_bin; then
    PG_DATA=$DATA/pg PG_STARTED=1
    pg_stop
  fi
  rm -rf "$WORK"
  exit "$rc"
}
SERVICE_PATTERNS=()
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

T0=$EPOCHSECONDS
for b in provider-sim projector command-api query-api gateway; do
  [[ -x $BIN_DIR/$b ]] || fail "$BIN_DIR/$b not found: build first (cargo build --workspace)"
done

# Five free ports in a row for the services, one for PostgreSQL. All lie below the kernel's
# range for outgoing connections (ip_local_port_range, 32768 and up by default), as the
# harness's do: a port in that range that nothing listens on may still be the local end of
# a client's connection, and then PostgreSQL cannot bind it ("Address already in use"),
# which is how this test failed in CI while the workspace tests held many connections.
port=18380
ports=()
for _ in 1 2 3 4 5; do
  port=$(find_free_port "$port") || fail "no free port above 18380"
  ports+=("$port")
  port=$((port + 1))
done
GATEWAY=127.0.0.1:${ports[0]} COMMAND=127.0.0.1:${ports[1]} QUERY=127.0.0.1:${ports[2]}
PROJECTOR=127.0.0.1:${ports[3]} SIM=127.0.0.1:${ports[4]}
PG_PORT=$(find_free_port 28480) || fail "no free port above 28480"
SERVICE_PATTERNS=(
  "provider-sim --listen $(re "$SIM")( |$)"
  "projector run --health-listen $(re "$PROJECTOR")( |$)"
  "command-api serve --listen $(re "$COMMAND")( |$)"
  "query-api serve --listen $(re "$QUERY")( |$)"
  "gateway --listen $(re "$GATEWAY")( |$)"
)

# The launcher, as a developer runs it, but on these ports and under $DATA; not the
# environment's database, provider or postal-code service.
env -u DATABASE_URL -u NAVALHA_GALAXPAY_URL -u NAVALHA_CEP_URL CARGO_TARGET_DIR="$TARGET_DIR" NO_COLOR=1 \
  NAVALHA_DATA_DIR="$DATA" NAVALHA_OUTBOX_DIR="$DATA/outbox" NAVALHA_MEDIA_DIR="$DATA/media" \
  NAVALHA_PG_PORT="$PG_PORT" NAVALHA_GATEWAY_LISTEN="$GATEWAY" NAVALHA_COMMAND_LISTEN="$COMMAND" \
  NAVALHA_QUERY_LISTEN="$QUERY" NAVALHA_PROJECTOR_HEALTH_LISTEN="$PROJECTOR" \
  NAVALHA_PROVIDER_SIM_LISTEN="$SIM" \
  "$ROOT/navalha" up --no-build >"$OUT" 2>&1 </dev/null &
LAUNCHER=$!

deadline=$((EPOCHSECONDS + 150))
until grep -q 'Navalha is running' "$OUT"; do
  alive "$LAUNCHER" || fail "./navalha up exited before the system was running"
  ((EPOCHSECONDS < deadline)) || fail "./navalha up was not running after 150 s"
  sleep 0.5
done
ok "./navalha up is running"

gateway_url=http://$GATEWAY/gateway/health
query_url=http://$QUERY/health
[[ $(http_status "$query_url") == 200 ]] || fail "query-api does not answer on $query_url"
[[ $(http_status "$gateway_url") == 200 ]] || fail "the gateway does not answer on $gateway_url"

# Every service's pid, to check at the end that none is left.
started=()
for pat in "${SERVICE_PATTERNS[@]}"; do
  mapfile -t found < <(pids_of "$pat")
  ((${#found[@]} == 1)) || fail "expected one process matching '$pat', found ${#found[@]}"
  started+=("${found[0]}")
done
old_query=${started[3]}

# --- query-api killed: back within 10 s, the rest untouched.
kill -KILL "$old_query"
killed_at=$EPOCHSECONDS
gateway_down=0
new_query=''
while :; do
  [[ $(http_status "$gateway_url") == 200 ]] || gateway_down=$((gateway_down + 1))
  if [[ $(http_status "$query_url") == 200 ]]; then
    new_query=$(pids_of "${SERVICE_PATTERNS[3]}")
    [[ -n $new_query && $new_query != "$old_query" ]] && break
  fi
  ((EPOCHSECONDS - killed_at <= 10)) || fail "query-api did not answer again within 10 s of its SIGKILL"
  sleep 0.2
done
started+=("$new_query")
ok "query-api answers again (pid $old_query -> $new_query) $((EPOCHSECONDS - killed_at))s after its SIGKILL"
alive "$LAUNCHER" || fail "the launcher exited when query-api died"
((gateway_down == 0)) || fail "the gateway stopped answering ($gateway_down times) while query-api restarted"
for i in 0 1 2 4; do
  alive "${started[$i]}" || fail "'${SERVICE_PATTERNS[$i]}' (pid ${started[$i]}) died with query-api"
done
ok "the launcher, the gateway and the other services kept running"

log=$DATA/logs/query-api.log
grep -q 'exited (killed by SIGKILL); restarting' "$log" ||
  { tail -n 20 "$log" >&2; fail "query-api's log does not say it was killed and restarted"; }
head -n 1 "$log" | grep -q "query-api serve --listen $QUERY" ||
  { head -n 3 "$log" >&2; fail "query-api's restart did not append to its log (the first start's line is gone)"; }
grep -q 'restart 1: .*query-api serve --listen' "$log" ||
  { tail -n 20 "$log" >&2; fail "query-api's log has no line for its restart"; }
grep -q 'query-api exited (killed by SIGKILL).*restarting' "$OUT" ||
  fail "the launcher's output does not say query-api was killed and restarted"
grep -q "restarting.*$(rel "$log")" "$OUT" || fail "the launcher's output does not name query-api's log"
ok "query-api's log and the launcher's output say it was killed and restarted"

# --- SIGTERM: the launcher stops everything and exits 0 (Ctrl-C is the normal way out of up).
kill -TERM "$LAUNCHER"
stopped_at=$EPOCHSECONDS
wait_gone "$LAUNCHER" 60 || fail "the launcher did not exit within 60 s of its SIGTERM"
rc=0
wait "$LAUNCHER" || rc=$?
LAUNCHER=''
((rc == 0)) || fail "the launcher exited with status $rc on SIGTERM"
for pid in "${started[@]}"; do
  ! alive "$pid" || fail "process $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)) outlived the launcher"
done
for pat in "${SERVICE_PATTERNS[@]}"; do
  [[ -z $(pids_of "$pat") ]] || fail "a process matching '$pat' outlived the launcher"
done
[[ ! -f $DATA/pg/postmaster.pid ]] || fail "PostgreSQL is still running after the launcher stopped"
[[ -z $(pids_of "postgres -D $(re "$DATA/pg")") ]] || fail "a postgres process outlived the launcher"
ok "SIGTERM stopped the launcher in $((EPOCHSECONDS - stopped_at))s and everything it started"
