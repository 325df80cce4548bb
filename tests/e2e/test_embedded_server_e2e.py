"""The embedded default (``cablecar serve``, gevent workers on one SQLite
file) as several processes: nothing acknowledged is lost while workers stop,
the file stays intact, limits and caps count per server, and a worker's
descriptors do not grow with the streams it served.

No PostgreSQL or Redis needed: these run wherever the suite runs."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.load.config import parse_args
from bench.load.soak import Server, SoakResult, SoakSettings, run_embedded
from bench.load.soak_run import render, settings_of
from tests.e2e.test_streams_e2e import Watcher

pytestmark = pytest.mark.e2e


def _serve(tmp: Path, env: dict[str, str], workers: int = 2) -> Server:
    argv = [sys.executable, "-m", "cablecar.cli", "serve", "--host", "127.0.0.1", "--port", "{port}",
            "--workers", str(workers), "--threads", "8", "--data-dir", str(tmp / "data")]
    server = Server(argv, {"CABLECAR_WEBHOOKS": "off", **env}, tmp / "serve.log", workers)
    server.wait_ready()
    return server


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def _create(url: str) -> tuple[int, str | None]:
    """POST /v1/games on a fresh connection: (status, game id)."""
    body = json.dumps({"type": "cable-car", "players": [{"name": "ada"}, {"name": "bo"}]}).encode()
    req = urllib.request.Request(url + "/v1/games", body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())["id"]
    except urllib.error.HTTPError as e:
        return e.code, None


@pytest.fixture(scope="module")
def soaked(tmp_path_factory: pytest.TempPathFactory) -> SoakResult:
    """A short soak of the embedded server (bench/load/soak.py): 4 writers on `cablecar serve` (2 workers,
    one SQLite file) while a worker is stopped every 2 s, mostly gracefully (SIGTERM: a deploy, a respawn)
    and sometimes killed, and workers recycle themselves (CABLECAR_MAX_REQUESTS); then the file is checked,
    and every acknowledged game and action read back through a fresh server and audited."""
    cfg = SoakSettings(seconds=12, clients=4, fault_every=2.0,
                       faults=(signal.SIGTERM, signal.SIGTERM, signal.SIGKILL), max_requests=40,
                       scripts=6, drain_seconds=15)
    return run_embedded(tmp_path_factory.mktemp("soak"), cfg)


def test_workers_stopped_gracefully_again_and_again_lose_no_acknowledged_write(soaked: SoakResult) -> None:
    assert soaked.faults.get("SIGTERM", 0) >= 3, soaked.faults
    assert soaked.integrity_check == "ok"
    stored = soaked.stored
    assert stored.games_acknowledged > 0 and stored.actions_acknowledged > 0
    assert (stored.lost, stored.duplicated, stored.mismatched, stored.gaps, stored.audits_failed) == (0, 0, 0, 0, 0), \
        stored.problems
    assert stored.games_stored == stored.games_acknowledged


def test_the_soak_report_says_what_came_of_it(soaked: SoakResult) -> None:
    # `bash bench/run.sh --only soak` parses these options and writes this report
    config = parse_args(["--only", "soak", "--soak-modes", "embedded", "--soak-seconds", "12"])
    assert config.sections == ("soak",) and config.soak_modes == ("embedded",)
    text = render([soaked], [], settings_of(config), "bash bench/run.sh --only soak", 60.0)
    row = next(line for line in text.splitlines() if line.startswith("| embedded |"))
    assert "| **ok** |" in row and f"| {soaked.stored.games_acknowledged:,} |" in row


def test_the_creation_limit_counts_across_workers(tmp_path: Path, serve: list[Server]) -> None:
    server = _serve(tmp_path, {"CABLECAR_CREATE_RATE_LIMIT": "10/day"})
    serve.append(server)
    # each on a new connection, so both workers take some
    statuses = [_create(server.url)[0] for _ in range(30)]
    assert statuses.count(201) == 10, statuses
    assert set(statuses) == {201, 429}


def test_one_address_cannot_take_every_stream_of_the_server(tmp_path: Path, serve: list[Server]) -> None:
    # 2 workers, an address holding at most 4 streams: counted on the server, not per worker.
    server = _serve(tmp_path, {"CABLECAR_STREAM_RATE_LIMIT": "off", "CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS": "4"})
    serve.append(server)
    status, game = _create(server.url)
    assert status == 201 and game is not None
    # One address keeps asking, 8 at once (so that both workers accept some): it never holds more than 4.
    local: list[Watcher] = []
    for _ in range(4):
        with ThreadPoolExecutor(max_workers=8) as pool:
            burst = list(pool.map(lambda _: Watcher(server, game), range(8)))  # type: ignore[arg-type]
        for w in burst:
            if w.resp.status == 200:
                local.append(w)
            else:
                assert w.problem()["code"] == "streams_busy"
                w.close()
    try:
        assert len(local) == 4
        # another address still gets in (on whichever worker has room)
        other = None
        for _ in range(20):
            other = Watcher(server, game, source="127.0.0.2")  # type: ignore[arg-type]
            if other.resp.status == 200:
                break
            other.close()
            time.sleep(0.2)
        assert other is not None and other.resp.status == 200
        other.close()
    finally:
        for w in local:
            w.close()


def _fds(pid: int) -> tuple[int, int]:
    """The process's descriptors: (of the SQLite file and its -wal/-shm, every other)."""
    links = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            links.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
    db = sum("cablecar.sqlite3" in link for link in links)
    return db, len(links) - db


def test_a_workers_descriptors_stay_flat_after_streaming_many_games(tmp_path: Path, serve: list[Server]) -> None:
    server = _serve(tmp_path, {"CABLECAR_STREAM_RATE_LIMIT": "off", "CABLECAR_CREATE_RATE_LIMIT": "off",
                               "CABLECAR_SSE_MAX_SECONDS": "1"}, workers=1)
    serve.append(server)
    games = [_create(server.url)[1] for _ in range(24)]
    assert all(games)
    (worker,) = server.worker_pids()

    def watch(game: str) -> None:
        # the server ends each stream after 1 s; its pump ends with it
        for _ in range(50):
            try:
                with contextlib.closing(urllib.request.urlopen(f"{server.url}/v1/games/{game}/events/stream",
                                                               timeout=30)) as resp:
                    resp.read()
                    return
            except urllib.error.HTTPError as e:  # a place not given back yet: 503 streams_busy
                assert e.code == 503
                time.sleep(0.2)
        raise AssertionError(f"no stream of {game} admitted")

    def watch_all(some: list[str | None]) -> tuple[int, int]:
        with ThreadPoolExecutor(max_workers=3) as pool:
            list(pool.map(watch, some))
        time.sleep(2.5)  # a pump notices within a second that nobody watches
        return _fds(worker)

    # Every pool thread first opens its connection (it keeps it: 2 descriptors), with reads 16 at once.
    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(lambda g: urllib.request.urlopen(f"{server.url}/v1/games/{g}", timeout=30).read(), games * 2))
    before = watch_all(games[:8])
    after = watch_all(games[8:])
    # sockets and the like: flat; the file's: at most a connection (2) per pool thread (10) and the
    # one opened with the store, plus the shared -shm, however many streams and pumps came and went
    assert after[1] - before[1] <= 2, (before, after)
    assert after[0] <= 2 * 11 + 1, (before, after)
