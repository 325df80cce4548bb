#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis servers for the test suites.
#
#   eval "$(scripts/test-services.sh up)"   # start (or reuse) both, export their URLs
#   scripts/test-services.sh status         # print the export lines if both are up, else exit 1
#   scripts/test-services.sh down           # stop both and delete their data
#
# stdout carries only the `export` lines; the servers' data and every log go
# under the state directory ($CABLECAR_TEST_SERVICES_DIR, default
# /tmp/cablecar-test-services).  PostgreSQL's initdb/pg_ctl refuse to run as
# root, so as root they run as the `postgres` user (whose data then goes to /tmp
# if it cannot reach the state directory, as under /root); as any other user they
# run directly.  A missing redis-server (or PostgreSQL) is installed with apt-get
# when running as root, said on standard error; otherwise the error names it.
set -euo pipefail

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

pg_alive() {
    [ -n "${PG_PORT:-}" ] && [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] \
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
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 start >>"$LOG" 2>&1 9>&- \
        || die "pg_ctl start failed, see $PG_DIR/postgres.log"
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

redis_alive() {
    [ -n "${REDIS_PORT:-}" ] && command -v redis-cli >/dev/null 2>&1 \
        && [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]
}

redis_start() {
    command -v redis-server >/dev/null 2>&1 || apt_install redis-server
    REDIS_DIR="${REDIS_DIR:-$STATE_DIR/redis}"
    REDIS_PORT="${REDIS_PORT:-$(free_port)}"
    mkdir -p "$REDIS_DIR"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes \
        --dir "$REDIS_DIR" --logfile "$REDIS_DIR/redis.log" --pidfile "$REDIS_DIR/redis.pid" \
        --save "" --appendonly no >>"$LOG" 2>&1 9>&- || die "redis-server failed to start"
    local _
    for _ in $(seq 1 100); do
        redis_alive && break
        sleep 0.1
    done
    redis_alive || die "redis-server did not answer on port $REDIS_PORT"
    log "Redis up on 127.0.0.1:$REDIS_PORT"
}

redis_stop() {
    if [ -n "${REDIS_PORT:-}" ]; then
        redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >>"$LOG" 2>&1 || true
        if [ -n "${REDIS_DIR:-}" ] && [ -f "$REDIS_DIR/redis.pid" ]; then
            kill "$(cat "$REDIS_DIR/redis.pid")" >>"$LOG" 2>&1 || true
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

main() {
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
            echo "usage: $0 up|status|down" >&2
            exit 2
            ;;
    esac
}

main "$@"
