"""The tournament part of the store contract (organisers, batches, webhooks,
deliveries and the dispatch cursor), run against every backend.

The PostgreSQL database is shared by the whole session, and delivery claims
are global, so every test registers its webhooks through the ``hooks``
fixture, which deactivates them afterwards (their pending deliveries become
``failed`` and can no longer be claimed by a later test).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from events.deliveries import AttemptOutcome, NewDelivery
from events.store import EventStore, GameExists, GameNotFound, IntegrityError, InvalidCursor, NewEvent
from events.tournaments import OrganiserRecord, WebhookRecord
from tests.contract.conftest import Backend

NewId = Callable[[], str]
T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
HASH = "ab" * 32


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def opening(n: int = 1) -> list[NewEvent]:
    return [NewEvent(type="set_up", payload={"i": i}) for i in range(n)]


def game_spec(
    game_id: str, batch: str | None = None
) -> tuple[str, str, dict[str, object], list[NewEvent], str]:
    metadata: dict[str, object] = {"batch": batch} if batch else {}
    return (game_id, "test-game", metadata, opening(2), "playing")


def delivery(
    webhook: WebhookRecord, game_id: str, event: str = "game.finished", body: str = "{}"
) -> NewDelivery:
    return NewDelivery(uid("d"), webhook.webhook_id, game_id, event, body)


def retry_at(when: datetime, status: int | None = 500, error: str | None = None) -> AttemptOutcome:
    return AttemptOutcome(when, "pending", status, error, 12, next_attempt_at=when + timedelta(seconds=30))


@pytest.fixture
def organiser(store: EventStore) -> OrganiserRecord:
    return store.create_organiser(uid("o"), "Bay Area Open", HASH)


@pytest.fixture
def hooks(store: EventStore, organiser: OrganiserRecord) -> Iterator[Callable[..., WebhookRecord]]:
    """Register webhooks for ``organiser``; all are deactivated at the end."""
    made: list[WebhookRecord] = []

    def make(events: tuple[str, ...] = ("game.finished",), batch_id: str | None = None) -> WebhookRecord:
        hook = store.create_webhook(
            uid("w"), organiser.organiser_id, "http://127.0.0.1:9/h", events, "s3cret", batch_id
        )
        made.append(hook)
        return hook

    yield make
    for hook in made:
        store.deactivate_webhook(hook.webhook_id)


def pending(
    store: EventStore, hook: WebhookRecord, game_ids: list[str], now: datetime = T0
) -> list[NewDelivery]:
    """Record one pending delivery per game for ``hook`` (cursor unchanged)."""
    made = [delivery(hook, gid) for gid in game_ids]
    cursor = store.dispatch_state().cursor
    assert store.record_deliveries(cursor, cursor, made, now)
    return made


# -- organisers ---------------------------------------------------------------------


def test_organisers_are_stored_with_their_token_hash(store: EventStore) -> None:
    oid = uid("o")
    made = store.create_organiser(oid, "Ada's league", HASH)
    assert (made.organiser_id, made.name, made.token_hash) == (oid, "Ada's league", HASH)
    assert made.created_at.endswith("Z")
    assert store.get_organiser(oid) == made
    assert store.get_organiser(uid("o")) is None
    with pytest.raises(IntegrityError):
        store.create_organiser(oid, "again", HASH)


# -- one metadata key, compared and set ------------------------------------------------


def test_compare_and_set_metadata_sets_only_over_the_expected_value(store: EventStore, new_id: NewId) -> None:
    gid = new_id()
    store.create_game(gid, "test-game", {"hashes": ["a", "b"], "batch": "x"}, opening(), "playing")
    assert store.compare_and_set_metadata(gid, "hashes", ["a", "b"], ["a", "c"]) is True
    # a second writer that read the old list loses instead of undoing the first change
    assert store.compare_and_set_metadata(gid, "hashes", ["a", "b"], ["z", "b"]) is False
    assert store.compare_and_set_metadata(gid, "missing", None, 1) is False
    assert store.get_game(gid).metadata == {"hashes": ["a", "c"], "batch": "x"}
    with pytest.raises(GameNotFound):
        store.compare_and_set_metadata(new_id(), "hashes", [], [])


# -- batches ------------------------------------------------------------------------


def test_a_batch_and_all_its_games_are_created_together(
    store: EventStore, organiser: OrganiserRecord
) -> None:
    bid = uid("b")
    ids = [uid("g") for _ in range(3)]
    batch = store.create_batch(
        bid, organiser.organiser_id, "round 1", "test-game", [game_spec(g, bid) for g in ids]
    )
    assert (batch.batch_id, batch.organiser_id, batch.name, batch.game_type, batch.tables) == (
        bid,
        organiser.organiser_id,
        "round 1",
        "test-game",
        3,
    )
    assert store.get_batch(bid) == batch
    assert store.get_batch(uid("b")) is None
    listed = store.list_games(batch=bid).games
    assert sorted(g.game_id for g in listed) == sorted(ids)
    assert all(g.version == 2 and g.metadata == {"batch": bid} for g in listed)
    assert [e.seq for e in store.load(ids[1])] == [1, 2]


def test_a_batch_with_a_taken_game_id_writes_nothing(store: EventStore, organiser: OrganiserRecord) -> None:
    taken = uid("g")
    store.create_game(taken, "test-game", {}, opening(), "playing")
    bid = uid("b")
    fresh = uid("g")
    with pytest.raises(GameExists):
        store.create_batch(
            bid, organiser.organiser_id, None, "test-game", [game_spec(fresh, bid), game_spec(taken, bid)]
        )
    assert store.get_batch(bid) is None
    assert store.list_games(batch=bid).games == ()


def test_a_batch_refused_by_the_database_writes_no_game(
    store: EventStore, organiser: OrganiserRecord
) -> None:
    bid = uid("b")
    store.create_batch(bid, organiser.organiser_id, None, "test-game", [game_spec(uid("g"), bid)])
    again = uid("g")
    with pytest.raises(IntegrityError):  # the batch id is taken
        store.create_batch(bid, organiser.organiser_id, None, "test-game", [game_spec(again, bid)])
    stranger = uid("g")
    with pytest.raises(IntegrityError):  # unknown organiser
        store.create_batch(uid("b"), uid("o"), None, "test-game", [game_spec(stranger)])
    for gid in (again, stranger):
        with pytest.raises(Exception, match="no game"):
            store.get_game(gid)
    with pytest.raises(ValueError):
        store.create_batch(uid("b"), organiser.organiser_id, None, "test-game", [])


def test_a_batch_is_all_or_nothing(store: EventStore, organiser: OrganiserRecord) -> None:
    taken, a, b = uid("g"), uid("g"), uid("g")
    store.create_game(taken, "t", {}, opening(), "playing")

    def create(*games: tuple[str, str, dict[str, object], list[NewEvent], str]) -> None:
        store.create_batch(uid("b"), organiser.organiser_id, None, "t", games)

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
            store.get_game(gid)
    create((a, "t", {"batch": "x"}, opening(), "playing"), (b, "t", {"batch": "x"}, [], "setup"))
    assert (store.version(a), store.version(b)) == (1, 0)
    assert store.verify_chain(a).ok


def test_an_organisers_batches_are_listed_newest_first(store: EventStore, organiser: OrganiserRecord) -> None:
    ids = [uid("b") for _ in range(5)]
    for bid in ids:
        store.create_batch(
            bid, organiser.organiser_id, f"round {bid}", "test-game", [game_spec(uid("g"), bid)]
        )
    other = store.create_organiser(uid("o"), "other", HASH)
    store.create_batch(uid("b"), other.organiser_id, None, "test-game", [game_spec(uid("g"))])
    seen: list[str] = []
    page = store.list_batches(organiser.organiser_id, limit=2)
    seen += [b.batch_id for b in page.batches]
    while page.next_cursor is not None:
        page = store.list_batches(organiser.organiser_id, limit=2, cursor=page.next_cursor)
        seen += [b.batch_id for b in page.batches]
    assert seen == ids[::-1]
    assert store.list_batches(organiser.organiser_id, limit=1).batches[0] == store.get_batch(ids[-1])
    assert store.list_batches(uid("o")).batches == ()
    with pytest.raises(InvalidCursor):
        store.list_batches(organiser.organiser_id, cursor="%%%")


# -- webhooks -----------------------------------------------------------------------


def test_webhooks_start_at_the_head_of_the_log(store: EventStore, organiser: OrganiserRecord) -> None:
    gid = uid("g")
    store.create_game(gid, "test-game", {}, opening(3), "playing")
    head = store.load(gid)[-1].position
    hook = store.create_webhook(
        uid("w"), organiser.organiser_id, "https://example.org/h", ["game.started"], "sec"
    )
    assert hook.from_position >= head and hook.active and hook.batch_id is None
    assert hook.events == ("game.started",) and hook.secret == "sec" and hook.url == "https://example.org/h"
    assert store.get_webhook(hook.webhook_id) == hook
    assert store.get_webhook(uid("w")) is None
    store.deactivate_webhook(hook.webhook_id)


def test_webhooks_are_listed_per_organiser_and_only_while_active(
    store: EventStore, organiser: OrganiserRecord, hooks: Callable[..., WebhookRecord]
) -> None:
    bid = uid("b")
    store.create_batch(bid, organiser.organiser_id, None, "test-game", [game_spec(uid("g"), bid)])
    first = hooks()
    second = hooks(("game.started", "game.finished"), bid)
    other = store.create_organiser(uid("o"), "other", HASH)
    store.create_webhook(uid("w"), other.organiser_id, "http://x.test/", ["game.finished"], "s")
    assert store.list_webhooks(organiser.organiser_id) == (first, second)
    assert second.batch_id == bid and second.events == ("game.started", "game.finished")
    assert store.deactivate_webhook(first.webhook_id) is True
    assert store.deactivate_webhook(first.webhook_id) is False
    assert store.deactivate_webhook(uid("w")) is False
    assert store.list_webhooks(organiser.organiser_id) == (second,)
    stopped = store.get_webhook(first.webhook_id)
    assert stopped is not None and not stopped.active


def test_webhooks_need_a_known_organiser_and_batch_and_an_event(
    store: EventStore, organiser: OrganiserRecord
) -> None:
    with pytest.raises(IntegrityError):
        store.create_webhook(uid("w"), uid("o"), "http://x.test/", ["game.finished"], "s")
    with pytest.raises(IntegrityError):
        store.create_webhook(
            uid("w"), organiser.organiser_id, "http://x.test/", ["game.finished"], "s", uid("b")
        )
    with pytest.raises(ValueError):
        store.create_webhook(uid("w"), organiser.organiser_id, "http://x.test/", [], "s")
    assert store.list_webhooks(organiser.organiser_id) == ()


# -- the dispatch cursor and recording deliveries -----------------------------------


def test_the_cursor_moves_only_with_its_deliveries(
    store: EventStore, hooks: Callable[..., WebhookRecord]
) -> None:
    hook = hooks()
    gid = uid("g")
    store.create_game(gid, "test-game", {}, opening(2), "finished")
    start = store.dispatch_state().cursor
    head = store.load(gid)[-1].position
    made = delivery(hook, gid, body='{"n":1}')
    assert store.record_deliveries(start, head, [made], T0) is True
    assert store.dispatch_state().cursor == head
    # a dispatcher that read the old cursor loses: nothing of it is written
    late = delivery(hook, gid, "game.started")
    assert store.record_deliveries(start, head, [late], T0) is False
    page = store.list_deliveries(hook.webhook_id)
    assert [(d.delivery_id, d.event, d.body, d.state, d.attempts) for d in page.deliveries] == [
        (made.delivery_id, "game.finished", '{"n":1}', "pending", 0)
    ]
    assert page.deliveries[0].next_attempt_at == page.deliveries[0].created_at
    with pytest.raises(ValueError):
        store.record_deliveries(head, head - 1, [], T0)


def test_dispatch_state_and_a_registration_racing_a_pass(
    store: EventStore, hooks: Callable[..., WebhookRecord]
) -> None:
    gid = uid("g")
    store.create_game(gid, "test-game", {}, opening(2), "playing")
    head = store.load(gid)[-1].position
    before = store.dispatch_state()
    assert (before.cursor, before.head) == (store.dispatch_state().cursor, head)
    # a pass saw the state, then a webhook was registered: the pass must not move the cursor
    hook = hooks()
    assert hook.from_position == head
    assert store.record_deliveries(before.cursor, before.head, [], T0, before.webhooks) is False
    assert store.dispatch_state().cursor == before.cursor
    after = store.dispatch_state()
    assert after.webhooks == before.webhooks + 1 and after.active
    assert store.record_deliveries(after.cursor, after.head, [], T0, after.webhooks) is True
    assert store.dispatch_state().cursor == head
    store.deactivate_webhook(hook.webhook_id)
    assert store.dispatch_state().webhooks == after.webhooks  # deactivating does not change the count


def test_a_delivery_is_created_once_per_webhook_game_and_event(
    store: EventStore, hooks: Callable[..., WebhookRecord]
) -> None:
    hook = hooks(("game.started", "game.finished"))
    gid = uid("g")
    store.create_game(gid, "test-game", {}, opening(), "finished")
    first = delivery(hook, gid, body="first")
    cursor = store.dispatch_state().cursor
    assert store.record_deliveries(cursor, cursor, [first], T0)
    # a second dispatcher that read the same events (after a crash, say) adds nothing twice
    assert store.record_deliveries(
        cursor, cursor, [delivery(hook, gid, body="second"), delivery(hook, gid, "game.started")], T0
    )
    found = {(d.event, d.body) for d in store.list_deliveries(hook.webhook_id).deliveries}
    assert found == {("game.finished", "first"), ("game.started", "{}")}


def test_a_fresh_database_starts_its_cursor_at_zero(backend: Backend, request: pytest.FixtureRequest) -> None:
    fresh = (
        backend
        if backend.name == "sqlite"
        else Backend("postgres", request.getfixturevalue("fresh_postgres_url"))
    )
    try:
        assert fresh.open().dispatch_state().cursor == 0
    finally:
        fresh.close()


# -- claiming and settling ----------------------------------------------------------


def test_claims_take_due_deliveries_oldest_first_and_lease_them(
    store: EventStore, hooks: Callable[..., WebhookRecord], new_id: NewId
) -> None:
    hook = hooks()
    ids = [new_id() for _ in range(3)]
    for gid in ids:
        store.create_game(gid, "test-game", {}, opening(), "finished")
    early = pending(store, hook, ids[:2], T0 - timedelta(seconds=10))
    later = pending(store, hook, ids[2:], T0 + timedelta(seconds=10))
    assert store.claim_deliveries("a", T0 - timedelta(seconds=11), 60, 10) == ()
    got = store.claim_deliveries("a", T0, 60, 10)
    assert {c.delivery_id for c in got} == {d.delivery_id for d in early}
    assert all(c.url == hook.url and c.secret == hook.secret and c.attempts == 0 for c in got)
    # leased: nobody else gets them before the lease ends, even once due time passes
    assert {c.delivery_id for c in store.claim_deliveries("b", T0 + timedelta(seconds=20), 60, 10)} == {
        later[0].delivery_id
    }
    assert store.claim_deliveries("c", T0 + timedelta(seconds=59), 60, 10) == ()
    # a lease that ran out (its dispatcher died) is taken over
    retaken = store.claim_deliveries("c", T0 + timedelta(seconds=61), 60, 1)
    assert len(retaken) == 1 and retaken[0].delivery_id in {d.delivery_id for d in early}
    with pytest.raises(ValueError):
        store.claim_deliveries("a", T0, 0, 10)
    with pytest.raises(ValueError):
        store.claim_deliveries("a", T0, 10, 0)


def test_an_attempt_is_recorded_only_by_the_lease_holder(
    store: EventStore, hooks: Callable[..., WebhookRecord], new_id: NewId
) -> None:
    hook = hooks()
    gid = new_id()
    store.create_game(gid, "test-game", {}, opening(), "finished")
    [made] = pending(store, hook, [gid])
    [claim] = store.claim_deliveries("a", T0, 30, 5)
    assert store.record_attempt(claim.delivery_id, "intruder", retry_at(T0)) is False
    assert store.record_attempt(claim.delivery_id, "a", retry_at(T0, 503)) is True
    assert store.record_attempt(claim.delivery_id, "a", retry_at(T0)) is False  # lease released
    [record] = store.list_deliveries(hook.webhook_id).deliveries
    assert (record.state, record.attempts, record.last_status_code, record.delivered_at) == (
        "pending",
        1,
        503,
        None,
    )
    assert record.next_attempt_at is not None and record.next_attempt_at > record.created_at
    # not due before its next attempt time
    assert store.claim_deliveries("b", T0 + timedelta(seconds=29), 30, 5) == ()
    [again] = store.claim_deliveries("b", T0 + timedelta(seconds=30), 30, 5)
    assert again.attempts == 1
    # the first holder's lease is gone: its late report is refused
    assert store.record_attempt(made.delivery_id, "a", retry_at(T0)) is False
    done = AttemptOutcome(T0 + timedelta(seconds=31), "delivered", 200, None, 7)
    assert store.record_attempt(made.delivery_id, "b", done) is True
    [record] = store.list_deliveries(hook.webhook_id).deliveries
    assert (record.state, record.attempts, record.last_status_code, record.next_attempt_at) == (
        "delivered",
        2,
        200,
        None,
    )
    assert record.delivered_at is not None and record.delivered_at.startswith("2030-01-01T12:00:31")
    assert [(a.attempt, a.status_code, a.duration_ms) for a in record.history] == [(1, 503, 12), (2, 200, 7)]
    assert store.claim_deliveries("c", T0 + timedelta(days=1), 30, 5) == ()


def test_a_failed_delivery_keeps_its_error_and_is_never_claimed_again(
    store: EventStore, hooks: Callable[..., WebhookRecord], new_id: NewId
) -> None:
    hook = hooks()
    gid = new_id()
    store.create_game(gid, "test-game", {}, opening(), "finished")
    pending(store, hook, [gid])
    [claim] = store.claim_deliveries("a", T0, 30, 5)
    gave_up = AttemptOutcome(T0, "failed", None, "connection refused", 3)
    assert store.record_attempt(claim.delivery_id, "a", gave_up)
    [record] = store.list_deliveries(hook.webhook_id).deliveries
    assert (record.state, record.last_status_code, record.last_error, record.next_attempt_at) == (
        "failed",
        None,
        "connection refused",
        None,
    )
    assert record.history[0].error == "connection refused"
    assert store.claim_deliveries("b", T0 + timedelta(days=1), 30, 5) == ()


def test_deactivating_a_webhook_fails_its_pending_deliveries(
    store: EventStore, hooks: Callable[..., WebhookRecord], new_id: NewId
) -> None:
    hook = hooks()
    gid = new_id()
    store.create_game(gid, "test-game", {}, opening(), "finished")
    pending(store, hook, [gid])
    assert store.deactivate_webhook(hook.webhook_id)
    assert store.claim_deliveries("a", T0 + timedelta(days=1), 30, 5) == ()
    [record] = store.list_deliveries(hook.webhook_id).deliveries
    assert (record.state, record.last_error) == ("failed", "the webhook was deleted")


def test_concurrent_claimers_never_share_a_delivery(
    backend: Backend, store: EventStore, hooks: Callable[..., WebhookRecord], new_id: NewId
) -> None:
    hook = hooks()
    ids = [new_id() for _ in range(24)]
    for gid in ids:
        store.create_game(gid, "test-game", {}, opening(), "finished")
    made = pending(store, hook, ids)
    stores = [backend.open() for _ in range(4)]
    claimed: list[list[str]] = [[] for _ in stores]
    start = threading.Barrier(len(stores))

    def claim(i: int) -> None:
        start.wait()
        while batch := stores[i].claim_deliveries(f"w{i}", T0, 60, 2):
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
    store: EventStore, hooks: Callable[..., WebhookRecord], new_id: NewId
) -> None:
    hook = hooks()
    ids = [new_id() for _ in range(5)]
    for gid in ids:
        store.create_game(gid, "test-game", {}, opening(), "finished")
    for gid in ids:  # one at a time, so creation order is the listing order
        pending(store, hook, [gid])
    seen: list[str] = []
    page = store.list_deliveries(hook.webhook_id, limit=2)
    seen += [d.game_id for d in page.deliveries]
    while page.next_cursor is not None:
        page = store.list_deliveries(hook.webhook_id, limit=2, cursor=page.next_cursor)
        seen += [d.game_id for d in page.deliveries]
    assert seen == ids[::-1]
    assert store.list_deliveries(uid("w")).deliveries == ()
    with pytest.raises(InvalidCursor):
        store.list_deliveries(hook.webhook_id, cursor="not-a-cursor")
    with pytest.raises(ValueError):
        store.list_deliveries(hook.webhook_id, limit=0)


def test_attempt_outcomes_are_checked_before_any_write() -> None:
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "pending", 500, None, 1)  # a retry needs its time
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "delivered", 200, None, 1, next_attempt_at=T0)
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "lost", None, None, 1)
    with pytest.raises(ValueError):
        AttemptOutcome(T0, "failed", None, "x", -1)
