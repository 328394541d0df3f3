# shellcheck shell=bash
# A private PostgreSQL cluster: one under .data/pg for `up`, a throw-away one
# in a temporary directory for `test` and `bench`. Never the system's cluster.
#
# initdb refuses to run as root, so as root the cluster belongs to the
# `postgres` OS user and initdb/pg_ctl run through runuser.

PG_BIN=''        # directory holding initdb, pg_ctl, postgres
PSQL=''          # psql client
PG_DATA=''       # data directory of the cluster we manage
PG_PORT=''       # its TCP port on 127.0.0.1
PG_SOCKET_DIR='' # its Unix socket directory
PG_LOG=''        # its server log
PG_STARTED=0     # 1 once we started it: the cleanup then stops it

pg_find_bin() {
  local d=''
  if command -v initdb >/dev/null 2>&1; then
    d=$(dirname "$(readlink -f "$(command -v initdb)")")
  else
    # Debian keeps the server binaries out of PATH.
    d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  [[ -n $d && -x $d/initdb && -x $d/pg_ctl && -x $d/postgres ]] || return 1
  PG_BIN=$d
}

pg_find_psql() {
  if [[ -n $PG_BIN && -x $PG_BIN/psql ]]; then
    PSQL=$PG_BIN/psql
  elif command -v psql >/dev/null 2>&1; then
    PSQL=$(command -v psql)
  else
    return 1
  fi
}

# Run a PostgreSQL server program as the cluster's owner. From / so that the
# postgres user is never left in a directory it cannot read.
pg_run() {
  if [[ $EUID -eq 0 ]]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# pg_own PATH...: give paths to the cluster's owner (a no-op unless root).
pg_own() { [[ $EUID -ne 0 ]] || chown postgres: "$@"; }

pg_ensure_os_user() {
  [[ $EUID -eq 0 ]] || return 0
  id -u postgres >/dev/null 2>&1 && return 0
  note "creating the postgres OS user (initdb refuses to run as root)…"
  useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres ||
    die "could not create the postgres OS user"
}

# Can the cluster's owner reach DIR? Not when the repository sits under a
# private home such as /root.
pg_can_reach() { [[ $EUID -ne 0 ]] || (cd / && runuser -u postgres -- test -x "$1") 2>/dev/null; }

# pg_configure DATA_DIR SETTING...: (re)write navalha.conf, which
# postgresql.conf includes; rewritten on every start so a changed port or
# socket directory takes effect without touching the data.
pg_configure() {
  local data=$1 setting
  shift
  {
    echo "# Written by ./navalha on every start: change the launcher, not this file."
    for setting in "$@"; do echo "$setting"; done
  } >"$data/navalha.conf"
  pg_own "$data/navalha.conf"
}

# pg_init DATA_DIR [--no-sync]: create a cluster unless one is there.
pg_init() {
  local data=$1 log
  shift
  [[ -f $data/PG_VERSION ]] && return 0
  mkdir -p "$data"
  chmod 700 "$data"
  pg_own "$data"
  log=$(dirname "$PG_LOG")/initdb.log
  local locale=(--no-locale)
  # C.UTF-8 keeps byte-order collation but lets lower()/ILIKE fold accented letters.
  locale -a 2>/dev/null | grep -qixE 'c\.utf-?8' && locale=(--locale=C.UTF-8)
  # Trust on loopback: a private development cluster, listening on 127.0.0.1 only.
  if ! pg_run "$PG_BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 "${locale[@]}" --no-instructions "$@" \
    >"$log" 2>&1; then
    show_tail "$log" 30 >&2
    return 1
  fi
  echo "include_if_exists = 'navalha.conf'" >>"$data/postgresql.conf"
}

# Socket paths are limited to ~107 bytes; a deep checkout gets one under /tmp.
pg_socket_dir_for() {
  local wanted=$1
  if ((${#wanted} > 80)); then
    wanted=$(mktemp -d /tmp/navalha-pg-sock.XXXXXX)
  fi
  mkdir -p "$wanted"
  pg_own "$wanted"
  printf '%s' "$wanted"
}

pg_is_running() {
  local pid
  [[ -n $PG_DATA && -f $PG_DATA/postmaster.pid ]] || return 1
  pid=$(head -n 1 "$PG_DATA/postmaster.pid" 2>/dev/null) || return 1
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null
}

# pg_start SETTING...: start the cluster in PG_DATA with our settings; waits
# until it accepts connections.
pg_start() {
  if port_is_free "$PG_PORT"; then :; else
    die "port $PG_PORT is already in use: set NAVALHA_PG_PORT to another port"
  fi
  pg_configure "$PG_DATA" \
    "port = $PG_PORT" \
    "listen_addresses = '127.0.0.1'" \
    "unix_socket_directories = '$PG_SOCKET_DIR'" \
    "$@"
  touch "$PG_LOG"
  pg_own "$PG_LOG"
  # Set before starting: if pg_ctl gives up waiting, the server may still come up.
  PG_STARTED=1
  if ! pg_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 60 start >/dev/null 2>&1; then
    show_tail "$PG_LOG" 30 >&2
    return 1
  fi
}

pg_stop() {
  [[ $PG_STARTED == 1 ]] || return 0
  PG_STARTED=0
  pg_is_running || return 0
  pg_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 30 stop >/dev/null 2>&1 ||
    pg_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
}

# psql as the superuser against our cluster.
pg_psql() {
  PGCONNECT_TIMEOUT=10 PGOPTIONS='-c client_min_messages=warning' "$PSQL" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres "$@"
}

# A connection URL fit to print: its password hidden.
redact_url() { printf '%s' "$1" | sed -E 's#^([a-z]+://[^:/@]+):[^@]*@#\1:***@#'; }

pg_url() { printf 'postgres://postgres@127.0.0.1:%s/%s' "$PG_PORT" "$1"; }

pg_ensure_database() {
  local db=$1 exists
  exists=$(pg_psql -tAc "select 1 from pg_database where datname = '$db'") || return 1
  [[ $exists == 1 ]] || pg_psql -c "create database \"$db\""
}

pg_recreate_database() {
  local db=$1
  pg_psql -c "drop database if exists \"$db\" with (force)" && pg_psql -c "create database \"$db\""
}

# pg_start_scratch_cluster DIR [fast]: a throw-away cluster in DIR on a free
# port from 55433 up. `fast` turns durability off: tests don't survive crashes
# anyway, and fsync dominates their run time.
pg_start_scratch_cluster() {
  local dir=$1 mode=${2:-}
  # pg_stat_statements: the end-to-end stage checks that every statement on a table that
  # would be sharded by business names the business (issue 46, ADR 0029).
  local settings=("max_connections = 200" "shared_preload_libraries = 'pg_stat_statements'"
    "pg_stat_statements.max = 10000" "pg_stat_statements.track_utility = off")
  local init_args=()
  if [[ $mode == fast ]]; then
    settings+=("fsync = off" "synchronous_commit = off" "full_page_writes = off")
    init_args=(--no-sync)
  fi
  chmod 755 "$dir"
  PG_DATA=$dir/pg
  PG_LOG=$dir/postgres.log
  PG_SOCKET_DIR=$(pg_socket_dir_for "$dir/run")
  PG_PORT=$(find_free_port "${NAVALHA_TEST_PG_PORT:-55433}") || die "no free port for PostgreSQL above 55433"
  pg_ensure_os_user
  pg_init "$PG_DATA" "${init_args[@]}" || die "initdb failed"
  # A port nothing listens on may still be the local end of a client connection (it lies
  # in the ephemeral range), and then the server cannot bind it: move on to the next one.
  local tries=1
  until pg_start "${settings[@]}"; do
    grep -q 'Address already in use' "$PG_LOG" && ((tries++ < 5)) || die "PostgreSQL did not start (log: $PG_LOG)"
    PG_STARTED=0
    PG_PORT=$(find_free_port $((PG_PORT + 1))) || die "no free port for PostgreSQL above 55433"
  done
}

# The services' roles (docs/deploy.md, "Database roles"): navalha_owner runs the migrations
# and owns the tables; command-api, query-api and the projector log in with their own role,
# which the migrations give only what that service uses. Trusted on loopback, like postgres.
PG_ROLES=(navalha_owner navalha_command navalha_query navalha_projector)

# pg_role_url ROLE DB
pg_role_url() { printf 'postgres://%s@127.0.0.1:%s/%s' "$1" "$PG_PORT" "$2"; }

# pg_setup_roles DB: the roles (with LOGIN: a migration makes them without it when missing),
# DB (made when missing) owned by navalha_owner, and what an earlier layout left to the
# superuser handed over: tables and functions to the owner, read models to the projector.
pg_setup_roles() {
  local db=$1 role
  for role in "${PG_ROLES[@]}"; do
    # A test's migration may create the same role at the same moment: retry once.
    pg_psql -c "do \$\$ begin
        if exists (select 1 from pg_roles where rolname = '$role') then alter role $role login;
        else create role $role login; end if; end \$\$" 2>/dev/null ||
      pg_psql -c "alter role $role login" || return 1
  done
  pg_psql -c "grant navalha_projector to navalha_owner" || return 1
  pg_ensure_database "$db" || return 1
  pg_psql -c "alter database \"$db\" owner to navalha_owner" \
    -c "grant create on database \"$db\" to navalha_projector" || return 1
  pg_psql -d "$db" <<'SQL'
do $$
declare
    statement text;
begin
    for statement in
        select format('alter table %s owner to navalha_owner', c.oid::regclass)
          from pg_class c
         where c.relowner = 'postgres'::regrole
           and c.relnamespace = 'public'::regnamespace
           and c.relkind in ('r', 'p', 'v', 'm', 'S')
           and not exists (select 1 from pg_depend d
                            where d.classid = 'pg_class'::regclass and d.objid = c.oid
                              and d.deptype in ('a', 'i', 'e'))
        union all
        select format('alter routine %s owner to navalha_owner', p.oid::regprocedure)
          from pg_proc p
         where p.proowner = 'postgres'::regrole
           and p.pronamespace = 'public'::regnamespace
           and not exists (select 1 from pg_depend d
                            where d.classid = 'pg_proc'::regclass and d.objid = p.oid
                              and d.deptype = 'e')
        union all
        select format('alter table %s owner to navalha_projector', c.oid::regclass)
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relowner = 'postgres'::regrole
           and n.nspname like 'rm\_%'
           and c.relkind in ('r', 'p', 'v', 'm', 'S')
           and not exists (select 1 from pg_depend d
                            where d.classid = 'pg_class'::regclass and d.objid = c.oid
                              and d.deptype in ('a', 'i'))
        union all
        select format('alter schema %I owner to navalha_projector; '
                      'grant usage on schema %1$I to navalha_command, navalha_query; '
                      'grant select on all tables in schema %1$I to navalha_command, navalha_query',
                      nspname)
          from pg_namespace
         where nspname like 'rm\_%' and nspowner = 'postgres'::regrole
    loop
        execute statement;
    end loop;
end
$$;
SQL
}
