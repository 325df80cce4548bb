#!/usr/bin/env bash
# One command for the load, faults and speed harness against the real stack
# (gunicorn with service.serving.gunicorn_conf + PostgreSQL + Redis, started here):
#
#   bash bench/run.sh                                  # defaults: 32 clients, 60 s, every section
#   bash bench/run.sh --seconds 20 --bot-seconds 10    # shorter
#   bash bench/run.sh --only load,growth               # some sections
#   bash bench/run.sh --help                           # every option
#   bash bench/run.sh --only bots [--games N --jobs J] # the bot strength ladder (in process, no stack):
#                                                      # writes bench/results/BOTS.md (bench/bots.py)
#   bash bench/run.sh --only bot-load [--games N ...]  # server bots under load (gunicorn, runner processes,
#                                                      # person seats over HTTP): bench/bench_bot_runner.py --load
#   bash bench/run.sh --only soak                      # the durability soak (workers stopped while
#                                                      # writers write): writes bench/results/SOAK.md
#   bash bench/run.sh --only room [--tables N ...]    # a club room on one `cablecar serve`: streams, bots,
#                                                      # hostile connections: bench/results/ROOM.md
#   bash bench/run.sh --only embedded-load [--against DIR]  # action throughput of `cablecar serve`,
#                                                      # alternating with another checkout's
#   bash bench/run.sh --only cluster [--app-hosts N]   # several hosts as network namespaces (root), faults
#                                                      # across them: bench/results/CLUSTER.md (bench/cluster/)
#
# Writes bench/results/REPORT.md.  Benchmarks never fail CI: the exit code is
# non-zero only if the harness itself could not run.
#
# CABLECAR_BENCH_FROM=HEAD (or any commit) measures that commit instead of the
# working tree: its files are exported to a scratch folder (the harness itself,
# bench/, is taken from the working tree), so half-finished edits elsewhere in
# a shared checkout cannot break the run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
if [ -x "$ROOT/.venv/bin/python" ]; then PYTHON="$ROOT/.venv/bin/python"; fi

# The bot ladder needs no servers: it plays in process through the rules.
if [ "${1:-}" = "--only" ] && [ "${2:-}" = "bots" ]; then
    shift 2
    cd "$ROOT"
    exec env PYTHONPATH="$ROOT" "$PYTHON" -m bench.bots "$@"
fi
export CABLECAR_BENCH_COMMAND="bash bench/run.sh${*:+ $*}"
# Server bots under load: its own gunicorn and runners (embedded SQLite, or --postgres).
if [ "${1:-}" = "--only" ] && [ "${2:-}" = "bot-load" ]; then
    shift 2
    cd "$ROOT"
    exec env PYTHONPATH="$ROOT" "$PYTHON" -m bench.bench_bot_runner --load "$@"
fi
# Action throughput of `cablecar serve` (embedded SQLite), this checkout against others in turn.
if [ "${1:-}" = "--only" ] && [ "${2:-}" = "embedded-load" ]; then
    shift 2
    cd "$ROOT"
    exec env PYTHONPATH="$ROOT" "$PYTHON" -m bench.bench_embedded_load "$@"
fi
# The room: one `cablecar serve` with tables, bots, streams and hostile connections (bench/results/ROOM.md).
if [ "${1:-}" = "--only" ] && [ "${2:-}" = "room" ]; then
    shift 2
    cd "$ROOT"
    exec env PYTHONPATH="$ROOT" "$PYTHON" -m bench.bench_room "$@"
fi
# The cluster builds its own hosts and stack; bounded as a whole (it cleans up on SIGTERM).
if [ "${1:-}" = "--only" ] && [ "${2:-}" = "cluster" ]; then
    shift 2
    cd "$ROOT"
    exec timeout -k 30 900 env PYTHONPATH="$ROOT" "$PYTHON" -m bench.cluster "$@"
fi
if [ -n "${CABLECAR_BENCH_FROM:-}" ]; then
    CABLECAR_BENCH_COMMAND="CABLECAR_BENCH_FROM=${CABLECAR_BENCH_FROM} ${CABLECAR_BENCH_COMMAND}"
fi

# The reports go to the working tree whatever is measured.
has_report=0
has_soak_report=0
for arg in "$@"; do
    [ "$arg" = "--report" ] && has_report=1
    [ "$arg" = "--soak-report" ] && has_soak_report=1
done
report_args=()
if [ "$has_report" = 0 ]; then report_args=(--report "$ROOT/bench/results/REPORT.md"); fi
if [ "$has_soak_report" = 0 ]; then report_args+=(--soak-report "$ROOT/bench/results/SOAK.md"); fi

SRC="$ROOT"
if [ -n "${CABLECAR_BENCH_FROM:-}" ]; then
    SRC="$(mktemp -d /tmp/cablecar-bench-src-XXXXXX)"
    trap 'rm -rf "$SRC"' EXIT
    commit="$(git -C "$ROOT" rev-parse --short "$CABLECAR_BENCH_FROM")"
    git -C "$ROOT" archive "$CABLECAR_BENCH_FROM" | tar -x -C "$SRC"
    rm -rf "$SRC/bench"
    cp -r "$ROOT/bench" "$SRC/bench"
    export CABLECAR_BENCH_SOURCE="$commit (service code; bench/ from the working tree)"
else
    head="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
    dirty="$(git -C "$ROOT" status --porcelain -- domain events service 2>/dev/null | wc -l)"
    if [ "$dirty" -gt 0 ]; then
        export CABLECAR_BENCH_SOURCE="$head + $dirty uncommitted files in domain/ events/ service/"
    else
        export CABLECAR_BENCH_SOURCE="$head"
    fi
fi

cd "$SRC"
exec env PYTHONPATH="$SRC" "$PYTHON" -m bench.load "${report_args[@]}" "$@"
