#!/usr/bin/env bash
# Prism (pinned in tools/contract) as a validating proxy in front of the real server (issue 27): a bot game of
# each type, then the README's curl walk-through (its blocks as written, read by tests/readme_blocks.py, only
# the base URL aimed at Prism), go through it, and every request and answer is checked against
# service/openapi.yaml; one violation fails. To prove that body validation is on, the same proxy set-up in
# front of a deliberately wrong server (an answer missing a required field) must report that violation.
# Prism buffers Server-Sent Events, so the walk-through's stream (step 7, closed by the server after 2 s here)
# arrives whole at its end; the stream's messages are checked by tests/api/test_asyncapi.py.
# Run by scripts/check-contract.sh; 30-45 s on the shared 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
PRISM=tools/contract/node_modules/.bin/prism
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
[ -n "${KEEP_PRISM_LOGS:-}" ] && trap 'cp "$WORK"/*.log "$KEEP_PRISM_LOGS"/ 2>/dev/null; cleanup' EXIT

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {  # $1: URL that must answer
    for _ in $(seq 1 240); do
        if curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; then return 0; fi
        sleep 0.25
    done
    echo "error: $1 never answered" >&2
    return 1
}
start_prism() {  # $1: upstream, $2: port, $3: log file (waited for by wait_prism)
    "$PRISM" proxy service/openapi.yaml "$1" --port "$2" --errors false >"$3" 2>&1 &
    PIDS+=($!)
}
wait_prism() {  # $1: port, $2: log file
    wait_for "http://127.0.0.1:$1/v1/health" || { cat "$2" >&2; return 1; }
}
violations() { grep -c "Violation:" "$1" || true; }

# -- the real server, and a deliberately wrong one (see the end), each behind a Prism; all four start at once
SERVER_PORT=$(free_port)
PRISM_PORT=$(free_port)
WRONG_PORT=$(free_port)
WRONG_PRISM=$(free_port)
# The walk-through's stream (step 7) ends by itself after 2 s here, where a reader presses Ctrl-C.
CABLECAR_SSE_MAX_SECONDS=2 CABLECAR_SSE_HEARTBEAT_SECONDS=1 \
    "$PY" -m cablecar.cli serve --host 127.0.0.1 --port "$SERVER_PORT" --data-dir "$WORK/data" >"$WORK/server.log" 2>&1 &
PIDS+=($!)
"$PY" - "$WRONG_PORT" >"$WORK/wrong.log" 2>&1 <<'WRONG' &
import json, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

class Wrong(BaseHTTPRequestHandler):
    def do_GET(self):  # /v1/health answers what the spec says; /v1/game-types lacks its required `types`
        body = {"status": "ok", "store": {"backend": "x", "ok": True, "detail": "x"},
                "cache": {"backend": "x", "ok": True, "detail": "x"}, "version": "0"}
        if self.path.startswith("/v1/game-types"):
            body = {"games": []}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

HTTPServer(("127.0.0.1", int(sys.argv[1])), Wrong).serve_forever()
WRONG
PIDS+=($!)
start_prism "http://127.0.0.1:$SERVER_PORT" "$PRISM_PORT" "$WORK/prism.log"
start_prism "http://127.0.0.1:$WRONG_PORT" "$WRONG_PRISM" "$WORK/prism-wrong.log"
wait_for "http://127.0.0.1:$SERVER_PORT/v1/health" || { cat "$WORK/server.log" >&2; exit 1; }
wait_for "http://127.0.0.1:$WRONG_PORT/v1/health" || { cat "$WORK/wrong.log" >&2; exit 1; }
wait_prism "$PRISM_PORT" "$WORK/prism.log"
wait_prism "$WRONG_PRISM" "$WORK/prism-wrong.log"
# the wrong answer goes through its Prism now; its report is read at the end
curl -sS -o /dev/null --max-time 10 "http://127.0.0.1:$WRONG_PRISM/v1/game-types" || true

# -- a bot game of each type through Prism, side by side
BOTS=()
for type in ttr-sf cable-car; do
    "$PY" -m cablecar.cli bot play --url "http://127.0.0.1:$PRISM_PORT" --type "$type" --players 2 --games 1 \
        --strategy random --seed "prism-$type" >"$WORK/bot-$type.log" 2>&1 &
    PIDS+=($!)
    BOTS+=("$type:$!")
done
for bot in "${BOTS[@]}"; do
    echo "== a ${bot%%:*} bot game through Prism"
    wait "${bot#*:}" || { cat "$WORK/bot-${bot%%:*}.log" >&2; exit 1; }
    tail -1 "$WORK/bot-${bot%%:*}.log"
done
requests() { grep -c "Request received" "$1" || true; }
bot_requests=$(requests "$WORK/prism.log")
echo "== the README walk-through through Prism"
"$PY" -m tests.readme_blocks walk-through "http://127.0.0.1:$PRISM_PORT" >"$WORK/walk-through.sh"
mkdir "$WORK/walk"
# errexit and pipefail, as tests/api/test_readme.py runs it: a step that fails (curl -f on an error) fails
(cd "$WORK/walk" && TMPDIR="$WORK/walk" timeout 120 bash -e -o pipefail "$WORK/walk-through.sh") \
    >"$WORK/walk-through.log" 2>&1 || { cat "$WORK/walk-through.log" >&2; exit 1; }
walk_requests=$(( $(requests "$WORK/prism.log") - bot_requests ))
# step 7 (the stream) came back through Prism with the game's events in it
grep -qE "^id: [0-9]+$" "$WORK/walk-through.log" || { cat "$WORK/walk-through.log" >&2; exit 1; }
found=$(violations "$WORK/prism.log")
echo "Prism: $bot_requests requests from the bots, $walk_requests from the walk-through, $found violation(s)"
if [ "$found" != 0 ] || [ "$bot_requests" -lt 50 ] || [ "$walk_requests" -lt 15 ]; then
    grep -B2 -A4 "Violation:" "$WORK/prism.log" | head -60 >&2
    exit 1
fi

# -- a deliberately wrong answer must be caught (body validation is on)
for _ in $(seq 1 50); do
    caught=$(violations "$WORK/prism-wrong.log")
    [ "$caught" = 0 ] || break
    sleep 0.1
done
if [ "$caught" = 0 ]; then
    echo "error: Prism let a wrong answer through: its body validation is off" >&2
    cat "$WORK/prism-wrong.log" >&2
    exit 1
fi
echo "Prism caught the deliberately wrong answer ($caught violation(s)): body validation is on"
