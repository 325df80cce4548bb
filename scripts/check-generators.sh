#!/usr/bin/env bash
# Every client generator people use, on service/openapi.yaml (issue 27): each must generate without an
# error, and its output must import / type-check / compile. Run by scripts/check-contract.sh; with warm
# caches 65-115 s on the shared 2-core machine, 61 s of CPU (one generator run per target and the checks one
# after another took 135-150 s, 79 s of CPU).
#
#   openapi-generator 7.x (pip openapi-generator-cli, pinned below; Java 17), the four targets in one JVM
#   (its `batch` command: half the CPU of four runs, byte-identical output):
#     python            imported with pydantic/urllib3/python-dateutil (a private venv), then plays 30
#                       moves of each game type against the real server (typed views, sampled legal actions),
#                       reads the cable-car board and a game's export as JSON and as NDJSON
#     typescript-fetch  tsc --strict
#     go                go build, Debian's Go and Debian's gopkg.in/validator.v2 (no module download); then
#                       tools/contract/goplay, built on the generated client, plays a whole game of each type
#                       against the real server (issue 38: every legal-actions answer must decode)
#     java --library native (openApiNullable=false, useJakartaEe=true: what Debian packages provide)
#                       javac on ALL of its output (models, APIs, support classes), any error fails, with
#                       Debian's jackson 2.14 and jakarta-annotation jars plus jackson-datatype-jsr310, the
#                       one dependency Debian does not package: its classes are taken from the pinned
#                       generator's own jar (see "java" below)
#   orval (fetch client), @hey-api/openapi-ts: tsc --strict
#   openapi-python-client and openapi-typescript: the committed clients (generate-clients.sh --check).
# The checks after generation run side by side, each into its own log, printed in order at the end.
#
# Downloads are cached in .cache/contract (pip wheels, the private venv, Go's build cache, the jsr310 classes).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
OPENAPI_GENERATOR_VERSION=7.26.0
CACHE="$PWD/.cache/contract"
OUT="$(mktemp -d)"
PIDS=()   # background processes: the server, the checks
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$OUT"
}
trap cleanup EXIT
mkdir -p "$CACHE"
BIN=tools/contract/node_modules/.bin
SPEC="$(realpath "${SPEC:-service/openapi.yaml}")"   # SPEC=other.yaml: the same checks on another spec

need_debian() {  # packages that must be installed (as root, when missing)
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ "${#missing[@]}" = 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then echo "error: install ${missing[*]} (apt-get)" >&2; exit 1; fi
    echo "== apt-get install ${missing[*]}"
    apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >/dev/null
}
need_debian golang-go golang-gopkg-validator.v2-dev libjackson2-core-java libjackson2-databind-java \
    libjackson2-annotations-java libjakarta-annotation-api-java libjsr305-java

if ! "$PY" -c "import openapi_generator_cli" 2>/dev/null \
    || [ "$("$PY" -m pip show openapi-generator-cli 2>/dev/null | sed -n 's/^Version: //p')" != "$OPENAPI_GENERATOR_VERSION" ]; then
    echo "== pip install openapi-generator-cli==$OPENAPI_GENERATOR_VERSION"
    "$PY" -m pip install -q --cache-dir "$CACHE/pip" "openapi-generator-cli==$OPENAPI_GENERATOR_VERSION"
fi
OG="$(dirname "$PY")/openapi-generator-cli"

OG_JAR="$("$PY" -c 'import os, openapi_generator_cli as m; print(os.path.join(os.path.dirname(m.__file__), "openapi-generator.jar"))')"

JOBS=()
job() {  # $1: name, then a command: run in the background, its output into $OUT/$1.job
    local name="$1"; shift
    ( "$@" ) >"$OUT/$name.job" 2>&1 &
    PIDS+=($!)
    JOBS+=("$name:$!")
}
wait_jobs() {  # prints every job's output in start order; fails when any job failed
    local failed=() entry
    for entry in "${JOBS[@]}"; do
        if wait "${entry#*:}"; then cat "$OUT/${entry%%:*}.job"; else cat "$OUT/${entry%%:*}.job" >&2; failed+=("${entry%%:*}"); fi
    done
    JOBS=()
    if [ "${#failed[@]}" != 0 ]; then echo "error: failed: ${failed[*]}" >&2; exit 1; fi
}

# -- orval and @hey-api/openapi-ts (Node.js), while openapi-generator runs
check_node_generators() {
    echo "== orval (fetch client)"
    "$BIN/orval" --input "$SPEC" --output "$OUT/orval/api.ts" --client fetch >"$OUT/orval.log" 2>&1 || { cat "$OUT/orval.log"; return 1; }
    echo "== @hey-api/openapi-ts"
    "$BIN/openapi-ts" -i "$SPEC" -o "$OUT/heyapi" >"$OUT/heyapi.log" 2>&1 || { cat "$OUT/heyapi.log"; return 1; }
    cat >"$OUT/tsconfig.json" <<'JSON'
{"compilerOptions": {"target": "ES2022", "module": "ES2022", "moduleResolution": "bundler", "strict": true,
 "noEmit": true, "lib": ["ES2022", "DOM", "DOM.Iterable"], "skipLibCheck": true},
 "include": ["orval/**/*.ts", "heyapi/**/*.ts"]}
JSON
    echo "== tsc (orval, hey-api)"
    "$BIN/tsc" -p "$OUT"
}
job node-generators check_node_generators

# -- openapi-generator: python, typescript-fetch, go, java in one JVM; fails on an error or an ERROR line
batch_config() {  # $1: generator, then more YAML lines
    local g="$1"; shift
    printf 'generatorName: %s\ninputSpec: %s\noutputDir: %s\n' "$g" "$SPEC" "$OUT/$g" >"$OUT/batch/$g.yaml"
    [ "$#" = 0 ] || printf '%s\n' "$@" >>"$OUT/batch/$g.yaml"
}
mkdir -p "$OUT/batch"
batch_config python
batch_config typescript-fetch
batch_config go
batch_config java "library: native" "additionalProperties:" "  openApiNullable: false" "  useJakartaEe: true"
echo "== openapi-generator python, typescript-fetch, go, java (native)"
if ! "$OG" batch --threads 2 "$OUT"/batch/{python,typescript-fetch,go,java}.yaml >"$OUT/og.log" 2>&1 \
    || grep -qE "\] ERROR |^Exception|^Caused by" "$OUT/og.log"; then
    cat "$OUT/og.log" >&2
    exit 1
fi

# -- python: imports, and plays against the real server (typed views, sampled legal actions sent back as read)
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PY" -m cablecar.cli serve --host 127.0.0.1 --port "$PORT" --data-dir "$OUT/data" >"$OUT/server.log" 2>&1 &
PIDS+=($!)
wait_server() {  # until the server answers /v1/health
    for _ in $(seq 1 120); do
        "$PY" -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=2)" \
            "http://127.0.0.1:$PORT/v1/health" 2>/dev/null && return 0
        sleep 0.5
    done
    echo "error: the server did not start" >&2; cat "$OUT/server.log" >&2; return 1
}
check_python() {
    echo "== python (imports, 30 moves of each game type, the cable-car board and a game's exports, against the real server)"
    local pyv="$CACHE/pyvenv"
    if [ ! -x "$pyv/bin/python" ]; then
        python3 -m venv "$pyv"
        "$pyv/bin/pip" install -q --cache-dir "$CACHE/pip" "pydantic>=2" "urllib3>=2" python-dateutil typing-extensions
    fi
    "$pyv/bin/python" - "$OUT/python" <<'PYCHECK'
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
    wait_server
    "$pyv/bin/python" - "$OUT/python" "http://127.0.0.1:$PORT" <<'PYPLAY'
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
# the board (nested arrays of edges) and a cancelled game's record, JSON and NDJSON, typed by the client
board = oc.MetaApi(oc.ApiClient(oc.Configuration(host=base))).get_board("cable-car").actual_instance
assert board.tiles and all(len(segment) == 2 for tile in board.tiles for segment in tile.segments), board
host = oc.GamesApi(oc.ApiClient(oc.Configuration(host=base, access_token=created.host_token)))
assert host.cancel_game(created.id).actual_instance.status == "cancelled"
audit = oc.AuditApi(oc.ApiClient(oc.Configuration(host=base)))
record = audit.export_game(created.id)
lines = bytes(audit.export_game_ndjson(created.id)).decode().splitlines()
assert len(lines) == len(record.events) + 1 and '"header"' in lines[0], lines[:1]
print(f"python: read the cable-car board ({len(board.tiles)} tile types) and a game's export as JSON and NDJSON")
PYPLAY
}

# -- typescript-fetch
check_typescript_fetch() {
    cat >"$OUT/typescript-fetch/tsconfig.json" <<'JSON'
{"compilerOptions": {"target": "ES2022", "module": "ES2022", "moduleResolution": "bundler", "strict": true,
 "noEmit": true, "lib": ["ES2022", "DOM", "DOM.Iterable"], "skipLibCheck": true}, "include": ["**/*.ts"]}
JSON
    echo "== tsc (typescript-fetch)"
    "$BIN/tsc" -p "$OUT/typescript-fetch"
}

# -- go
check_go() {
    echo "== go build (Debian's Go, Debian's validator.v2)"
    local goval="$CACHE/go-validator.v2"
    if [ ! -f "$goval/go.mod" ]; then
        mkdir -p "$goval" && cp -r /usr/share/gocode/src/gopkg.in/validator.v2/. "$goval/"
        printf 'module gopkg.in/validator.v2\n\ngo 1.18\n' >"$goval/go.mod"
    fi
    (cd "$OUT/go" && go mod edit -replace "gopkg.in/validator.v2=$goval" \
        && GOFLAGS=-mod=mod GOPROXY=off GOPATH="$CACHE/gopath" GOCACHE="$CACHE/gocache" go build ./... 2>&1 \
        | grep -v "^note: module requires Go" || true) >"$OUT/go-build.log"
    if [ -s "$OUT/go-build.log" ]; then cat "$OUT/go-build.log"; return 1; fi
    # ... and USED: tools/contract/goplay plays a whole game of each type through the default-options client
    echo "== go: tools/contract/goplay, a whole game of each type through the generated client (default options)"
    mkdir -p "$OUT/go/cmd/goplay" && cp tools/contract/goplay/main.go "$OUT/go/cmd/goplay/"
    (cd "$OUT/go" && GOFLAGS=-mod=mod GOPROXY=off GOPATH="$CACHE/gopath" GOCACHE="$CACHE/gocache" \
        go build -o "$OUT/goplay" ./cmd/goplay 2>&1 | grep -v "^note: module requires Go" || true) >"$OUT/goplay-build.log"
    if [ -s "$OUT/goplay-build.log" ]; then cat "$OUT/goplay-build.log"; return 1; fi
    wait_server
    "$OUT/goplay" "http://127.0.0.1:$PORT"
}

# -- java (native): ALL of its output compiles, any javac error fails.
# Its ApiClient and JSON register jackson's JavaTimeModule unconditionally (whatever dateLibrary says; only
# useJackson3 drops it, and Debian packages Jackson 2.14, not 3), and RFC3339InstantDeserializer extends a
# jsr310 class: they need jackson-datatype-jsr310, which Debian does not package (no libjackson2-datatype-
# jsr310-java in bookworm) and no reachable registry serves as a jar. The pinned generator's jar (from PyPI)
# carries that module, so its com/fasterxml/jackson/datatype/jsr310 classes (and only those: jackson-core,
# -databind and -annotations stay Debian's) are put on the class path; compiled against, not run.
check_java() {
    local jsr310="$CACHE/jsr310-$OPENAPI_GENERATOR_VERSION"
    if [ ! -f "$jsr310/jackson-datatype-jsr310.properties" ]; then
        rm -rf "$jsr310.tmp" && mkdir -p "$jsr310.tmp"
        "$PY" - "$OG_JAR" "$jsr310.tmp" <<'JSR310'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as jar:
    names = [n for n in jar.namelist() if n.startswith("com/fasterxml/jackson/datatype/jsr310/") and n.endswith(".class")]
    if not any(n.endswith("/JavaTimeModule.class") for n in names):
        sys.exit("error: the generator's jar carries no jackson-datatype-jsr310")
    jar.extractall(sys.argv[2], names)
    with open(f"{sys.argv[2]}/jackson-datatype-jsr310.properties", "wb") as out:
        out.write(jar.read("META-INF/maven/com.fasterxml.jackson.datatype/jackson-datatype-jsr310/pom.properties"))
JSR310
        rm -rf "$jsr310" && mv "$jsr310.tmp" "$jsr310"
    fi
    local version
    version=$(sed -n 's/^version=//p' "$jsr310/jackson-datatype-jsr310.properties")
    echo "== javac, all of the java output (Debian's jackson and jakarta-annotation; jsr310 $version from the generator's jar)"
    local cp=/usr/share/java/jackson-annotations.jar:/usr/share/java/jackson-core.jar:/usr/share/java/jackson-databind.jar
    cp=$cp:/usr/share/java/jakarta-annotation-api.jar:/usr/share/java/jsr305.jar:$jsr310
    find "$OUT/java/src/main/java" -name "*.java" >"$OUT/java-files"
    if ! grep -q "/ApiClient.java$" "$OUT/java-files" || ! grep -q "/RFC3339JavaTimeModule.java$" "$OUT/java-files"; then
        echo "error: the java output lacks its support classes"; return 1
    fi
    mkdir -p "$OUT/java-classes"
    if ! javac -encoding UTF-8 -nowarn -Xmaxerrs 5000 -d "$OUT/java-classes" -cp "$cp" @"$OUT/java-files" >"$OUT/javac.log" 2>&1; then
        cat "$OUT/javac.log"
        echo "java: $(grep -c ': error: ' "$OUT/javac.log") javac error(s)"
        return 1
    fi
    echo "java: all $(wc -l <"$OUT/java-files") generated files compile (models, APIs and support classes)"
}

job python check_python
job typescript-fetch check_typescript_fetch
job go check_go
job java check_java
wait_jobs
echo "every generator generated, and its output imports / type-checks / compiles"
