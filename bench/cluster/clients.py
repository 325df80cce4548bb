"""The cluster's clients: writers playing games through the load balancer
and spectators following them as event streams.

A :class:`Writer` plays two-seat San Francisco games like the reference bot
(the game, the acting seat's legal actions from ``/legal-actions``, the
greedy choice), POSTing each action with ``expected_version`` and an
Idempotency-Key that every retry of it reuses, and retrying through
failures until it is acknowledged.  After each acknowledged action it reads
the event page after its previous position (served by the standby when one
is configured) and checks it ends with its own action: a read that went
backwards or came back short is a ``stale read``.  Every answer is logged
with its time, for the per-fault recovery times.

A :class:`Spectator` follows one game's ``/events/stream``, reconnecting with
``Last-Event-ID`` whenever the stream ends (a host killed or drained), and
keeps every event it was sent, for the comparison with the log.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

from bench.load.http import Answer, Connection, TransportFailure
from bench.load.scripts import greedy_policy
from domain.core import JSON
from service.usecases.commands import seat_key


@dataclass
class Outcome:
    """One request's fate: when, what, and its status (0: no answer)."""

    at: float
    label: str
    status: int
    code: str = ""
    seconds: float = 0.0


#: what an answer shows of one event, to compare with the log: seq, type, seat, the database's time of the
#: write (to the microsecond: another action stored at that seq would not have it) and, once the game is
#: over, its hash (over the whole stored event; payloads are shown redacted to the seat until then)
Shown = tuple[int, str, int | None, str, str]


@dataclass
class Acked:
    """One acknowledged action: when, the version the answer gave, and its events as the answer showed them."""

    at: float
    version: int
    events: list[Shown]


@dataclass
class GamePlay:
    """What one writer knows of one game."""

    game_id: str
    tokens: tuple[str, ...]
    #: acknowledged actions by the key the store keeps (seat and Idempotency-Key); each move has a fresh
    #: random key, reused by its retries only, so a move replayed after a loss cannot hide the lost one
    acked: dict[str, Acked] = field(default_factory=dict)
    version: int = 0
    finished: bool = False


class Writer:
    """Plays games one after another until ``stop`` (see the module docs)."""

    def __init__(self, base_url: str, name: str, stop: threading.Event, give_up: threading.Event) -> None:
        self.conn = Connection(base_url, timeout=20)
        self.name = name
        self.stop = stop
        self.give_up = give_up
        self.rng = random.Random(name)
        self.games: list[GamePlay] = []
        self.outcomes: list[Outcome] = []
        self.stale_reads: list[str] = []
        self.page_reads = 0

    def _call(self, label: str, method: str, path: str, body: JSON = None, token: str | None = None,
              headers: dict[str, str] | None = None) -> Answer | None:
        try:
            answer = self.conn.request(method, path, body, token, headers)
        except TransportFailure as e:
            self.outcomes.append(Outcome(time.monotonic(), label, 0, "no answer", e.seconds))
            time.sleep(0.1)
            return None
        self.outcomes.append(Outcome(time.monotonic(), label, answer.status, answer.code, answer.seconds))
        if answer.status >= 500:
            time.sleep(min(answer.retry_after or 0.1, 1.0))
        return answer

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            n += 1
            body = {"type": "ttr-sf", "players": [{"name": f"{self.name}-a"}, {"name": f"{self.name}-b"}]}
            key = f"{self.name}-create-{n}-{uuid.uuid4()}"  # a creation key is a capability: >= 32 characters
            answer = None
            while not self.give_up.is_set() and (answer is None or answer.status >= 500):
                answer = self._call("POST /v1/games", "POST", "/v1/games", body, headers={"Idempotency-Key": key})
            if answer is None or answer.status != 201:
                continue
            play = GamePlay(answer.body["id"], tuple(s["token"] for s in answer.body["seats"]),
                            version=int(answer.body.get("version", 0)))
            self.games.append(play)
            self.play(play)
        self.conn.close()

    def play(self, play: GamePlay) -> None:
        while not self.stop.is_set():
            view = self._call("GET /v1/games/{id}", "GET", f"/v1/games/{play.game_id}")
            if view is None or view.status != 200:
                continue
            if view.body["status"] in ("finished", "cancelled"):
                play.finished = True
                return
            for seat in view.body["active_seats"]:
                if not self.move(play, seat):
                    return

    def move(self, play: GamePlay, seat: int) -> bool:
        """One move of ``seat``; False if the game cannot go on for this writer."""
        token = play.tokens[seat]
        legal = self._call("GET /v1/games/{id}/legal-actions", "GET",
                           f"/v1/games/{play.game_id}/legal-actions?limit=500", token=token)
        if legal is None or legal.status != 200 or not legal.body["actions"]:
            return legal is None or legal.status >= 500
        action = dict(greedy_policy(legal.body["actions"], self.rng))
        action["expected_version"] = legal.body["version"]
        key = uuid.uuid4().hex
        while not self.give_up.is_set():
            answer = self._call("POST /v1/games/{id}/actions", "POST", f"/v1/games/{play.game_id}/actions",
                                action, token, {"Idempotency-Key": key})
            if answer is None or answer.status >= 500:
                continue  # same key: a retry never applies the action twice
            if answer.status != 201:
                return False
            before, play.version = play.version, int(answer.body["version"])
            shown = [(int(e["seq"]), str(e["type"]), e["seat"], str(e["recorded_at"]), str(e.get("hash", "")))
                     for e in answer.body["events"]]
            stored_key = seat_key(seat, key)  # the store keeps action keys per seat
            assert stored_key is not None
            play.acked[stored_key] = Acked(time.monotonic(), play.version, shown)
            self.check_page(play, before, token)
            return True
        return False

    def check_page(self, play: GamePlay, after: int, token: str) -> None:
        """The event page after ``after`` must end with this writer's action."""
        page = self._call("GET /v1/games/{id}/events", "GET",
                          f"/v1/games/{play.game_id}/events?after={after}&limit=500", token=token)
        if page is None or page.status != 200:
            return
        self.page_reads += 1
        seqs = [e["seq"] for e in page.body["events"]]
        if not seqs or seqs[-1] < play.version or seqs != list(range(after + 1, after + 1 + len(seqs))):
            self.stale_reads.append(f"{play.game_id} after {after}: {seqs[:3]}..{seqs[-3:]} < {play.version}")


class Spectator:
    """Follows one game's event stream through every reconnection."""

    def __init__(self, host: str, port: int, game_id: str, stop: threading.Event) -> None:
        self.host = host
        self.port = port
        self.game_id = game_id
        self.stop = stop
        self.events: list[tuple[int, str]] = []
        self.connections = 0
        self.ended = False
        self.errors: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set() and not self.ended:
            try:
                self._follow()
            except (OSError, http.client.HTTPException, ValueError) as e:
                self.errors.append(type(e).__name__)
                time.sleep(0.2)

    def _follow(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        headers = {"Accept": "text/event-stream"}
        if self.events:
            headers["Last-Event-ID"] = str(self.events[-1][0])
        try:
            conn.request("GET", f"/v1/games/{self.game_id}/events/stream", headers=headers)
            resp = conn.getresponse()
            self.connections += 1
            if resp.status != 200:
                self.errors.append(str(resp.status))
                resp.read()
                time.sleep(0.5)
                return
            event, data = None, None
            while not self.stop.is_set():
                line = resp.readline()  # chunked decoding; heartbeats come far more often than the timeout
                if not line.endswith(b"\n"):
                    return  # the stream ended (perhaps mid-message: a host died): reconnect
                text = line.decode().rstrip("\n")
                if text.startswith("event:"):
                    event = text[6:].strip()
                elif text.startswith("data:"):
                    data = text[5:].strip()
                elif text == "" and data is not None:
                    if event == "end":
                        self.ended = True
                        return
                    body = json.loads(data)
                    self.events.append((int(body["seq"]), str(body["type"])))
                    event, data = None, None
        finally:
            conn.close()
