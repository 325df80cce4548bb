"""Issue 48 on the two PostgreSQL roles: the app role's own login cannot bend
the transparency log.

* It writes none of the log's tables (one INSERT at the next leaf index used to
  make every later publication fail, silently; one junk checkpoint row was
  served to everyone, or failed every answer) and cannot lock the head; the
  lock the publishers took until now (an advisory lock any login can hold) no
  longer stalls them.
* Through ``cablecar_log_publish``, the one function it may call, it extends
  only the head, by the events' own tree: another size, another count, a
  position a running transaction may precede, a note of another tree are
  refused.  A note over the true tree whose signature is not the server's is
  stored (the database holds no keys) but never served, and the server's next
  checkpoint extends the same tree.

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
from events.integrity.checkpoint import Checkpoint, b64, sign_note
from events.integrity.signing import Signer
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


def _call(roles: Roles, previous: int, last_position: int, count: int, note: str) -> tuple[Any, ...]:  # noqa: F811
    import psycopg

    with psycopg.connect(roles.app_url, autocommit=True) as conn:
        row = conn.execute(b"SELECT r_outcome, r_tree_size FROM cablecar_log_publish(%s, %s, %s, %s, %s)",
                           (previous, last_position, count, note, "attacker")).fetchone()
    assert row is not None
    return tuple(row)


def _log_rows(roles: Roles) -> list[tuple[Any, ...]]:  # noqa: F811
    return _owner(roles, "SELECT (SELECT count(*) FROM log_leaves), (SELECT count(*) FROM log_nodes),"
                         " (SELECT array_agg(tree_size ORDER BY tree_size) FROM log_checkpoints),"
                         " (SELECT tree_size FROM log_state)")


def test_the_publish_function_extends_only_the_head_and_only_by_the_events_tree(
        served: tuple[Flask, Roles]) -> None:
    import psycopg

    app, owned = served
    _game(app)
    first = _publish(app, owned)
    _game(app)  # events the log has not taken in yet
    leaves = _true_leaves(owned)
    size, new = first["tree_size"], len(leaves)
    last = leaves[-1][0]
    root = merkle.root([h for _, h in leaves])
    mallory = Signer.generate()

    def note(tree_size: int, tree_root: bytes, signer: Signer = mallory) -> str:
        return sign_note(Checkpoint(ORIGIN, tree_size, tree_root).body(), ORIGIN, signer.public_raw,
                         signer.sign_bytes)

    before = _log_rows(owned)
    # another tree than the head's: nothing written
    assert _call(owned, size + 5, last, new - size - 5, note(new, root)) == ("conflict", size)
    assert _call(owned, 0, last, new, note(new, root)) == ("conflict", size)
    refused = [
        (size, last, new - size + 1, note(new + 1, root)),                   # more events than the log holds there
        (size, leaves[-2][0], new - size, note(new, root)),                  # fewer, ending before the last
        (size, last + (1 << 40), new - size, note(new, root)),               # past what is committed
        (size, last, new - size, note(new, bytes(32))),                      # a note of another root
        (size, last, new - size, note(new + 1, root)),                       # a note of another size
        (size, last, new - size, "junk"),                                    # not a note
        (size, last, new - size, Checkpoint(ORIGIN, new, root).body()),      # a checkpoint, unsigned
        (size, last, 0, note(size, base64.b64decode(first["root_hash"]))),   # nothing new
    ]
    for previous, position, count, text in refused:
        with pytest.raises(psycopg.Error):
            _call(owned, previous, position, count, text)
        assert _log_rows(owned) == before, (previous, position, count)

    # the true tree under someone else's signature: stored (the database holds no key), never served
    assert _call(owned, size, last, new - size, note(new, root)) == ("published", new)
    client = app.test_client()
    assert client.get("/v1/log/checkpoint").get_json() == first
    assert client.get(f"/v1/log/checkpoint?tree_size={new}").status_code == 404
    assert client.get("/v1/health").get_json()["log"]["tree_size"] == size  # its age is the served one's

    # the server's next checkpoint extends that same tree, and is served
    _game(app)
    latest = _publish(app, owned)
    _is_the_events_tree(owned, latest)
    assert latest["tree_size"] > new and latest["note"].endswith("\n")
    proof = client.get(f"/v1/log/consistency?first={size}&second={latest['tree_size']}").get_json()
    assert merkle.verify_consistency(size, latest["tree_size"], [base64.b64decode(h) for h in proof["proof"]],
                                     base64.b64decode(first["root_hash"]), base64.b64decode(latest["root_hash"]))
    assert b64(root) != latest["root_hash"]


def test_a_log_bent_before_this_version_is_published_again_after_its_migration(
        roles: Roles, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A database whose log was bent while the app role could still write it (a leaf at the next index, a
    junk checkpoint beyond the head): the migration takes the genuine head, and the next publication
    moves the planted rows aside and publishes the events' tree."""
    from events import migrations
    from events.factory import migrate
    from events.records import NewEvent
    from service.usecases.checkpoint_notes import CheckpointNotes, VerifiedLog
    from service.usecases.checkpoints import LogPublisher

    shipped = migrations.apply.load_migrations
    monkeypatch.setattr(migrations.apply, "load_migrations",
                        lambda dialect: [m for m in shipped(dialect) if m.name != "0085_log_written_by_the_owner.sql"])
    migrate(roles.owner_url, app_role=roles.app)
    old = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    try:
        for name in ("g1", "g2"):
            old.events.create_game(name, "t", {"leaf_salt": secrets.token_hex(32)},
                                   [NewEvent("noted", {"i": i}) for i in range(3)], "playing")
    finally:
        old.close()
    # the log as the publisher of the previous version left it: 6 leaves, their nodes, one signed checkpoint
    leaves = _true_leaves(roles)
    hashes = [h for _, h in leaves]
    nodes, level, row = [], 0, hashes
    while row:
        nodes += [(level, i, h) for i, h in enumerate(row)]
        row = [merkle.node_hash(row[i], row[i + 1]) for i in range(0, len(row) - 1, 2)]
        level += 1
    note = sign_note(Checkpoint(ORIGIN, 6, merkle.root(hashes)).body(), ORIGIN, TEST_SIGNER.public_raw,
                     TEST_SIGNER.sign_bytes)
    import psycopg

    with psycopg.connect(roles.owner_url) as conn:
        with conn.cursor().copy(b"COPY log_leaves (leaf_index, game_id, seq, position) FROM STDIN") as copy:
            for i, (position, _) in enumerate(leaves):
                copy.write_row((i, "g1" if i < 3 else "g2", i % 3 + 1, position))
        with conn.cursor().copy(b"COPY log_nodes (level, node_index, hash) FROM STDIN") as copy:
            for node in nodes:
                copy.write_row(node)
        conn.execute(b"INSERT INTO log_checkpoints VALUES (6, %s, %s, %s, %s, now())",
                     (merkle.root(hashes), note, TEST_SIGNER.key_id, leaves[-1][0]))
        # ... and bent: the app role's INSERTs of before (the leaf made every publication fail on its key)
        conn.execute(b"INSERT INTO log_leaves VALUES (6, 'g1', 9, %s)", (leaves[-1][0] + 1000,))
        conn.execute(b"INSERT INTO log_checkpoints VALUES (1006, %s, 'junk', 'k', 1, now())", (bytes(32),))

    monkeypatch.setattr(migrations.apply, "load_migrations", shipped)
    assert migrate(roles.owner_url, app_role=roles.app) == ["0085_log_written_by_the_owner.sql"]
    assert _owner(roles, "SELECT tree_size, last_position FROM log_state") == [(6, leaves[-1][0])]
    store = postgres_stores(roles.app_url, signer=TEST_SIGNER)
    try:
        store.events.create_game("g3", "t", {"leaf_salt": secrets.token_hex(32)}, [NewEvent("noted", {})], "playing")
        served = VerifiedLog(store.log, CheckpointNotes([TEST_SIGNER.public]))
        assert served.checkpoint() is not None and served.checkpoint().tree_size == 6  # type: ignore[union-attr]
        published = LogPublisher(store.log, TEST_SIGNER, ORIGIN, store.deadlines).publish()
        assert published is not None and published.tree_size == 7
        assert published.root_hash == merkle.root([h for _, h in _true_leaves(roles)])
        assert served.checkpoint() == published
        assert sorted(r[0] for r in _owner(roles, "SELECT table_name FROM log_foreign_rows")) == [
            "log_checkpoints", "log_leaves"]
    finally:
        store.close()
