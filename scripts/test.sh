#!/usr/bin/env bash
# The whole test suite, from a fresh Debian/Ubuntu machine: installs the Python
# dependencies into .venv (scripts/venv.sh), starts a throwaway PostgreSQL and
# Redis (scripts/test-services.sh), runs the linters, the type checker and every
# test suite (unit, contract, api, e2e, browser), then stops the servers.
#
#   scripts/test.sh              # everything
#   scripts/test.sh tests/unit   # extra arguments go to pytest
#
# pytest runs on every core (pytest-xdist, one test file per worker at a time;
# CABLECAR_TEST_WORKERS=1 runs it in one process).  Each phase says how long it
# took, and the last line the whole run's time.
#
# Needs Python >= 3.11 and the Debian packages python3-venv, postgresql,
# redis-server and chromium (the browser tests drive it).  As root the missing
# ones are installed with apt-get, each install said on a line; as anyone else
# the script stops at once, naming the packages to install.
set -euo pipefail
cd "$(dirname "$0")/.."
# A fresh machine or CI runner has no locale: the tools below (javac, npm, Python) read and write UTF-8.
export LANG=C.UTF-8 LC_ALL=C.UTF-8
. scripts/venv.sh

started=$SECONDS
phase_started=$SECONDS
took() {  # the time of the phase that just ended, and of the run so far
    echo "== $1 took $((SECONDS - phase_started)) s (run so far: $((SECONDS - started)) s)"
    phase_started=$SECONDS
}

has_postgres() {
    command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1
}

missing=()
has_postgres || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x "${CABLECAR_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
if [ "${#missing[@]}" -gt 0 ]; then
    apt_install "${missing[*]}" "the test servers and the browser tests"
fi

ensure_venv test
took "installing"

eval "$(scripts/test-services.sh up)"
trap 'scripts/test-services.sh down >/dev/null 2>&1 || true' EXIT
export CABLECAR_TEST_DATABASE_URL CABLECAR_TEST_REDIS_URL

# pytest's workers (one per core unless CABLECAR_TEST_WORKERS says otherwise): each gets a PostgreSQL and a
# Redis of its own, as a serial run has. Shared servers would couple the workers' tests: the global log's
# readers wait for every transaction open on the server, and Redis counts rate limits per address.
workers="${CABLECAR_TEST_WORKERS:-auto}"
[ "$workers" = auto ] && workers="$(nproc)"
services_base="${CABLECAR_TEST_SERVICES_DIR:-/tmp/cablecar-test-services}"
for ((i = 1; i < workers; i++)); do
    lines="$(CABLECAR_TEST_SERVICES_DIR="$services_base-gw$i" scripts/test-services.sh up)"
    export "CABLECAR_TEST_DATABASE_URL_GW$i=$(eval "$lines"; echo "$CABLECAR_TEST_DATABASE_URL")"
    export "CABLECAR_TEST_REDIS_URL_GW$i=$(eval "$lines"; echo "$CABLECAR_TEST_REDIS_URL")"
done
stop_services() {
    for ((i = 1; i < workers; i++)); do
        CABLECAR_TEST_SERVICES_DIR="$services_base-gw$i" scripts/test-services.sh down >/dev/null 2>&1 || true
    done
    scripts/test-services.sh down >/dev/null 2>&1 || true
}
trap stop_services EXIT
took "starting PostgreSQL and Redis ($workers of each)"

# ---- the API contract (issue 15): spec linters, generated clients up to date, TypeScript client type-checked.
# scripts/check-contract.sh installs its pinned npm tools (tools/contract, `npm ci`) and Node.js if missing;
# the generated Python client (clients/python) is installed like any package a client author would use.
.venv/bin/python -m pip install -q -e clients/python
PYTHON=.venv/bin/python scripts/check-contract.sh
took "the contract checks"
# ---- end of the contract block

echo "== ruff"
.venv/bin/python -m ruff check domain events service bots cablecar tests bench
echo "== mypy"
.venv/bin/python -m mypy
took "ruff and mypy"
echo "== pytest"
parallel=()
[ "$workers" = 1 ] || parallel=(-n "$workers" --dist loadfile)
[ "$#" -gt 0 ] || set -- tests bench/load/tests  # the load harness' own verdicts are tested too
.venv/bin/python -m pytest -q -p no:cacheprovider "${parallel[@]}" --durations=15 "$@"
took "pytest"
echo "== the suite took $((SECONDS - started)) s"
