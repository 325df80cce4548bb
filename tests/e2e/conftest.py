"""End-to-end fixtures: gunicorn (several workers) on a real PostgreSQL and Redis.

The test command (scripts/test.sh) starts throwaway servers and exports
CABLECAR_TEST_DATABASE_URL / CABLECAR_TEST_REDIS_URL.  Without them the e2e
tests are skipped locally and fail under CI (CI=true).
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _need(var: str) -> str:
    value = os.environ.get(var)
    if not value:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{var} is not set: the test command must start the real servers")
        pytest.skip(f"{var} not set (run scripts/test.sh)")
    return value


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:
                if resp.status == 200:
                    return
        except Exception:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer 200 within {timeout} s")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, migrated by the CLI."""
    import psycopg

    base = _need("CABLECAR_TEST_DATABASE_URL")
    name = f"cablecar_e2e_{secrets.token_hex(4)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = base.rsplit("/", 1)[0] + "/" + name
    out = subprocess.run(
        [sys.executable, "-m", "cablecar.cli", "migrate", "--database-url", url],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    yield url
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def redis_url() -> str:
    return _need("CABLECAR_TEST_REDIS_URL")


@dataclass
class Server:
    """A running gunicorn."""

    url: str
    proc: subprocess.Popen[bytes]
    log: Path


def _signing_key_file() -> str:
    """One signing key for every server of this test session (they share databases, as hosts do)."""
    from events.integrity.signing import Signer
    from service.adapters.signing_keys import write_key_file

    path = Path(tempfile.gettempdir()) / f"cablecar-e2e-signing-key-{os.getpid()}.json"
    write_key_file(path, Signer.generate())
    return str(path)


def start_gunicorn(tmp: Path, env_extra: dict[str, str], workers: int = 3) -> Server:
    port = free_port()
    log = tmp / f"gunicorn-{port}.log"
    # the bots create and watch games faster than the public limits allow one address
    limits_off = {"CABLECAR_CREATE_RATE_LIMIT": "off", "CABLECAR_STREAM_RATE_LIMIT": "off"}
    env = {**os.environ, **limits_off, **env_extra, "CABLECAR_DATA_DIR": str(tmp / "data"), "PYTHONPATH": str(ROOT)}
    if "DATABASE_URL" in env_extra:
        env.setdefault("CABLECAR_SIGNING_KEY_FILE", _signing_key_file())
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--threads", "8", "service.serving.wsgi:app"],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(url + "/v1/health")
    except TimeoutError:
        proc.kill()
        raise AssertionError("gunicorn did not start:\n" + log.read_text()[-4000:]) from None
    return Server(url, proc, log)


def stop(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, pg_url: str, redis_url: str) -> Iterator[Server]:
    """gunicorn with 3 workers on the real PostgreSQL and Redis."""
    tmp = tmp_path_factory.mktemp("e2e")
    srv = start_gunicorn(tmp, {"DATABASE_URL": pg_url, "REDIS_URL": redis_url,
                               "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef", "CABLECAR_SSE_MAX_SECONDS": "20"})
    yield srv
    stop(srv)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A private redis-server this test may stop and restart."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server not installed")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--save", "", "--appendonly", "no",
                             "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    yield f"redis://127.0.0.1:{port}/0", proc
    proc.kill()
