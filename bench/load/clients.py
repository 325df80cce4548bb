"""Load clients, one per thread: scripted players, reference-style bots, and
the baseline's inserter.

All of them stop starting new work when the phase's ``stop`` event is set,
finish (with retries) what they were doing, and give up at ``give_up``.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.load.http import Answer, Connection, TransportFailure
from bench.load.scripts import GameScript, greedy_policy
from bench.load.stats import Recorder
from domain.core import JSON

POST_ACTION = "POST /v1/games/{id}/actions"
GET_GAME = "GET /v1/games/{id}"
GET_LEGAL = "GET /v1/games/{id}/legal-actions"
POST_GAME = "POST /v1/games"
POST_INSERT = "POST /insert (baseline)"


@dataclass
class GameLedger:
    """What one client knows about one scripted game it played."""

    game_id: str
    script: GameScript
    tokens: tuple[str, ...]
    key_prefix: str
    #: actions acknowledged with a 201 (in script order)
    acked: int = 0
    #: an attempt of action ``acked`` got no answer, and no later answer settled it
    in_doubt: bool = False
    #: why the client gave up on this game early ('' if it did not)
    abandoned: str = ""
    #: actions applied under another key than :meth:`key` gives (races)
    key_overrides: dict[int, str] = field(default_factory=dict)

    def key(self, index: int) -> str:
        """The Idempotency-Key of action ``index`` (the same for every retry)."""
        return self.key_overrides.get(index, f"{self.key_prefix}-{index}")


@dataclass(frozen=True)
class Phase:
    """Shared controls of one load phase: ``stop`` (start nothing new) and
    ``give_up`` (the drain time is over: abandon retries)."""

    base_url: str
    stop: threading.Event = field(default_factory=threading.Event)
    give_up: threading.Event = field(default_factory=threading.Event)

    def hard_stopped(self) -> bool:
        """Whether the phase's drain time is over."""
        return self.give_up.is_set()


class _Backoff:
    def __init__(self) -> None:
        self.delay = 0.05

    def wait(self, hint: float | None = None) -> None:
        time.sleep(min(hint if hint is not None else self.delay, 1.0))
        self.delay = min(self.delay * 2, 1.0)


class ScriptedPlayer:
    """Plays scripted games one after another, every seat, POSTing each action
    with ``expected_version`` and an Idempotency-Key, retrying the same key on
    503 or a lost connection.  ``reads`` GET /v1/games/{id} (the acting seat's
    view) after each action."""

    def __init__(self, phase: Phase, scripts: Sequence[GameScript], name: str, offset: int, reads: int = 0) -> None:
        self.phase = phase
        self.scripts = scripts
        self.name = name
        self.offset = offset
        self.reads = reads
        self.recorder = Recorder()
        self.ledgers: list[GameLedger] = []
        self.conn = Connection(phase.base_url)

    def run(self) -> None:
        """Play until the phase stops."""
        for n in itertools.count():
            if self.phase.stop.is_set():
                break
            ledger = self.create(self.scripts[(self.offset + n) % len(self.scripts)], f"{self.name}-g{n}")
            if ledger is None:
                break
            self.play(ledger)
        self.recorder.resends = self.conn.resends
        self.conn.close()

    def create(self, script: GameScript, key_prefix: str) -> GameLedger | None:
        """Create a game dealing ``script``; None if the phase ended first."""
        backoff = _Backoff()
        while not self.phase.hard_stopped():
            try:
                answer = self.recorder.timed(POST_GAME, self.conn.request("POST", "/v1/games", script.create_body()))
            except TransportFailure as e:
                self.recorder.transport(POST_GAME, e.error)
                backoff.wait()
                continue
            if answer.status == 201:
                self.recorder.games_created += 1
                tokens = tuple(s["token"] for s in answer.body["seats"])
                ledger = GameLedger(answer.body["id"], script, tokens, key_prefix)
                self.ledgers.append(ledger)
                return ledger
            self.recorder.refused(POST_GAME, answer)
            if answer.status != 503:
                return None
            backoff.wait(answer.retry_after)
        return None

    def play(self, ledger: GameLedger) -> None:
        """Send the script's actions in order until done or the phase stops."""
        script = ledger.script
        while ledger.acked < len(script.actions) and not ledger.abandoned:
            if self.phase.stop.is_set():
                return
            if not self.send(ledger, ledger.acked):
                return
            if self.reads:
                self.read(ledger, script.actions[ledger.acked - 1].seat)
        if ledger.acked == len(script.actions) and script.finished:
            self.recorder.games_finished += 1

    def send(self, ledger: GameLedger, index: int) -> bool:
        """POST action ``index`` until it is acknowledged; False if it was not."""
        action = ledger.script.actions[index]
        body = {**action.body, "expected_version": ledger.script.version_after(index)}
        path = f"/v1/games/{ledger.game_id}/actions"
        headers = {"Idempotency-Key": ledger.key(index)}
        backoff = _Backoff()
        while True:
            if self.phase.hard_stopped():
                return False
            try:
                answer = self.conn.request("POST", path, body, ledger.tokens[action.seat], headers)
            except TransportFailure as e:
                self.recorder.transport(POST_ACTION, e.error)
                ledger.in_doubt = True
                backoff.wait()
                continue
            self.recorder.timed(POST_ACTION, answer)
            if answer.status == 201:
                return self._acknowledged(ledger, index, answer)
            self.recorder.refused(POST_ACTION, answer)
            if answer.status == 503:
                backoff.wait(answer.retry_after)
                continue
            if answer.code == "stale_version" and ledger.in_doubt and backoff.delay < 1.0:
                # Our own earlier attempt (same key) may still be in flight and
                # win: ask again with the same key to get its replay.
                self.recorder.stale_in_flight += 1
                backoff.wait()
                continue
            ledger.abandoned = f"action {index}: {answer.status} {answer.code}"
            return False

    def _acknowledged(self, ledger: GameLedger, index: int, answer: Answer) -> bool:
        expected = ledger.script.version_after(index + 1)
        ledger.acked = index + 1
        ledger.in_doubt = False
        if answer.body.get("replayed"):
            self.recorder.replayed += 1
        else:
            self.recorder.accepted.append(time.monotonic())
        if answer.body.get("version") != expected:
            self.recorder.unclean.append(
                f"{POST_ACTION}: game {ledger.game_id} action {index} answered version "
                f"{answer.body.get('version')}, expected {expected}"
            )
            ledger.abandoned = "wrong version in the answer"
            return False
        return True

    def read(self, ledger: GameLedger, seat: int) -> None:
        """GET the game as ``seat`` sees it (latency and errors recorded)."""
        for _ in range(self.reads):
            try:
                answer = self.recorder.timed(
                    GET_GAME, self.conn.request("GET", f"/v1/games/{ledger.game_id}", token=ledger.tokens[seat])
                )
            except TransportFailure as e:
                self.recorder.transport(GET_GAME, e.error)
                return
            if answer.status != 200:
                self.recorder.refused(GET_GAME, answer)


class BotPlayer:
    """Plays like the reference client (bots/client.py), over a keep-alive
    connection: for every move, the seat's view, its legal actions, then the
    chosen action with ``expected_version`` and an Idempotency-Key."""

    def __init__(self, phase: Phase, name: str, players: int = 2) -> None:
        self.phase = phase
        self.name = name
        self.players = players
        self.recorder = Recorder()
        self.rng = random.Random(name)
        self.conn = Connection(phase.base_url)
        self.games: list[str] = []

    def run(self) -> None:
        """Play games until the phase stops."""
        while not self.phase.stop.is_set():
            body = {"type": "ttr-sf", "players": [{"name": f"bot-{i + 1}"} for i in range(self.players)]}
            answer = self._call(POST_GAME, "POST", "/v1/games", body)
            if answer is None or answer.status != 201:
                continue
            self.recorder.games_created += 1
            self.games.append(answer.body["id"])
            self.play(answer.body["id"], tuple(s["token"] for s in answer.body["seats"]))
        self.recorder.resends = self.conn.resends
        self.conn.close()

    def _call(self, label: str, method: str, path: str, body: JSON = None, token: str | None = None,
              headers: dict[str, str] | None = None) -> Answer | None:
        try:
            answer = self.recorder.timed(label, self.conn.request(method, path, body, token, headers))
        except TransportFailure as e:
            self.recorder.transport(label, e.error)
            time.sleep(0.05)
            return None
        if answer.status >= 300:
            self.recorder.refused(label, answer)
            if answer.status == 503:
                time.sleep(min(answer.retry_after or 0.1, 1.0))
        return answer

    def play(self, game_id: str, tokens: tuple[str, ...]) -> None:
        """Play every seat of one game until it ends or the phase stops."""
        while not self.phase.stop.is_set():
            seat = self.rng.randrange(len(tokens))
            view = self._call(GET_GAME, "GET", f"/v1/games/{game_id}", token=tokens[seat])
            if view is None or view.status != 200:
                continue
            if view.body["status"] == "finished":
                self.recorder.games_finished += 1
                return
            for active in view.body["active_seats"]:
                self.move(game_id, active, tokens[active])

    def move(self, game_id: str, seat: int, token: str) -> None:
        """One move of ``seat``: legal actions, choose, send."""
        legal = self._call(GET_LEGAL, "GET", f"/v1/games/{game_id}/legal-actions?limit=500", token=token)
        if legal is None or legal.status != 200 or not legal.body["actions"]:
            return
        action = dict(greedy_policy(legal.body["actions"], self.rng))
        action["expected_version"] = legal.body["version"]
        key = hashlib.sha256(f"{game_id}:{seat}:{legal.body['version']}:{self.name}".encode()).hexdigest()[:32]
        for _ in range(5):
            answer = self._call(POST_ACTION, "POST", f"/v1/games/{game_id}/actions", action, token,
                                {"Idempotency-Key": key})
            if answer is None or answer.status == 503:
                continue  # same key: a retry can never apply the action twice
            if answer.status == 201:
                if answer.body.get("replayed"):
                    self.recorder.replayed += 1
                else:
                    self.recorder.accepted.append(time.monotonic())
            elif answer.status == 409:
                self.recorder.conflicts += 1
            return


class BaselineClient:
    """POSTs action-sized JSON bodies to the baseline app's ``/insert``."""

    BODY: dict[str, JSON] = {"type": "draw_card", "source": "face_up", "slot": 2, "expected_version": 17}

    def __init__(self, phase: Phase, name: str) -> None:
        self.phase = phase
        self.name = name
        self.recorder = Recorder()
        self.conn = Connection(phase.base_url)

    def run(self) -> None:
        """Insert until the phase stops."""
        while not self.phase.stop.is_set():
            try:
                answer = self.recorder.timed(POST_INSERT, self.conn.request("POST", "/insert", self.BODY))
            except TransportFailure as e:
                self.recorder.transport(POST_INSERT, e.error)
                time.sleep(0.05)
                continue
            if answer.status == 201:
                self.recorder.accepted.append(time.monotonic())
            else:
                self.recorder.refused(POST_INSERT, answer)
        self.recorder.resends = self.conn.resends
        self.conn.close()
