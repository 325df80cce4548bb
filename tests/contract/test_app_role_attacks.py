"""Who may act (issue 34), tried with the app role's own PostgreSQL login and
nothing else (no server secret, no signing key): every function that login
may execute is called with forged arguments for what decides who may act or
what the audit checks (seat and host token hashes, seed, players, bot
seats).  Each attempt is refused by the database or named by ``/audit``;
afterwards no token of the attacker's choosing acts, the genuine tokens still
do, and every game the database kept unchanged still audits ok.

``test_every_function_the_app_role_may_execute_is_attacked_here`` fails when
a migration lets the app role execute a function this file does not try."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.factory import postgres_stores
from events.integrity.signing import Signer
from events.records import AppendOptions, IntegrityError, MetadataGuard, NewEvent, StoreError, TokenChange
from tests.contract.conftest import TEST_SIGNER
from tests.contract.test_roles import Roles, _migrated, roles  # noqa: F401  (roles: the fixture)

pytestmark = pytest.mark.postgres

#: every function the app role may execute, and what this file does with it
COVERED = {
    "cablecar_append_one_lean": "forged events (chained, signed with a key of the attacker's) on a game",
    "cablecar_append_batch_lean": "a forged batch of events on a game",
    "cablecar_append_one_timed": "the previous append (kept for a rolling upgrade): forged events through it too",
    "cablecar_append_batch_timed": "the previous batch append: a forged batch through it too",
    "cablecar_create_game_timed": "a game of an existing id, with the attacker's seed, players, bots and hashes",
    "cablecar_rotate_seat_token_timed": "hashes of chosen tokens, plain and keyed; an old hash put back; a bot "
                                        "seat made a person's; a rotation of another seat than its event's",
    "cablecar_watch_game": "a watch of every game (it only reads the version)",
    "cablecar_draw_positions": "positions drawn outside an append (it writes nothing)",
    "cablecar_events_immutable": "called directly (only a trigger may call it)",
    "cablecar_events_leave_to_quarantine": "called directly (only a trigger may call it)",
    "cablecar_notify_version": "called directly (only a trigger may call it)",
    "cablecar_log_publish": "another head, more or fewer events, an uncommitted position, a note of another tree, "
                            "a note signed by another key (tests/contract/test_log_roles.py)",
}


def _executable(roles: Roles) -> set[str]:  # noqa: F811
    import psycopg

    with psycopg.connect(roles.app_url) as conn:
        rows = conn.execute(
            "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
            " WHERE n.nspname = 'public' AND has_function_privilege(current_user, p.oid, 'EXECUTE')"
        ).fetchall()
    return {r[0] for r in rows}


@pytest.fixture
def served(roles: Roles, tmp_path: Path) -> Iterator[tuple[Flask, Roles]]:  # noqa: F811
    from service.adapters.signing_keys import ServerKeys
    from service.api.app import create_app
    from service.config import Settings

    _migrated(roles)
    settings = Settings(database_url=roles.app_url, secret_key="s" * 40, data_dir=str(tmp_path), webhooks=False)
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    app = create_app(settings, stores=store, signing_keys=ServerKeys(TEST_SIGNER))
    # a runner is alive: bot seats are accepted
    store.bot_turns.beat_bot_runner("test-runner", store.deadlines.database_time(), 3600)
    yield app, roles
    store.close()


def _game(client: FlaskClient, bot: bool = False) -> dict[str, Any]:
    players = [{"name": "Ada"}, {"name": "Robo", "bot": "random"} if bot else {"name": "Bo"}]
    made = client.post("/v1/games", json={"type": "ttr-sf", "players": players, "seed": secrets.token_hex(4)})
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _chosen(game_id: str, kind: str = "st") -> str:
    """A token of the attacker's choosing, in the shape the server's take."""
    return f"{kind}_{game_id}_{'A' * 43}"


def _acts(client: FlaskClient, game: dict[str, Any], token: str) -> bool:
    """Whether ``token`` is taken for a seat or the host of ``game`` on any path that needs one."""
    gid = game["id"]
    answers = [
        client.get(f"/v1/games/{gid}/legal-actions", headers=_bearer(token)).status_code,
        client.get(f"/v1/games/{gid}", headers=_bearer(token)).status_code,
        client.get(f"/v1/games/{gid}/events", headers=_bearer(token)).status_code,
        # a seat the game does not have: the host is told 404, anyone else 401/403; nothing is rotated
        client.post(f"/v1/games/{gid}/seats/99/token", headers=_bearer(token)).status_code,
    ]
    return any(status not in (401, 403) for status in answers)


def _refused(call: Any) -> None:
    with pytest.raises((StoreError, IntegrityError, ValueError, Exception)):
        call()


def test_every_function_the_app_role_may_execute_is_attacked_here(roles: Roles) -> None:  # noqa: F811
    _migrated(roles)
    assert _executable(roles) == set(COVERED), "a function the app role may execute is not attacked in this file"


def test_the_app_roles_login_alone_makes_no_token_act_and_changes_nothing_the_audit_checks(
    served: tuple[Flask, Roles],
) -> None:
    import psycopg

    app, owned = served
    client = app.test_client()
    kept, forged, rotated_game, bots = _game(client), _game(client), _game(client), _game(client, bot=True)
    assert _acts(client, kept, kept["seats"][0]["token"]) and _acts(client, kept, kept["host_token"])
    before = {g["id"]: client.get(f"/v1/games/{g['id']}").get_json() for g in (kept, bots)}
    forger = postgres_stores(owned.app_url, signer=Signer.generate())  # the app role's login, a key of its own
    try:
        rows = {r[0]: r[1] for r in psycopg.connect(owned.app_url).execute(
            "SELECT game_id, metadata FROM games WHERE game_id = ANY(%s)",
            ([g["id"] for g in (kept, forged, rotated_game, bots)],)).fetchall()}

        # cablecar_create_game_timed: the kept game's id again, with the attacker's seed, players, bots and hashes
        fake = {**rows[kept["id"]], "seed": "attacker", "players": ["Eve", "Mallory"], "bots": [None, "random"],
                "seat_token_hashes": [hashlib.sha256(_chosen(kept["id"]).encode()).hexdigest()] * 2}
        _refused(lambda: forger.events.create_game(kept["id"], "ttr-sf", fake, [NewEvent("game_set_up", {})],
                                                   "playing"))

        # cablecar_rotate_seat_token_timed on the kept game: every forged hash is refused by the database
        version = kept["version"]
        chosen_plain = hashlib.sha256(_chosen(kept["id"]).encode()).hexdigest()
        old_hash = rows[kept["id"]]["seat_token_hashes"][0]
        for change, event in (
            (TokenChange(0, chosen_plain), {"seat": 0}),                      # a plain hash
            (TokenChange(0, old_hash), {"seat": 0}),                          # an old hash put back (epoch 0)
            (TokenChange(0, f"k1:{version + 5}:{chosen_plain}"), {"seat": 0}),  # another epoch than its event's
            (TokenChange(1, f"k1:{version + 1}:{chosen_plain}"), {"seat": 0}),  # another seat than its event's
        ):
            _refused(lambda change=change, event=event: forger.events.append(
                kept["id"], version, [NewEvent("seat_token_rotated", event, 1, None)],
                AppendOptions(token=change)))
        # ... and on the bot seat of the bot game: no token to rotate, so it stays the bot's
        _refused(lambda: forger.events.append(
            bots["id"], bots["version"], [NewEvent("seat_token_rotated", {"seat": 1})],
            AppendOptions(token=TokenChange(1, f"k1:{bots['version'] + 1}:{chosen_plain}"))))

        # cablecar_rotate_seat_token_timed taken by the database: a keyed-looking hash of a chosen token, signed
        # with the attacker's key. The token still acts for nobody, and /audit names the forged event.
        target = rotated_game["version"] + 1
        forger.events.append(
            rotated_game["id"], rotated_game["version"], [NewEvent("seat_token_rotated", {"seat": 0})],
            AppendOptions(
                guard=MetadataGuard(("seat_token_hashes", 0), rows[rotated_game["id"]]["seat_token_hashes"][0]),
                token=TokenChange(0, f"k1:{target}:{hashlib.sha256(_chosen(rotated_game['id']).encode()).hexdigest()}"),
            ))

        # cablecar_append_one_lean / cablecar_append_batch_lean: forged moves on the forged game
        forger.events.append(forged["id"], forged["version"], [NewEvent("seat_resigned", {"seat": 1}, 1, 1)])
        forger.events.append(forged["id"], forged["version"] + 1,
                             [NewEvent("seat_resigned", {"seat": 0}, 1, 0), NewEvent("game_ended", {}, 1, None)])
        # the previous version's functions (cablecar_append_*_timed, kept for a rolling upgrade): the same
        from events.postgres import appends
        previous = {name: getattr(appends, name).replace("_lean(", "_timed(") for name in ("APPEND_ONE", "APPEND")}
        with pytest.MonkeyPatch.context() as patch:
            for name, sql in previous.items():
                patch.setattr(appends, name, sql)
            forger.events.append(forged["id"], forged["version"] + 3, [NewEvent("seat_resigned", {"seat": 1}, 1, 1)])
            forger.events.append(forged["id"], forged["version"] + 4,
                                 [NewEvent("seat_resigned", {"seat": 0}, 1, 0), NewEvent("game_ended", {}, 1, None)])

        with psycopg.connect(owned.app_url, autocommit=True) as conn:
            # no direct write of a game's row, whatever the field
            for sql in ("UPDATE games SET metadata = jsonb_set(metadata, '{seed}', '\"attacker\"') WHERE game_id = %s",
                        "UPDATE games SET metadata = jsonb_set(metadata, '{bots}', '[null, null]') WHERE game_id = %s",
                        "UPDATE games SET metadata = metadata - 'host_token_hash' WHERE game_id = %s"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(sql.encode(), (bots["id"],))
            # the other functions it may execute change nothing
            for gid in (kept["id"], bots["id"]):
                conn.execute("SELECT cablecar_watch_game(%s, pg_backend_pid())", (gid,))
            with conn.transaction():
                conn.execute("SELECT cablecar_draw_positions(3)")
            for trigger in ("cablecar_events_immutable", "cablecar_events_leave_to_quarantine",
                            "cablecar_notify_version"):
                with pytest.raises(psycopg.errors.FeatureNotSupported):
                    conn.execute(f"SELECT {trigger}()".encode())
    finally:
        forger.close()

    # no token of the attacker's choosing acts, in any game, as a seat or as the host
    for game in (kept, forged, rotated_game, bots):
        for kind in ("st", "ht"):
            assert not _acts(client, game, _chosen(game["id"], kind)), (game["id"], kind)
    # the games the database kept unchanged: the same answers, the genuine tokens act, the audit is ok
    for game in (kept, bots):
        assert client.get(f"/v1/games/{game['id']}").get_json() == before[game["id"]]
        assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"] is True
        assert client.get(f"/v1/games/{game['id']}/legal-actions", headers=_bearer(game["seats"][0]["token"])
                          ).status_code == 200
    assert client.get(f"/v1/games/{bots['id']}").get_json()["players"][1]["bot"] == "random"
    # the games it wrote to: /audit names the forged event
    for game, seq in ((rotated_game, rotated_game["version"] + 1), (forged, forged["version"] + 1)):
        audit = client.get(f"/v1/games/{game['id']}/audit").get_json()
        assert audit["ok"] is False and f"seq {seq}" in str(audit), audit


def test_the_app_roles_login_alone_changes_no_ref_and_starts_no_round(served: tuple[Flask, Roles]) -> None:
    """Tournament refs (issue 40) and a round's start time are fixed: the app
    role can change neither in a game's row nor in its batch's, and a
    ``game_started`` it forges (to start a round early) is named by /audit."""
    import psycopg

    app, owned = served
    client = app.test_client()
    org = _bearer(client.post("/v1/organisers", json={"name": "Open"}).get_json()["token"])
    body = {"type": "cable-car", "ref": "ev/r1", "tables": [
        {"ref": "t1", "players": [{"name": "Ada", "ref": "p-ada"}, {"name": "Bo", "ref": "p-bo"}]}]}
    made = client.post("/v1/batches", json=body, headers=org)
    assert made.status_code == 201, made.get_json()
    batch = made.get_json()
    game = batch["games"][0]
    with psycopg.connect(owned.app_url, autocommit=True) as conn:
        for sql in ("UPDATE games SET metadata = jsonb_set(metadata, '{ref}', '\"t9\"') WHERE game_id = %s",
                    "UPDATE games SET metadata = jsonb_set(metadata, '{player_refs}', '[\"p-bo\", \"p-ada\"]')"
                    " WHERE game_id = %s",
                    "UPDATE games SET metadata = jsonb_set(metadata, '{starts_at}', '\"2099-01-01\"') WHERE game_id = %s"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql.encode(), (game["id"],))
        for sql in ("UPDATE batches SET ref = 'ev/r2' WHERE batch_id = %s",
                    "UPDATE batches SET starts_at = '2099-01-01T00:00:00Z' WHERE batch_id = %s"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql.encode(), (batch["id"],))
    again = client.get(f"/v1/games/{game['id']}").get_json()
    assert again["ref"] == "t1" and [p["ref"] for p in again["players"]] == ["p-ada", "p-bo"]
    assert client.get(f"/v1/batches/{batch['id']}", headers=org).get_json()["ref"] == "ev/r1"
    # a forged game_started (signed with the attacker's key) on a game that never waited: /audit names it
    forger = postgres_stores(owned.app_url, signer=Signer.generate())
    try:
        forger.events.append(game["id"], game["version"], [NewEvent("game_started", {})])
    finally:
        forger.close()
    audit = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert audit["ok"] is False and f"seq {game['version'] + 1}" in str(audit), audit
