"""Fault scenarios, each while scripted load runs.

Every scenario runs the same scripted players (each action POSTed with
``expected_version`` and an Idempotency-Key, retried with the same key on a
503 or a lost connection, and the acting seat's view read after it), injects
its fault, restores what it broke, and then checks every game it touched (see
:mod:`bench.load.integrity`).  What the clients saw is classified: clean
refusals (503 ``unavailable``, 409 ``stale_version``...), anything else
(unclean), and requests that got no HTTP answer at all.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.load.clients import POST_ACTION, GameLedger, Phase, ScriptedPlayer
from bench.load.http import Connection, TransportFailure, send_and_drop
from bench.load.integrity import IntegrityReport, check_games
from bench.load.load import PhaseResult, run_phase
from bench.load.scripts import GameScript
from bench.load.stack import Gunicorn, Services
from bench.load.stats import Recorder, merge
from events.recorders.event_log import EventStore


@dataclass(frozen=True)
class FaultResult:
    """One scenario: the load it ran under, the fault's timing, the verdict."""

    name: str
    what: str
    load: PhaseResult
    integrity: IntegrityReport
    fault_at: float
    restored_at: float
    #: seconds from the restore until /v1/health answered "ok" again
    health_ok_after: float | None
    notes: tuple[tuple[str, str], ...] = ()
    #: what the scenario's own clients (droppers, racers) saw, apart from the load
    side: Recorder = field(default_factory=Recorder)

    @property
    def seen(self) -> Recorder:
        """Everything every client of the scenario saw."""
        return merge([self.load.recorder, self.side])

    @property
    def recovered_after(self) -> float | None:
        """Seconds from the restore to the first newly accepted action."""
        return self.load.first_accepted_after(self.restored_at)

    def per_second(self) -> list[int]:
        """Accepted actions in each second of the phase."""
        seconds = int(self.load.seconds) + 1
        counts = [0] * seconds
        for t in self.load.recorder.accepted:
            i = int(t - self.load.started)
            if 0 <= i < seconds:
                counts[i] += 1
        return counts


@dataclass(frozen=True)
class FaultSettings:
    """Sizes shared by every scenario."""

    clients: int
    seconds: float
    warmup: float
    outage: float
    racers: int = 50
    race_rounds: int = 4


def wait_healthy(base_url: str, timeout: float = 60.0) -> float | None:
    """Seconds until ``/v1/health`` answers 200 with status ok (None: never)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            with urllib.request.urlopen(base_url + "/v1/health", timeout=2) as resp:
                if json.loads(resp.read()).get("status") == "ok":
                    return time.monotonic() - started
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    return None


@dataclass
class _Marks:
    fault_at: float = 0.0
    restored_at: float = 0.0
    health_ok_after: float | None = None
    notes: dict[str, str] = field(default_factory=dict)
    side: Recorder = field(default_factory=Recorder)


def _scenario(
    name: str,
    what: str,
    server: Gunicorn,
    store: EventStore,
    scripts: Sequence[GameScript],
    cfg: FaultSettings,
    inject: Callable[[Phase, _Marks], None],
    extra_ledgers: Callable[[], Sequence[GameLedger]] = lambda: (),
) -> FaultResult:
    marks = _Marks()

    def during(phase: Phase) -> None:
        time.sleep(cfg.warmup)
        inject(phase, marks)

    load = run_phase(
        name, server.url, lambda ph, i: ScriptedPlayer(ph, scripts, f"{name}-{i}", i * 7, reads=1),
        cfg.clients, cfg.seconds, during,
    )
    integrity = check_games(store, server.url, [*load.ledgers, *extra_ledgers()])
    return FaultResult(name, what, load, integrity, marks.fault_at, marks.restored_at, marks.health_ok_after,
                       tuple(sorted(marks.notes.items())), marks.side)


def redis_restart(server: Gunicorn, services: Services, store: EventStore, scripts: Sequence[GameScript],
                  cfg: FaultSettings) -> FaultResult:
    """Redis is shut down for ``outage`` seconds, then started again."""

    def inject(phase: Phase, marks: _Marks) -> None:
        marks.fault_at = time.monotonic()
        services.stop_redis()
        time.sleep(cfg.outage)
        services.start_redis()
        marks.restored_at = time.monotonic()
        marks.health_ok_after = wait_healthy(server.url)

    return _scenario("redis-restart", f"Redis SHUTDOWN, {cfg.outage:g} s down, started again",
                     server, store, scripts, cfg, inject)


def postgres_restart(server: Gunicorn, services: Services, store: EventStore, scripts: Sequence[GameScript],
                     cfg: FaultSettings) -> FaultResult:
    """``pg_ctl restart -m fast`` (every connection is killed)."""

    def inject(phase: Phase, marks: _Marks) -> None:
        marks.fault_at = time.monotonic()
        took = services.restart_postgres()
        marks.restored_at = time.monotonic()
        marks.health_ok_after = wait_healthy(server.url)
        marks.notes["pg_ctl restart took"] = f"{took:.2f} s"

    return _scenario("postgres-restart", "pg_ctl restart -m fast (as the postgres user)",
                     server, store, scripts, cfg, inject)


def worker_kill(server: Gunicorn, store: EventStore, scripts: Sequence[GameScript],
                cfg: FaultSettings) -> FaultResult:
    """A gunicorn worker is killed with SIGKILL (twice, ``outage`` apart)."""

    def inject(phase: Phase, marks: _Marks) -> None:
        marks.fault_at = time.monotonic()
        victims = [server.kill_worker()]
        time.sleep(cfg.outage)
        victims.append(server.kill_worker())
        marks.restored_at = time.monotonic()
        marks.health_ok_after = wait_healthy(server.url)
        marks.notes["killed worker pids"] = ", ".join(map(str, victims))

    return _scenario("worker-kill", "SIGKILL a gunicorn worker mid-load, twice", server, store, scripts, cfg, inject)


class DroppingPlayer(ScriptedPlayer):
    """A scripted player whose every action is first sent on a socket that is
    reset before the answer is read (after a random 0-40 ms), then retried
    with the same Idempotency-Key on a normal connection."""

    def __init__(self, phase: Phase, scripts: Sequence[GameScript], name: str, offset: int) -> None:
        super().__init__(phase, scripts, name, offset)
        self.rng = random.Random(name)
        self.dropped = 0
        self.retry_replayed = 0
        self.retry_fresh = 0

    def send(self, ledger: GameLedger, index: int) -> bool:
        """Drop the first answer, then send again with the same key."""
        action = ledger.script.actions[index]
        body = {**action.body, "expected_version": ledger.script.version_after(index)}
        headers = {"Idempotency-Key": ledger.key(index), "Authorization": f"Bearer {ledger.tokens[action.seat]}"}
        try:
            send_and_drop(self.phase.base_url, f"/v1/games/{ledger.game_id}/actions", body, headers,
                          self.rng.uniform(0, 0.04))
            self.dropped += 1
            ledger.in_doubt = True
        except OSError as e:
            self.recorder.transport(POST_ACTION, e)
        before = self.recorder.replayed
        ok = super().send(ledger, index)
        if ok:
            if self.recorder.replayed > before:
                self.retry_replayed += 1
            else:
                self.retry_fresh += 1
        return ok


def dropped_responses(server: Gunicorn, store: EventStore, scripts: Sequence[GameScript],
                      cfg: FaultSettings, droppers: int = 4) -> FaultResult:
    """``droppers`` clients lose the answer of every action and retry it with
    the same Idempotency-Key, among the normal load."""
    players: list[DroppingPlayer] = []
    stop = threading.Event()

    def inject(phase: Phase, marks: _Marks) -> None:
        marks.fault_at = time.monotonic()
        drop_phase = Phase(phase.base_url, stop, phase.give_up)  # its own stop, the load's drain limit
        players.extend(DroppingPlayer(drop_phase, scripts, f"drop-{i}", 3 + i) for i in range(droppers))
        threads = [threading.Thread(target=p.run, daemon=True) for p in players]
        for t in threads:
            t.start()
        time.sleep(max(1.0, cfg.seconds - cfg.warmup - 1.0))
        stop.set()
        for t in threads:
            t.join(timeout=30)
        marks.restored_at = time.monotonic()
        marks.notes["answers dropped"] = str(sum(p.dropped for p in players))
        marks.notes["retries answered replayed=true (first attempt had been applied)"] = str(
            sum(p.retry_replayed for p in players))
        marks.notes["retries answered replayed=false (first attempt had not been applied)"] = str(
            sum(p.retry_fresh for p in players))
        marks.side = merge(p.recorder for p in players)

    return _scenario(
        "dropped-responses", f"{droppers} clients lose every answer and retry with the same Idempotency-Key",
        server, store, scripts, cfg, inject, lambda: [ledger for p in players for ledger in p.ledgers],
    )


@dataclass(frozen=True)
class RaceOutcome:
    """What ``racers`` clients saw sending the same action at once."""

    same_key: bool
    created: int
    replayed: int
    refused: dict[str, int]
    no_answer: int


def _race(base_url: str, ledger: GameLedger, index: int, racers: int, same_key: bool) -> RaceOutcome:
    action = ledger.script.actions[index]
    body = {**action.body, "expected_version": ledger.script.version_after(index)}
    barrier = threading.Barrier(racers)
    answers: list[tuple[int, str, bool, str] | None] = [None] * racers
    conns = [Connection(base_url) for _ in range(racers)]
    for c in conns:  # open the sockets first so that the requests leave together
        c.request("GET", "/v1/health")

    def go(i: int) -> None:
        key = ledger.key(index) if same_key else f"{ledger.key(index)}-racer{i}"
        barrier.wait()
        try:
            a = conns[i].request("POST", f"/v1/games/{ledger.game_id}/actions", body, ledger.tokens[action.seat],
                                 {"Idempotency-Key": key})
            answers[i] = (a.status, a.code, bool(isinstance(a.body, dict) and a.body.get("replayed")), key)
        except TransportFailure:
            answers[i] = None

    threads = [threading.Thread(target=go, args=(i,)) for i in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for c in conns:
        c.close()
    refused: dict[str, int] = {}
    created = replayed = missing = 0
    for a in answers:
        if a is None:
            missing += 1
        elif a[0] == 201:
            replayed += a[2]
            created += not a[2]
            if not a[2]:
                ledger.key_overrides[index] = a[3]
        else:
            refused[f"{a[0]} {a[1]}"] = refused.get(f"{a[0]} {a[1]}", 0) + 1
    if created + replayed:
        ledger.acked = index + 1
    return RaceOutcome(same_key, created, replayed, refused, missing)


def same_action_race(server: Gunicorn, store: EventStore, scripts: Sequence[GameScript],
                     cfg: FaultSettings) -> tuple[FaultResult, tuple[RaceOutcome, ...]]:
    """``racers`` clients send the same action at the same version at once,
    ``race_rounds`` times with distinct keys and as often with one shared key."""
    outcomes: list[RaceOutcome] = []
    race_ledgers: list[GameLedger] = []

    def inject(phase: Phase, marks: _Marks) -> None:
        marks.fault_at = time.monotonic()
        player = ScriptedPlayer(phase, scripts, "racer", 11)
        for r in range(cfg.race_rounds * 2):
            ledger = player.create(scripts[r % len(scripts)], f"race-{r}")
            if ledger is None:
                break
            race_ledgers.append(ledger)
            for i in range(3 + r):  # a few ordinary moves first
                player.send(ledger, i)
            outcomes.append(_race(phase.base_url, ledger, ledger.acked, cfg.racers, same_key=r % 2 == 1))
        marks.restored_at = time.monotonic()
        marks.side = player.recorder

    result = _scenario(
        "same-action-race", f"{cfg.racers} clients send one action at the same expected_version at once",
        server, store, scripts, cfg, inject, lambda: race_ledgers,
    )
    return result, tuple(outcomes)
