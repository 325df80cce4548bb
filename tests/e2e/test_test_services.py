"""The test command's own servers (issue 55): ``scripts/test.sh`` starts its
PostgreSQL and Redis servers with ``scripts/test-services.sh run-up N`` and
stops them with ``run-down``.  Two runs on one machine at the same time each
get servers of their own, and one stopping leaves the other's running; and it
all works from a bare PATH without sbin (``env -i PATH=/usr/bin:/bin``), where
root's ``runuser`` is not found by name."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest
import redis

from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e

SCRIPT = ROOT / "scripts" / "test-services.sh"
#: a bare PATH: a user's shell turned root (`su`), or `env -i PATH=/usr/bin:/bin`
BARE_PATH = "/usr/bin:/bin"


def _have_servers() -> bool:
    postgres = shutil.which("pg_ctl") or any(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    return bool(postgres) and shutil.which("redis-server") is not None


def _start(pairs: int, home: Path) -> subprocess.Popen[str]:
    """``run-up`` as scripts/test.sh runs it, in a fresh environment (env -i) with a bare PATH."""
    env = {"HOME": str(home), "PATH": BARE_PATH}
    return subprocess.Popen(["bash", str(SCRIPT), "run-up", str(pairs)], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _exports(run: subprocess.Popen[str]) -> dict[str, str]:
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, f"run-up failed: {err}"
    found = {}
    for line in out.splitlines():
        [word, assignment] = shlex.split(line)
        assert word == "export"
        name, _, value = assignment.partition("=")
        found[name] = value
    return found


def _stop(run: dict[str, str], home: Path) -> None:
    env = {"HOME": str(home), "PATH": BARE_PATH, "CABLECAR_TEST_SERVICES_DIR": run["CABLECAR_TEST_SERVICES_DIR"]}
    done = subprocess.run(["bash", str(SCRIPT), "run-down"], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def _answers(database_url: str, redis_url: str) -> bool:
    try:
        with psycopg.connect(database_url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
        return bool(redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5).ping())
    except (psycopg.OperationalError, redis.ConnectionError):
        return False


def _pairs(run: dict[str, str]) -> list[tuple[str, str]]:
    suffixes = [""] + sorted(n[len("CABLECAR_TEST_DATABASE_URL"):] for n in run if n.startswith(
        "CABLECAR_TEST_DATABASE_URL_GW"))
    return [(run[f"CABLECAR_TEST_DATABASE_URL{s}"], run[f"CABLECAR_TEST_REDIS_URL{s}"]) for s in suffixes]


@pytest.mark.skipif(not _have_servers(), reason="needs PostgreSQL's server binaries and redis-server")
def test_two_runs_at_once_under_a_bare_path_keep_their_own_servers(tmp_path: Path) -> None:
    started = [_start(2, tmp_path), _start(1, tmp_path)]  # two test runs at once, as two scripts/test.sh
    runs: list[dict[str, str]] = []
    try:
        for run in started:
            runs.append(_exports(run))
        first, second = runs
        assert first["CABLECAR_TEST_SERVICES_DIR"] != second["CABLECAR_TEST_SERVICES_DIR"]
        assert [len(_pairs(r)) for r in runs] == [2, 1]  # one pair per pytest worker
        every = _pairs(first) + _pairs(second)
        assert len({db for db, _ in every}) == len({r for _, r in every}) == 3  # nobody's servers shared
        assert all(_answers(*pair) for pair in every)

        _stop(first, tmp_path)  # the first run ends while the other still tests
        assert not any(_answers(*pair) for pair in _pairs(first))
        assert all(_answers(*pair) for pair in _pairs(second))
        assert not Path(first["CABLECAR_TEST_SERVICES_DIR"]).parent.exists()  # its new directory, removed
    finally:
        for run in started:
            if run.poll() is None:
                run.kill()
        for made in runs:
            if Path(made["CABLECAR_TEST_SERVICES_DIR"]).exists():
                _stop(made, tmp_path)
    assert not Path(second["CABLECAR_TEST_SERVICES_DIR"]).parent.exists()


def test_the_test_command_uses_servers_of_its_own() -> None:
    """scripts/test.sh starts its servers with run-up (a new directory unless
    CABLECAR_TEST_SERVICES_DIR names one), stops them with run-down, and adds
    sbin to a bare PATH (the tests that start PostgreSQL as root use runuser too)."""
    script = (ROOT / "scripts" / "test.sh").read_text()
    assert "scripts/test-services.sh run-up" in script and "scripts/test-services.sh run-down" in script
    assert "test-services.sh up" not in script and "test-services.sh down" not in script
    assert "/usr/sbin" in script
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/test.sh" in ci and "sbin" not in ci.split("PATH=", 1)[1].split()[0], \
        "CI runs the test command under a PATH without sbin"
    assert os.access(SCRIPT, os.X_OK)
