"""The :class:`~events.recorders.tournaments.TournamentStore` contract (organisers,
batches, webhooks), run against every backend (see conftest.py).

The PostgreSQL database is shared by the whole session, and delivery claims
are global, so every test registers its webhooks through the ``hooks``
fixture, which deactivates them afterwards.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from events import Stores
from events.recorders.tournaments import OrganiserRecord, WebhookRecord
from events.records import GameExists, GameNotFound, IntegrityError, InvalidCursor, NewEvent
from tests.contract.backends import Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import (
    HASH,
    every_page,
    game_spec,
    opening,
    uid,
)

NewId = Callable[[], str]


class TournamentStoreContract(Contract):
    """Organisers, batches and webhooks, on one backend per subclass."""

    # -- organisers ---------------------------------------------------------------------

    def test_organisers_are_stored_with_their_token_hash(self, store: Stores) -> None:
        oid = uid("o")
        made = store.tournaments.create_organiser(oid, "Ada's league", HASH)
        assert (made.organiser_id, made.name, made.token_hash) == (oid, "Ada's league", HASH)
        assert made.created_at.endswith("Z")
        assert store.tournaments.get_organiser(oid) == made
        assert store.tournaments.get_organiser(uid("o")) is None
        with pytest.raises(IntegrityError):
            store.tournaments.create_organiser(oid, "again", HASH)

    # -- batches ------------------------------------------------------------------------

    def test_a_batch_and_all_its_games_are_created_together(
        self, store: Stores, organiser: OrganiserRecord
    ) -> None:
        bid = uid("b")
        ids = [uid("g") for _ in range(3)]
        batch = store.tournaments.create_batch(
            bid, organiser.organiser_id, "round 1", "test-game", [game_spec(g, bid) for g in ids]
        )
        assert (batch.batch_id, batch.organiser_id, batch.name, batch.game_type, batch.tables) == (
            bid,
            organiser.organiser_id,
            "round 1",
            "test-game",
            3,
        )
        assert store.tournaments.get_batch(bid) == batch
        assert store.tournaments.get_batch(uid("b")) is None
        listed = store.events.list_games(batch=bid).games
        assert sorted(g.game_id for g in listed) == sorted(ids)
        assert all(g.version == 2 and g.metadata == {"batch": bid} for g in listed)
        assert [e.seq for e in store.events.load(ids[1])] == [1, 2]

    def test_a_batch_with_a_taken_game_id_writes_nothing(
        self, store: Stores, organiser: OrganiserRecord
    ) -> None:
        taken = uid("g")
        store.events.create_game(taken, "test-game", {}, opening(), "playing")
        bid = uid("b")
        fresh = uid("g")
        with pytest.raises(GameExists):
            store.tournaments.create_batch(
                bid, organiser.organiser_id, None, "test-game", [game_spec(fresh, bid), game_spec(taken, bid)]
            )
        assert store.tournaments.get_batch(bid) is None
        assert store.events.list_games(batch=bid).games == ()

    def test_a_batch_refused_by_the_database_writes_no_game(
        self, store: Stores, organiser: OrganiserRecord
    ) -> None:
        bid = uid("b")
        store.tournaments.create_batch(bid, organiser.organiser_id, None, "test-game", [game_spec(uid("g"), bid)])
        again = uid("g")
        with pytest.raises(IntegrityError):  # the batch id is taken
            store.tournaments.create_batch(bid, organiser.organiser_id, None, "test-game", [game_spec(again, bid)])
        stranger = uid("g")
        with pytest.raises(IntegrityError):  # unknown organiser
            store.tournaments.create_batch(uid("b"), uid("o"), None, "test-game", [game_spec(stranger)])
        for gid in (again, stranger):
            with pytest.raises(Exception, match="no game"):
                store.events.get_game(gid)
        with pytest.raises(ValueError):
            store.tournaments.create_batch(uid("b"), organiser.organiser_id, None, "test-game", [])

    def test_a_batch_is_all_or_nothing(self, store: Stores, organiser: OrganiserRecord) -> None:
        taken, a, b = uid("g"), uid("g"), uid("g")
        store.events.create_game(taken, "t", {}, opening(), "playing")

        def create(*games: tuple[str, str, dict[str, object], list[NewEvent], str]) -> None:
            store.tournaments.create_batch(uid("b"), organiser.organiser_id, None, "t", games)

        with pytest.raises(GameExists):
            create((a, "t", {}, opening(), "playing"), (taken, "t", {}, opening(), "playing"))
        with pytest.raises(GameExists):
            create((a, "t", {}, opening(), "playing"), (a, "t", {}, opening(), "playing"))
        with pytest.raises(IntegrityError):  # the database refuses the last event of the last game
            create(
                (a, "t", {}, opening(), "playing"),
                (b, "t", {}, [*opening(), NewEvent("tick", {"n": 1}, seat=-1)], "playing"),
            )
        for gid in (a, b):
            with pytest.raises(GameNotFound):
                store.events.get_game(gid)
        create((a, "t", {"batch": "x"}, opening(), "playing"), (b, "t", {"batch": "x"}, [], "setup"))
        assert (store.events.version(a), store.events.version(b)) == (1, 0)
        assert store.events.verify_chain(a).ok

    def test_an_organisers_batches_are_listed_newest_first(
        self, store: Stores, organiser: OrganiserRecord
    ) -> None:
        ids = [uid("b") for _ in range(5)]
        for bid in ids:
            store.tournaments.create_batch(
                bid, organiser.organiser_id, f"round {bid}", "test-game", [game_spec(uid("g"), bid)]
            )
        other = store.tournaments.create_organiser(uid("o"), "other", HASH)
        store.tournaments.create_batch(uid("b"), other.organiser_id, None, "test-game", [game_spec(uid("g"))])
        pages = every_page(lambda cursor: store.tournaments.list_batches(organiser.organiser_id, limit=2, cursor=cursor),
                           lambda page: page.batches)
        seen = [b.batch_id for b in pages]
        assert seen == ids[::-1]
        assert store.tournaments.list_batches(organiser.organiser_id, limit=1).batches[0] == store.tournaments.get_batch(ids[-1])
        assert store.tournaments.list_batches(uid("o")).batches == ()
        with pytest.raises(InvalidCursor):
            store.tournaments.list_batches(organiser.organiser_id, cursor="%%%")

    # -- webhooks -----------------------------------------------------------------------

    def test_webhooks_start_at_the_head_of_the_log(self, store: Stores, organiser: OrganiserRecord) -> None:
        gid = uid("g")
        store.events.create_game(gid, "test-game", {}, opening(3), "playing")
        head = store.events.load(gid)[-1].position
        hook = store.tournaments.create_webhook(
            uid("w"), organiser.organiser_id, "https://example.org/h", ["game.started"], "sec"
        )
        assert hook.from_position >= head and hook.active and hook.batch_id is None
        assert hook.events == ("game.started",) and hook.secret == "sec" and hook.url == "https://example.org/h"
        assert store.tournaments.get_webhook(hook.webhook_id) == hook
        assert store.tournaments.get_webhook(uid("w")) is None
        store.tournaments.deactivate_webhook(hook.webhook_id)

    def test_webhooks_are_listed_per_organiser_and_only_while_active(
        self, store: Stores, organiser: OrganiserRecord, hooks: Callable[..., WebhookRecord]
    ) -> None:
        bid = uid("b")
        store.tournaments.create_batch(bid, organiser.organiser_id, None, "test-game", [game_spec(uid("g"), bid)])
        first = hooks()
        second = hooks(("game.started", "game.finished"), bid)
        other = store.tournaments.create_organiser(uid("o"), "other", HASH)
        store.tournaments.create_webhook(uid("w"), other.organiser_id, "http://x.test/", ["game.finished"], "s")
        assert store.tournaments.list_webhooks(organiser.organiser_id) == (first, second)
        assert second.batch_id == bid and second.events == ("game.started", "game.finished")
        assert store.tournaments.deactivate_webhook(first.webhook_id) is True
        assert store.tournaments.deactivate_webhook(first.webhook_id) is False
        assert store.tournaments.deactivate_webhook(uid("w")) is False
        assert store.tournaments.list_webhooks(organiser.organiser_id) == (second,)
        stopped = store.tournaments.get_webhook(first.webhook_id)
        assert stopped is not None and not stopped.active

    def test_webhooks_need_a_known_organiser_and_batch_and_an_event(
        self, store: Stores, organiser: OrganiserRecord
    ) -> None:
        with pytest.raises(IntegrityError):
            store.tournaments.create_webhook(uid("w"), uid("o"), "http://x.test/", ["game.finished"], "s")
        with pytest.raises(IntegrityError):
            store.tournaments.create_webhook(
                uid("w"), organiser.organiser_id, "http://x.test/", ["game.finished"], "s", uid("b")
            )
        with pytest.raises(ValueError):
            store.tournaments.create_webhook(uid("w"), organiser.organiser_id, "http://x.test/", [], "s")
        assert store.tournaments.list_webhooks(organiser.organiser_id) == ()


class TestTournamentStoreSqlite(TournamentStoreContract):
    backend_type = SqliteBackend


class TestTournamentStorePostgres(TournamentStoreContract):
    backend_type = PostgresBackend
