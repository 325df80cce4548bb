#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis servers for the test suites.
#
#   eval "$(scripts/test-services.sh up)"   # start (or reuse) both, export their URLs
#   scripts/test-services.sh status         # print the export lines if both are up, else exit 1
#   scripts/test-services.sh down           # stop both and delete their data
#
#   eval "$(scripts/test-services.sh run-up N)"   # a test run's own: N pairs, each in a directory of its own
#   scripts/test-services.sh run-down             # stop those N pairs (and remove the run's directory)
#
# stdout carries only the `export` lines; the servers' data and every log go
# under the state directory ($CABLECAR_TEST_SERVICES_DIR, default
# /tmp/cablecar-test-services).  PostgreSQL's initdb/pg_ctl refuse to run as
# root, so as root they run as the `postgres` user (whose data then goes to /tmp
# if it cannot reach the state directory, as under /root); as any other user they
# run directly.  A missing redis-server (or PostgreSQL) is installed with apt-get
# when running as root, said on standard error; otherwise the error names it.
#
# `run-up N` is what scripts/test.sh uses: the first pair exported as
# CABLECAR_TEST_DATABASE_URL / CABLECAR_TEST_REDIS_URL, the others (one per
# further pytest worker) as ..._GW1 to ..._GW<N-1>, and the directory as
# CABLECAR_TEST_SERVICES_DIR, which `run-down` reads.  Without
# CABLECAR_TEST_SERVICES_DIR the run gets a new directory (mktemp), so that two
# test runs on one machine never share, reuse or stop each other's servers; with
# it, the pairs live in that directory and in <it>-gw1, <it>-gw2, ...
set -euo pipefail

# Under a bare PATH (`env -i PATH=/usr/bin:/bin`, a user's shell turned root) runuser and
# useradd, which live in sbin, would not be found.
for sbin in /usr/local/sbin /usr/sbin /sbin; do
    case ":$PATH:" in *":$sbin:"*) ;; *) if [ -d "$sbin" ]; then PATH="$PATH:$sbin"; fi ;; esac
done
export PATH

STATE_DIR="${CABLECAR_TEST_SERVICES_DIR:-/tmp/cablecar-test-services}"
STATE_FILE="$STATE_DIR/state.env"
LOG="$STATE_DIR/test-services.log"
PG_USER=cc
PG_DB=cablecar

log() { printf '%s %s\n' "$(date '+%H:%M:%S')" "$*" >>"$LOG"; }
die() {
    log "ERROR: $*"
    echo "test-services: $* (see $LOG)" >&2
    exit 1
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

is_root() { [ "$(id -u)" -eq 0 ]; }

apt_install() {
    is_root || die "$1 is missing and only root can install it: apt-get install $1"
    log "installing $1 with apt-get"
    echo "test-services: installing $1 with apt-get" >&2
    { apt-get -o DPkg::Lock::Timeout=300 update && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y "$1"; } >>"$LOG" 2>&1 \
        || die "apt-get install $1 failed"
}

# --- PostgreSQL -------------------------------------------------------------

pg_bindir() {
    local ctl
    if ctl="$(command -v pg_ctl 2>/dev/null)"; then
        dirname "$(readlink -f "$ctl")"
        return
    fi
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return
        fi
    done
    return 1
}

# A new folder for a server's data, in the state directory when the user running
# PostgreSQL can reach it.
pg_new_dir() {
    # (the new folder is then given to postgres: only the way there must be open)
    if ! is_root || runuser -u postgres -- test -x "$STATE_DIR" 2>/dev/null; then
        mktemp -d "$STATE_DIR/pg-XXXXXX"
    else
        log "the postgres user cannot reach $STATE_DIR: PostgreSQL's data goes to /tmp"
        mktemp -d /tmp/cablecar-test-pg-XXXXXX
    fi
}

# Run a PostgreSQL server binary as the postgres user when we are root.
as_pg() {
    if is_root; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Our server is up: its postmaster (named in its own data folder) runs, and the port answers.
pg_alive() {
    [ -n "${PG_PORT:-}" ] && [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/postmaster.pid" ] \
        && kill -0 "$(head -n 1 "$PG_DIR/data/postmaster.pid")" 2>/dev/null \
        && "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -d postgres -U "$PG_USER" >/dev/null 2>&1
}

pg_start() {
    PG_BIN="$(pg_bindir)" || { apt_install postgresql; PG_BIN="$(pg_bindir)" || die "no pg_ctl after install"; }
    if is_root && ! id postgres >/dev/null 2>&1; then
        useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres >>"$LOG" 2>&1
    fi
    if [ -n "${PG_DIR:-}" ] && [ -f "$PG_DIR/data/PG_VERSION" ] && [ ! -f "$PG_DIR/data/postmaster.pid" ]; then
        log "restarting PostgreSQL in $PG_DIR"
    else
        # A server that died without a clean stop leaves postmaster.pid behind
        # (its PID may even be reused): start over in a new throwaway folder.
        [ -n "${PG_DIR:-}" ] && log "abandoning $PG_DIR (server gone without a clean stop)"
        PG_DIR="$(pg_new_dir)"
        PG_PORT="$(free_port)"
        if is_root; then chown postgres: "$PG_DIR"; fi
        log "initdb in $PG_DIR (port $PG_PORT)"
        as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U "$PG_USER" -E UTF8 --no-sync \
            >>"$PG_DIR/initdb.log" 2>&1 || die "initdb failed, see $PG_DIR/initdb.log"
        # Settings for a disposable test server: durability off, room for many
        # concurrent test processes.
        as_pg tee -a "$PG_DIR/data/postgresql.conf" >/dev/null <<EOF
port = $PG_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_DIR'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
    fi
    # The free port may be taken before the server binds it (another run starting its servers, a
    # client's connection): then another one, a few times.
    local attempt
    for attempt in 1 2 3; do
        if as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 start >>"$LOG" 2>&1 9>&-; then
            break
        fi
        grep -q "could not bind\|could not create any TCP/IP sockets" "$PG_DIR/postgres.log" 2>/dev/null && [ "$attempt" -lt 3 ] \
            || die "pg_ctl start failed, see $PG_DIR/postgres.log"
        PG_PORT="$(free_port)"
        log "PostgreSQL's port was taken: trying port $PG_PORT"
        echo "port = $PG_PORT" | as_pg tee -a "$PG_DIR/data/postgresql.conf" >/dev/null
    done
    if ! "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'" 2>>"$LOG" | grep -q 1; then
        "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$PG_DB" >>"$LOG" 2>&1 \
            || die "createdb $PG_DB failed"
    fi
    log "PostgreSQL up on 127.0.0.1:$PG_PORT"
}

pg_stop() {
    if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ]; then
        PG_BIN="${PG_BIN:-$(pg_bindir || true)}"
        if [ -n "$PG_BIN" ] && [ -f "$PG_DIR/data/postmaster.pid" ]; then
            as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >>"$LOG" 2>&1 || true
        fi
        rm -rf "$PG_DIR"
        log "PostgreSQL in $PG_DIR stopped and removed"
    fi
}

# --- Redis ------------------------------------------------------------------

# Our Redis is up: the one answering on the port keeps its data in our folder (not another run's
# server that took the port meanwhile).
redis_alive() {
    [ -n "${REDIS_PORT:-}" ] && [ -n "${REDIS_DIR:-}" ] && [ -d "$REDIS_DIR" ] && command -v redis-cli >/dev/null 2>&1 \
        && [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" config get dir 2>/dev/null | sed -n 2p)" = "$(cd "$REDIS_DIR" && pwd -P)" ]
}

redis_start() {
    command -v redis-server >/dev/null 2>&1 || apt_install redis-server
    REDIS_DIR="${REDIS_DIR:-$STATE_DIR/redis}"
    REDIS_PORT="${REDIS_PORT:-$(free_port)}"
    mkdir -p "$REDIS_DIR"
    local attempt _
    for attempt in 1 2 3; do
        redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes \
            --dir "$REDIS_DIR" --logfile "$REDIS_DIR/redis.log" --pidfile "$REDIS_DIR/redis.pid" \
            --save "" --appendonly no >>"$LOG" 2>&1 9>&- || die "redis-server failed to start"
        for _ in $(seq 1 100); do
            redis_alive && break
            grep -q "Address already in use" "$REDIS_DIR/redis.log" 2>/dev/null && break
            sleep 0.1
        done
        redis_alive && break
        grep -q "Address already in use" "$REDIS_DIR/redis.log" 2>/dev/null && [ "$attempt" -lt 3 ] \
            || die "redis-server did not answer on port $REDIS_PORT"
        : >"$REDIS_DIR/redis.log"
        REDIS_PORT="$(free_port)"
        log "Redis's port was taken: trying port $REDIS_PORT"
    done
    log "Redis up on 127.0.0.1:$REDIS_PORT"
}

redis_stop() {
    if [ -n "${REDIS_PORT:-}" ]; then
        # only our own server: the port may be another run's by now
        if redis_alive; then redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >>"$LOG" 2>&1 || true; fi
        local pid
        pid="$(cat "${REDIS_DIR:-/nonexistent}/redis.pid" 2>/dev/null || true)"
        if [ -n "$pid" ] && [ "$(ps -o comm= -p "$pid" 2>/dev/null)" = redis-server ]; then
            kill "$pid" >>"$LOG" 2>&1 || true
        fi
        rm -rf "${REDIS_DIR:-/nonexistent}"
        log "Redis on port $REDIS_PORT stopped"
    fi
}

# --- state ------------------------------------------------------------------

load_state() {
    PG_DIR="" PG_PORT="" PG_BIN="" REDIS_DIR="" REDIS_PORT=""
    # shellcheck disable=SC1090
    if [ -f "$STATE_FILE" ]; then . "$STATE_FILE"; fi
    PG_BIN="${PG_BIN:-$(pg_bindir || true)}"
}

save_state() {
    cat >"$STATE_FILE" <<EOF
PG_DIR=$PG_DIR
PG_PORT=$PG_PORT
PG_BIN=$PG_BIN
REDIS_DIR=$REDIS_DIR
REDIS_PORT=$REDIS_PORT
EOF
}

print_exports() {
    echo "export CABLECAR_TEST_DATABASE_URL=postgresql://$PG_USER@127.0.0.1:$PG_PORT/$PG_DB"
    echo "export CABLECAR_TEST_REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"
}

# --- a test run's own servers (scripts/test.sh) --------------------------------

SELF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
#: in a directory run-up made, so that run-down removes it whole
RUN_MARK=.cablecar-test-run

run_up() {
    local pairs="${1:-}" base made i dir suffix lines
    case "$pairs" in
        "" | *[!0-9]* | 0*) echo "usage: $0 run-up N (N >= 1: pairs of servers, one per pytest worker)" >&2; exit 2 ;;
    esac
    if [ -n "${CABLECAR_TEST_SERVICES_DIR:-}" ]; then
        base="$CABLECAR_TEST_SERVICES_DIR"
    else
        made="$(mktemp -d "${TMPDIR:-/tmp}/cablecar-test-run-XXXXXX")"
        chmod 755 "$made"  # (as root, the postgres user keeps its data folders in it)
        : >"$made/$RUN_MARK"
        base="$made/services"
    fi
    printf 'export CABLECAR_TEST_SERVICES_DIR=%q\n' "$base"
    for ((i = 0; i < pairs; i++)); do
        dir="$base" suffix=""
        if [ "$i" -gt 0 ]; then dir="$base-gw$i" suffix="_GW$i"; fi
        if ! lines="$(CABLECAR_TEST_SERVICES_DIR="$dir" bash "$SELF" up)"; then
            CABLECAR_TEST_SERVICES_DIR="$base" run_down
            exit 1
        fi
        printf '%s\n' "$lines" | sed "s/=/$suffix=/"
    done
}

run_down() {
    local base="${CABLECAR_TEST_SERVICES_DIR:-}" dir
    if [ -z "$base" ]; then
        echo "$0 run-down: CABLECAR_TEST_SERVICES_DIR is not set (run-up exports it)" >&2
        exit 2
    fi
    local failed=0
    for dir in "$base" "$base"-gw[0-9]*; do
        if [ -d "$dir" ]; then CABLECAR_TEST_SERVICES_DIR="$dir" bash "$SELF" down || failed=1; fi
    done
    dir="$(dirname "$base")"
    if [ "$failed" = 0 ] && [ -f "$dir/$RUN_MARK" ]; then rm -rf "$dir"; fi
    return "$failed"
}

main() {
    case "${1:-}" in
        run-up) run_up "${2:-}"; return ;;
        run-down) run_down; return ;;
    esac
    mkdir -p "$STATE_DIR"
    chmod 755 "$STATE_DIR"
    # One invocation at a time: several test runs may call `up` together.  The
    # servers are started with fd 9 closed so that they do not inherit the lock.
    exec 9>"$STATE_DIR/lock"
    flock -w 300 9 || die "could not take $STATE_DIR/lock"
    load_state
    case "${1:-}" in
        up)
            pg_alive || pg_start
            redis_alive || redis_start
            save_state
            print_exports
            ;;
        status)
            if pg_alive && redis_alive; then print_exports; else exit 1; fi
            ;;
        down)
            pg_stop
            redis_stop
            rm -f "$STATE_FILE"
            ;;
        *)
            echo "usage: $0 up|status|down|run-up N|run-down" >&2
            exit 2
            ;;
    esac
}

main "$@"
