#!/usr/bin/env bash
# Regenerate the clients committed from openapi.yaml; run it after every change of the spec.
#
#   scripts/generate-clients.sh          # rewrite clients/python and clients/typescript/src/schema.d.ts
#   scripts/generate-clients.sh --check  # regenerate into a temporary folder; fail if the committed copy differs
#
# Needs openapi-python-client (the version pinned in pyproject.toml's `test` extra) and the npm tools of
# tools/contract (`npm ci` there).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
GEN=("$PY" -m openapi_python_client)
TS_GEN=tools/contract/node_modules/.bin/openapi-typescript

generate_into() {  # $1: a folder that receives python/ and schema.d.ts
    local out="$1"
    "${GEN[@]}" generate --path service/openapi.yaml --config clients/openapi-python-client.yaml \
        --meta pdm --output-path "$out/python" --overwrite >"$out/python-generator.log" 2>&1 || {
        cat "$out/python-generator.log" >&2
        return 1
    }
    if grep -q "^WARNING\|Unable to\|Cannot parse" "$out/python-generator.log"; then
        echo "openapi-python-client warned (every part of the spec must generate):" >&2
        cat "$out/python-generator.log" >&2
        return 1
    fi
    # --default-non-nullable false: a field with a default may be left out of a request body.
    "$TS_GEN" service/openapi.yaml --default-non-nullable false --output "$out/schema.d.ts" >/dev/null
}

if [ "${1:-}" = "--check" ]; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    generate_into "$tmp"
    status=0
    # what installing and importing the package leave beside it is not part of the generated copy
    diff -r -q --exclude=__pycache__ --exclude=.pdm-build --exclude="*.egg-info" clients/python "$tmp/python" || status=1
    diff -q clients/typescript/src/schema.d.ts "$tmp/schema.d.ts" || status=1
    if [ "$status" != 0 ]; then
        echo "the generated clients are out of date: run scripts/generate-clients.sh and commit the result" >&2
        exit 1
    fi
    echo "generated clients are up to date"
else
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    generate_into "$tmp"
    rm -rf clients/python
    cp -r "$tmp/python" clients/python
    mkdir -p clients/typescript/src
    cp "$tmp/schema.d.ts" clients/typescript/src/schema.d.ts
    echo "regenerated clients/python and clients/typescript/src/schema.d.ts"
fi
