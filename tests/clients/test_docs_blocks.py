"""docs/clients.md's code blocks under "Writing a client" work as written (issue 37): the Python ones
run with the generated client on the path (what `pip install -e clients/python` gives) in a fresh
machine's environment (``env -i``), the TypeScript ones compile beside clients/typescript/src and run
with node, each against a live server. Only the base URL changes, and the stream examples, which
follow a game the reader already has, get its ``game_id`` / ``gameId`` and seat token first. The shell blocks
that install them (issue 55) run as written too: the Python client into a fresh virtual environment, and the
TypeScript client compiled with the ``tsc`` that ``npm ci`` in tools/contract installs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.readme_blocks import DOCUMENTED_URL, ROOT, fresh_env, shell_blocks

CLIENTS = ROOT / "docs" / "clients.md"
SECTION = "## Writing a client"
TSC = ROOT / "tools" / "contract" / "node_modules" / ".bin" / "tsc"


def _blocks(language: str) -> list[str]:
    return shell_blocks(CLIENTS.read_text(encoding="utf-8"), SECTION, language)


def _cancelled_game(base: str) -> tuple[str, str]:
    """A game its host cancelled (its stream ends at once): its id and seat 0's token."""
    body = json.dumps({"type": "cable-car", "players": [{"name": "Ada"}, {"name": "Bo"}]}).encode()
    request = urllib.request.Request(base + "/v1/games", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        game = json.load(answer)
    cancel = urllib.request.Request(f"{base}/v1/games/{game['id']}/cancel", method="POST",
                                    headers={"Authorization": f"Bearer {game['host_token']}"})
    urllib.request.urlopen(cancel, timeout=30).close()
    return game["id"], game["seats"][0]["token"]


def _run(argv: list[str], cwd: Path, home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = fresh_env(home, **extra)
    return subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_python_blocks_run_as_written(live_server: str, tmp_path: Path) -> None:
    client, stream = _blocks("python")
    assert DOCUMENTED_URL in client and DOCUMENTED_URL in stream
    game_id, token = _cancelled_game(live_server)
    path = f"{ROOT / 'clients' / 'python'}:{ROOT}"
    (tmp_path / "client.py").write_text(client.replace(DOCUMENTED_URL, live_server), encoding="utf-8")
    done = _run([sys.executable, str(tmp_path / "client.py")], ROOT, tmp_path, PYTHONPATH=path)
    assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "stream.py").write_text(f"game_id, seat_token = {game_id!r}, {token!r}\n"
                                        + stream.replace(DOCUMENTED_URL, live_server), encoding="utf-8")
    done = _run([sys.executable, str(tmp_path / "stream.py")], ROOT, tmp_path, PYTHONPATH=path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == "1 game_set_up" and done.stdout.rstrip().endswith("over: cancelled")


@pytest.mark.skipif(not TSC.exists() or shutil.which("node", path="/usr/bin:/bin") is None,
                    reason="the npm tools are not installed: run scripts/check-contract.sh (npm ci in tools/contract)")
def test_the_typescript_blocks_compile_and_run_as_written(live_server: str, tmp_path: Path) -> None:
    client, stream = _blocks("ts")
    game_id, token = _cancelled_game(live_server)
    src = tmp_path / "src"
    shutil.copytree(ROOT / "clients" / "typescript" / "src", src)
    (src / "doc_client.ts").write_text(client.replace(DOCUMENTED_URL, live_server), encoding="utf-8")
    (src / "doc_stream.ts").write_text(f"const gameId = {json.dumps(game_id)};\nconst seatToken = {json.dumps(token)};\n"
                                       + stream.replace(DOCUMENTED_URL, live_server), encoding="utf-8")
    config = json.loads((ROOT / "clients" / "typescript" / "tsconfig.json").read_text())
    config["compilerOptions"]["typeRoots"] = [str(ROOT / "tools" / "contract" / "node_modules" / "@types")]
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    built = subprocess.run([str(TSC), "-p", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    done = _run(["node", "build/doc_client.js"], tmp_path, tmp_path)
    assert done.returncode == 0 and done.stdout.strip().isdigit(), done.stdout + done.stderr
    done = _run(["node", "build/doc_stream.js"], tmp_path, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == "1 game_set_up" and done.stdout.rstrip().endswith("over: cancelled")


# --- installing them (issue 55: two guesses on a fresh Debian machine) ----------------------------

#: what pip says when no package index (nor local copy) is reachable: the one reason to skip
NO_INDEX = re.compile(r"No matching distribution found|Could not find a version|NewConnectionError|Network is unreachable")


def test_the_python_client_is_installed_into_a_virtual_environment_as_written(live_server: str, tmp_path: Path) -> None:
    """Debian's pip refuses `pip install -e clients/python` outside a virtual environment: the page makes
    one (the clone's `.venv`) first. Run in a copy of the clone's client, in a fresh machine's shell, then the
    page's example runs with that environment's python alone (no PYTHONPATH)."""
    install = next(b for b in _blocks("sh") if "pip install -e clients/python" in b)
    lines = [line.split("#")[0].strip() for line in install.splitlines()]
    assert lines.index(". .venv/bin/activate") < lines.index("pip install -e clients/python")
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "clients" / "python", clone / "clients" / "python",
                    ignore=shutil.ignore_patterns(".pdm-build", "__pycache__", "*.egg-info"))
    done = _run(["bash", "-e", "-o", "pipefail", "-c", install], clone, tmp_path)
    if done.returncode != 0 and NO_INDEX.search(done.stdout + done.stderr):
        pytest.skip("no package index is reachable from here: " + (done.stdout + done.stderr)[-300:])
    assert done.returncode == 0, done.stdout + done.stderr
    client = _blocks("python")[0]
    (tmp_path / "client.py").write_text(client.replace(DOCUMENTED_URL, live_server), encoding="utf-8")
    done = _run([str(clone / ".venv" / "bin" / "python"), str(tmp_path / "client.py")], tmp_path, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_typescript_block_installs_tsc_before_using_it(live_server: str, tmp_path: Path) -> None:
    """`tsc` is not on a fresh machine's PATH: the page installs the pinned tools with `npm ci` in
    tools/contract first and runs tsc from there. With the tools installed, the rest runs as written."""
    block = next(b for b in _blocks("sh") if "tsc" in b)
    lines = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert lines[0].startswith("(cd tools/contract && npm ci"), lines
    assert lines[1] == f"{TSC.relative_to(ROOT)} -p clients/typescript", lines
    if not TSC.exists() or shutil.which("node", path="/usr/bin:/bin") is None:
        pytest.skip("the npm tools are not installed: run scripts/check-contract.sh (npm ci in tools/contract)")
    script = "\n".join(block.splitlines()[1:]).replace(DOCUMENTED_URL, live_server)  # npm ci already ran
    done = _run(["bash", "-e", "-o", "pipefail", "-c", script], ROOT, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])["audit"] is True
