# Sourced by scripts/serve.sh and scripts/test.sh (from the repository's root):
# `ensure_venv EXTRAS` creates .venv (or reuses it) and installs the project into
# it, editable, with the optional dependencies EXTRAS ("" or "test").  A virtual
# environment, because Debian and Ubuntu refuse `pip install` into the system
# Python (PEP 668); .venv/bin/cablecar is then the command.
#
# Needs Python >= 3.11 (`$PYTHON`, default python3) with its venv module, which
# Debian ships apart: as root a missing python3-venv is installed with apt-get
# (said on a line); as anyone else the message names the package.

say() { echo "== $*" >&2; }
fail() { echo "error: $*" >&2; exit 1; }

apt_install() {
    if [ "$(id -u)" != 0 ]; then
        fail "missing Debian/Ubuntu package(s): $1 (for $2); install as root: apt-get install $1"
    fi
    say "installing $1 with apt-get ($2)"
    # shellcheck disable=SC2086  # a list of package names
    { apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $1; } >/dev/null \
        || fail "apt-get install $1 failed"
}

ensure_venv() {
    local extras="$1" py="${PYTHON:-python3}" spec=. stamp=".venv/.cablecar-installed${1:+-$1}" want lock
    # Two runs in one checkout at once (scripts/test.sh twice): one makes .venv, the other waits for it.
    exec {lock}<"${BASH_SOURCE[0]}"
    flock "$lock"
    command -v "$py" >/dev/null 2>&1 || apt_install python3 "Cable Car, which runs on Python >= 3.11"
    "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || fail "Cable Car needs Python >= 3.11; $py is $("$py" -V 2>&1) (set PYTHON to another interpreter)"
    if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
        rm -rf .venv  # absent, or half made by a venv module without ensurepip
        if ! "$py" -m venv .venv >/dev/null 2>&1; then
            rm -rf .venv
            apt_install "python3-venv" "a virtual environment (python3 -m venv)"
            "$py" -m venv .venv || fail "$py -m venv .venv failed"
        fi
        say "created the virtual environment .venv"
    fi
    [ -n "$extras" ] && spec=".[$extras]"
    # Installed again only when what it depends on changed (the install is editable).
    want="$(cat pyproject.toml <(echo "$spec") | sha256sum | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        say "installing Cable Car and its dependencies into .venv"
        .venv/bin/python -m pip install -q --upgrade pip >/dev/null
        # setuptools' build backend warns on stderr during an editable install, even with -q:
        # its output is kept, and shown only when the install fails.
        local log
        log="$(mktemp)"
        if ! .venv/bin/python -m pip install -q -e "$spec" 2>"$log"; then
            cat "$log" >&2
            rm -f "$log"
            fail "pip install -e $spec failed"
        fi
        rm -f "$log"
        echo "$want" >"$stamp"
    fi
    exec {lock}<&-
}
