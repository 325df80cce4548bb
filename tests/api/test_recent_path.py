"""The one-round-trip action path (inside GameCommands.act) against the
full path: same answers, one store call, and nothing stale gets through.

Two apps on one store stand for two workers: each keeps its own recent game
rows and states, so one can act on a game while the other's copy is old."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

import events
from events import Stores
from service.adapters.cache import InProcessCache, LayeredCache
from service.adapters.signing_keys import load_server_keys
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import act, auth, create, finish_setup, legal, view

#: the capabilities of a store the service calls (its database aside)
CAPABILITIES = ("events", "tournaments", "deliveries", "deadlines", "bot_turns", "quarantine", "log", "tickets",
                "counts")


class _Counted:
    """A real capability that counts the calls made to it in ``calls``."""

    def __init__(self, inner: Any, calls: Counter[str]) -> None:
        self.inner = inner
        self.calls = calls

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if callable(attr):
            def counted(*args: Any, **kwargs: Any) -> Any:
                self.calls[name] += 1
                return attr(*args, **kwargs)
            return counted
        return attr


class CountingStore:
    """A real store that counts the calls made to it (to any of its capabilities): ``stores`` to hand to
    the service, ``inner`` the real one."""

    def __init__(self, inner: Stores) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()
        counted = {name: _Counted(getattr(inner, name), self.calls) for name in CAPABILITIES
                   if getattr(inner, name) is not None}
        reader = counted["events"] if inner.reader is inner.events else _Counted(inner.reader, self.calls)
        self.stores = dataclasses.replace(inner, reader=reader, **counted)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[tuple[Flask, Flask, CountingStore]]:
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    # signed as a server's store is: the audit accepts no unsigned event recorded after its keys were made
    store = CountingStore(events.open_store(None, tmp_path, signer=load_server_keys(settings).signer))
    one = create_app(settings, stores=store.stores)
    two = create_app(settings, stores=store.stores)
    yield one, two, store
    store.inner.close()


def first_legal(client: Any, game: dict[str, Any], seat: int) -> dict[str, Any]:
    return dict(legal(client, game, seat)[0])


def test_an_action_on_a_game_this_worker_holds_is_one_append(workers: tuple[Flask, Flask, CountingStore]) -> None:
    one, _, store = workers
    client = one.test_client()
    game = create(client)
    v = finish_setup(client, game)
    seat = v["active_seats"][0]
    action = {**first_legal(client, game, seat), "expected_version": v["version"]}
    store.calls.clear()
    resp = act(client, game, seat, action, headers={"Idempotency-Key": "k1"})
    assert resp.status_code == 201, resp.get_json()
    assert dict(store.calls) == {"append": 1}
    # the same request again: the first answer, replayed
    again = act(client, game, seat, action, headers={"Idempotency-Key": "k1"})
    assert again.status_code == 201, again.get_json()
    assert again.get_json()["replayed"] is True and again.get_json()["events"] == resp.get_json()["events"]
    assert view(client, game, seat)["version"] == resp.get_json()["version"]


def test_answers_match_the_full_path(workers: tuple[Flask, Flask, CountingStore]) -> None:
    """Each action of a game alternates between a worker that holds the game
    and one whose copy is old: both give the same answers and the log stays
    one chain."""
    one, two, _ = workers
    clients = [one.test_client(), two.test_client()]
    game = create(clients[0])
    v = finish_setup(clients[0], game)
    for step in range(40):
        client = clients[step % 2]
        current = view(client, game)
        if current["status"] == "finished":
            break
        seat = current["active_seats"][0]
        action = first_legal(client, game, seat)
        resp = act(client, game, seat, {**action, "expected_version": current["version"]},
                   headers={"Idempotency-Key": f"s{step}"})
        assert resp.status_code == 201, resp.get_json()
        assert resp.get_json()["version"] > current["version"]
        v = resp.get_json()
    audit = clients[1].get(f"/v1/games/{game['id']}/audit").get_json()
    assert audit["ok"] is True, audit
    assert view(clients[0], game)["version"] == view(clients[1], game)["version"] == v["version"]


def test_a_worker_holding_an_old_state_refuses_a_stale_expected_version(
    workers: tuple[Flask, Flask, CountingStore],
) -> None:
    one, two, _ = workers
    a, b = one.test_client(), two.test_client()
    game = create(a)
    v = finish_setup(a, game)
    view(b, game)  # worker two now holds the game at this version
    seat = v["active_seats"][0]
    action = first_legal(a, game, seat)
    moved = act(a, game, seat, {**action, "expected_version": v["version"]})
    assert moved.status_code == 201
    # worker two's copy is one action old: the old version is refused there too
    stale = act(b, game, seat, {**action, "expected_version": v["version"]})
    assert stale.status_code == 409 and stale.get_json()["code"] == "stale_version"
    # without expected_version worker two decides on the new state, not its old copy
    now = view(b, game)
    seat = now["active_seats"][0]
    nxt = act(b, game, seat, first_legal(b, game, seat))
    assert nxt.status_code == 201 and nxt.get_json()["version"] > now["version"]


def test_a_rotated_token_stops_working_on_every_worker(workers: tuple[Flask, Flask, CountingStore]) -> None:
    one, two, store = workers
    a, b = one.test_client(), two.test_client()
    game = create(a)
    v = finish_setup(a, game)
    view(b, game)
    seat = v["active_seats"][0]
    old_token = game["seats"][seat]["token"]
    action = first_legal(a, game, seat)
    rotated = a.post(f"/v1/games/{game['id']}/seats/{seat}/token", headers=auth(game["host_token"]))
    assert rotated.status_code == 200, rotated.get_json()
    new_token = rotated.get_json()["token"]
    for client in (a, b):  # both workers still hold the row with the old hash
        refused = client.post(f"/v1/games/{game['id']}/actions", json=action, headers=auth(old_token))
        assert refused.status_code == 401, refused.get_json()
    assert view(a, game)["version"] == v["version"] + 1  # the rotation's own event, nothing else
    ok = b.post(f"/v1/games/{game['id']}/actions", json=action, headers=auth(new_token))
    assert ok.status_code == 201, ok.get_json()
    assert store.inner.events.verify_chain(game["id"]).ok


def test_an_illegal_or_malformed_action_gets_the_full_paths_answer(
    workers: tuple[Flask, Flask, CountingStore],
) -> None:
    one, _, store = workers
    client = one.test_client()
    game = create(client)
    v = finish_setup(client, game)
    seat = v["active_seats"][0]
    other = 1 - seat
    not_yours = act(client, game, other, first_legal(client, game, seat))
    assert not_yours.status_code == 409 and not_yours.get_json()["code"] == "not_your_turn"
    illegal = act(client, game, seat, {"type": "claim_route", "route": "nowhere", "cards": {"red": 1}})
    assert illegal.status_code == 422
    malformed = act(client, game, seat, {"type": "draw_card", "source": "sky"})
    assert malformed.status_code == 400
    bad_key = act(client, game, seat, first_legal(client, game, seat), headers={"Idempotency-Key": "x" * 201})
    assert bad_key.status_code == 400
    wrong = client.post(f"/v1/games/{game['id']}/actions", json=first_legal(client, game, seat),
                        headers=auth(game["host_token"]))
    assert wrong.status_code == 403
    assert view(client, game)["version"] == v["version"]


def test_a_worker_reading_an_old_shared_snapshot_replays_the_tail(tmp_path: Path) -> None:
    """Worker one acts on a game it holds and refreshes the shared cache only
    every 16 events; worker two answers from that snapshot plus the events
    after it: the same view as worker one at every step."""
    store = events.open_store(None, tmp_path)
    shared = InProcessCache()  # stands in for Redis, shared by both workers
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    one = create_app(settings, stores=store, cache=LayeredCache(shared, InProcessCache(8), share_every=16))
    two = create_app(settings, stores=store, cache=LayeredCache(shared, InProcessCache(8), share_every=16))
    a, b = one.test_client(), two.test_client()
    game = create(a)
    finish_setup(a, game)
    behind = 0
    for _ in range(25):
        current = view(a, game)
        if current["status"] == "finished":
            break
        seat = current["active_seats"][0]
        moved = act(a, game, seat, first_legal(a, game, seat))
        assert moved.status_code == 201
        held = shared.get(game["id"])
        assert held is not None and held[0] <= moved.get_json()["version"]
        behind += held[0] < moved.get_json()["version"]
        for s in (None, 0, 1):
            assert view(b, game, s) == view(a, game, s)
    assert behind >= 10  # the shared snapshot was usually older than the game
    assert store.events.verify_chain(game["id"]).ok
    store.close()


def test_a_stream_opened_with_a_rotated_token_ends_on_another_worker(tmp_path: Path) -> None:
    """Issue 25: a stream open on the old token kept the seat's hidden cards
    coming until CABLECAR_SSE_MAX_SECONDS.  Now it ends within seconds of the
    rotation, also when another worker (another app on the store) rotates."""
    store = events.open_store(None, tmp_path)
    settings = Settings(data_dir=str(tmp_path), webhooks=False, sse_max_seconds=60, sse_heartbeat_seconds=1)
    rotating, streaming = create_app(settings, stores=store), create_app(settings, stores=store)
    try:
        game = create(rotating.test_client())
        seat, other = 0, 1
        resp = streaming.test_client().get(f"/v1/games/{game['id']}/events/stream",
                                           headers=auth(game["seats"][seat]["token"]), buffered=False)
        spectator = streaming.test_client().get(f"/v1/games/{game['id']}/events/stream", buffered=False)
        seat_stream = _Drain(resp)
        other_stream = _Drain(streaming.test_client().get(
            f"/v1/games/{game['id']}/events/stream", headers=auth(game["seats"][other]["token"]), buffered=False))
        spectator_stream = _Drain(spectator)
        time.sleep(1.5)
        assert seat_stream.ended is None
        rotated = rotating.test_client().post(f"/v1/games/{game['id']}/seats/{seat}/token",
                                              headers=auth(game["host_token"]))
        assert rotated.status_code == 200
        at = time.monotonic()
        seat_stream.thread.join(8)
        assert seat_stream.ended is not None and seat_stream.ended - at < 5, "the old token's stream kept going"
        assert "token was rotated" in seat_stream.text
        # the other seat's and the spectator's streams go on
        assert other_stream.ended is None and spectator_stream.ended is None
        streaming.extensions["cablecar"].streams.close_all()
        for drain in (other_stream, spectator_stream):
            drain.thread.join(5)
    finally:
        store.close()


class _Drain:
    """Reads a streamed answer in a thread; ``ended`` is when it closed."""

    def __init__(self, resp: Any) -> None:
        self.resp = resp
        self.text = ""
        self.ended: float | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for chunk in self.resp.response:
                self.text += chunk.decode() if isinstance(chunk, bytes) else chunk
        except Exception:  # closed from the test's side
            pass
        self.ended = time.monotonic()
