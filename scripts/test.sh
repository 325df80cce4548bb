#!/usr/bin/env bash
# The whole test suite, from a fresh Debian/Ubuntu machine: installs the Python
# dependencies into .venv (scripts/venv.sh), starts throwaway PostgreSQL and
# Redis servers of its own (scripts/test-services.sh run-up: another run on the
# same machine at the same time has its own), runs the linters, the type checker
# and every test suite (unit, contract, api, e2e, browser), then stops them.
#
#   scripts/test.sh              # everything
#   scripts/test.sh tests/unit   # extra arguments go to pytest
#
# pytest runs on every core (pytest-xdist, one test file per worker at a time;
# CABLECAR_TEST_WORKERS=1 runs it in one process).  Each phase says how long it
# took, and the last line the whole run's time.
#
# Runs under a bare PATH too (`env -i HOME=$HOME PATH=/usr/bin:/bin`, as .ci/run does).
# Needs Python >= 3.11 and the Debian packages python3-venv, postgresql,
# redis-server and chromium (the browser tests drive it).  As root the missing
# ones are installed with apt-get, each install said on a line; as anyone else
# the script stops at once, naming the packages to install.
set -euo pipefail
cd "$(dirname "$0")/.."
# A bare PATH (`env -i PATH=/usr/bin:/bin`, a user's shell turned root) lacks sbin, where runuser and useradd
# live: test-services.sh and the tests starting PostgreSQL as root need them.
for sbin in /usr/local/sbin /usr/sbin /sbin; do
    case ":$PATH:" in *":$sbin:"*) ;; *) if [ -d "$sbin" ]; then PATH="$PATH:$sbin"; fi ;; esac
done
export PATH
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

# pytest's workers (one per core unless CABLECAR_TEST_WORKERS says otherwise): each gets a PostgreSQL and a
# Redis of its own, as a serial run has. Shared servers would couple the workers' tests: the global log's
# readers wait for every transaction open on the server, and Redis counts rate limits per address.
# They are this run's own (in a new directory, unless CABLECAR_TEST_SERVICES_DIR names one): another run on
# the same machine at the same time neither reuses nor stops them.
workers="${CABLECAR_TEST_WORKERS:-auto}"
[ "$workers" = auto ] && workers="$(nproc)"
services="$(scripts/test-services.sh run-up "$workers")" || exit 1
eval "$services"
trap 'scripts/test-services.sh run-down >/dev/null 2>&1 || true' EXIT
took "starting PostgreSQL and Redis ($workers of each)"

# ---- the API contract (issue 15): spec linters, generated clients up to date, TypeScript client type-checked.
# scripts/check-contract.sh installs its pinned npm tools (tools/contract, `npm ci`) and Node.js if missing;
# the generated Python client (clients/python) is installed like any package a client author would use.
# (installed again only when its pyproject.toml changed: another run in this checkout may be importing it)
client_stamp=".venv/.cablecar-client-installed"
client_want="$(sha256sum clients/python/pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$client_stamp" 2>/dev/null)" != "$client_want" ]; then
    flock scripts/venv.sh .venv/bin/python -m pip install -q -e clients/python
    echo "$client_want" >"$client_stamp"
fi
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
