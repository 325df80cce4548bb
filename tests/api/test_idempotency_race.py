"""Idempotency under races, and inputs PostgreSQL cannot store."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import events
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import act, create, finish_setup


class MeetingStore:
    """A real event log whose appends wait until ``parties`` of them have been
    decided: two requests with one key both decide on the same state, as when
    a retry arrives while its first attempt is still in flight."""

    def __init__(self, inner: Any, parties: int) -> None:
        self.inner = inner
        self.barrier = threading.Barrier(parties, timeout=10)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def append(self, *args: Any, **kwargs: Any) -> Any:
        self.barrier.wait()
        return self.inner.append(*args, **kwargs)


def test_retry_racing_its_first_attempt_gets_the_first_answer(tmp_path: Path) -> None:
    inner = events.open_store(None, tmp_path)
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False), stores=inner)
    client = app.test_client()
    game = create(client)
    v = finish_setup(client, game)
    seat = v["active_seats"][0]
    body = {"type": "draw_card", "source": "deck", "expected_version": v["version"]}
    racing = create_app(Settings(data_dir=str(tmp_path), webhooks=False), stores=replace(inner, events=MeetingStore(inner.events, 2)))
    answers: list[Any] = []

    def send() -> None:
        answers.append(act(racing.test_client(), game, seat, body, headers={"Idempotency-Key": "race"}))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert [a.status_code for a in answers] == [201, 201], [a.get_json() for a in answers]
    first, retry = sorted((a.get_json() for a in answers), key=lambda j: j["replayed"])
    assert (first["replayed"], retry["replayed"]) == (False, True)
    assert retry["events"] == first["events"]
    log = client.get(f"/v1/games/{game['id']}/events").get_json()["events"]
    assert log[-1]["seq"] == first["version"] == v["version"] + len(first["events"])
    # after the commit: a stale retry gets the first answer, another body with the key is refused
    again = act(client, game, seat, body, headers={"Idempotency-Key": "race"})
    assert again.status_code == 201 and again.get_json()["events"] == first["events"]
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
