# shellcheck shell=bash
# `./navalha bench`: pgbench beside the PostgreSQL binaries, and the release build the
# benchmark runs. Sourced by cmd_bench; expects common.sh, deps.sh and pg.sh.

PGBENCH='' # pgbench of the same PostgreSQL as PG_BIN

# PostgreSQL's major version of PG_BIN (15 for 15.18).
bench_pg_major() {
  "$PG_BIN/postgres" --version 2>/dev/null | sed -nE 's/.*\(PostgreSQL\) ([0-9]+).*/\1/p'
}

bench_find_pgbench() {
  if [[ -n ${NAVALHA_PGBENCH:-} && -x $NAVALHA_PGBENCH ]]; then
    PGBENCH=$NAVALHA_PGBENCH
  elif [[ -n $PG_BIN && -x $PG_BIN/pgbench ]]; then
    PGBENCH=$PG_BIN/pgbench
  else
    return 1
  fi
}

# pgbench ships with Debian's server package (postgresql-NN), and with the client
# package on some releases: install whichever provides it.
bench_ensure_pgbench() {
  bench_find_pgbench && return 0
  local major
  major=$(bench_pg_major)
  [[ -n $major ]] || die "cannot tell the PostgreSQL version of $PG_BIN to install its pgbench"
  note "installing pgbench (apt-get install postgresql-$major)…"
  apt_install "postgresql-$major"
  bench_find_pgbench && return 0
  apt_install "postgresql-client-$major"
  bench_find_pgbench || die "pgbench not found in $PG_BIN after installing postgresql-$major"
}

# The binaries the benchmark starts, and the benchmark itself, optimised.
BENCH_PACKAGES=(-p navalha-command-api -p navalha-query-api -p navalha-projector -p navalha-bench)

bench_wants_help() {
  local arg
  for arg in "$@"; do
    [[ $arg == -h || $arg == --help ]] && return 0
  done
  return 1
}
