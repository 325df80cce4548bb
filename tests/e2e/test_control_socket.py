"""Every ``cablecar serve`` has a gunicorn control socket of its own (issue 55).

gunicorn's default puts every server of a user on one path
(``$HOME/.gunicorn/gunicorn.ctl``): stopping one server deleted the socket of
the others still running, and each (re)started one took it over.  Two servers
on one host (different ports and data folders, the same user and HOME) are
started here, one is stopped, and the other still serves and still answers on
its own control socket.  No PostgreSQL or Redis needed."""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from gunicorn.ctl.client import ControlClient

from tests.e2e.conftest import ROOT, free_port, wait_http

pytestmark = pytest.mark.e2e

LISTENING = re.compile(r"Control socket listening at (\S+)")


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def control_socket(self, timeout: float = 30.0) -> Path:
        """The path gunicorn says its control socket listens at."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = LISTENING.search(self.log.read_text(errors="replace"))
            if found:
                return Path(found.group(1))
            assert self.process.poll() is None, self.log.read_text()
            time.sleep(0.1)
        raise AssertionError(f"no control socket announced:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _serve(tmp: Path, name: str, home: Path) -> Served:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CABLECAR_") and k not in (
        "DATABASE_URL", "REDIS_URL", "XDG_RUNTIME_DIR", "GUNICORN_CMD_ARGS")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), CABLECAR_WEBHOOKS="off", CABLECAR_BOT_RUNNERS="0")
    log = tmp / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "cablecar.cli", "serve", "--port", str(port), "--workers", "1",
             "--data-dir", str(tmp / f"{name}-data")],
            cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT)
    served = Served(process, port, log)
    wait_http(f"http://127.0.0.1:{port}/v1/health")
    return served


def _answers(path: Path) -> dict[str, object]:
    client = ControlClient(str(path), timeout=10)
    try:
        return client.send_command("show workers")
    finally:
        client.close()


def test_two_servers_on_one_host_each_keep_their_own_control_socket(tmp_path: Path) -> None:
    home = tmp_path / "home"  # one user, one HOME: where gunicorn's default socket would be shared
    home.mkdir()
    first = _serve(tmp_path, "first", home)
    second = _serve(tmp_path, "second", home)
    try:
        sockets = [first.control_socket(), second.control_socket()]
        assert sockets[0] != sockets[1]
        for path in sockets:
            assert stat.S_ISSOCK(path.stat().st_mode)
            folder = path.parent.stat()
            # a folder of this user's own that nobody else may enter: another user's server cannot replace it
            assert folder.st_uid == os.getuid() and stat.S_IMODE(folder.st_mode) == 0o700
            assert not str(path).startswith(str(home))
        workers = _answers(sockets[1])["workers"]
        assert isinstance(workers, list) and len(workers) == 1

        first.stop()
        assert first.process.returncode == 0, first.log.read_text()
        assert not sockets[0].parent.exists(), "the stopped server's control socket folder is removed"
        # the other one still serves, and its control socket is still there and answers
        wait_http(f"http://127.0.0.1:{second.port}/v1/health", timeout=10)
        assert stat.S_ISSOCK(sockets[1].stat().st_mode)
        assert _answers(sockets[1])["workers"]
    finally:
        first.stop()
        second.stop()
    assert not sockets[1].parent.exists()
