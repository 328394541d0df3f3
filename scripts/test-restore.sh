#!/usr/bin/env bash
# A backup restored into a new cluster as docs/operations.md describes gives the read models
# the original had (issue 12): the restored events keep transaction ids the new cluster has
# not reached, which the projector must not build around.
#
# `./navalha test` runs it after the Rust tests. Alone:
#   DATABASE_URL=postgres://postgres@127.0.0.1:PORT/postgres scripts/test-restore.sh
# The source database is made in the cluster of DATABASE_URL (a superuser on 127.0.0.1, as
# `./navalha test` starts one); each target is a fresh cluster in a temporary directory.
# Uses the binaries in BIN_DIR [target/debug].
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"
# shellcheck source=lib/pg.sh
source "$ROOT/scripts/lib/pg.sh"

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
[[ $TARGET_DIR == /* ]] || TARGET_DIR=$ROOT/$TARGET_DIR
BIN_DIR=${BIN_DIR:-$TARGET_DIR/debug}
SOURCE_URL=${DATABASE_URL:?DATABASE_URL: a superuser connection to a running cluster}
SOURCE_PORT=$(printf '%s' "$SOURCE_URL" | sed -nE 's#^postgres(ql)?://[^/]*:([0-9]+)/.*#\2#p')
[[ -n $SOURCE_PORT ]] || die "DATABASE_URL must name a port: $SOURCE_URL"
SOURCE_DB=navalha_restore_source
WORK=$(mktemp -d /tmp/navalha-restore.XXXXXX)
chmod 755 "$WORK" # the clusters' directories must be reachable by the postgres OS user
export NO_COLOR=1 RUST_BACKTRACE=0 RUST_LOG=warn
export NAVALHA_OUTBOX_DIR=$WORK/outbox NAVALHA_MEDIA_DIR=$WORK/media

pg_find_bin || die "PostgreSQL's server programs not found"
pg_find_psql || die "psql not found"

finish() {
  local rc=$?
  pg_stop
  PG_PORT=$SOURCE_PORT pg_psql -c "drop database if exists $SOURCE_DB with (force)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
  exit "$rc"
}
trap finish EXIT

fail() { printf 'restore test: FAILED: %s\n' "$*" >&2; exit 1; }
ok() { printf 'restore test: %s\n' "$*"; }

# Every read model's rows, one line per table: name, count and a digest.
read_models() {
  pg_psql -d "$1" -tA <<'SQL'
select format('select %L, count(*), md5(coalesce(string_agg(r::text, E''\n'' order by r::text), '''')) from %I.%I r',
              table_schema || '.' || table_name, table_schema, table_name)
  from information_schema.tables
 where table_schema like 'rm\_%' and table_schema not like '%\_next' and table_name <> 'checkpoint'
 order by table_schema, table_name
\gexec
SQL
}

as_role() { DATABASE_URL=$(pg_role_url "$1" "$2") "${@:3}"; }

# --- The original: demo data, built by the services' roles.
PG_PORT=$SOURCE_PORT
pg_recreate_database "$SOURCE_DB" >/dev/null
pg_setup_roles "$SOURCE_DB"
# A fresh cluster starts near transaction 750; keep the source well past that.
pg_psql -c "do \$\$ begin for i in 1..greatest(0, 20000 - pg_current_xact_id()::text::bigint) loop
  perform pg_current_xact_id(); commit; end loop; end \$\$"
as_role navalha_owner "$SOURCE_DB" "$BIN_DIR/command-api" migrate >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "migrate"; }
as_role navalha_command "$SOURCE_DB" "$BIN_DIR/command-api" seed-demo >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "seed-demo"; }
as_role navalha_projector "$SOURCE_DB" "$BIN_DIR/projector" rebuild >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "rebuild"; }
read_models "$SOURCE_DB" >"$WORK/source.txt"
grep -qE '^rm_agenda[.]appointment[|][1-9]' "$WORK/source.txt" || fail "the source has no appointments: $(cat "$WORK/source.txt")"

# The backup of docs/operations.md: by the owner, without the read models.
"$PG_BIN/pg_dump" --format=custom --exclude-schema='rm_*' --file="$WORK/navalha.dump" \
  "$(pg_role_url navalha_owner "$SOURCE_DB")"
ok "source: $(wc -l <"$WORK/source.txt") read-model tables, dumped"

# new_cluster NAME: a fresh cluster with the roles and an empty database `navalha`, and the
# backup restored into it.
new_cluster() {
  pg_stop
  mkdir -p "$WORK/$1"
  pg_start_scratch_cluster "$WORK/$1" fast
  pg_setup_roles navalha
  "$PG_BIN/pg_restore" --exit-on-error --dbname="$(pg_role_url navalha_owner navalha)" "$WORK/navalha.dump" ||
    fail "pg_restore into $1"
}

compare_read_models() {
  as_role navalha_projector navalha "$BIN_DIR/projector" rebuild >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "rebuild in $1"; }
  read_models navalha >"$WORK/$1.txt"
  diff -u "$WORK/source.txt" "$WORK/$1.txt" >&2 || fail "$1: the read models differ from the source's"
  local order
  order=$(pg_psql -d navalha -tA -c "select pg_current_xact_id() > max(tx_id) from events")
  [[ $order == t ]] || fail "$1: a new event would sort before the restored ones"
  ok "$1: read models equal to the source's"
}

# --- 1. migrate advances the counter by itself.
new_cluster advanced
if as_role navalha_projector navalha timeout 20 "$BIN_DIR/projector" rebuild >"$WORK/log" 2>&1; then
  fail "the projector built read models from events the cluster has not reached"
fi
grep -q 'restored from another cluster' "$WORK/log" || { cat "$WORK/log"; fail "the projector did not say why it stopped"; }
ok "advanced: the projector refuses before migrate"
as_role navalha_owner navalha "$BIN_DIR/command-api" migrate >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "migrate"; }
compare_read_models advanced

# The services' roles, logged in, cannot take the event log's protection off.
for role in navalha_command navalha_query navalha_projector; do
  if "$PSQL" -X -q -h 127.0.0.1 -p "$PG_PORT" -U "$role" -d navalha \
    -c 'alter table events disable trigger events_append_only' 2>"$WORK/log"; then
    fail "$role disabled the append-only trigger"
  fi
  grep -q 'must be owner' "$WORK/log" || { cat "$WORK/log"; fail "$role: unexpected error"; }
done
ok "advanced: no service role can disable the append-only trigger"

# --- 2. Too far to advance: migrate says how to use pg_resetwal, as operations.md tells.
new_cluster reset
if NAVALHA_MIGRATE_MAX_XID_ADVANCE=0 as_role navalha_owner navalha "$BIN_DIR/command-api" migrate >"$WORK/log" 2>&1; then
  fail "migrate passed events from the future without advancing"
fi
reset_args=$(sed -nE 's/.*pg_resetwal -D <data directory> (-e [0-9]+ -x 0x[0-9a-f]+).*/\1/p' "$WORK/log")
[[ -n $reset_args ]] || { cat "$WORK/log"; fail "migrate did not say what to give pg_resetwal"; }
pg_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w stop >/dev/null
# shellcheck disable=SC2086 # "-e N -x X": four words
pg_run "$PG_BIN/pg_resetwal" -D "$PG_DATA" $reset_args >/dev/null
pg_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w start >/dev/null
NAVALHA_MIGRATE_MAX_XID_ADVANCE=0 as_role navalha_owner navalha "$BIN_DIR/command-api" migrate >"$WORK/log" 2>&1 ||
  { cat "$WORK/log"; fail "migrate after pg_resetwal $reset_args"; }
compare_read_models reset
