"""Pages of docs/ whose blocks are pasted as printed (issue 55): docs/bots.md's shell blocks, in order,
into one fresh shell (``env -i``) against a live ``cablecar serve``; and docs/production.md's
``docker compose`` block, which no Docker engine here can run: it is run with a ``docker`` that only
records what it was given, and every variable docker-compose.yml requires (``${NAME:?...}``) must then
be set, not empty, as compose reads them (the environment, or the ``--env-file`` named)."""

from __future__ import annotations

import json
import re
import shutil
import stat
import subprocess
from pathlib import Path

from tests.readme_blocks import DOCUMENTED_URL, ROOT, document_blocks, fresh_env, serve

BOTS = ROOT / "docs" / "bots.md"
PRODUCTION = ROOT / "docs" / "production.md"
COMPOSE = ROOT / "docker-compose.yml"

# A `docker` that records its arguments and environment (a JSON line per call) and starts nothing.
RECORDING_DOCKER = r'''#!/usr/bin/env python3
import json, os, sys
with open(os.environ["DOCKER_CALLS"], "a", encoding="utf-8") as out:
    out.write(json.dumps({"args": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}) + "\n")
'''


def _fresh_shell(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in env.items()), "bash", "-e", "-o", "pipefail", "-c", script],
                          cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_bots_page_runs_as_written(tmp_path: Path) -> None:
    blocks = document_blocks(BOTS.read_text(encoding="utf-8"))
    assert blocks and DOCUMENTED_URL in blocks[0], "the page's first block sets API, as the README's does"
    assert not [line for b in blocks for line in b.splitlines() if re.match(r"\s*curl (?!-fsS )", line)], \
        "every curl of the page is `curl -fsS`: an error answer is said, not hidden"
    with serve(tmp_path) as url:
        script = "\n".join(blocks).replace(DOCUMENTED_URL, url)
        run = _fresh_shell(script, tmp_path, fresh_env(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    created = json.loads(run.stdout)
    assert created["type"] == "cable-car" and created["time_control"]["kind"] == "per_turn", created


def _required_by_compose() -> set[str]:
    text = COMPOSE.read_text(encoding="utf-8")
    names = set(re.findall(r"\$\{([A-Z0-9_]+):\?", text))
    assert names >= {"CABLECAR_REPLICATION_PASSWORD", "CABLECAR_SECRET_KEY"}, names
    return names


def _env_file(args: list[str], cwd: Path) -> dict[str, str]:
    """What compose reads from ``--env-file FILE`` (given before the subcommand), else from ./.env."""
    path = cwd / ".env"
    if "--env-file" in args:
        path = cwd / args[args.index("--env-file") + 1]
    if not path.exists():
        return {}
    pairs = (line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines() if "=" in line)
    return {k.strip(): v.strip() for k, v in pairs if not k.lstrip().startswith("#")}


def test_the_compose_block_sets_every_variable_the_compose_file_requires(tmp_path: Path) -> None:
    text = PRODUCTION.read_text(encoding="utf-8")
    blocks = [b for b in document_blocks(text) if re.search(r"^docker compose .*\bup\b", b, re.M)]
    assert len(blocks) == 1, "docs/production.md has one `docker compose ... up` block"
    clone, bin_dir, home = tmp_path / "clone", tmp_path / "bin", tmp_path / "home"
    for folder in (clone, bin_dir, home):
        folder.mkdir()
    shutil.copy(COMPOSE, clone / COMPOSE.name)
    docker = bin_dir / "docker"
    docker.write_text(RECORDING_DOCKER, encoding="utf-8")
    docker.chmod(0o755)
    calls = tmp_path / "calls.jsonl"
    env = fresh_env(home, DOCKER_CALLS=str(calls))
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    required = _required_by_compose()
    seen: list[dict[str, str]] = []
    for _ in range(2):  # pasted again later (a restart): the same passwords
        run = _fresh_shell(blocks[0], clone, env)
        assert run.returncode == 0, run.stdout + run.stderr
        call = json.loads(calls.read_text(encoding="utf-8").splitlines()[-1])
        assert call["args"][0] == "compose" and "up" in call["args"], call["args"]
        given = {**call["env"], **_env_file(call["args"][1:], Path(call["cwd"]))}
        missing = sorted(name for name in required if not given.get(name))
        assert not missing, f"docker compose would stop at once: {missing} not set"
        seen.append({name: given[name] for name in required})
    assert seen[0] == seen[1], "a second run keeps the passwords the database was started with"
    assert len(set(seen[0].values())) == len(required), "every secret is its own"
    for name, value in seen[0].items():  # they go into URLs as they are
        assert re.fullmatch(r"[A-Za-z0-9_-]{32,}", value), name
    secrets_files = [p for p in home.rglob("*") if p.is_file()]
    assert secrets_files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in secrets_files)
