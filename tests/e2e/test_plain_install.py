"""A plain install runs every documented mode: the wheel, installed with no
extras into a fresh virtual environment (what the Dockerfile does), serves
with the gevent worker on PostgreSQL and on SQLite (``cablecar serve``'s default).

The test extra pulls in packages production never gets (``packaging`` came in
that way while gunicorn's gevent worker needed it): only an environment made
from the wheel alone shows what a deployment has.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.client import Client, create_game, play_turn, random_strategy
from tests.e2e.conftest import ROOT, _signing_key_file, free_port, wait_http

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def plain_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment holding the project's wheel and its declared dependencies only."""
    tmp = tmp_path_factory.mktemp("plain-install")
    # Built from a copy of what the Dockerfile copies: building in the checkout would leave build/ there.
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    for package in ("domain", "events", "service", "bots", "cablecar"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(source)],
                   check=True, capture_output=True, timeout=120)
    venv = tmp / "venv"
    # Without its own pip (faster): this environment's pip installs into it (--python).
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    (wheel,) = wheels.glob("cablecar-*.whl")
    # --no-compile: byte-compiling every dependency would double the time of the install
    out = subprocess.run([*pip, "--python", str(venv / "bin" / "python"), "install", "--no-compile", str(wheel)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-4000:]
    return venv


@contextlib.contextmanager
def _serve(venv: Path, tmp: Path, env_extra: dict[str, str], worker: str) -> Iterator[str]:
    """``cablecar serve`` of the fresh environment, one ``worker``; its log holds no traceback when it stopped."""
    port = free_port()
    log = tmp / f"serve-{port}.log"
    # Only the fresh environment: no PYTHONPATH to this checkout, started outside it.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL", "REDIS_URL")}
    env.update({"CABLECAR_CREATE_RATE_LIMIT": "off", **env_extra})
    proc = subprocess.Popen(
        [str(venv / "bin" / "cablecar"), "serve", "--port", str(port), "--workers", "1",
         "--data-dir", str(tmp / "data")],
        cwd=tmp, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    text = log.read_text()
    assert f"Using worker: {worker}\n" in text and "Traceback" not in text, text[-4000:]


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            wait_http(url + "/v1/health", timeout=0.5)
            return
        except TimeoutError:
            continue
    raise AssertionError("cablecar serve did not start:\n" + log.read_text()[-4000:])


def _create_and_play(url: str) -> None:
    client = Client(url)
    run = create_game(client, "ttr-sf", ["ada", "bo"], seed="plain-install")
    view = client.request("GET", f"/v1/games/{run.game_id}")
    assert play_turn(client, run, view["active_seats"][0], random_strategy, random.Random(1))
    assert client.request("GET", f"/v1/games/{run.game_id}")["version"] > view["version"]


def test_the_gevent_worker_serves_on_postgresql(plain_venv: Path, tmp_path: Path, pg_url: str) -> None:
    with _serve(plain_venv, tmp_path, {"DATABASE_URL": pg_url, "CABLECAR_SECRET_KEY": "plain-" * 6,
                                       "CABLECAR_SIGNING_KEY_FILE": _signing_key_file()},
                "service.serving.workers.BoundedGeventWorker") as url:
        _create_and_play(url)


def test_the_gevent_worker_serves_on_sqlite(plain_venv: Path, tmp_path: Path) -> None:
    with _serve(plain_venv, tmp_path, {}, "service.serving.workers.BoundedGeventWorker") as url:
        _create_and_play(url)
