"""The reference client: bots that play complete games over the HTTP API.

This module is meant to be read by third-party client writers.  It uses only
the public HTTP contract (and only the Python standard library):

1. ``POST /v1/games`` creates a game and returns one secret token per seat;
2. ``GET /v1/games/{id}`` (spectator view) tells which seats may act now
   (``active_seats``) and the game ``version``;
3. ``GET /v1/games/{id}/legal-actions`` with a seat token lists every action
   that seat may send, each a ready-to-send body;
4. ``POST /v1/games/{id}/actions`` sends the chosen one with
   ``expected_version`` (a 409 ``stale_version`` means somebody else moved
   first: look again) and an ``Idempotency-Key`` (a retry after a network
   error can never apply the action twice).

Strategies pick among the legal actions: ``random`` (uniform), ``greedy``
(Ticket to Ride: claim the most valuable route it can, keep every ticket it
is dealt, else draw cards; cable cars: start the ride as soon as it can).
The command line (:mod:`bots.cli`) also offers the planning bots of :mod:`bots`
(``planner`` for either game, ``mcts`` for Ticket to Ride), one per seat.

Usage::

    cablecar bot play --url http://127.0.0.1:8000 --type ttr-sf --players 3 --games 2
    cablecar bot play --type cable-car --players 4 --games 20 --strategy planner --local
    cablecar bot play --type ttr-sf --players 2 --games 50 --strategy mcts,planner --think-ms 50
    cablecar bot seat --url http://127.0.0.1:8000 --game ID --token st_...
"""

from __future__ import annotations

import hashlib
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.core import JSON


class ApiProblem(Exception):
    """A problem+json answer from the server."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.status = status
        self.body = body
        self.code = str(body.get("code", ""))


def url_problem(url: str) -> str | None:
    """What is wrong with ``url`` as a server's base URL (None: nothing): it
    needs the scheme http or https, a host, and a port (if given) in 1-65535.
    Checked before any request, which would otherwise be retried for minutes."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as e:
        return f"{url!r} is not a URL ({e})"
    if parts.scheme not in ("http", "https"):
        scheme = f"the scheme {parts.scheme}://" if parts.scheme else "no scheme"
        return f"{url!r} has {scheme}: use http://HOST[:PORT] or https://HOST[:PORT]"
    if not parts.hostname:
        return f"{url!r} names no host: use {parts.scheme}://HOST[:PORT]"
    if port == 0:
        return f"{url!r} has port 0: a port is 1-65535"
    return None


#: seconds a first contact keeps trying a server that refuses connections (one still starting)
FIRST_CONTACT = 2.0


def reach(base_url: str, patience: float = FIRST_CONTACT) -> None:
    """Make sure a server answers at ``base_url`` before playing: ``GET /v1/health``,
    where any answer will do, tried for ``patience`` seconds (a server still
    starting); else the ``urllib.error.URLError`` saying why (refused, no such
    host, timed out).  A request of :class:`Client` retries connection errors
    for ``PATIENCE`` seconds, which carries a game through a server restarting;
    a server never reached is a wrong URL or a server not started, better said at once."""
    give_up = time.monotonic() + patience
    request = urllib.request.Request(base_url.rstrip("/") + "/v1/health", headers={"Accept": "application/json"})
    while True:
        try:
            with urllib.request.urlopen(request, timeout=max(0.5, give_up - time.monotonic())):
                return
        except urllib.error.HTTPError:
            return  # an answer: a server is there
        except urllib.error.URLError as e:  # not connected (urllib wraps what fails before the request is sent)
            if time.monotonic() >= give_up or isinstance(e.reason, socket.gaierror):  # (no such host: at once)
                raise
            time.sleep(0.1)
        except (TimeoutError, ConnectionError, http.client.HTTPException):
            return  # connected, answering slowly or oddly: the requests' own retries take it from here


#: seconds of 429/503 answers and connection errors a request is retried through before it gives up
#: (a worker restarting, a deploy, a database failover: each takes seconds, together well under this)
PATIENCE = 90.0
#: the first pause before a retry, and the longest (the pauses double in between, with jitter)
FIRST_PAUSE, LONGEST_PAUSE = 0.2, 8.0


@dataclass
class Client:
    """A tiny JSON-over-HTTP client for the Cable Car API.

    ``patience``: how many seconds a request keeps being retried; ``retries``
    caps the attempts as well (None: only time does).  ``sleep``, ``clock``
    and ``rng`` are the pause, the time and the jitter (a test's own)."""

    base_url: str
    timeout: float = 30.0
    retries: int | None = None
    patience: float = PATIENCE
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    rng: random.Random = field(default_factory=random.Random)

    def request(
        self,
        method: str,
        path: str,
        body: JSON = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> JSON:
        """Send a request; return the decoded JSON answer or raise ApiProblem.

        Connection errors (including an answer cut off mid-body, as when a
        worker is killed) and 429/503 answers are retried for ``patience``
        seconds, with exponential back-off and jitter (so that many bots
        cut off at once do not come back at once), never sooner than the
        answer's ``Retry-After``.  Safe: every write carries an
        Idempotency-Key, so a retry gets the first answer, and a
        ``503 unavailable`` with ``outcome: unknown`` asks for exactly this retry."""
        data = None if body is None else json.dumps(body).encode()
        all_headers = {"Accept": "application/json", **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        give_up = self.clock() + self.patience
        attempt = 0
        while True:
            attempt += 1
            req = urllib.request.Request(self.base_url.rstrip("/") + path, data, all_headers, method=method)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    raw = resp.read()
                    return json.loads(raw) if raw else None
            except urllib.error.HTTPError as e:
                raw = e.read()
                try:
                    problem = json.loads(raw)
                except ValueError:
                    problem = {"code": "http_error", "detail": raw.decode(errors="replace")}
                error = ApiProblem(e.code, problem)
                if e.code not in (429, 503):
                    raise error from e
                pause = self._pause(attempt, e.headers.get("Retry-After"))
                if not self._may_retry(attempt, pause, give_up):
                    raise error from e
            except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.HTTPException):
                pause = self._pause(attempt, None)
                if not self._may_retry(attempt, pause, give_up):
                    raise
            self.sleep(pause)

    def _pause(self, attempt: int, retry_after: str | None) -> float:
        """The pause before retry ``attempt``: doubling from FIRST_PAUSE up to
        LONGEST_PAUSE, between half of that and all of it, never below Retry-After."""
        ceiling = min(LONGEST_PAUSE, FIRST_PAUSE * 2 ** (attempt - 1))
        pause = self.rng.uniform(ceiling / 2, ceiling)
        try:
            return max(pause, min(float(retry_after or 0), LONGEST_PAUSE))
        except ValueError:  # an HTTP date: the back-off is as good
            return pause

    def _may_retry(self, attempt: int, pause: float, give_up: float) -> bool:
        if self.retries is not None and attempt > self.retries:
            return False
        return self.clock() + pause <= give_up


#: how many actions a bot draws from a list longer than one page
SAMPLE = 64

Strategy = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]


def random_strategy(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Any legal action, uniformly."""
    return rng.choice(actions)


def _route_value(action: dict[str, Any]) -> int:
    return sum(int(n) for n in action.get("cards", {}).values())


def greedy_strategy(view: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A simple sensible player for either game type."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    if "start_ride" in by_type:
        return by_type["start_ride"][0]
    if "roll" in by_type:
        return by_type["roll"][0]
    if "keep_tickets" in by_type:  # keep the largest set offered
        return max(by_type["keep_tickets"], key=lambda a: len(a["tickets"]))
    if "claim_route" in by_type:
        best = max(_route_value(a) for a in by_type["claim_route"])
        return rng.choice([a for a in by_type["claim_route"] if _route_value(a) == best])
    if "draw_card" in by_type:
        return rng.choice(by_type["draw_card"])
    return rng.choice(actions)


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "greedy": greedy_strategy}


@dataclass
class GameRun:
    """One game played by bots: its id, tokens, and what happened."""

    game_id: str
    game_type: str
    tokens: list[str]
    actions_sent: int = 0
    conflicts: int = 0
    final_view: dict[str, Any] = field(default_factory=dict)


#: the statuses of a game that takes no more actions
OVER = ("finished", "cancelled")
#: what a bot keeps in hand when it thinks against a clock (network and server time)
CLOCK_MARGIN_SECONDS = 0.5


def create_game(
    client: Client, game_type: str, names: Sequence[str], seed: str | None = None,
    time_control: dict[str, Any] | None = None,
) -> GameRun:
    """Create a game and keep its seat tokens."""
    body: dict[str, Any] = {"type": game_type, "players": [{"name": n} for n in names]}
    if seed is not None:
        body["seed"] = seed
    if time_control is not None:
        body["time_control"] = time_control
    # A key makes the retries of a creation whose answer was lost safe: they get the same game, not a
    # second one.  Random, so that it is a secret (36 characters; the server wants 32 at least).
    created = client.request("POST", "/v1/games", body, headers={"Idempotency-Key": str(uuid.uuid4())})
    return GameRun(created["id"], game_type, [s["token"] for s in created["seats"]])


def think_time(view: dict[str, Any], seat: int, think_ms: int) -> float:
    """Seconds to think before moving: ``think_ms``, but never so long that
    the seat's running clock (if any) would run out."""
    wanted = think_ms / 1000
    for clock in view.get("clocks") or ():
        if clock["seat"] == seat and clock["running"]:
            return max(0.0, min(wanted, clock["remaining_seconds"] - CLOCK_MARGIN_SECONDS))
    return wanted


def play_turn(
    client: Client, run: GameRun, seat: int, strategy: Strategy, rng: random.Random, think_ms: int = 0
) -> bool:
    """Let ``seat`` send one action if it can; True if an action was accepted.
    A bot never resigns: ``resign`` is left out of its choices."""
    legal = client.request("GET", f"/v1/games/{run.game_id}/legal-actions", token=run.tokens[seat])
    moves = [a for a in legal["actions"] if a["type"] != "resign"]
    if legal["next_cursor"] is not None:
        # a long list (a cable-car turn has up to ~400,000 pairs): the first page is one corner of it, so the
        # placements are a uniform sample of the whole list instead (rides and rolls come first on page one)
        seed = f"{rng.random():.17f}"
        sampled = client.request("GET", f"/v1/games/{run.game_id}/legal-actions?sample={SAMPLE}&seed={seed}",
                                 token=run.tokens[seat])
        if sampled["version"] == legal["version"]:
            first = {a["type"] for a in sampled["actions"]}
            moves = [a for a in moves if a["type"] not in first] + [
                a for a in sampled["actions"] if a["type"] != "resign"]
    if not moves:
        return False
    view = client.request("GET", f"/v1/games/{run.game_id}", token=run.tokens[seat])
    if think_ms:
        time.sleep(think_time(view, view.get("me", {}).get("seat", seat), think_ms))
    action = dict(strategy(view, moves, rng))
    action["expected_version"] = legal["version"]
    key = hashlib.sha256(f"{run.game_id}:{seat}:{legal['version']}:{uuid.uuid4()}".encode()).hexdigest()[:32]
    try:
        client.request(
            "POST", f"/v1/games/{run.game_id}/actions", action, token=run.tokens[seat],
            headers={"Idempotency-Key": key},
        )
    except ApiProblem as e:
        if e.code in ("stale_version", "not_your_turn", "game_finished"):
            run.conflicts += 1
            return False
        raise
    run.actions_sent += 1
    return True


def play_game(
    client: Client, run: GameRun, strategy: Strategy | Sequence[Strategy], rng: random.Random,
    max_actions: int = 5000, think_ms: int | Sequence[int] = 0,
) -> dict[str, Any]:
    """Play every seat of ``run`` until the game is over; return the final view.

    ``strategy`` and ``think_ms`` are one for every seat, or one per seat."""
    per_seat = [strategy] * len(run.tokens) if callable(strategy) else list(strategy)
    waits = [think_ms] * len(run.tokens) if isinstance(think_ms, int) else list(think_ms)
    for _ in range(max_actions):
        view = client.request("GET", f"/v1/games/{run.game_id}")
        if view["status"] in OVER:
            run.final_view = view
            return view
        moved = False
        for seat in view["active_seats"]:
            moved = play_turn(client, run, seat, per_seat[seat], rng, waits[seat]) or moved
        if not moved and not view["active_seats"]:
            time.sleep(0.05)
    raise RuntimeError(f"game {run.game_id} did not finish within {max_actions} rounds")


def play_seat(
    client: Client, game_id: str, token: str, strategy: Strategy, rng: random.Random, poll: float = 0.1,
    think_ms: int = 0,
) -> dict[str, Any]:
    """Play one seat of an existing game until it is over or the seat is out
    (other seats are played by other clients).  Waits with ETag/If-None-Match
    polling; thinks ``think_ms`` per move within its clock."""
    run = GameRun(game_id, "", [token])
    etag = None
    while True:
        headers: dict[str, str] = {"If-None-Match": etag} if etag else {}
        req = urllib.request.Request(
            client.base_url.rstrip("/") + f"/v1/games/{game_id}",
            headers={"Authorization": f"Bearer {token}", **headers},
        )
        try:
            with urllib.request.urlopen(req, timeout=client.timeout) as resp:
                etag = resp.headers.get("ETag")
                view = json.loads(resp.read())
        except urllib.error.HTTPError as e:
            if e.code == 304:
                time.sleep(poll)
                continue
            raise
        except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.HTTPException):
            time.sleep(poll)  # a read is safe to repeat
            continue
        me = view.get("me", {}).get("seat")
        out = me is not None and view["players"][me].get("standing", "in") != "in"
        if view["status"] in OVER or out:
            return view
        if not play_turn(client, run, 0, strategy, rng, think_ms):
            time.sleep(poll)
