"""Idempotency under races, and inputs PostgreSQL cannot store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import events
from service.app import create_app
from service.config import Settings
from tests.api.conftest import act, create, finish_setup


class LateStore:
    """A real store whose next idempotency lookup misses, as when the first
    request with a key is still in flight when its retry arrives."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.blind_lookups = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def lookup_idempotency(self, game_id: str, key: str) -> Any:
        if self.blind_lookups:
            self.blind_lookups -= 1
            return None
        return self.inner.lookup_idempotency(game_id, key)


def test_retry_racing_its_first_attempt_gets_the_first_answer(tmp_path: Path) -> None:
    store = LateStore(events.open_store(None, tmp_path))
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False), store=store)  # type: ignore[arg-type]
    client = app.test_client()
    game = create(client)
    v = finish_setup(client, game)
    seat = v["active_seats"][0]
    body = {"type": "draw_card", "source": "deck", "expected_version": v["version"]}
    first = act(client, game, seat, body, headers={"Idempotency-Key": "race"})
    assert first.status_code == 201
    store.blind_lookups = 1  # the retry's first look happens "before the commit"
    retry = act(client, game, seat, body, headers={"Idempotency-Key": "race"})
    assert retry.status_code == 201, retry.get_json()
    assert retry.get_json()["events"] == first.get_json()["events"]
    assert retry.get_json()["replayed"] is True
    store.blind_lookups = 1
    other = act(client, game, seat, {"type": "draw_tickets"}, headers={"Idempotency-Key": "race"})
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_control_characters_are_refused(client: Any) -> None:
    for players in ([{"name": "A\u0000"}, {"name": "B"}], [{"name": "A\nB"}, {"name": "C"}]):
        resp = client.post("/v1/games", json={"type": "ttr-sf", "players": players})
        assert resp.status_code == 400, resp.get_json()
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}],
                                          "seed": "x\u0000"})
    assert resp.status_code == 400
    assert client.get("/v1/games").get_json()["games"] == []
