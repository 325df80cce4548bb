"""Damage contained (issue 34): a game whose stored tail fails its check is
served up to its last good event, saying ``damaged_from``, and takes no
write; ``cablecar quarantine`` (as the database owner) moves the tail aside
and the game goes on, ``/audit`` reporting the quarantine and an intact
chain; the bot runner skips a damaged game with one log line.  On both
backends (the forging is done as in test_damaged_games)."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from bots.runner import BotRunner
from cablecar.cli import main
from events.encoding.canonical import canonical_json
from service.config import Settings
from service.location import keys_folder
from tests.api.conftest import auth
from tests.api.test_damaged_games import Forge, _last_hash, backend  # noqa: F401  (backend: the fixture)

Backend = tuple[Callable[[], Flask], Forge]
_CARD = canonical_json({"source": "deck", "card": "red"})


#: a bot runner is alive (its heartbeat): the server accepts bot seats
pytestmark = pytest.mark.usefixtures("bots_alive")


def _game(client: Any, players: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body = {"type": "ttr-sf", "players": players or [{"name": "Ada"}, {"name": "Bo"}], "seed": "quarantine"}
    resp = client.post("/v1/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return dict(resp.get_json())


def _owner_url(app: Flask) -> str | None:
    """The PostgreSQL URL the test's server uses (the database's owner here), None on SQLite."""
    stores = app.extensions["cablecar"].stores
    return str(stores.database.connections._url) if stores.backend == "PostgresStore" else None


def _quarantine(app: Flask, game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """``cablecar quarantine GAME`` as the operator runs it, with the server's configuration."""
    # the same data folder, so the same signing key as the server's (kept beside it: service/location.py)
    for name in ("DATABASE_URL", "CABLECAR_READ_DATABASE_URL", "REDIS_URL", "CABLECAR_RETIRED_KEYS_FILE",
                 "CABLECAR_SIGNING_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    url = _owner_url(app)
    if url is not None:  # on PostgreSQL the key file is named in the configuration
        key_file = keys_folder(Settings(data_dir=str(tmp_path))) / "signing-key.json"
        monkeypatch.setenv("CABLECAR_SIGNING_KEY_FILE", str(key_file))
        return main(["quarantine", game_id, "--database-url", url, "--data-dir", str(tmp_path)])
    return main(["quarantine", game_id, "--data-dir", str(tmp_path)])


def _moved(app: Flask, game_id: str, tmp_path: Path) -> list[tuple[Any, ...]]:
    url = _owner_url(app)
    sql = "SELECT seq, hash, reason FROM quarantined_events WHERE game_id = ? ORDER BY seq"
    if url is not None:
        import psycopg

        with psycopg.connect(url) as conn:
            return [tuple(r) for r in conn.execute(sql.replace("?", "%s").encode(), (game_id,)).fetchall()]
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        return [tuple(r) for r in conn.execute(sql, (game_id,)).fetchall()]


def test_a_damaged_game_is_read_up_to_its_last_good_event_then_quarantined_and_played_on(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],  # noqa: F811
) -> None:
    new_app, forge = backend
    first = new_app()
    game = _game(first.test_client())
    gid, version = game["id"], game["version"]
    token = auth(game["seats"][0]["token"])
    forge(gid, version + 1, _CARD, _last_hash(first, gid))
    forge(gid, version + 2, _CARD, "1" * 64)

    client = new_app().test_client()  # a worker that never held the game
    for headers in ({}, token):
        resp = client.get(f"/v1/games/{gid}", headers=headers)
        assert resp.status_code == 200, resp.get_json()
        shown = resp.get_json()
        assert shown["damaged_from"] == version + 1 and shown["version"] == version, shown
        assert resp.headers["ETag"] == f'"{version}"'
    page = client.get(f"/v1/games/{gid}/events").get_json()
    assert page["damaged_from"] == version + 1 and page["version"] == version
    assert [e["seq"] for e in page["events"]] == list(range(1, version + 1)) and page["next_cursor"] is None
    assert client.get(f"/v1/games/{gid}/events?after={version}").get_json()["events"] == []
    assert client.get(f"/v1/games/{gid}/export").get_json()["code"] == "game_not_finished"
    for resp in (client.post(f"/v1/games/{gid}/actions", json={"type": "draw_tickets"}, headers=token),
                 client.get(f"/v1/games/{gid}/legal-actions", headers=token)):
        assert resp.status_code == 409 and resp.get_json()["code"] == "game_damaged", resp.get_json()
    audit = client.get(f"/v1/games/{gid}/audit").get_json()
    assert audit["ok"] is False and audit["damaged_from"] == version + 1 and "quarantined" not in audit
    sound = client.get(f"/v1/games/{_game(client)['id']}").get_json()
    assert "damaged_from" not in sound

    assert _quarantine(first, gid, tmp_path, monkeypatch) == 0
    said = capsys.readouterr().out
    assert f"moved 2 event(s) from seq {version + 1}" in said and f"as seq {version + 1}" in said, said
    assert [(seq, reason) for seq, _, reason in _moved(first, gid, tmp_path)] == [
        (version + 1, f"seq {version + 1} failed its chain or signature check"),
        (version + 2, f"seq {version + 1} failed its chain or signature check"),
    ]

    after = new_app().test_client()
    shown = after.get(f"/v1/games/{gid}").get_json()
    assert "damaged_from" not in shown and shown["version"] == version + 1
    last = after.get(f"/v1/games/{gid}/events?after={version}").get_json()["events"]
    assert [(e["seq"], e["type"], e["payload"]) for e in last] == [  # the range and the hashes moved (issue 48)
        (version + 1, "events_quarantined", {"from_seq": version + 1, "to_seq": version + 2, "count": 2,
                                             "hashes": [hash_ for _, hash_, _ in _moved(first, gid, tmp_path)]})]
    verdict = after.get(f"/v1/games/{gid}/audit").get_json()
    assert verdict["ok"] is True, verdict
    assert next(c for c in verdict["checks"] if c["name"] == "chain")["ok"]
    [run] = verdict["quarantined"]
    assert (run["from_seq"], run["count"]) == (version + 1, 2) and run["quarantined_at"].endswith("Z")
    move = after.get(f"/v1/games/{gid}/legal-actions", headers=token).get_json()["actions"][0]
    played = after.post(f"/v1/games/{gid}/actions", json=move, headers=token)
    assert played.status_code == 201, played.get_json()
    assert after.get(f"/v1/games/{gid}/audit").get_json()["ok"] is True

    assert _quarantine(first, gid, tmp_path, monkeypatch) == 0  # sound now: nothing is written
    assert "its record is sound" in capsys.readouterr().out
    assert len(_moved(first, gid, tmp_path)) == 2
    assert _quarantine(first, "g-nobody", tmp_path, monkeypatch) == 1
    assert "no game 'g-nobody'" in capsys.readouterr().err


def test_a_finished_game_damaged_after_its_end_exports_what_is_good(backend: Backend) -> None:  # noqa: F811
    new_app, forge = backend
    first = new_app()
    game = _game(first.test_client())
    gid = game["id"]
    resigned = first.test_client().post(f"/v1/games/{gid}/actions", json={"type": "resign"},
                                        headers=auth(game["seats"][0]["token"]))
    assert resigned.status_code == 201, resigned.get_json()
    version = resigned.get_json()["version"]
    forge(gid, version + 1, _CARD, _last_hash(first, gid))

    client = new_app().test_client()
    export = client.get(f"/v1/games/{gid}/export")
    assert export.status_code == 200, export.get_json()
    record = export.get_json()
    assert record["damaged_from"] == version + 1 and record["game"]["version"] == version
    assert [e["seq"] for e in record["events"]] == list(range(1, version + 1))
    assert record["chain"] == {"length": version, "head": record["events"][-1]["hash"]}
    lines = client.get(f"/v1/games/{gid}/export.ndjson").get_data(as_text=True).splitlines()
    assert f'"damaged_from":{version + 1}' in lines[0] and len(lines) == version + 1
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "finished"


def test_the_bot_runner_skips_a_damaged_game_with_one_line(
    backend: Backend, caplog: pytest.LogCaptureFixture,  # noqa: F811
) -> None:
    new_app, forge = backend
    app = new_app()
    stores = app.extensions["cablecar"].stores
    stores.bot_turns.beat_bot_runner("test-runner", stores.deadlines.database_time(), 3600)  # a runner is alive: bot seats are accepted
    game = _game(app.test_client(), [{"name": "Ada"}, {"name": "Robo", "bot": "random"}])
    gid = game["id"]
    forge(gid, game["version"] + 1, _CARD, _last_hash(app, gid))
    rt = app.extensions["cablecar"]
    runner = BotRunner(rt.queries, rt.commands, rt.stores.bot_turns, rt.stores.deadlines, think_ms=5,
                       lease_seconds=0.05)
    with caplog.at_level(logging.INFO, logger="cablecar.bots"):
        for _ in range(4):
            runner.run_once()
            time.sleep(0.06)  # past the lease: a game still indexed would be claimed again
    lines = [r for r in caplog.records if gid in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]
    assert "damaged from seq" in lines[0].getMessage() and "cablecar quarantine" in lines[0].getMessage()
    assert runner.stats.claims == 1 and runner.stats.errors == 0 and runner.stats.moves == 0
