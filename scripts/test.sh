#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs the Python dependencies
# into .venv, starts a throwaway PostgreSQL and Redis (scripts/test-services.sh),
# runs the linters, the type checker and every test suite (unit, contract, api,
# e2e), then stops the servers.
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

eval "$(scripts/test-services.sh up)"
trap 'scripts/test-services.sh down >/dev/null 2>&1 || true' EXIT
export CABLECAR_TEST_DATABASE_URL CABLECAR_TEST_REDIS_URL

echo "== ruff"
.venv/bin/python -m ruff check domain events service tests bench
echo "== mypy"
.venv/bin/python -m mypy
echo "== pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "${@:-tests}"
