# shellcheck shell=bash
# Installing what a fresh Debian/Ubuntu machine lacks: PostgreSQL binaries,
# Chromium for the browser tests, and the web app's npm dependencies.
# Rust and Node are prerequisites, not installed here.

APT_UPDATED=0
INSTALL_LOG=/dev/null # callers point this at a log file

require_command() {
  local cmd=$1 hint=$2
  command -v "$cmd" >/dev/null 2>&1 || die "$cmd not found: $hint"
}

require_toolchains() {
  require_command cargo "install Rust (https://rustup.rs) and open a new shell"
  require_command node "install Node.js 20 or newer"
  require_command npm "install Node.js 20 or newer (it ships npm)"
}

# apt_install PKG...: `apt-get update` once per run, then install.
apt_install() {
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found: install $* by hand"
  [[ $EUID -eq 0 || ${#ROOT_PREFIX[@]} -gt 0 ]] || die "root is needed to install $*: run as root or install it by hand"
  if [[ $APT_UPDATED == 0 ]]; then
    run_logged "$INSTALL_LOG" "${ROOT_PREFIX[@]}" apt-get update -q || die "apt-get update failed (log: $(rel "$INSTALL_LOG"))"
    APT_UPDATED=1
  fi
  run_logged "$INSTALL_LOG" "${ROOT_PREFIX[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" ||
    die "apt-get install $* failed (log: $(rel "$INSTALL_LOG"))"
}

# PostgreSQL server binaries (initdb, pg_ctl, postgres) and psql.
ensure_postgres() {
  if ! pg_find_bin; then
    note "installing PostgreSQL (apt-get install postgresql)…"
    # Debian's package creates and starts a system-wide cluster on port 5432 by
    # default; we only want the binaries, so switch that off before installing.
    apt_install postgresql-common
    if [[ -f /etc/postgresql-common/createcluster.conf ]]; then
      "${ROOT_PREFIX[@]}" sed -i -E 's/^#?[[:space:]]*create_main_cluster[[:space:]]*=.*/create_main_cluster = false/' \
        /etc/postgresql-common/createcluster.conf
    fi
    apt_install postgresql
    pg_find_bin || die "PostgreSQL was installed but initdb is not in PATH nor under /usr/lib/postgresql/*/bin"
  fi
  if ! pg_find_psql; then
    apt_install postgresql-client
    pg_find_psql || die "psql not found after installing postgresql-client"
  fi
}

ensure_chromium() {
  [[ -x /usr/bin/chromium ]] && return 0
  note "installing Chromium for the browser tests (apt-get install chromium)…"
  apt_install chromium
  [[ -x /usr/bin/chromium ]] || die "chromium was installed but /usr/bin/chromium is missing"
}

# What the resilience tests run beside PostgreSQL: pgBackRest for the point-in-time restore
# (harness/tests/resilience/backups.rs); Patroni with its etcd client, etcd and HAProxy for
# the automatic failover (failover.rs), which runs on Debian's python3 (not a pyenv one).
# Debian's packages start no service in a container.
ensure_resilience_tools() {
  local missing=()
  command -v pgbackrest >/dev/null 2>&1 || missing+=(pgbackrest)
  command -v patroni >/dev/null 2>&1 && /usr/bin/python3 -c 'import etcd' 2>/dev/null || missing+=(patroni python3-etcd)
  command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
  command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]] || missing+=(haproxy)
  ((${#missing[@]})) || return 0
  note "installing what the resilience tests run (apt-get install ${missing[*]})…"
  apt_install "${missing[@]}"
  command -v pgbackrest >/dev/null 2>&1 && command -v patroni >/dev/null 2>&1 && command -v etcd >/dev/null 2>&1 ||
    die "pgbackrest, patroni or etcd was installed but is not in PATH"
}

# python3 with venv: the log scan (scripts/scan-secrets.py) and the API fuzzer.
ensure_python() {
  command -v python3 >/dev/null 2>&1 && python3 -c 'import ensurepip, venv' 2>/dev/null && return 0
  note "installing Python for the log scan and the API fuzzer (apt-get install python3 python3-venv)…"
  apt_install python3 python3-venv
}

# Schemathesis, pinned, in its own virtual environment under target/ (issue 12, item 9).
SCHEMATHESIS_VERSION=4.32.5
ensure_schemathesis() {
  SCHEMATHESIS_VENV=$TARGET_DIR/tools/schemathesis-$SCHEMATHESIS_VERSION
  [[ -x $SCHEMATHESIS_VENV/bin/st ]] && return 0
  note "installing schemathesis $SCHEMATHESIS_VERSION (pip, into $(rel "$SCHEMATHESIS_VENV"))…"
  rm -rf "$SCHEMATHESIS_VENV"
  run_logged "$INSTALL_LOG" python3 -m venv "$SCHEMATHESIS_VENV" &&
    run_logged "$INSTALL_LOG" "$SCHEMATHESIS_VENV/bin/pip" install -q --disable-pip-version-check \
      "schemathesis==$SCHEMATHESIS_VERSION" ||
    die "installing schemathesis failed (log: $(rel "$INSTALL_LOG"))"
}

web_present() { [[ -f $ROOT/web/package.json ]]; }

# npm ci when node_modules is missing or older than package-lock.json.
# npm writes node_modules/.package-lock.json on every install: that is our stamp.
web_deps_stale() {
  local stamp=$ROOT/web/node_modules/.package-lock.json
  [[ ! -f $stamp ]] && return 0
  [[ -f $ROOT/web/package-lock.json && $ROOT/web/package-lock.json -nt $stamp ]] && return 0
  [[ $ROOT/web/package.json -nt $stamp ]] && return 0
  return 1
}

# Arguments for run_child/run_logged: npm ci (npm install while there is no
# lock file yet). Playwright must not download its own browser: there is no
# internet, and the tests use Debian's /usr/bin/chromium.
web_install_args() {
  local how=ci
  [[ -f $ROOT/web/package-lock.json ]] || how=install
  WEB_INSTALL=(-C "$ROOT/web" env PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm "$how" --no-audit --no-fund)
}
# The Google button uses the same client id the server checks tokens against.
WEB_BUILD=(-C "$ROOT/web" env "VITE_GOOGLE_CLIENT_ID=${VITE_GOOGLE_CLIENT_ID:-${NAVALHA_GOOGLE_CLIENT_ID:-}}" npm run build)

# The built app is stale when any source file is newer than dist/index.html.
web_dist_stale() {
  local web=$ROOT/web index=$ROOT/web/dist/index.html
  [[ -f $index ]] || return 0
  [[ -n $(find "$web" -mindepth 1 \
    \( -name node_modules -o -name dist -o -name test-results -o -name playwright-report -o -name coverage \) -prune \
    -o -type f -newer "$index" -print -quit) ]]
}
