"""The README's curl walk-through works as written: its shell blocks, pasted in
order into one shell, run against a live ``cablecar serve`` (only the base
URL is changed, to this test's port)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from service.config import SETTINGS
from tests.readme_blocks import ROOT, walk_through_script


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            with urllib.request.urlopen(url + "/v1/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not start:\n" + log.read_text())


def test_the_walk_through_runs_as_written(tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
    # The stream of step 7 ends by itself after 2 s here, where a reader presses Ctrl-C.
    env.update(PYTHONPATH=str(ROOT), CABLECAR_SSE_MAX_SECONDS="2", CABLECAR_SSE_HEARTBEAT_SECONDS="1")
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "cablecar.cli", "serve", "--port", str(port), "--workers", "1",
             "--data-dir", str(tmp_path / "data")],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        _wait_healthy(url, server, log)
        script = walk_through_script(url)
        # errexit and pipefail: any step that fails (curl -f on an error answer) fails the test
        run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120, env={**env, "TMPDIR": str(tmp_path)})
    finally:
        server.terminate()
        server.wait(timeout=30)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "ttr-sf 2 to " in run.stdout  # step 0 lists the game types
    assert run.stdout.count('"replayed":true') == 1  # step 5's retry got the first answer again
    assert '"code":"illegal_action"' in run.stdout and '"reason":' in run.stdout  # step 6
    assert re.search(r"^id: \d+\ndata: \{", run.stdout, flags=re.M)  # step 7 streamed the events
    assert "1 Robo planner no token" in run.stdout and "the bots have chosen" in run.stdout  # step 8
    assert "Traceback" not in log.read_text()
