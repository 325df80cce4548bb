"""Issue 48 on the two PostgreSQL roles: the app role's own login cannot bend
the transparency log.

* It writes none of the log's tables (one INSERT at the next leaf index used to
  make every later publication fail, silently; one junk checkpoint row was
  served to everyone, or failed every answer) and cannot lock the head; the
  lock the publishers took until now (an advisory lock any login can hold) no
  longer stalls them.
* Through ``cablecar_log_publish``, the one function it may call, it takes
  no lock the server's publisher waits for.

The same rows planted by the owner, and the reads that skip them, on both
backends: tests/api/test_transparency_publisher.py, tests/api/test_log_tampering.py."""

from __future__ import annotations

import base64
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from events.factory import postgres_stores
from events.integrity import merkle
from events.recorders.transparency_log import LogBusy
from tests.contract.conftest import TEST_SIGNER
from tests.contract.test_roles import Roles, _migrated, roles  # noqa: F401  (roles: the fixture)

pytestmark = pytest.mark.postgres

ORIGIN = "games.example.org/log"
#: the advisory lock key the publishers took turns under before issue 48 ("cblog" in ASCII)
OLD_PUBLISH_LOCK = 0x63626C6F67


@pytest.fixture
def served(roles: Roles, tmp_path: Path) -> Iterator[tuple[Flask, Roles]]:  # noqa: F811
    from service.adapters.signing_keys import ServerKeys
    from service.api.app import create_app
    from service.config import Settings

    _migrated(roles)
    settings = Settings(database_url=roles.app_url, secret_key="s" * 40, data_dir=str(tmp_path), webhooks=False,
                        log_origin=ORIGIN)
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    app = create_app(settings, stores=store, signing_keys=ServerKeys(TEST_SIGNER))
    yield app, roles
    store.close()


def _game(app: Flask) -> None:
    made = app.test_client().post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "A"}, {"name": "B"}],
                                                     "seed": secrets.token_hex(4)})
    assert made.status_code == 201, made.get_json()


def _owner(roles: Roles, sql: str, *params: Any) -> list[tuple[Any, ...]]:  # noqa: F811
    import psycopg

    with psycopg.connect(roles.owner_url) as conn:
        return [tuple(r) for r in conn.execute(sql.encode(), params).fetchall()]


def _true_leaves(roles: Roles) -> list[tuple[int, bytes]]:  # noqa: F811
    """(position, leaf hash) of every event, in the global log's order: what the tree must hold."""
    rows = _owner(roles, "SELECT e.position, e.hash, g.metadata ->> 'leaf_salt' FROM events e"
                         " JOIN games g ON g.game_id = e.game_id ORDER BY e.position")
    return [(int(p), merkle.leaf_hash(bytes.fromhex(h) + bytes.fromhex(s))) for p, h, s in rows]


def _publish(app: Flask, roles: Roles) -> dict[str, Any]:  # noqa: F811
    """The server's publisher, until the checkpoint served holds every event; that checkpoint."""
    from service.api.app import log_publisher

    publisher = log_publisher(app).publisher
    client = app.test_client()
    for _ in range(200):
        if publisher.publish() is None:
            served = client.get("/v1/log/checkpoint")
            if served.status_code == 200 and served.get_json()["tree_size"] == len(_true_leaves(roles)):
                return dict(served.get_json())
    raise AssertionError("the publisher did not catch up with the log")


def _is_the_events_tree(roles: Roles, cp: dict[str, Any]) -> None:  # noqa: F811
    leaves = [h for _, h in _true_leaves(roles)]
    assert cp["tree_size"] == len(leaves)
    assert base64.b64decode(cp["root_hash"]) == merkle.root(leaves)


def test_the_app_roles_login_writes_no_row_of_the_log_and_holds_no_lock_that_stalls_it(
        served: tuple[Flask, Roles]) -> None:
    import psycopg

    app, owned = served
    _game(app)
    first = _publish(app, owned)
    _is_the_events_tree(owned, first)
    n = first["tree_size"]
    attacks = [
        f"INSERT INTO log_leaves (leaf_index, game_id, seq, position) SELECT {n}, game_id, 99, 1 FROM games LIMIT 1",
        f"INSERT INTO log_nodes (level, node_index, hash) VALUES (0, {n}, '\\x{'07' * 32}')",
        "INSERT INTO log_checkpoints (tree_size, root_hash, note, key_id, last_position, created_at)"
        f" VALUES ({n + 1000}, '\\x{'09' * 32}', 'junk', 'k', 0, now())",
        "UPDATE log_checkpoints SET note = 'junk'",
        "UPDATE log_checkpoints SET created_at = now() + interval '1 hour'",  # a log that looks fresh
        "DELETE FROM log_nodes",
        "UPDATE log_state SET tree_size = tree_size + 1000",
        "SELECT * FROM log_state FOR UPDATE",  # the head's lock: held, it would stall every publication
        "INSERT INTO log_foreign_rows (table_name, tree_size, found_at, row_data) VALUES ('x', 0, now(), '{}')",
        "DELETE FROM log_foreign_rows",
        "SELECT cablecar_log_root(1)",
    ]
    with psycopg.connect(owned.app_url, autocommit=True) as conn:
        for attack in attacks:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(attack.encode())

    # what it may still do: hold the publishers' old advisory lock and a lock on every log table, for ever
    holder = psycopg.connect(owned.app_url)
    try:
        holder.execute(b"SELECT pg_advisory_lock(%s)", (OLD_PUBLISH_LOCK,))
        holder.execute(b"LOCK TABLE log_state, log_leaves, log_nodes, log_checkpoints IN ACCESS SHARE MODE")
        _game(app)
        done: list[dict[str, Any]] = []
        worker = threading.Thread(target=lambda: done.append(_publish(app, owned)), daemon=True)
        worker.start()
        worker.join(20)
        assert done, "the publisher stalled behind a lock the app role holds"
        second = done[0]
    finally:
        holder.close()
    assert second["tree_size"] > n
    _is_the_events_tree(owned, second)

    # ... or the head's own lock, by calling the publish function and leaving its transaction open: the
    # server's publisher waits for it only as long as a publication takes (5 s), says so (/v1/health degrades
    # if it lasts), and goes on after
    from service.api.app import log_publisher

    _game(app)
    holder = psycopg.connect(owned.app_url)
    try:
        assert holder.execute(b"SELECT r_outcome FROM cablecar_log_publish(0, 0, 1, 'x', 'k')").fetchone() == (
            "conflict",)
        started = time.monotonic()
        with pytest.raises(LogBusy, match="holds the log's head"):
            log_publisher(app).publisher.publish()
        assert time.monotonic() - started < 10
    finally:
        holder.close()
    third = _publish(app, owned)
    assert third["tree_size"] > second["tree_size"]
    _is_the_events_tree(owned, third)
    assert _owner(owned, "SELECT count(*) FROM log_foreign_rows") == [(0,)]
