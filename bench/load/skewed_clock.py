"""The skewed-clock rows of the security table (issue 25, "one clock"):
servers whose own clock is shifted +15 s and -15 s (real gunicorn processes
under libfaketime, ``faketime_env``), on the same PostgreSQL and Redis as
a server with a correct clock, try to time a seat out before the database's
deadline and to act after it.

The harness and PostgreSQL run on this machine, so the harness's own clock is
the database's: the times below are judged by it.
"""

from __future__ import annotations

import glob
import json
import os
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any

from bench.load.attacks import Attack, http_request, json_request

#: where Debian's ``libfaketime`` (apt ``faketime``) puts the library; ``CABLECAR_BENCH_LIBFAKETIME`` overrides
_LIBFAKETIME = ("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/*/faketime/libfaketime.so.1",
                "/usr/lib/faketime/libfaketime.so.1", "/usr/local/lib/faketime/libfaketime.so.1")
#: how far the database lets a recorded time be from its own (migration 0030)
TOLERANCE = 1.0


def libfaketime() -> str | None:
    """The libfaketime library to preload, None if this machine has none."""
    chosen = os.environ.get("CABLECAR_BENCH_LIBFAKETIME")
    if chosen:
        return chosen if os.path.exists(chosen) else None
    for pattern in _LIBFAKETIME:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


def faketime_env(skew: float) -> tuple[tuple[str, str], ...]:
    """The environment that shifts a process's clocks by ``skew`` seconds
    (the monotonic one too, which changes no interval: libfaketime 0.9.10 with
    ``FAKETIME_DONT_FAKE_MONOTONIC`` makes Python's ``time.sleep`` fail with
    EINVAL).  Raises when libfaketime is missing (``apt-get install faketime``)."""
    lib = libfaketime()
    if lib is None:
        raise RuntimeError("libfaketime is missing (apt-get install faketime): no skewed server can run")
    return (("LD_PRELOAD", lib), ("FAKETIME", f"{skew:+g}s"), ("FAKETIME_NO_CACHE", "1"))


def check_skew(url: str, skew: float, within: float = 3.0) -> float:
    """The skew of the server at ``url``, read from its ``Date`` header
    (written from the server's own clock); raises unless it is ``skew``
    within ``within`` seconds, so that a row never passes because the
    shift did not take."""
    with urllib.request.urlopen(url + "/v1/health", timeout=10) as resp:
        served = parsedate_to_datetime(resp.headers["Date"]).timestamp()
    measured = served - time.time()
    if abs(measured - skew) > within:
        raise RuntimeError(f"the server at {url} runs {measured:+.1f} s off, not {skew:+g} s: its clock is not shifted")
    return measured


@dataclass
class _Api:
    base: str
    server_errors: int = 0

    def call(self, method: str, path: str, obj: object = None, token: str = "") -> tuple[int, Any]:
        body, headers = json_request(obj) if obj is not None else (None, {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        status, raw = http_request(self.base, method, path, body, headers)
        self.server_errors += int(status >= 500)
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, None


def _epoch(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _create(api: _Api, seconds: int) -> dict[str, Any]:
    status, game = api.call("POST", "/v1/games", {"type": "cable-car", "players": [{"name": "Ada"}, {"name": "Bo"}],
                                                  "time_control": {"kind": "per_turn", "seconds": seconds}})
    if status != 201:
        raise RuntimeError(f"POST /v1/games on {api.base} answered {status}: {game}")
    return dict(game)


def _first_action(api: _Api, game: dict[str, Any]) -> tuple[int, int, dict[str, Any]]:
    """The seat to act, the version, and that seat's first legal action."""
    status, view = api.call("GET", f"/v1/games/{game['id']}")
    seat = int(view["active_seats"][0])
    status, page = api.call("GET", f"/v1/games/{game['id']}/legal-actions", token=game["seats"][seat]["token"])
    if status != 200 or not page["actions"]:
        raise RuntimeError(f"legal actions on {api.base}: {status} {page}")
    return seat, int(page["version"]), dict(page["actions"][0])


def _timeouts(api: _Api, game_id: str) -> list[float]:
    """When each ``seat_timed_out`` of the game was recorded (epoch seconds)."""
    status, page = api.call("GET", f"/v1/games/{game_id}/events?limit=1000")
    if status != 200:
        raise RuntimeError(f"events of {game_id}: {status} {page}")
    return [_epoch(e["recorded_at"]) for e in page["events"] if e["type"] == "seat_timed_out"]


def early_timeout(servers: dict[str, str], log: Callable[[str], None], seconds: int = 10, games: int = 2,
                  every: float = 0.5) -> Attack:
    """For each skewed server, ``games`` games whose first move it makes
    (on a ``seconds`` per-turn clock); until just before the next seat's
    deadline (by this machine's clock, which is the database's) both skewed
    servers read each game, each read a try to time the seat out, while their
    sweepers run.  A try is refused when no seat has timed out after it; a
    game's tries count as refused only if the timeout then came at the
    deadline (recorded at least ``seconds`` after the move, within the
    tolerance, and seen within 3 s after it)."""
    apis = {name: _Api(url) for name, url in servers.items()}
    skewed = [name for name in servers if name != "correct"]
    log(f"security: skewed clocks ({', '.join(skewed)}): moves, then reads until the deadline")
    moved: list[tuple[str, float]] = []  # game id, the move's start by this machine's clock
    tries: dict[str, list[bool]] = {}
    for name in skewed:
        for _ in range(games):
            game = _create(apis[name], seconds)
            seat, version, action = _first_action(apis[name], game)
            started = time.time()
            status, answer = apis[name].call("POST", f"/v1/games/{game['id']}/actions",
                                             {**action, "expected_version": version}, game["seats"][seat]["token"])
            if status not in (201, 409):
                raise RuntimeError(f"the first move on {name}: {status} {answer}")
            # a 409: the first seat was timed out within a second of its turn's start, far before its deadline
            tries[game["id"]] = [] if status == 201 else [False]
            moved.append((game["id"], started))
    last_deadline = max(at for _, at in moved) + seconds
    while time.time() < last_deadline - TOLERANCE:
        for gid, at in moved:
            if time.time() >= at + seconds - TOLERANCE:
                continue
            for name in skewed:
                status, view = apis[name].call("GET", f"/v1/games/{gid}")
                out = status == 200 and any(p.get("standing") == "timed_out" for p in view["players"])
                tries[gid].append(status == 200 and not out)
        time.sleep(every)
    time.sleep(max(0.0, last_deadline + 3.0 - time.time()))
    refused = 0
    for gid, at in moved:
        timed_out = _timeouts(apis["correct"], gid)
        on_time = len(timed_out) == 1 and timed_out[0] >= at + seconds - TOLERANCE
        refused += sum(tries[gid]) if on_time else 0
    return Attack(f"skewed clock: time a seat out early from servers {' and '.join(skewed)} "
                  f"({seconds} s per turn; moves made by the skewed servers)",
                  "no timeout before the database's deadline, then one at it",
                  sum(len(t) for t in tries.values()), refused, sum(a.server_errors for a in apis.values()))


def late_action(servers: dict[str, str], log: Callable[[str], None], games: int = 6,
                after: tuple[float, ...] = (0.005, 0.05, 0.2)) -> Attack:
    """Games on a 1 s per-turn clock; once this machine's clock (the
    database's) is past a game's deadline by one of ``after``, its first
    seat's action (chosen in time, with its version) is sent to the server
    that is 15 s behind, or to the correct one.  Refused: a 409 and the seat
    timed out, nothing of the action written."""
    log("security: skewed clocks: actions after their deadlines")
    apis = {name: _Api(url) for name, url in servers.items()}
    order = [name for name in servers if name != "ahead"]
    planned = []
    for i in range(games):
        api = apis[order[i % len(order)]]
        game = _create(api, 1)
        seat, version, action = _first_action(api, game)
        _, view = api.call("GET", f"/v1/games/{game['id']}")
        planned.append((_epoch(view["deadline"]) + after[i % len(after)], api, game, seat, version, action))
    refused = 0
    for at, api, game, seat, version, action in sorted(planned, key=lambda p: p[0]):
        time.sleep(max(0.0, at - time.time()))
        status, _ = api.call("POST", f"/v1/games/{game['id']}/actions", {**action, "expected_version": version},
                             game["seats"][seat]["token"])
        refused += int(status == 409 and len(_timeouts(apis["correct"], game["id"])) == 1)
    return Attack(f"skewed clock: act after the deadline through servers {' and '.join(order)} "
                  f"(1 s per turn; {', '.join(f'{a * 1000:g}' for a in after)} ms late)",
                  "409, the seat timed out, the action not written", games, refused,
                  sum(a.server_errors for a in apis.values()))
