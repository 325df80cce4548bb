"""The production steps (docs/production.md) work as written, on a fresh Debian root
(no ``sudo``): its shell blocks run in order against a throwaway PostgreSQL
(started here, as the ``postgres`` user), the server its last block starts
plays a game as the app role, and every direct write as that role is refused.

Only the hosts change: the throwaway server's socket and port reach
``runuser -u postgres -- psql`` through ``PGHOST``/``PGPORT``, ``db.internal:5432``
becomes it, the Redis line is dropped (Redis is optional) and ``/etc/cablecar``
becomes a folder of this test's."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.readme_blocks import fresh_env, shell_blocks

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = "## Production"
RUNNING_IT_WELL = "### Running it well"

pytestmark = pytest.mark.postgres


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts[-3])
    return found[-1].parent if found else None


@pytest.fixture
def throwaway_postgres() -> Iterator[dict[str, str]]:
    """A PostgreSQL server of this test's own (as a fresh host has: a ``postgres``
    OS user and superuser, local connections trusted); yields PGHOST/PGPORT."""
    bindir = _pg_bin()
    if os.geteuid() != 0 or bindir is None or shutil.which("runuser") is None:
        pytest.skip("needs root, runuser and PostgreSQL's server binaries (a fresh Debian root has them)")
    folder = Path(tempfile.mkdtemp(prefix="cablecar-readme-pg-"))
    shutil.chown(folder, "postgres", "postgres")
    port = str(_free_port())
    pg = ["runuser", "-u", "postgres", "--"]
    subprocess.run([*pg, str(bindir / "initdb"), "-D", str(folder / "data"), "-U", "postgres", "--auth=trust",
                    "-E", "UTF8"], check=True, capture_output=True, timeout=120)
    subprocess.run([*pg, str(bindir / "pg_ctl"), "-D", str(folder / "data"), "-l", str(folder / "log"), "-w",
                    "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                   check=True, capture_output=True, timeout=120)
    try:
        yield {"PGHOST": str(folder), "PGPORT": port}
    finally:
        subprocess.run([*pg, str(bindir / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _adapted(block: str, port: str, etc: Path) -> str:
    """A block with this test's hosts (see the module docs)."""
    block = block.replace("db.internal:5432", f"127.0.0.1:{port}").replace("/etc/cablecar", str(etc))
    return "\n".join(line for line in block.splitlines() if not line.startswith("export REDIS_URL="))


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    import requests

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            if requests.get(url + "/v1/health", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise AssertionError("the server did not become healthy:\n" + log.read_text()[-4000:])


def _play(url: str) -> dict[str, Any]:
    """Create a game and play every seat's first legal action until it ends."""
    import requests

    s = requests.Session()
    game = s.post(url + "/v1/games", json={"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]},
                  headers={"Idempotency-Key": "readme-production-" + "0" * 20}).json()
    tokens = [seat["token"] for seat in game["seats"]]
    for _ in range(3000):
        view = s.get(f"{url}/v1/games/{game['id']}").json()
        if view["status"] in ("finished", "cancelled"):
            return game
        seat = view["active_seats"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        actions = s.get(f"{url}/v1/games/{game['id']}/legal-actions?limit=1", headers=headers).json()["actions"]
        answer = s.post(f"{url}/v1/games/{game['id']}/actions", json=actions[0], headers=headers)
        assert answer.status_code == 201, answer.text
    raise AssertionError("the game did not end")


def _play_bots(url: str, runner: subprocess.Popen[bytes], log: Path) -> None:
    """Once the README's runner is alive (health's ``bots``), a game of bots is accepted and played to the end."""
    import requests

    deadline = time.monotonic() + 120
    while requests.get(url + "/v1/health", timeout=10).json()["bots"]["runners"] < 1:
        assert runner.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)
    players = [{"name": "Robo", "bot": "greedy"}, {"name": "Rex", "bot": "random"}]
    created = requests.post(url + "/v1/games", json={"type": "ttr-sf", "players": players}, timeout=30)
    assert created.status_code == 201, created.text
    while requests.get(f"{url}/v1/games/{created.json()['id']}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline + 240, log.read_text()
        time.sleep(0.5)


def test_the_production_section_runs_as_written(throwaway_postgres: dict[str, str], tmp_path: Path) -> None:
    import psycopg
    import requests

    from tests.contract.test_roles import ATTACKS

    # the first day's steps (the compose block further down is tests/api/test_docs_pages.py's)
    text = (ROOT / "docs" / "production.md").read_text(encoding="utf-8").split(f"\n{RUNNING_IT_WELL}\n")[0]
    blocks = shell_blocks(text, PRODUCTION)
    assert len(blocks) >= 5 and "runuser -u postgres -- psql" in blocks[0] and "sudo" not in "".join(blocks)
    # step 5: the server, then a bot runner beside it (issue 36)
    assert blocks[-2].strip().startswith("gunicorn ") and blocks[-1].strip() == "cablecar bots run"
    port, etc = throwaway_postgres["PGPORT"], tmp_path / "etc"
    # A fresh root shell (env -i: no locale, no CABLECAR_ setting) in which, as the document's head says,
    # `cablecar` and `gunicorn` are the virtual environment's: activated first (PYTHONPATH: this checkout's code)
    env = fresh_env(tmp_path, **throwaway_postgres, PYTHONPATH=str(ROOT))
    activate = f". {Path(sys.executable).parent / 'activate'}\n"
    setup = activate + "\n".join(_adapted(b, port, etc) for b in blocks[:-2])
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", setup + f"\nenv -0 > {tmp_path / 'env'}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "granted role cablecar_app" in done.stdout
    assert (etc / "signing-key.json").stat().st_mode & 0o777 == 0o600
    server_env = dict(item.split("=", 1) for item in (tmp_path / "env").read_text().split("\0") if "=" in item)
    assert re.match(r"postgresql://cablecar_app:", server_env["DATABASE_URL"])
    http_port = _free_port()
    server_env.update(CABLECAR_BIND=f"127.0.0.1:{http_port}", CABLECAR_WORKERS="2")
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(["bash", "-c", _adapted(blocks[-2], port, etc)], cwd=ROOT, env=server_env,
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    with (tmp_path / "bots.log").open("wb") as out:
        bots = subprocess.Popen(["bash", "-c", _adapted(blocks[-1], port, etc)], cwd=ROOT, env=server_env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{http_port}"
    try:
        _wait_healthy(url, server, log)
        _play_bots(url, bots, tmp_path / "bots.log")
        game = _play(url)
        audit = requests.get(f"{url}/v1/games/{game['id']}/audit", timeout=30).json()
        assert audit["ok"], audit
        signatures = next(c["detail"] for c in audit["checks"] if c["name"] == "signatures")
        keys = requests.get(f"{url}/v1/keys", timeout=10).json()["keys"]
        assert "events signed by key" in signatures and keys[0]["key_id"] in signatures
        # (read before the stop: a gevent worker's SIGTERM hook logs one of its own, not this test's concern)
        assert "Traceback" not in log.read_text()
    finally:
        bots.terminate()
        server.terminate()  # bash ran the one command by exec: this is gunicorn's master
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)

    # the server's own credentials write nothing directly
    refused = []
    with psycopg.connect(server_env["DATABASE_URL"], autocommit=True) as conn:
        assert conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").fetchone() == (False,)
        for attack in ATTACKS:
            try:
                with conn.transaction():
                    for statement in attack.format(g=game["id"], h="0" * 64).split("; "):
                        conn.execute(statement.encode())
            except psycopg.errors.InsufficientPrivilege:
                refused.append(attack)
    assert refused == ATTACKS
