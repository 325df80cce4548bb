#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs the Python dependencies
# into .venv, starts a throwaway PostgreSQL and Redis (scripts/test-services.sh),
# installs Chromium for the browser tests when it is missing, runs the linters,
# the type checker and every test suite (unit, contract, api, e2e, browser), then
# stops the servers.
#
#   scripts/test.sh              # everything
#   scripts/test.sh tests/unit   # extra arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[test]"

# The browser tests (tests/browser) drive Debian's Chromium through Playwright.
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "== installing chromium (browser tests)"
        apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "warning: /usr/bin/chromium is missing and this is not root: run 'apt-get install chromium'" >&2
    fi
fi

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
.venv/bin/python -m ruff check domain events service tests bench
echo "== mypy"
.venv/bin/python -m mypy
echo "== pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "${@:-tests}"
