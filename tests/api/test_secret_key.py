"""The server's secret key (``service/adapters/secret_key.py``): production (PostgreSQL)
refuses to start without ``CABLECAR_SECRET_KEY``; the embedded default
generates a private one per install and keeps it."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from service.adapters.secret_key import KEY_FILE, MissingSecretKey, cache_key
from service.api.app import create_app
from service.config import SETTINGS, Settings

ROOT = Path(__file__).resolve().parents[2]
#: nothing listens there: the refusal must come before any connection
NOWHERE = "postgresql://cablecar:pw@127.0.0.1:1/cablecar"
#: a secret key long enough (32 bytes or more)
KEY = "0123456789abcdef0123456789abcdef"


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


@pytest.mark.parametrize("argv", [
    [sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "service.serving.wsgi:app"],
    [sys.executable, "-m", "cablecar.cli", "serve", "--port", "1"],
], ids=["gunicorn", "cablecar-serve"])
def test_production_without_a_secret_key_refuses_to_start(argv: list[str], tmp_path: Path) -> None:
    out = subprocess.run(argv, cwd=tmp_path, env=_clean_env(DATABASE_URL=NOWHERE, CABLECAR_SECRET_KEY="  "),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    said = [line for line in (out.stdout + out.stderr).splitlines() if "CABLECAR_SECRET_KEY" in line]
    assert len(said) == 1 and "secrets.token_hex(32)" in said[0], out.stdout + out.stderr
    assert "Traceback" not in out.stderr


def test_the_app_refuses_postgresql_without_a_secret_key(tmp_path: Path) -> None:
    with pytest.raises(MissingSecretKey, match="CABLECAR_SECRET_KEY"):
        create_app(Settings(database_url=NOWHERE, data_dir=str(tmp_path)))
    assert cache_key(Settings(database_url=NOWHERE, secret_key=KEY)) == cache_key(Settings(secret_key=KEY))


def test_the_embedded_default_generates_a_private_key_once(tmp_path: Path) -> None:
    here, there = Settings(data_dir=str(tmp_path / "a")), Settings(data_dir=str(tmp_path / "b"))
    first = cache_key(here)
    path = tmp_path / "a" / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cache_key(here) == first != cache_key(there)
    assert len(path.read_text().strip()) == 64 and list(path.parent.iterdir()) == [path]
    path.chmod(0o644)  # loosened by hand: tightened again
    assert cache_key(here) == first and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cache_key(Settings(data_dir=str(tmp_path / "a"), secret_key="explicit-" + KEY)) != first
    path.write_text("short\n")
    with pytest.raises(MissingSecretKey, match=KEY_FILE):
        cache_key(here)


@pytest.mark.parametrize("short", ["x", "e2e", "a" * 31])
def test_a_short_secret_key_is_refused(short: str, tmp_path: Path) -> None:
    """Issue 25: CABLECAR_SECRET_KEY='x' was accepted (and keys every cache MAC
    and every creation-key token)."""
    for database_url in (NOWHERE, ""):
        with pytest.raises(MissingSecretKey, match="at least 32 bytes"):
            create_app(Settings(database_url=database_url, data_dir=str(tmp_path), secret_key=short))
    out = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "service.serving.wsgi:app"],
                         cwd=tmp_path, env=_clean_env(DATABASE_URL=NOWHERE, CABLECAR_SECRET_KEY=short),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "at least 32 bytes" in out.stdout + out.stderr
    assert "Traceback" not in out.stderr
