"""The harness' verdicts must be able to say "problem": integrity, percentiles, counters."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bench.load.cachestats import CacheCounts, delta
from bench.load.clients import GameLedger
from bench.load.integrity import check_game
from bench.load.scripts import GameScript, make_script
from bench.load.stats import Latency, percentile
from events.records import StoredEvent
from service.usecases.commands import seat_key


class FakeStore:
    """Just enough of an EventStore: ``load`` returns the events given."""

    def __init__(self, events: list[StoredEvent]) -> None:
        self.events = events

    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        return list(self.events)


@pytest.fixture(scope="module")
def script() -> GameScript:
    return make_script("unit-test")


def stored(script: GameScript, ledger: GameLedger, done: int) -> list[StoredEvent]:
    """The events a correct server holds after ``done`` actions of ``ledger``."""
    owners: list[int | None] = [None] * len(script.setup)
    for i, action in enumerate(script.actions[:done]):
        owners += [i] * len(action.events)
    return [
        StoredEvent(ledger.game_id, seq, seq, e.type, e.schema_version, json.loads(e.payload_json), "t", e.seat,
                    None if who is None else seat_key(script.actions[who].seat, ledger.key(who)), "", "")
        for seq, (e, who) in enumerate(zip(script.expected_events(done), owners, strict=True), 1)
    ]


def verdict(script: GameScript, events: list[StoredEvent], acked: int, in_doubt: bool = False) -> Any:
    ledger = GameLedger("g1", script, ("a", "b"), "k", acked=acked, in_doubt=in_doubt)
    return check_game(FakeStore(events), "http://unused", ledger, audit=False)  # type: ignore[arg-type]


def test_exact_history_is_ok(script: GameScript) -> None:
    ledger = GameLedger("g1", script, ("a", "b"), "k")
    result = verdict(script, stored(script, ledger, 10), acked=10)
    assert result.ok and result.events == script.version_after(10)


def test_acknowledged_action_missing_is_lost(script: GameScript) -> None:
    ledger = GameLedger("g1", script, ("a", "b"), "k")
    result = verdict(script, stored(script, ledger, 9), acked=10)
    assert not result.ok and result.lost == len(script.actions[9].events)


def test_unacknowledged_action_is_allowed_only_when_in_doubt(script: GameScript) -> None:
    ledger = GameLedger("g1", script, ("a", "b"), "k")
    events = stored(script, ledger, 11)
    assert verdict(script, events, acked=10, in_doubt=True).ok
    assert verdict(script, events, acked=10, in_doubt=False).duplicated == len(script.actions[10].events)


def test_action_applied_twice_is_duplicated(script: GameScript) -> None:
    ledger = GameLedger("g1", script, ("a", "b"), "k")
    events = stored(script, ledger, 10)
    again = [replace(e, seq=len(events) + i + 1) for i, e in enumerate(events[-len(script.actions[9].events):])]
    result = verdict(script, events + again, acked=10)
    assert not result.ok and result.duplicated > 0


def test_changed_payload_or_key_is_mismatched(script: GameScript) -> None:
    ledger = GameLedger("g1", script, ("a", "b"), "k")
    events = stored(script, ledger, 10)
    events[-1] = replace(events[-1], payload={**events[-1].payload, "forged": True})
    events[-2] = replace(events[-2], idempotency_key="someone-else")
    assert verdict(script, events, acked=10).mismatched == 2


def test_seq_gap_is_reported(script: GameScript) -> None:
    ledger = GameLedger("g1", script, ("a", "b"), "k")
    events = stored(script, ledger, 10)
    events[3] = replace(events[3], seq=99)
    assert verdict(script, events, acked=10).gaps == 1


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile(values, 0.99)) == (50.0, 95.0, 99.0)
    summary = Latency.of("x", [0.003, 0.001, 0.002])
    assert (summary.count, summary.p50, summary.max) == (3, 2.0, 3.0)


def test_cache_counters_add_up_over_workers_including_new_ones() -> None:
    before = {"1": CacheCounts(10, 1, 2, 0)}
    after = {"1": CacheCounts(15, 1, 3, 0), "2": CacheCounts(4, 0, 0, 1)}
    assert delta(before, after) == CacheCounts(9, 0, 1, 1)
    assert delta(before, after).hit_ratio == pytest.approx(9 / 10)


def test_a_skewed_server_process_really_runs_off_and_can_sleep() -> None:
    """The skewed-clock rows start real servers under libfaketime
    (``bench/load/skewed_clock.py``): such a process reads a shifted wall
    clock, and ``time.sleep`` still works in it (it failed with EINVAL when
    the monotonic clock was left unshifted)."""
    import os
    import subprocess
    import sys
    import time

    from bench.load.skewed_clock import faketime_env, libfaketime

    if libfaketime() is None:
        pytest.skip("libfaketime is not installed (apt-get install faketime)")
    for skew in (15.0, -15.0):
        out = subprocess.run([sys.executable, "-c", "import time; time.sleep(0.01); print(time.time())"],
                             env={**os.environ, **dict(faketime_env(skew))}, capture_output=True, text=True,
                             timeout=30, check=True)
        assert abs(float(out.stdout) - time.time() - skew) < 2.0, (skew, out.stdout)


def test_version_after_counts_the_setup_and_every_event_of_the_actions_done(script: GameScript) -> None:
    assert script.version_after(0) == len(script.setup)
    assert script.version_after(1) == len(script.setup) + len(script.actions[0].events)
    last = len(script.setup) + sum(len(a.events) for a in script.actions)
    assert script.version_after(len(script.actions)) == last
    assert script.version_after(len(script.actions) + 5) == last
    assert any(len(a.events) > 1 for a in script.actions)  # so that counting actions is not enough
