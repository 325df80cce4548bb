#!/usr/bin/env bash
# The whole test suite, from a fresh Debian/Ubuntu machine: installs the Python
# dependencies into .venv (scripts/venv.sh), starts a throwaway PostgreSQL and
# Redis (scripts/test-services.sh), runs the linters, the type checker and every
# test suite (unit, contract, api, e2e, browser), then stops the servers.
#
#   scripts/test.sh              # everything
#   scripts/test.sh tests/unit   # extra arguments go to pytest
#
# Needs Python >= 3.11 and the Debian packages python3-venv, postgresql,
# redis-server and chromium (the browser tests drive it).  As root the missing
# ones are installed with apt-get, each install said on a line; as anyone else
# the script stops at once, naming the packages to install.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh

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

eval "$(scripts/test-services.sh up)"
trap 'scripts/test-services.sh down >/dev/null 2>&1 || true' EXIT
export CABLECAR_TEST_DATABASE_URL CABLECAR_TEST_REDIS_URL

# ---- the API contract (issue 15): spec linters, generated clients up to date, TypeScript client type-checked.
# scripts/check-contract.sh installs its pinned npm tools (tools/contract, `npm ci`) and Node.js if missing;
# the generated Python client (clients/python) is installed like any package a client author would use.
.venv/bin/python -m pip install -q -e clients/python
PYTHON=.venv/bin/python scripts/check-contract.sh
# ---- end of the contract block

echo "== ruff"
.venv/bin/python -m ruff check domain events service bots cablecar tests bench
echo "== mypy"
.venv/bin/python -m mypy
echo "== pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "${@:-tests}"
