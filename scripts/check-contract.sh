#!/usr/bin/env bash
# The contract checks (issue 15), run by scripts/test.sh and on their own:
#   openapi-spec-validator, Spectral and Redocly on service/openapi.yaml (zero errors),
#   the committed generated clients against a fresh generation (scripts/generate-clients.sh --check),
#   and the TypeScript client type-checked with `tsc --noEmit`; the AsyncAPI document parsed (issue 27);
#   every client generator people use generating compilable output (scripts/check-generators.sh), and Prism
#   validating the real server's traffic while bots play and the README walk-through runs (scripts/check-prism.sh).
# The npm tools are pinned in tools/contract/package-lock.json and installed with `npm ci`; Node.js comes
# from Debian when it is missing (as root).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        echo "== installing Node.js and npm (contract linters, TypeScript client)"
        apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq nodejs npm >/dev/null
    else
        echo "error: Node.js is missing and this is not root: run 'apt-get install nodejs npm'" >&2
        exit 1
    fi
fi
TOOLS=tools/contract
npm_needed() { [ ! -d "$TOOLS/node_modules" ] || [ "$TOOLS/package-lock.json" -nt "$TOOLS/node_modules/.package-lock.json" ]; }
if npm_needed; then
    # (two test runs in one checkout at once: one installs, the other waits for it)
    exec {npm_lock}<"$TOOLS/package-lock.json"
    flock "$npm_lock"
    if npm_needed; then
        echo "== npm ci (tools/contract)"
        (cd "$TOOLS" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    fi
    exec {npm_lock}<&-
fi
BIN="$TOOLS/node_modules/.bin"

echo "== openapi-spec-validator"
"$PY" -m openapi_spec_validator service/openapi.yaml
echo "== spectral"
"$BIN/spectral" lint service/openapi.yaml --ruleset "$TOOLS/spectral.yaml" --fail-severity error
echo "== redocly"
"$BIN/redocly" lint --config "$TOOLS/redocly.yaml" --format stylish
echo "== asyncapi parser (service/asyncapi.yaml, its refs into openapi.yaml resolved)"
node "$TOOLS/asyncapi-check.mjs" service/asyncapi.yaml
echo "== generated clients are up to date"
PYTHON="$PY" scripts/generate-clients.sh --check
echo "== tsc --noEmit (clients/typescript)"
"$BIN/tsc" --noEmit -p clients/typescript
echo "== client generators (openapi-generator python/typescript-fetch/typescript-axios/go/java, orval, hey-api)"
PYTHON="$PY" scripts/check-generators.sh
echo "== Prism as a validating proxy in front of the real server, bot games and the README walk-through through it"
PYTHON="$PY" scripts/check-prism.sh
