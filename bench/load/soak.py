"""The durability soak: nothing acknowledged may be lost while workers stop.

Scripted players (:class:`bench.load.clients.ScriptedPlayer`: every game
created, every action POSTed with ``expected_version`` and an
Idempotency-Key, retried with the same key) write for ``seconds`` against a
server whose workers are stopped all the time: every ``fault_every`` seconds
one worker gets SIGTERM (a deploy, a graceful restart) or SIGKILL (a crash,
the OOM killer), and ``CABLECAR_MAX_REQUESTS`` makes workers recycle
themselves.  Two modes:

* ``embedded``: ``cablecar serve`` with no database URL (threaded workers on
  one SQLite file, the default a user first meets);
* ``production``: gunicorn with ``service.serving.gunicorn_conf`` (gevent workers) on
  PostgreSQL and Redis.

Then the server is stopped, the SQLite file gets ``PRAGMA integrity_check``,
a fresh server is started on the same store and every acknowledged game and
action is checked against the store (:mod:`bench.load.integrity`: lost,
duplicated, changed, gaps) and audited (``GET /v1/games/{id}/audit``).
``bash bench/run.sh --only soak`` writes ``bench/results/SOAK.md``.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench.load.clients import GameLedger, Phase, ScriptedPlayer
from bench.load.integrity import GameCheck, check_game
from bench.load.load import run_phase
from bench.load.scripts import GameScript, make_script
from bench.load.stack import CLI_MODULE, ROOT, StackError, free_port
from bench.load.stats import Recorder
from events import DEFAULT_SQLITE_NAME, Stores
from events.recorders.event_log import EventStore
from events.records import GameNotFound, StoreError

MODES = ("embedded", "production")
#: the faults injected in turn, one every ``fault_every`` seconds
FAULT_CYCLE = (signal.SIGTERM, signal.SIGKILL, signal.SIGTERM)


@dataclass(frozen=True)
class SoakSettings:
    """Sizes of one soak."""

    seconds: float = 120.0
    clients: int = 8
    workers: int = 2
    threads: int = 8
    #: seconds between two injected faults
    fault_every: float = 4.0
    #: the faults injected in turn
    faults: tuple[signal.Signals, ...] = FAULT_CYCLE
    #: ``CABLECAR_MAX_REQUESTS`` (gunicorn adds up to 100 of jitter); 0: no recycling
    max_requests: int = 100
    scripts: int = 16
    drain_seconds: float = 30.0


@dataclass(frozen=True)
class SoakResult:
    """What one mode's soak came to."""

    mode: str
    seconds: float
    clients: int
    #: injected faults by signal name, and worker recycles gunicorn logged
    faults: dict[str, int]
    recycled: int
    #: workers that exited with a non-zero code on their own (crashes), from the master's log
    worker_crashes: int
    tracebacks: int
    stored: StoredVerdict
    #: ``PRAGMA integrity_check`` of the SQLite file ("n/a" on PostgreSQL)
    integrity_check: str
    #: answers with a 5xx status, by kind ("503 unavailable")
    answers_5xx: Counter[str]
    no_answer: int
    requests: int

    @property
    def ok(self) -> bool:
        """Nothing acknowledged lost, nothing duplicated or changed, every audit and the file intact."""
        s = self.stored
        return (not (s.lost or s.duplicated or s.mismatched or s.gaps or s.audits_failed)
                and self.integrity_check in ("ok", "n/a"))


class Server:
    """A server the soak starts, stops and shoots at: ``cablecar serve`` or gunicorn."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, workers: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.workers = workers
        log.parent.mkdir(parents=True, exist_ok=True)
        argv = [a.replace("{port}", str(self.port)) for a in argv]
        # The store and the cache are the mode's, never the caller's environment's.
        inherited = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        with log.open("ab") as out:
            self.proc = subprocess.Popen(argv, cwd=ROOT, env={**inherited, **env, "PYTHONPATH": str(ROOT)},
                                         stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)

    def worker_pids(self) -> list[int]:
        """The master's current workers."""
        try:
            text = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split() if not _is_bot_runner(int(p))]

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until /v1/health answers and every worker runs."""
        import urllib.request

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise StackError(f"the server exited ({self.proc.returncode}):\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/v1/health", timeout=2) as resp:
                    if resp.status == 200 and len(self.worker_pids()) >= self.workers:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise StackError(f"the server on {self.url} was not ready within {timeout:g} s:\n"
                         f"{self.log.read_text()[-3000:]}")

    def signal_worker(self, sig: signal.Signals, index: int) -> int | None:
        """Send ``sig`` to one current worker (chosen by ``index``); its pid, None if none runs."""
        pids = self.worker_pids()
        if not pids:
            return None
        victim = pids[index % len(pids)]
        try:
            os.kill(victim, sig)
        except ProcessLookupError:
            return None
        return victim

    def stop(self) -> None:
        """Graceful stop of the whole server (SIGTERM to the master), SIGKILL after 40 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def embedded_server(data_dir: Path, log: Path, cfg: SoakSettings) -> Server:
    """``cablecar serve`` on the SQLite file in ``data_dir``."""
    argv = [sys.executable, "-m", CLI_MODULE, "serve", "--host", "127.0.0.1", "--port", "{port}",
            "--workers", str(cfg.workers), "--threads", str(cfg.threads), "--data-dir", str(data_dir)]
    return Server(argv, _common_env(cfg), log, cfg.workers)


def production_server(database_url: str, redis_url: str, log: Path, cfg: SoakSettings, key_file: str) -> Server:
    """gunicorn as production runs it (gevent workers) on PostgreSQL and Redis, signing with ``key_file``."""
    argv = [sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "--bind", "127.0.0.1:{port}",
            "--workers", str(cfg.workers), "service.serving.wsgi:app"]
    env = {**_common_env(cfg), "DATABASE_URL": database_url, "REDIS_URL": redis_url,
           "CABLECAR_SECRET_KEY": secrets.token_hex(32), "CABLECAR_SIGNING_KEY_FILE": key_file}
    return Server(argv, env, log, cfg.workers)


def _common_env(cfg: SoakSettings) -> dict[str, str]:
    # every client comes from 127.0.0.1: the per-address creation limit would throttle the writers, the
    # audit limit the read-back (more than 30 games written in a minute: a 429 counted as a failed audit)
    return {"CABLECAR_CREATE_RATE_LIMIT": "off", "CABLECAR_STREAM_RATE_LIMIT": "off", "CABLECAR_AUDIT_RATE_LIMIT": "off",
            "CABLECAR_MAX_REQUESTS": str(cfg.max_requests), "CABLECAR_ACCESS_LOG": "",
            "CABLECAR_WEBHOOKS": "off"}


@dataclass
class _Chaos:
    """The faults injected during a soak."""

    server: Server
    cfg: SoakSettings
    sent: Counter[str] = field(default_factory=Counter)

    def run(self, phase: Phase) -> None:
        n = 0
        while not phase.stop.is_set():
            if phase.stop.wait(self.cfg.fault_every):
                return
            sig = self.cfg.faults[n % len(self.cfg.faults)]
            if self.server.signal_worker(sig, n) is not None:
                self.sent[sig.name] += 1
            n += 1


def soak_phase(server: Server, scripts: Sequence[GameScript], cfg: SoakSettings, name: str
               ) -> tuple[Recorder, list[GameLedger], Counter[str]]:
    """Write for ``cfg.seconds`` while workers are stopped; what the clients saw and what was sent."""
    chaos = _Chaos(server, cfg)
    chaos_thread: list[threading.Thread] = []

    def make(phase: Phase, i: int) -> ScriptedPlayer:
        if i == 0:  # the chaos starts with the clients and stops with them
            t = threading.Thread(target=chaos.run, args=(phase,), name="soak-chaos", daemon=True)
            t.start()
            chaos_thread.append(t)
        return ScriptedPlayer(phase, scripts, f"{name}-c{i}", i * 3, reads=1)

    result = run_phase(name, server.url, make, cfg.clients, cfg.seconds, drain_seconds=cfg.drain_seconds)
    for t in chaos_thread:
        t.join(timeout=cfg.fault_every + 5)
    return result.recorder, list(result.ledgers), chaos.sent


def integrity_check(path: Path) -> str:
    """``PRAGMA integrity_check`` of a SQLite file no server has open ("ok" when intact)."""
    conn = sqlite3.connect(path, timeout=30)
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.Error as e:
        return f"{type(e).__name__}: {e}"
    finally:
        conn.close()
    return "; ".join(str(r[0]) for r in rows)[:300]


@dataclass(frozen=True)
class StoredVerdict:
    """Every acknowledged game and action compared with the store."""

    games_acknowledged: int
    games_stored: int
    actions_acknowledged: int
    actions_stored: int
    #: acknowledged games missing plus acknowledged actions missing
    lost: int
    duplicated: int
    mismatched: int
    gaps: int
    audits_failed: int
    problems: tuple[str, ...]


def check_stored(store: EventStore, base_url: str, ledgers: Sequence[GameLedger], parallel: int = 4
                 ) -> StoredVerdict:
    """Every acknowledged game and action against the store, and every game's audit."""
    unreadable: list[str] = []

    def one(ledger: GameLedger) -> GameCheck | None:
        try:
            return check_game(store, base_url, ledger)
        except GameNotFound:
            return None
        except StoreError as e:  # a damaged file: the game cannot be read back
            unreadable.append(f"{ledger.game_id}: {e}")
            return None

    with ThreadPoolExecutor(max_workers=parallel) as pool:
        checks = list(pool.map(one, ledgers))
    missing = [ledger for ledger, c in zip(ledgers, checks, strict=True) if c is None]
    found = [c for c in checks if c is not None]
    lost_actions = sum(ledger.acked for ledger in missing) + sum(c.lost for c in found)
    acked = sum(ledger.acked for ledger in ledgers)
    problems = unreadable[:5] + [f"{ledger.game_id}: acknowledged game not stored" for ledger in missing[:5]]
    problems += [p for c in found for p in c.problems][:15]
    return StoredVerdict(
        games_acknowledged=len(ledgers), games_stored=len(found), actions_acknowledged=acked,
        actions_stored=acked - lost_actions, lost=lost_actions + len(missing),
        duplicated=sum(c.duplicated for c in found), mismatched=sum(c.mismatched for c in found),
        gaps=sum(c.gaps for c in found),
        audits_failed=len(missing) + sum(1 for c in found if not c.audit_ok), problems=tuple(problems),
    )


def _log_counts(log: Path) -> tuple[int, int, int]:
    """(workers recycled, workers that exited with an error code, tracebacks) in a server log."""
    text = log.read_text(errors="replace") if log.exists() else ""
    recycled = text.count("Autorestarting worker after current request")
    crashes = len(re.findall(r"Worker \(pid:\d+\) exited with code [1-9]", text))
    return recycled, crashes, text.count("Traceback (most recent call last)")


def run_mode(
    mode: str,
    start: Callable[[Path], Server],
    open_stores: Callable[[], Stores],
    work: Path,
    cfg: SoakSettings,
    sqlite_file: Path | None = None,
    log_line: Callable[[str], None] = lambda _: None,
) -> SoakResult:
    """One mode's soak: write under faults, stop, check the file, restart, check every game."""
    scripts = [make_script(f"soak-{i}") for i in range(cfg.scripts)]
    log = work / f"soak-{mode}.log"
    server = start(log)
    try:
        server.wait_ready()
        log_line(f"soak {mode}: {cfg.clients} writers for {cfg.seconds:g} s, a worker stopped every "
                 f"{cfg.fault_every:g} s ({', '.join(s.name for s in cfg.faults)}), "
                 f"CABLECAR_MAX_REQUESTS={cfg.max_requests}")
        recorder, ledgers, sent = soak_phase(server, scripts, cfg, f"soak-{mode}")
    finally:
        server.stop()
    recycled, crashes, tracebacks = _log_counts(log)
    check = integrity_check(sqlite_file) if sqlite_file is not None else "n/a"
    log_line(f"soak {mode}: integrity_check {check}; checking {len(ledgers)} games on a fresh server")
    checker = start(work / f"soak-{mode}-check.log")
    stores = open_stores()
    try:
        checker.wait_ready()
        verdict = check_stored(stores.events, checker.url, ledgers)
    finally:
        stores.close()
        checker.stop()
    errors_5xx: Counter[str] = Counter({k: n for k, n in recorder.errors.items() if k[:1] == "5"})
    no_answer = sum(n for k, n in recorder.errors.items() if k.startswith("no answer"))
    return SoakResult(
        mode=mode, seconds=cfg.seconds, clients=cfg.clients, faults=dict(sent), recycled=recycled,
        worker_crashes=crashes, tracebacks=tracebacks, stored=verdict, integrity_check=check,
        answers_5xx=errors_5xx, no_answer=no_answer, requests=recorder.requests,
    )


def run_embedded(work: Path, cfg: SoakSettings, log_line: Callable[[str], None] = lambda _: None) -> SoakResult:
    """The embedded mode in ``work`` (its SQLite file in ``work/data``)."""
    from events.factory import sqlite_stores

    data = work / "data"
    path = data / DEFAULT_SQLITE_NAME
    return run_mode("embedded", lambda log: embedded_server(data, log, cfg), lambda: sqlite_stores(path),
                    work, cfg, path, log_line)


def _is_bot_runner(pid: int) -> bool:
    """Whether ``pid`` is the bot runner `cablecar serve` starts beside its workers (not a worker)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"bots" in argv and b"run" in argv
