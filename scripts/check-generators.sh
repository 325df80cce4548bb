#!/usr/bin/env bash
# Every client generator people use, on service/openapi.yaml (issue 27): each must generate without an
# error, and its output must import / type-check / compile. Run by scripts/check-contract.sh.
#
#   openapi-generator 7.x (pip openapi-generator-cli, pinned below; Java 17):
#     python            imported with pydantic/urllib3/python-dateutil (a private venv), then plays 30
#                       moves of each game type against the real server (typed views, sampled legal actions)
#     typescript-fetch  tsc --strict
#     go                go build, Debian's Go and Debian's gopkg.in/validator.v2 (no module download)
#     java --library native (openApiNullable=false, useJakartaEe=true: what Debian packages provide)
#                       javac with Debian's jackson and jakarta-annotation jars; Debian has no
#                       jackson-datatype-jsr310, so the four support classes that register it are the only
#                       files allowed to fail, and only for that package (every model and API must compile)
#   orval (fetch client), @hey-api/openapi-ts: tsc --strict
#   openapi-python-client and openapi-typescript: the committed clients (generate-clients.sh --check).
#
# Downloads are cached in .cache/contract (pip wheels, the private venv, Go's build cache).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
OPENAPI_GENERATOR_VERSION=7.26.0
CACHE="$PWD/.cache/contract"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
mkdir -p "$CACHE"
BIN=tools/contract/node_modules/.bin
SPEC=service/openapi.yaml

need_debian() {  # packages that must be installed (as root, when missing)
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ "${#missing[@]}" = 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then echo "error: install ${missing[*]} (apt-get)" >&2; exit 1; fi
    echo "== apt-get install ${missing[*]}"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}
need_debian golang-go golang-gopkg-validator.v2-dev libjackson2-core-java libjackson2-databind-java \
    libjackson2-annotations-java libjakarta-annotation-api-java libjsr305-java

if ! "$PY" -c "import openapi_generator_cli" 2>/dev/null \
    || [ "$("$PY" -m pip show openapi-generator-cli 2>/dev/null | sed -n 's/^Version: //p')" != "$OPENAPI_GENERATOR_VERSION" ]; then
    echo "== pip install openapi-generator-cli==$OPENAPI_GENERATOR_VERSION"
    "$PY" -m pip install -q --cache-dir "$CACHE/pip" "openapi-generator-cli==$OPENAPI_GENERATOR_VERSION"
fi
OG="$(dirname "$PY")/openapi-generator-cli"

generate() {  # $1: generator, then its options; fails on a generator error or an ERROR line
    local g="$1"; shift
    echo "== openapi-generator $g"
    if ! "$OG" generate -i "$SPEC" -g "$g" -o "$OUT/$g" "$@" >"$OUT/$g.log" 2>&1 || grep -qE "\] ERROR |^Exception|^Caused by" "$OUT/$g.log"; then
        cat "$OUT/$g.log" >&2
        exit 1
    fi
}

# -- python
generate python
PYV="$CACHE/pyvenv"
if [ ! -x "$PYV/bin/python" ]; then
    python3 -m venv "$PYV"
    "$PYV/bin/pip" install -q --cache-dir "$CACHE/pip" "pydantic>=2" "urllib3>=2" python-dateutil typing-extensions
fi
"$PYV/bin/python" - "$OUT/python" <<'PYCHECK'
import importlib, pkgutil, sys
sys.path.insert(0, sys.argv[1])
n = 0
for sub in ("openapi_client.models", "openapi_client.api"):
    for mod in pkgutil.iter_modules(importlib.import_module(sub).__path__):
        importlib.import_module(f"{sub}.{mod.name}")
        n += 1
from openapi_client.models.action_request import ActionRequest
for body in ({"type": "resign"}, {"type": "roll"}, {"type": "draw_tickets"}, {"type": "start_ride"},
             {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 1, "col": 2, "rotation": 0}]}):
    parsed = ActionRequest.from_dict(body)  # one discriminated type each, not "matches several"
    assert parsed.actual_instance.type == body["type"], body
print(f"python: imported {n} modules; action bodies parse by their discriminator")
PYCHECK
# ... and it plays against the real server: typed views, sampled legal actions, actions sent back as read
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PY" -m cablecar.cli serve --host 127.0.0.1 --port "$PORT" --data-dir "$OUT/data" >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$OUT"' EXIT
for _ in $(seq 1 60); do
    "$PY" -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=2)" \
        "http://127.0.0.1:$PORT/v1/health" 2>/dev/null && break
    sleep 0.5
done
"$PYV/bin/python" - "$OUT/python" "http://127.0.0.1:$PORT" <<'PYPLAY'
import random, sys
sys.path.insert(0, sys.argv[1])
import openapi_client as oc
from openapi_client.models import CreateGame
base = sys.argv[2]
for game_type in ("cable-car", "ttr-sf"):
    games = oc.GamesApi(oc.ApiClient(oc.Configuration(host=base)))
    created = games.create_game(CreateGame.from_dict(
        {"type": game_type, "players": [{"name": "A"}, {"name": "B"}], "seed": "generated-python"}))
    rng = random.Random(1)
    for step in range(30):
        view = games.get_game(created.id).actual_instance
        if view.status in ("finished", "cancelled"):
            break
        seat = view.active_seats[0]
        actions = oc.ActionsApi(oc.ApiClient(oc.Configuration(host=base, access_token=created.seats[seat].token)))
        legal = actions.get_legal_actions(created.id, sample=5, seed=f"s{step}")
        actions.post_action(created.id, rng.choice([a for a in legal.actions if a.actual_instance.type != "resign"]))
    print(f"python: played {step} moves of a {game_type} game against the real server")
PYPLAY
kill $SERVER 2>/dev/null || true

# -- typescript-fetch
generate typescript-fetch
cat >"$OUT/typescript-fetch/tsconfig.json" <<'JSON'
{"compilerOptions": {"target": "ES2022", "module": "ES2022", "moduleResolution": "bundler", "strict": true,
 "noEmit": true, "lib": ["ES2022", "DOM", "DOM.Iterable"], "skipLibCheck": true}, "include": ["**/*.ts"]}
JSON
echo "== tsc (typescript-fetch)"
"$BIN/tsc" -p "$OUT/typescript-fetch"

# -- go
generate go
echo "== go build (Debian's Go, Debian's validator.v2)"
GOVAL="$CACHE/go-validator.v2"
if [ ! -f "$GOVAL/go.mod" ]; then
    mkdir -p "$GOVAL" && cp -r /usr/share/gocode/src/gopkg.in/validator.v2/. "$GOVAL/"
    printf 'module gopkg.in/validator.v2\n\ngo 1.18\n' >"$GOVAL/go.mod"
fi
(cd "$OUT/go" && go mod edit -replace "gopkg.in/validator.v2=$GOVAL" \
    && GOFLAGS=-mod=mod GOPROXY=off GOPATH="$CACHE/gopath" GOCACHE="$CACHE/gocache" go build ./... 2>&1 \
    | grep -v "^note: module requires Go" || true) >"$OUT/go-build.log"
if [ -s "$OUT/go-build.log" ]; then cat "$OUT/go-build.log" >&2; exit 1; fi

# -- java (native)
generate java --library native --additional-properties openApiNullable=false,useJakartaEe=true
echo "== javac (Debian's jackson and jakarta-annotation)"
CP=/usr/share/java/jackson-annotations.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-databind.jar
CP=$CP:/usr/share/java/jakarta-annotation-api.jar:/usr/share/java/jsr305.jar
find "$OUT/java/src/main/java" -name "*.java" >"$OUT/java-files"
mkdir -p "$OUT/java-classes"
javac -nowarn -Xmaxerrs 5000 -d "$OUT/java-classes" -cp "$CP" @"$OUT/java-files" >"$OUT/javac.log" 2>&1 || true
"$PY" - "$OUT/javac.log" <<'JAVACHECK'
import re, sys
text = open(sys.argv[1]).read()
errors = re.findall(r"^(\S+\.java):\d+: error: (.*)$", text, re.M)
support = ("/ApiClient.java", "/JSON.java", "/RFC3339InstantDeserializer.java", "/RFC3339JavaTimeModule.java")
other = [e for e in errors if not e[0].endswith(support)]
if other:
    print(text, file=sys.stderr)
    sys.exit(f"java: {len(other)} javac error(s) outside the jsr310 support classes")
print(f"java: every model and API compiles ({len(errors)} error(s), all in the support classes that need "
      "jackson-datatype-jsr310, which Debian does not package)")
JAVACHECK

# -- orval and @hey-api/openapi-ts
echo "== orval (fetch client)"
"$BIN/orval" --input "$SPEC" --output "$OUT/orval/api.ts" --client fetch >"$OUT/orval.log" 2>&1 || { cat "$OUT/orval.log" >&2; exit 1; }
echo "== @hey-api/openapi-ts"
"$BIN/openapi-ts" -i "./$SPEC" -o "$OUT/heyapi" >"$OUT/heyapi.log" 2>&1 || { cat "$OUT/heyapi.log" >&2; exit 1; }
cat >"$OUT/tsconfig.json" <<'JSON'
{"compilerOptions": {"target": "ES2022", "module": "ES2022", "moduleResolution": "bundler", "strict": true,
 "noEmit": true, "lib": ["ES2022", "DOM", "DOM.Iterable"], "skipLibCheck": true},
 "include": ["orval/**/*.ts", "heyapi/**/*.ts"]}
JSON
echo "== tsc (orval, hey-api)"
"$BIN/tsc" -p "$OUT"
echo "every generator generated, and its output imports / type-checks / compiles"
