"""Tampering reported, not crashed on: an event row written past the append
path (here by the tables' owner, with PostgreSQL's append-only trigger
disabled) makes its game answer ``409 game_damaged`` on every endpoint that
acts or follows it, its views and event pages stop at the last good event
(``damaged_from``), and ``/audit`` gives a failed verdict naming the row, on
both backends; other games on the same store are served as before."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from events.encoding.canonical import canonical_json
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth, create

Forge = Callable[[str, int, str, str], None]  # game id, seq, payload JSON text, prev_hash


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Callable[[], Flask], Forge]]:
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    apps: list[Flask] = []
    if request.param == "sqlite":
        def new_app() -> Flask:
            apps.append(create_app(settings))
            return apps[-1]

        def forge(game_id: str, seq: int, payload: str, prev_hash: str) -> None:
            with sqlite3.connect(tmp_path / "cablecar.sqlite3", isolation_level=None) as conn:
                conn.execute(_INSERT.replace("%s", "?"), (game_id, seq, payload, prev_hash))
        yield new_app, forge
    else:
        import psycopg

        from events.factory import postgres_stores
        from service.adapters.signing_keys import load_server_keys
        from tests.contract.conftest import create_database, drop_database, postgres_admin_url

        admin = postgres_admin_url()
        url = create_database(admin, "cc_damaged")

        def new_app() -> Flask:
            apps.append(create_app(settings, stores=postgres_stores(url, signer=load_server_keys(settings).signer)))
            return apps[-1]

        def forge(game_id: str, seq: int, payload: str, prev_hash: str) -> None:
            with psycopg.connect(url) as conn, conn.transaction():  # as the owner (the app role may not)
                conn.execute(_INSERT.encode(), (game_id, seq, payload, prev_hash))
        try:
            yield new_app, forge
        finally:
            for app in apps:
                app.extensions["cablecar"].stores.close()
            apps.clear()
            drop_database(admin, url)
    for app in apps:
        app.extensions["cablecar"].stores.close()


_INSERT = ("INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat, prev_hash, hash)"
           " VALUES (%s, %s, 'card_drawn', 1, %s, '2025-01-01T00:00:00.000000Z', 0, %s, '" + "0" * 64 + "')")


def _last_hash(app: Flask, game_id: str) -> str:
    return str(app.extensions["cablecar"].stores.events.load(game_id)[-1].hash)


def _served_up_to(client: Any, gid: str, version: int, token: dict[str, str]) -> None:
    """The damaged game is read up to its last good event, saying where the damage starts; its export
    (with the seed) waits for the end as any game's does."""
    for resp in (client.get(f"/v1/games/{gid}"), client.get(f"/v1/games/{gid}", headers=token),
                 client.get(f"/v1/games/{gid}/events")):
        body = resp.get_json()
        assert resp.status_code == 200 and body["damaged_from"] == version + 1, (resp.request.path, body)
        assert body["version"] == version
    assert client.get(f"/v1/games/{gid}/export").get_json()["code"] == "game_not_finished"


def test_a_forged_row_damages_its_game_only(backend: tuple[Callable[[], Flask], Forge]) -> None:
    new_app, forge = backend
    first = new_app()
    client = first.test_client()
    unchained, unreadable, untouched = (create(client) for _ in range(3))
    # each game's own version: a deal can open with more events (three locomotives face up are replaced)
    forge(unchained["id"], unchained["version"] + 1, canonical_json({"source": "deck", "card": "red"}),
          _last_hash(first, unchained["id"]))
    forge(unreadable["id"], unreadable["version"] + 1, "[1]", _last_hash(first, unreadable["id"]))

    # another worker, which holds none of these games, rebuilds them from the store
    fresh = new_app().test_client()
    for game in (unchained, unreadable):
        gid, token, version = game["id"], auth(game["seats"][0]["token"]), game["version"]
        answers = [
            fresh.get(f"/v1/games/{gid}/legal-actions", headers=token),
            fresh.get(f"/v1/games/{gid}/events/stream"),
            fresh.get(f"/v1/games/{gid}/events/stream", headers=token),
            fresh.post(f"/v1/games/{gid}/actions", json={"type": "draw_tickets"}, headers=token),
        ]
        for resp in answers:
            problem: dict[str, Any] = resp.get_json()
            assert resp.status_code == 409 and problem["code"] == "game_damaged", (resp.request.path, problem)
            assert problem["game"] == gid and problem["seq"] == version + 1 and gid in problem["detail"]
        _served_up_to(fresh, gid, version, token)
        audit = fresh.get(f"/v1/games/{gid}/audit")
        assert audit.status_code == 200
        verdict = audit.get_json()
        assert verdict["ok"] is False
        chain = next(c for c in verdict["checks"] if c["name"] == "chain")
        assert not chain["ok"] and f"seq {version + 1}" in chain["detail"], chain

    assert fresh.get(f"/v1/games/{untouched['id']}").status_code == 200
    assert fresh.get(f"/v1/games/{untouched['id']}/audit").get_json()["ok"] is True
    listed = fresh.get("/v1/games").get_json()["games"]
    assert len(listed) == 3


def test_a_stray_row_after_the_held_state_damages_the_game_for_the_worker_holding_it(
    backend: tuple[Callable[[], Flask], Forge],
) -> None:
    """The row sits where the next append goes: the worker that holds the
    game's newest state appended into it (a 500 from the events' primary
    key); now every path of that worker, and of a fresh one, answers 409."""
    new_app, forge = backend
    holder = new_app()
    client = holder.test_client()
    game = create(client)
    gid, version = game["id"], game["version"]
    token = auth(game["seats"][0]["token"])
    move = client.get(f"/v1/games/{gid}/legal-actions", headers=token).get_json()["actions"][0]
    forge(gid, version + 1, canonical_json({"source": "deck", "card": "red"}), _last_hash(holder, gid))

    for app in (holder, new_app()):
        c = app.test_client()
        answers = [
            c.post(f"/v1/games/{gid}/actions", json=move, headers=token),
            c.post(f"/v1/games/{gid}/actions", json={**move, "expected_version": version}, headers=token),
            c.get(f"/v1/games/{gid}/legal-actions", headers=token),
            c.get(f"/v1/games/{gid}/events/stream"),
        ]
        for resp in answers:
            problem: dict[str, Any] = resp.get_json()
            assert resp.status_code == 409 and problem["code"] == "game_damaged", (resp.request.path, problem)
            assert problem["game"] == gid and problem["seq"] == version + 1
        _served_up_to(c, gid, version, token)
        verdict = c.get(f"/v1/games/{gid}/audit").get_json()
        assert verdict["ok"] is False, verdict
    assert [e.seq for e in holder.extensions["cablecar"].stores.events.load(gid)] == list(range(1, version + 2))


def test_a_game_found_damaged_while_watched_ends_its_stream_saying_so(tmp_path: Path) -> None:
    """A stream open on a healthy game; then a row is written past the append path (and the game's row
    says it is there): the stream's next read finds the damage and the stream ends with a comment saying
    so, instead of a server error inside the answer or keep-alives until its time runs out."""
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False, sse_max_seconds=30,
                              sse_heartbeat_seconds=1))
    client = app.test_client()
    game = create(client)
    gid, version = game["id"], game["version"]
    resp = client.get(f"/v1/games/{gid}/events/stream", buffered=False)
    assert resp.status_code == 200
    chunks = iter(resp.response)
    seen = ""
    while f"id: {version}\n" not in seen:
        seen += next(chunks).decode()
    with sqlite3.connect(tmp_path / "cablecar.sqlite3", isolation_level=None) as conn:
        conn.execute(_INSERT.replace("%s", "?"), (gid, version + 1, canonical_json({"source": "deck", "card": "red"}),
                                                  _last_hash(app, gid)))
        conn.execute("UPDATE games SET version = ? WHERE game_id = ?", (version + 1, gid))
    rest = "".join(chunk.decode() for chunk in chunks)  # the stream ends by itself
    assert rest.rstrip().endswith("actions answer 409 game_damaged)") and f"GET /v1/games/{gid} shows" in rest, \
        rest[-300:]
    assert f"id: {version + 1}\n" not in rest
    resp.close()
    app.extensions["cablecar"].stores.close()
