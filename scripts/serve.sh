#!/usr/bin/env bash
# The server on the embedded default, from a fresh clone: creates (or reuses)
# the virtual environment .venv, installs Cable Car into it, then runs
# `cablecar serve` (http://127.0.0.1:8000; Ctrl-C stops).  Arguments go to
# `cablecar serve` (scripts/serve.sh --port 9000).  Afterwards the command is
# .venv/bin/cablecar (or `cablecar` once .venv/bin is on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv ""
exec .venv/bin/cablecar serve "$@"
