"""Issue 48 on both backends: rows written around the transparency log's
publisher never reach a client, and ``/v1/health`` says how old the latest
checkpoint is.

* A checkpoint row whose note does not verify under the server's keys (junk,
  or signed by someone else's key, or a good note beside another root) is
  never served: ``GET /v1/log/checkpoint`` answers the latest one that
  verifies, never 500, and ``?tree_size=`` of such a row is 404.
* ``log.checkpoint_age_s`` is the age of that checkpoint; the health is
  ``degraded`` when it passes 60 s while events wait to be logged, ``ok``
  again once a checkpoint covers them.

(The same rows written with the app role's own PostgreSQL login are refused:
tests/contract/test_log_roles.py.)"""

from __future__ import annotations

from typing import Any

from flask import Flask

from events.integrity.checkpoint import Checkpoint, sign_note
from events.integrity.signing import Signer
from service.config import Settings
from tests.api.conftest import act, create, finish_setup, legal
from tests.api.test_openapi import check_response
from tests.api.test_transparency_log import NewApp, _publish, backend  # noqa: F401  (backend: the fixture)

ORIGIN = "games.example.org/log"


def _write(app: Flask, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Raw SQL on the app's database, past every check of the server (SQLite's triggers against
    changing log rows are lifted for the statement: time passing, or an operator's hand)."""
    database = app.extensions["cablecar"].stores.database
    d = database.dialect
    with database.transaction() as cur:
        triggers = []
        if d.name == "sqlite":
            triggers = cur.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
                                   " AND tbl_name = 'log_checkpoints'").fetchall()
            for name, _ in triggers:
                cur.execute(f"DROP TRIGGER {name}")
        cur.execute(d.sql(sql), params)
        for _, text in triggers:
            cur.execute(text)


def _plant_checkpoint(app: Flask, size: int, note: str, root: bytes = b"\x09" * 32) -> None:
    database = app.extensions["cablecar"].stores.database
    when = database.dialect.time_param(database.database_time())
    _write(app, "INSERT INTO log_checkpoints (tree_size, root_hash, note, key_id, last_position, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)", (size, root, note, "k", 1, when))


def _note(size: int, root: bytes, signer: Signer) -> str:
    return sign_note(Checkpoint(ORIGIN, size, root).body(), ORIGIN, signer.public_raw, signer.sign_bytes)


def test_a_checkpoint_whose_note_does_not_verify_is_never_served(backend: tuple[NewApp, Settings]) -> None:  # noqa: F811
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    create(client)
    first = _publish(app)
    create(client, seed="second")
    good = _publish(app)
    assert good["tree_size"] > first["tree_size"] + 1
    stranger = Signer.generate()
    root = b"\x09" * 32
    junk = {
        good["tree_size"] + 1000: "junk",                                    # not even a note
        good["tree_size"] + 1: _note(good["tree_size"] + 1, root, stranger),  # a note by someone else's key
        first["tree_size"] + 1: _note(first["tree_size"] + 1, root, stranger),  # below the head, never published
    }
    for size, note in junk.items():
        _plant_checkpoint(app, size, note, root)
    for fresh in (client, new_app().test_client()):  # this server, and one started after the rows were planted
        latest = fresh.get("/v1/log/checkpoint")
        assert latest.status_code == 200, latest.get_data(as_text=True)
        assert latest.get_json() == good
        check_response(latest, "/v1/log/checkpoint")
        for size in junk:
            assert fresh.get(f"/v1/log/checkpoint?tree_size={size}").status_code == 404, size
        assert fresh.get(f"/v1/log/checkpoint?tree_size={first['tree_size']}").get_json() == first
        assert fresh.get(f"/v1/log/consistency?first={first['tree_size']}&second={first['tree_size'] + 1}"
                         ).status_code == 404

    # the server's own note over a root that is not the row's: not served either
    signer = app.extensions["cablecar"].signing_keys.signer
    _write(app, "DELETE FROM log_checkpoints WHERE tree_size = ?", (good["tree_size"] + 1000,))
    _plant_checkpoint(app, good["tree_size"] + 2, _note(good["tree_size"] + 2, bytes(32), signer), root)
    assert client.get("/v1/log/checkpoint").get_json() == good
    assert client.get(f"/v1/log/checkpoint?tree_size={good['tree_size'] + 2}").status_code == 404


def _health(app: Flask) -> tuple[int, dict[str, Any]]:
    resp = app.test_client().get("/v1/health")
    check_response(resp, "/v1/health")
    return resp.status_code, dict(resp.get_json())


def _backdate(app: Flask, seconds: int) -> None:
    """Every checkpoint published ``seconds`` earlier (the publisher stopped that long ago)."""
    d = app.extensions["cablecar"].stores.database.dialect
    if d.name == "sqlite":
        rows = app.extensions["cablecar"].stores.database.rows("SELECT tree_size, created_at FROM log_checkpoints")
        from datetime import timedelta

        from events.encoding.timestamps import format_timestamp, parse_timestamp

        for size, at in rows:
            _write(app, "UPDATE log_checkpoints SET created_at = ? WHERE tree_size = ?",
                   (format_timestamp(parse_timestamp(at) - timedelta(seconds=seconds)), size))
    else:
        _write(app, f"UPDATE log_checkpoints SET created_at = created_at - interval '{seconds} seconds'")


def test_health_shows_the_checkpoints_age_and_degrades_when_publishing_stops_while_appends_go_on(
    backend: tuple[NewApp, Settings],  # noqa: F811
) -> None:
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    code, body = _health(app)
    assert (code, body["status"]) == (200, "ok"), body
    assert body["log"]["checkpoint_age_s"] is None and body["log"]["ok"]  # nothing appended, nothing to sign

    game = create(client)
    cp = _publish(app)
    code, body = _health(app)
    assert (code, body["status"]) == (200, "ok"), body
    assert 0 <= body["log"]["checkpoint_age_s"] < 30 and body["log"]["tree_size"] == cp["tree_size"]

    _backdate(app, 120)  # the publisher stopped two minutes ago; nothing was appended since: nothing waits
    code, body = _health(app)
    assert (code, body["status"]) == (200, "ok") and body["log"]["checkpoint_age_s"] >= 119, body

    finish_setup(client, game)  # ... and now appends go on
    playing = client.get(f"/v1/games/{game['id']}").get_json()
    seat = playing["active_seats"][0]
    assert act(client, game, seat, legal(client, game, seat)[0]).status_code == 201
    code, body = _health(app)
    assert (code, body["status"]) == (200, "degraded"), body
    assert not body["log"]["ok"] and body["log"]["checkpoint_age_s"] >= 119
    assert "60" in body["log"]["detail"]

    # a junk row is not a checkpoint: it does not make the log look fresh
    _plant_checkpoint(app, cp["tree_size"] + 10_000, "junk")
    assert _health(app)[1]["status"] == "degraded"

    latest = _publish(app)
    code, body = _health(app)
    assert (code, body["status"]) == (200, "ok"), body
    assert body["log"]["checkpoint_age_s"] < 30 and body["log"]["tree_size"] == latest["tree_size"]
