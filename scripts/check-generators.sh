#!/usr/bin/env bash
# Every client generator people use, on service/openapi.yaml (issue 27): each must generate without an
# error, its output must import / type-check / compile, and each openapi-generator client must play a whole game
# of each type against the real server (issue 38). Run by scripts/check-contract.sh; with warm caches 90-115 s
# on the shared 2-core machine, about 100 s of CPU (before the play programs: 65-115 s, 61 s of CPU).
#
#   openapi-generator 7.x (pip openapi-generator-cli, pinned below; Java 17), the five targets in one JVM
#   (its `batch` command: half the CPU of separate runs, byte-identical output):
#     python            tools/contract/pyplay/play.py in a private venv (pydantic/urllib3/python-dateutil): imports
#                       every module, then plays a whole game of each type against the real server and reads
#                       each game's event page, export (JSON and NDJSON) and audit, the cable-car board and a
#                       cancelled game's export (issue 38)
#     typescript-fetch  tsc --strict with tools/contract/fetchplay/play.ts, then node (its own fetch) plays a
#                       whole game of each type through it against the real server and reads each game's event
#                       page, stream, export (JSON and NDJSON) and audit (issue 38)
#     typescript-axios  tsc --strict with tools/contract/axiosplay/play.ts (axios pinned in tools/contract), then
#                       node plays a whole game of each type through it against the real server and reads each
#                       game's event page, stream, export and audit (issue 38)
#     go                go build, Debian's Go and Debian's gopkg.in/validator.v2 (no module download); then
#                       tools/contract/goplay, built on the generated client, plays a whole game of each type
#                       against the real server (issue 38: every legal-actions answer must decode)
#     java --library native (openApiNullable=false, useJakartaEe=true: what Debian packages provide)
#                       javac on ALL of its output (models, APIs, support classes), any error fails, with
#                       Debian's jackson 2.14 and jakarta-annotation jars plus jackson-datatype-jsr310, the
#                       one dependency Debian does not package: its classes are taken from the pinned
#                       generator's own jar (see "java" below); then tools/contract/javaplay/Play.java, compiled
#                       against it, plays a whole game of each type against the real server and reads each game's
#                       event page, export (JSON and NDJSON) and audit (not its stream: this client parses every
#                       answer as JSON, text/event-stream too) (issue 38)
#   orval (fetch client), @hey-api/openapi-ts: tsc --strict
#   openapi-python-client and openapi-typescript: the committed clients (generate-clients.sh --check).
#   csharp is not checked: its default output (net8.0, generichost) builds only with the .NET SDK and NuGet
#   packages, and neither Debian nor any registry CI reaches (PyPI, npm, Debian) provides them.
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

# -- openapi-generator: python, typescript-fetch, typescript-axios, go, java in one JVM; fails on an error or an ERROR line
batch_config() {  # $1: generator, then more YAML lines
    local g="$1"; shift
    printf 'generatorName: %s\ninputSpec: %s\noutputDir: %s\n' "$g" "$SPEC" "$OUT/$g" >"$OUT/batch/$g.yaml"
    [ "$#" = 0 ] || printf '%s\n' "$@" >>"$OUT/batch/$g.yaml"
}
mkdir -p "$OUT/batch"
batch_config python
batch_config typescript-fetch
batch_config typescript-axios
batch_config go
batch_config java "library: native" "additionalProperties:" "  openApiNullable: false" "  useJakartaEe: true"
echo "== openapi-generator python, typescript-fetch, typescript-axios, go, java (native)"
if ! "$OG" batch --threads 2 "$OUT"/batch/{python,typescript-fetch,typescript-axios,go,java}.yaml >"$OUT/og.log" 2>&1 \
    || grep -qE "\] ERROR |^Exception|^Caused by" "$OUT/og.log"; then
    cat "$OUT/og.log" >&2
    exit 1
fi

# -- the real server the play programs use; python: tools/contract/pyplay (imports, plays, reads)
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
    echo "== python: tools/contract/pyplay, imports, then a whole game of each type through the generated client (default options)"
    local pyv="$CACHE/pyvenv"
    if [ ! -x "$pyv/bin/python" ]; then
        python3 -m venv "$pyv"
        "$pyv/bin/pip" install -q --cache-dir "$CACHE/pip" "pydantic>=2" "urllib3>=2" python-dateutil typing-extensions
    fi
    wait_server
    "$pyv/bin/python" tools/contract/pyplay/play.py "$OUT/python" "http://127.0.0.1:$PORT"
}

# -- typescript-fetch: compiled with tools/contract/fetchplay, which then plays against the real server
check_typescript_fetch() {
    local dir="$OUT/typescript-fetch"
    cp tools/contract/fetchplay/play.ts "$dir/"
    ln -s "$PWD/tools/contract/node_modules" "$dir/node_modules"   # @types/node (node's own fetch at run time)
    cat >"$dir/tsconfig.json" <<'JSON'
{"compilerOptions": {"target": "ES2022", "module": "commonjs", "moduleResolution": "node", "strict": true,
 "outDir": "build", "lib": ["ES2022", "DOM", "DOM.Iterable"], "skipLibCheck": true, "types": ["node"]},
 "include": ["**/*.ts"], "exclude": ["node_modules", "build"]}
JSON
    echo "== tsc (typescript-fetch, with tools/contract/fetchplay)"
    "$BIN/tsc" -p "$dir"
    echo "== typescript-fetch: tools/contract/fetchplay, a whole game of each type through the generated client (default options)"
    wait_server
    node "$dir/build/play.js" "http://127.0.0.1:$PORT"
}

# -- typescript-axios: compiled with tools/contract/axiosplay, which then plays against the real server
check_typescript_axios() {
    local dir="$OUT/typescript-axios"
    cp tools/contract/axiosplay/play.ts "$dir/"
    ln -s "$PWD/tools/contract/node_modules" "$dir/node_modules"   # axios and @types/node
    cat >"$dir/tsconfig.json" <<'JSON'
{"compilerOptions": {"target": "ES2022", "module": "commonjs", "moduleResolution": "node", "strict": true,
 "outDir": "build", "lib": ["ES2022", "DOM"], "skipLibCheck": true, "types": ["node"]}, "include": ["*.ts"]}
JSON
    echo "== tsc (typescript-axios, with tools/contract/axiosplay)"
    "$BIN/tsc" -p "$dir"
    echo "== typescript-axios: tools/contract/axiosplay, a whole game of each type through the generated client (default options)"
    wait_server
    node "$dir/build/play.js" "http://127.0.0.1:$PORT"
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
    # ... and USED: tools/contract/javaplay plays a whole game of each type through it. It runs on the generator's
    # own jar, whose jackson-core, -databind and -datatype-jsr310 are of one release (the jsr310 classes fail at
    # run time on Debian's older databind: NoSuchFieldError)
    echo "== java: tools/contract/javaplay, a whole game of each type through the generated client"
    if ! javac -encoding UTF-8 -nowarn -d "$OUT/java-classes" -cp "$OUT/java-classes:$cp" tools/contract/javaplay/Play.java \
        >"$OUT/javaplay.log" 2>&1; then cat "$OUT/javaplay.log"; return 1; fi
    wait_server
    java -cp "$OUT/java-classes:$OG_JAR" Play "http://127.0.0.1:$PORT"
}

job python check_python
job typescript-fetch check_typescript_fetch
job typescript-axios check_typescript_axios
job go check_go
job java check_java
wait_jobs
echo "every generator generated, its output imports / type-checks / compiles, and every openapi-generator client played"
