"""The cluster run's checks (bench/cluster/, `bash bench/run.sh --only cluster`, which needs root, Patroni
and etcd, so it is not part of the suite) must be able to say "problem": an acknowledged action missing from
the log, stored with other contents than its answer showed, a stream that skipped or repeated an event; and
its scraper and write-outage figures must read what happened."""

from __future__ import annotations

import threading
from pathlib import Path

from bench.cluster.clients import Acked, GamePlay, Spectator
from bench.cluster.verify import Verdict, check_games, check_streams
from events import Stores
from events.factory import sqlite_stores
from events.records import AppendOptions, NewEvent


def _store(tmp_path: Path) -> Stores:
    store = sqlite_stores(tmp_path / "log.sqlite3")
    store.events.create_game("g1", "test-game", {}, [NewEvent("set_up", {})], "playing")
    store.events.append("g1", 1, [NewEvent("tick", {"n": 1}, 1, 0)], AppendOptions(idempotency_key="k1"))
    store.events.append("g1", 2, [NewEvent("tick", {"n": 2}, 1, 1), NewEvent("tick", {"n": 3}, 1, 1)],
                        AppendOptions(idempotency_key="k2"))
    return store


def _acked(store: Stores, key: str) -> Acked:
    """The answer its writer got for the append ``key``."""
    events = [(e.seq, e.type, e.seat, e.recorded_at, e.hash) for e in store.events.load("g1")
              if e.idempotency_key == key]
    return Acked(0.0, events[-1][0], events)


def test_a_log_holding_every_acknowledged_action_passes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    verdict = Verdict()
    play = GamePlay("g1", ("a", "b"), {k: _acked(store, k) for k in ("k1", "k2")})
    logs = check_games(store.events, [play], verdict)
    assert (verdict.lost, verdict.duplicated, verdict.changed, verdict.gaps) == (0, 0, 0, 0)
    follower = Spectator("127.0.0.1", 9, "g1", threading.Event())
    follower.events = [(1, "set_up"), (2, "tick"), (3, "tick"), (4, "tick")]
    check_streams([follower], logs, verdict)
    assert verdict.streams_matching == 1 and not verdict.problems
    store.close()


def test_lost_and_changed_actions_and_bad_streams_are_found(tmp_path: Path) -> None:
    store = _store(tmp_path)
    verdict = Verdict()
    other = _acked(store, "k2")
    seq, kind, seat, at, _ = other.events[0]
    other.events[0] = (seq, kind, seat, at, "0" * 64)  # acknowledged with other contents
    lost = Acked(0.0, 5, [(5, "tick", 1, at, "")])
    play = GamePlay("g1", ("a", "b"), {"k1": _acked(store, "k1"), "k2": other, "k3": lost})
    logs = check_games(store.events, [play], verdict)
    assert verdict.lost == 1 and verdict.changed == 1
    skipped = Spectator("127.0.0.1", 9, "g1", threading.Event())
    skipped.events = [(1, "set_up"), (3, "tick"), (4, "tick")]
    repeated = Spectator("127.0.0.1", 9, "g1", threading.Event())
    repeated.events = [(1, "set_up"), (2, "tick"), (2, "tick"), (3, "tick"), (4, "tick")]
    check_streams([skipped, repeated], logs, verdict)
    assert verdict.streams == 2 and verdict.streams_matching == 0
    store.close()


def test_the_scraper_says_which_signals_moved_and_when() -> None:
    from bench.cluster.scrape import Scraper

    scraper = Scraper({"app1": "-", "app2": "-"})
    base = {'cablecar_problems_total{code="unavailable"}': 1.0, "cablecar_replica_lag_bytes": 0.0}
    scraper.series = [
        (9.0, "app1", base), (9.0, "app2", base),
        (11.0, "app1", {**base, 'cablecar_problems_total{code="unavailable"}': 4.0}),
        (11.5, "app2", None),  # its scrape failed
        (12.0, "app2", {**base, "cablecar_replica_lag_bytes": 1e6}),
    ]
    moved = {name: (after, much) for name, after, much in scraper.moved(10.0, 20.0)}
    assert moved["503 unavailable"] == (1.0, "3 (max per host)")
    assert moved["standby lag (bytes, max)"][0] == 2.0
    assert moved["scrape failed (host or its workers down)"] == (1.5, "app2")
    assert "cache errors" not in moved
    assert scraper.total("cablecar_problems_total", 'code="unavailable"', at=11.0) == 5.0


def test_the_write_outage_is_the_longest_time_without_an_acknowledgement() -> None:
    from bench.cluster.clients import Acked, Writer
    from bench.cluster.faults import Faults

    writer = Writer("http://127.0.0.1:9", "w", threading.Event(), threading.Event())
    writer.games = [GamePlay("g", ("a",), {f"k{t}": Acked(t, 1, []) for t in (1.0, 2.0, 9.0, 10.0)})]
    faults = Faults([writer])
    assert faults.outage(1.5, 12.0) == 7.0 and faults.acks(1.5, 12.0) == [2.0, 9.0, 10.0]
