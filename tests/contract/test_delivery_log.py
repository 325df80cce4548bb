"""The :class:`~events.recorders.deliveries.DeliveryLog` contract (the dispatch cursor,
deliveries, claims, attempts), run against every backend (see conftest.py).

The PostgreSQL database is shared by the whole session, and delivery claims
are global, so every test registers its webhooks through the ``hooks``
fixture, which deactivates them afterwards (their pending deliveries become
``failed`` and can no longer be claimed by a later test).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest

from events import Stores
from events.recorders.deliveries import AttemptOutcome, NewDelivery
from events.recorders.tournaments import WebhookRecord
from events.records import InvalidCursor
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.conftest import (
    T0,
    delivery,
    every_page,
    new_games,
    opening,
    pending,
    retry_at,
    uid,
)

NewId = Callable[[], str]


def one_pending(
    store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
) -> tuple[WebhookRecord, NewDelivery]:
    """A new webhook, and one pending delivery of a finished game for it."""
    hook = hooks()
    gid = new_id()
    store.events.create_game(gid, "test-game", {}, opening(), "finished")
    [made] = pending(store.deliveries, hook, [gid])
    return hook, made


def test_attempt_outcomes_are_checked_before_any_write() -> None:
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "pending", 500, None, 1)  # a retry needs its time
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "delivered", 200, None, 1, next_attempt_at=T0)
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "lost", None, None, 1)
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "failed", None, "x", -1)


class DeliveryLogContract(Contract):
    """The dispatch cursor, deliveries, claims and attempts, on one backend per subclass."""

    # -- the dispatch cursor and recording deliveries -----------------------------------

    def test_the_cursor_moves_only_with_its_deliveries(
        self, store: Stores, hooks: Callable[..., WebhookRecord]
    ) -> None:
        hook = hooks()
        gid = uid("g")
        store.events.create_game(gid, "test-game", {}, opening(2), "finished")
        start = store.deliveries.dispatch_state().cursor
        head = store.events.load(gid)[-1].position
        made = delivery(hook, gid, body='{"n":1}')
        assert store.deliveries.record_deliveries(start, head, [made], T0) is True
        assert store.deliveries.dispatch_state().cursor == head
        # a dispatcher that read the old cursor loses: nothing of it is written
        late = delivery(hook, gid, "game.started")
        assert store.deliveries.record_deliveries(start, head, [late], T0) is False
        page = store.deliveries.list_deliveries(hook.webhook_id)
        assert [(d.delivery_id, d.event, d.body, d.state, d.attempts) for d in page.deliveries] == [
            (made.delivery_id, "game.finished", '{"n":1}', "pending", 0)
        ]
        assert page.deliveries[0].next_attempt_at == page.deliveries[0].created_at
        with pytest.raises(ValueError):
            store.deliveries.record_deliveries(head, head - 1, [], T0)

    def test_dispatch_state_and_a_registration_racing_a_pass(
        self, store: Stores, hooks: Callable[..., WebhookRecord]
    ) -> None:
        gid = uid("g")
        store.events.create_game(gid, "test-game", {}, opening(2), "playing")
        head = store.events.load(gid)[-1].position
        before = store.deliveries.dispatch_state()
        assert (before.cursor, before.head) == (store.deliveries.dispatch_state().cursor, head)
        # a pass saw the state, then a webhook was registered: the pass must not move the cursor
        hook = hooks()
        assert hook.from_position == head
        assert store.deliveries.record_deliveries(before.cursor, before.head, [], T0, before.webhooks) is False
        assert store.deliveries.dispatch_state().cursor == before.cursor
        after = store.deliveries.dispatch_state()
        assert after.webhooks == before.webhooks + 1 and after.active
        assert store.deliveries.record_deliveries(after.cursor, after.head, [], T0, after.webhooks) is True
        assert store.deliveries.dispatch_state().cursor == head
        store.tournaments.deactivate_webhook(hook.webhook_id)
        assert store.deliveries.dispatch_state().webhooks == after.webhooks  # deactivating does not change the count

    def test_a_delivery_is_created_once_per_webhook_game_and_event(
        self, store: Stores, hooks: Callable[..., WebhookRecord]
    ) -> None:
        hook = hooks(("game.started", "game.finished"))
        gid = uid("g")
        store.events.create_game(gid, "test-game", {}, opening(), "finished")
        first = delivery(hook, gid, body="first")
        cursor = store.deliveries.dispatch_state().cursor
        assert store.deliveries.record_deliveries(cursor, cursor, [first], T0)
        # a second dispatcher that read the same events (after a crash, say) adds nothing twice
        assert store.deliveries.record_deliveries(
            cursor, cursor, [delivery(hook, gid, body="second"), delivery(hook, gid, "game.started")], T0
        )
        found = {(d.event, d.body) for d in store.deliveries.list_deliveries(hook.webhook_id).deliveries}
        assert found == {("game.finished", "first"), ("game.started", "{}")}

    def test_a_fresh_database_starts_its_cursor_at_zero(self, backend: Backend) -> None:
        with backend.own_database("cc_migrate") as fresh:
            assert fresh.open().deliveries.dispatch_state().cursor == 0

    # -- claiming and settling ----------------------------------------------------------

    def test_claims_take_due_deliveries_oldest_first_and_lease_them(
        self, store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
    ) -> None:
        hook = hooks()
        ids = new_games(store.events, new_id, 3, "test-game", "finished")
        early = pending(store.deliveries, hook, ids[:2], T0 - timedelta(seconds=10))
        later = pending(store.deliveries, hook, ids[2:], T0 + timedelta(seconds=10))
        assert store.deliveries.claim_deliveries("a", T0 - timedelta(seconds=11), 60, 10) == ()
        got = store.deliveries.claim_deliveries("a", T0, 60, 10)
        assert {c.delivery_id for c in got} == {d.delivery_id for d in early}
        assert all(c.url == hook.url and c.secret == hook.secret and c.attempts == 0 for c in got)
        # leased: nobody else gets them before the lease ends, even once due time passes
        assert {c.delivery_id for c in store.deliveries.claim_deliveries("b", T0 + timedelta(seconds=20), 60, 10)} == {
            later[0].delivery_id
        }
        assert store.deliveries.claim_deliveries("c", T0 + timedelta(seconds=59), 60, 10) == ()
        # a lease that ran out (its dispatcher died) is taken over
        retaken = store.deliveries.claim_deliveries("c", T0 + timedelta(seconds=61), 60, 1)
        assert len(retaken) == 1 and retaken[0].delivery_id in {d.delivery_id for d in early}
        with pytest.raises(ValueError):
            store.deliveries.claim_deliveries("a", T0, 0, 10)
        with pytest.raises(ValueError):
            store.deliveries.claim_deliveries("a", T0, 10, 0)

    def test_an_attempt_is_recorded_only_by_the_lease_holder(
        self, store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
    ) -> None:
        hook, made = one_pending(store, hooks, new_id)
        [claim] = store.deliveries.claim_deliveries("a", T0, 30, 5)
        assert store.deliveries.record_attempt(claim.delivery_id, "intruder", retry_at(T0)) is False
        assert store.deliveries.record_attempt(claim.delivery_id, "a", retry_at(T0, 503)) is True
        assert store.deliveries.record_attempt(claim.delivery_id, "a", retry_at(T0)) is False  # lease released
        [record] = store.deliveries.list_deliveries(hook.webhook_id).deliveries
        assert (record.state, record.attempts, record.last_status_code, record.delivered_at) == (
            "pending",
            1,
            503,
            None,
        )
        assert record.next_attempt_at is not None and record.next_attempt_at > record.created_at
        # not due before its next attempt time
        assert store.deliveries.claim_deliveries("b", T0 + timedelta(seconds=29), 30, 5) == ()
        [again] = store.deliveries.claim_deliveries("b", T0 + timedelta(seconds=30), 30, 5)
        assert again.attempts == 1
        # the first holder's lease is gone: its late report is refused
        assert store.deliveries.record_attempt(made.delivery_id, "a", retry_at(T0)) is False
        done = AttemptOutcome(T0 + timedelta(seconds=31), "delivered", 200, None, 7)
        assert store.deliveries.record_attempt(made.delivery_id, "b", done) is True
        [record] = store.deliveries.list_deliveries(hook.webhook_id).deliveries
        assert (record.state, record.attempts, record.last_status_code, record.next_attempt_at) == (
            "delivered",
            2,
            200,
            None,
        )
        assert record.delivered_at is not None and record.delivered_at.startswith("2030-01-01T12:00:31")
        assert [(a.attempt, a.status_code, a.duration_ms) for a in record.history] == [(1, 503, 12), (2, 200, 7)]
        assert store.deliveries.claim_deliveries("c", T0 + timedelta(days=1), 30, 5) == ()

    def test_a_failed_delivery_keeps_its_error_and_is_never_claimed_again(
        self, store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
    ) -> None:
        hook, _ = one_pending(store, hooks, new_id)
        [claim] = store.deliveries.claim_deliveries("a", T0, 30, 5)
        gave_up = AttemptOutcome(T0, "failed", None, "connection refused", 3)
        assert store.deliveries.record_attempt(claim.delivery_id, "a", gave_up)
        [record] = store.deliveries.list_deliveries(hook.webhook_id).deliveries
        assert (record.state, record.last_status_code, record.last_error, record.next_attempt_at) == (
            "failed",
            None,
            "connection refused",
            None,
        )
        assert record.history[0].error == "connection refused"
        assert store.deliveries.claim_deliveries("b", T0 + timedelta(days=1), 30, 5) == ()

    def test_deactivating_a_webhook_fails_its_pending_deliveries(
        self, store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
    ) -> None:
        hook, _ = one_pending(store, hooks, new_id)
        assert store.tournaments.deactivate_webhook(hook.webhook_id)
        assert store.deliveries.claim_deliveries("a", T0 + timedelta(days=1), 30, 5) == ()
        [record] = store.deliveries.list_deliveries(hook.webhook_id).deliveries
        assert (record.state, record.last_error) == ("failed", "the webhook was deleted")

    def test_concurrent_claimers_never_share_a_delivery(
        self, backend: Backend, store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
    ) -> None:
        hook = hooks()
        ids = new_games(store.events, new_id, 24, "test-game", "finished")
        made = pending(store.deliveries, hook, ids)
        stores = [backend.open() for _ in range(4)]
        claimed: list[list[str]] = [[] for _ in stores]
        start = threading.Barrier(len(stores))

        def claim(i: int) -> None:
            start.wait()
            while batch := stores[i].deliveries.claim_deliveries(f"w{i}", T0, 60, 2):
                claimed[i].extend(c.delivery_id for c in batch)

        threads = [threading.Thread(target=claim, args=(i,)) for i in range(len(stores))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        everything = [d for part in claimed for d in part]
        assert sorted(everything) == sorted(d.delivery_id for d in made)  # each exactly once

    # -- listing deliveries ----------------------------------------------------------------

    def test_deliveries_are_listed_newest_first_in_pages(
        self, store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
    ) -> None:
        hook = hooks()
        ids = new_games(store.events, new_id, 5, "test-game", "finished")
        for gid in ids:  # one at a time, so creation order is the listing order
            pending(store.deliveries, hook, [gid])
        pages = every_page(lambda cursor: store.deliveries.list_deliveries(hook.webhook_id, limit=2, cursor=cursor),
                           lambda page: page.deliveries)
        seen = [d.game_id for d in pages]
        assert seen == ids[::-1]
        assert store.deliveries.list_deliveries(uid("w")).deliveries == ()
        with pytest.raises(InvalidCursor):
            store.deliveries.list_deliveries(hook.webhook_id, cursor="not-a-cursor")
        with pytest.raises(ValueError):
            store.deliveries.list_deliveries(hook.webhook_id, limit=0)

    def test_claims_are_fair_across_organisers_and_capped_per_webhook(
        self, store: Stores, hooks: Callable[..., WebhookRecord], new_id: NewId
    ) -> None:
        """Issue 25: claims came from one queue by due time, so an organiser's
        flood (older deliveries, hanging receivers) starved everyone else's."""
        flood = [hooks(), hooks()]
        other = store.tournaments.create_organiser(uid("o"), "Quiet Cup", "k1:0:" + "0" * 64)
        quiet = store.tournaments.create_webhook(uid("w"), other.organiser_id, "http://127.0.0.1:9/q",
                                                 ("game.finished",), "s3cret", None)
        try:
            games = new_games(store.events, new_id, 13, "test-game", "finished")
            for hook in flood:
                pending(store.deliveries, hook, games[:6], T0 - timedelta(seconds=60))  # the flood is older
            [waiting] = pending(store.deliveries, quiet, games[12:], T0)
            first = store.deliveries.claim_deliveries("a", T0, 60, 1, per_webhook=2, per_organiser=4)
            assert [c.webhook_id for c in first] in ([flood[0].webhook_id], [flood[1].webhook_id])
            # the flood's organiser holds one in flight: the quiet organiser's turn comes first
            second = store.deliveries.claim_deliveries("b", T0, 60, 1, per_webhook=2, per_organiser=4)
            assert [c.delivery_id for c in second] == [waiting.delivery_id]
            # per webhook at most 2 in flight, per organiser at most 4, whatever the limit asked
            rest = store.deliveries.claim_deliveries("c", T0, 60, 20, per_webhook=2, per_organiser=4)
            held = [c.webhook_id for c in (*first, *rest)]
            assert len(held) == 4 and all(held.count(h.webhook_id) == 2 for h in flood)
            assert store.deliveries.claim_deliveries("d", T0, 60, 20, per_webhook=2, per_organiser=4) == ()
            # without caps (as before) a claim takes whatever is due
            assert len(store.deliveries.claim_deliveries("e", T0, 60, 20)) == 12 - 4
        finally:
            store.tournaments.deactivate_webhook(quiet.webhook_id)


class TestDeliveryLogSqlite(DeliveryLogContract):
    backend_type = SqliteBackend


class TestDeliveryLogPostgres(DeliveryLogContract):
    backend_type = PostgresBackend
