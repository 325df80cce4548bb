"""How an action and a read cost as a game grows.

A long Ticket to Ride game (4 players, a policy that draws a lot) is decided
locally; for each target length a game is created over HTTP with its seed and
its first actions are appended *through the event store directly* (the same
events the rules made, so the server can replay them), which builds a
500-event game in a fraction of a second.  Then, repeated ``reps`` times,
with nothing else running:

* **snapshot read**: one more action is appended behind the server's back,
  so the cache holds a state one action old: ``GET /v1/games/{id}`` replays
  only the tail;
* **warm read**: the same GET again (the cache holds the current version);
* **cold read**: Redis is flushed first, so the GET loads and replays every
  event (what a read costs with no cache at all);
* **action** (warm cache) and **cold action** (Redis flushed first): one
  ``POST /v1/games/{id}/actions``.

The longest legal Ticket to Ride: San Francisco game found is ~500 events
(the rules end it: limited cards and pieces), so lengths stop there.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.load.http import Answer, Connection
from bench.load.scripts import GameScript, long_policy, make_script
from events.recorders.event_log import EventStore
from events.records import AppendOptions

TARGETS = (10, 30, 100, 300, 1000)
MEASURES = ("snapshot read", "warm read", "cold read", "action", "cold action")


@dataclass(frozen=True)
class GrowthRow:
    """Median and best latencies (ms) of each measure for a game of ``events`` events."""

    target: int
    events: int
    medians: tuple[tuple[str, float], ...]
    bests: tuple[tuple[str, float], ...]

    def median(self, measure: str) -> float:
        """The median latency of one measure, in ms."""
        return dict(self.medians)[measure]

    def best(self, measure: str) -> float:
        """The lowest latency of one measure, in ms (the least disturbed by other work)."""
        return dict(self.bests)[measure]


@dataclass(frozen=True)
class GrowthResult:
    """The growth table plus how it was built."""

    rows: tuple[GrowthRow, ...]
    reps: int
    longest_game: int
    script_seed: str


def longest_script(seeds: Sequence[str], players: int = 4) -> GameScript:
    """The longest (most events) of several long-policy games."""
    scripts = [make_script(seed, players, long_policy) for seed in seeds]
    return max(scripts, key=lambda s: s.version_after(len(s.actions)))


def _append_prefix(store: EventStore, game_id: str, script: GameScript, done: int) -> None:
    for i, action in enumerate(script.actions[:done]):
        events = [e.as_new() for e in action.events]
        store.append(game_id, script.version_after(i), events, AppendOptions(status=action.status))


def measure_growth(
    store: EventStore,
    base_url: str,
    flush_cache: Callable[[], None],
    script: GameScript,
    reps: int = 10,
    targets: Sequence[int] = TARGETS,
) -> GrowthResult:
    """Measure every target length reachable by ``script`` (see the module docs)."""
    total = len(script.actions)
    rows: list[GrowthRow] = []
    conn = Connection(base_url)
    for target in targets:
        done = next((k for k in range(total + 1) if script.version_after(k) >= target), None)
        if done is None or done + 3 * reps > total:
            done = total - 3 * reps
            if rows and script.version_after(done) <= rows[-1].events:
                break
        created = conn.request("POST", "/v1/games", script.create_body())
        if created.status != 201:
            raise RuntimeError(f"creating a growth game failed: {created.status} {created.body}")
        game_id, tokens = created.body["id"], [s["token"] for s in created.body["seats"]]
        _append_prefix(store, game_id, script, done)
        events_at_start = script.version_after(done)
        samples: dict[str, list[float]] = {m: [] for m in MEASURES}

        def timed(measure: str, answer: Answer, ok: int, samples: dict[str, list[float]] = samples) -> None:
            if answer.status != ok:
                raise RuntimeError(f"growth {measure}: {answer.status} {answer.body}")
            samples[measure].append(answer.seconds * 1000)

        path = f"/v1/games/{game_id}"
        conn.request("GET", path)  # fill the cache
        for _ in range(reps):
            index = done
            action = script.actions[index]
            events = [e.as_new() for e in action.events]
            store.append(game_id, script.version_after(index), events, AppendOptions(status=action.status))
            timed("snapshot read", conn.request("GET", path), 200)
            timed("warm read", conn.request("GET", path), 200)
            flush_cache()
            timed("cold read", conn.request("GET", path), 200)
            for measure, offset in (("action", 1), ("cold action", 2)):
                act = script.actions[index + offset]
                if measure == "cold action":
                    flush_cache()
                body = {**act.body, "expected_version": script.version_after(index + offset)}
                timed(measure, conn.request("POST", f"{path}/actions", body, tokens[act.seat]), 201)
            done += 3
        medians = tuple((m, statistics.median(samples[m])) for m in MEASURES)
        rows.append(GrowthRow(target, events_at_start, medians, tuple((m, min(samples[m])) for m in MEASURES)))
    conn.close()
    return GrowthResult(tuple(rows), reps, script.version_after(total), script.seed)
