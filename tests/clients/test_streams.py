"""Following a live stream from Python (``clients/python_stream``) and from
TypeScript (``clients/typescript/src/stream.ts``): events arrive while the
stream is still open (not once it closes), across the server's own closing of
the stream (every event once, in order), and the end carries the final status."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.api.app import create_app
from service.config import Settings
from tests.wsgi_server import served

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python_stream"))

from cablecar_stream import follow  # noqa: E402

TSC = ROOT / "tools" / "contract" / "node_modules" / ".bin" / "tsc"
#: the server closes a stream after this long (then the follower reopens it)
LIFETIME = 6


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server whose streams last LIFETIME seconds: a follower that only read a body once it
    closed would see the opening events after LIFETIME seconds, never within it."""
    settings = Settings(data_dir=str(tmp_path_factory.mktemp("stream-data")), sse_max_seconds=LIFETIME,
                        sse_heartbeat_seconds=1, webhooks=False)
    with served(create_app(settings)) as url:
        yield url


def _call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(base + path, data, headers, method=method), timeout=30) as r:
        return json.loads(r.read())


def _game(base: str) -> dict[str, Any]:
    return _call(base, "POST", "/v1/games", {"type": "cable-car", "players": [{"name": "A"}, {"name": "B"}]})


def _one_move(base: str, game: dict[str, Any]) -> int:
    """The active seat sends a move; the game's version after it."""
    seat = _call(base, "GET", f"/v1/games/{game['id']}")["active_seats"][0]
    token = game["seats"][seat]["token"]
    page = _call(base, "GET", f"/v1/games/{game['id']}/legal-actions?limit=1", token=token)
    return int(_call(base, "POST", f"/v1/games/{game['id']}/actions", page["actions"][0], token=token)["version"])


def _drive(base: str, game: dict[str, Any], seen: queue.Queue[Any]) -> list[Any]:
    """Wait for the opening events and a move, live; move again after the server closed the
    stream once; cancel; and collect what the follower reported."""
    got: list[Any] = []

    def until(predicate: Any) -> None:
        while True:
            item = seen.get(timeout=30)
            got.append(item)
            if predicate(item):
                return

    started = time.monotonic()
    opened = _call(base, "GET", f"/v1/games/{game['id']}")["version"]
    until(lambda m: m[0] == "event" and m[1] == opened)
    first = _one_move(base, game)
    until(lambda m: m[0] == "event" and m[1] == first)
    # both arrived while the stream was open: read as they came, not when the server closed it
    assert time.monotonic() - started < LIFETIME - 1
    time.sleep(LIFETIME)  # the server closed the stream meanwhile: the follower reopens it
    second = _one_move(base, game)
    until(lambda m: m[0] == "event" and m[1] == second)
    _call(base, "POST", f"/v1/games/{game['id']}/cancel", {}, token=game["host_token"])
    until(lambda m: m[0] == "end")
    return got


def test_python_follows_a_live_stream(live_server: str) -> None:
    game = _game(live_server)
    seen: queue.Queue[Any] = queue.Queue()

    def run() -> None:
        for kind, data in follow(live_server, game["id"], timeout=10):
            seen.put(("event", data["seq"]) if kind == "event" else ("end", data["status"], data["version"]))

    threading.Thread(target=run, daemon=True).start()
    got = _drive(live_server, game, seen)
    seqs = [m[1] for m in got if m[0] == "event"]
    assert seqs == list(range(1, len(seqs) + 1))  # every event once, in order, across the reconnection
    assert got[-1] == ("end", "cancelled", seqs[-1])


@pytest.mark.skipif(not TSC.exists() or shutil.which("node") is None, reason="npm tools not installed")
def test_typescript_follows_a_live_stream(live_server: str, tmp_path: Path) -> None:
    out = tmp_path / "build"
    done = subprocess.run([str(TSC), "-p", str(ROOT / "clients" / "typescript"), "--outDir", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (out / "package.json").write_text('{"type": "module"}\n')
    game = _game(live_server)
    proc = subprocess.Popen(["node", str(out / "follow.js"), live_server, game["id"]], stdout=subprocess.PIPE,
                            text=True)
    seen: queue.Queue[Any] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            m = json.loads(line)
            seen.put(("event", m["seq"]) if "seq" in m else ("end", m["end"], m["version"]))

    threading.Thread(target=read, daemon=True).start()
    try:
        got = _drive(live_server, game, seen)
    finally:
        proc.wait(timeout=30)
    seqs = [m[1] for m in got if m[0] == "event"]
    assert seqs == list(range(1, len(seqs) + 1))
    assert got[-1] == ("end", "cancelled", seqs[-1]) and proc.returncode == 0
