"""Fixtures and helpers of the contract suites (``tests/contract``).

Each interface has a suite (``test_event_store.py``, ``test_event_reader.py``,
``test_tournament_store.py``, ``test_delivery_log.py``, ...): a base class
holding the tests, named without the ``Test`` prefix so that pytest does not
collect it (``EventStoreContract``), and one subclass per backend it runs on
(``TestEventStoreSqlite``, ``TestEventStorePostgres``), naming the backend
(``backend_type = SqliteBackend``), as eventsourcing's recorder test cases
are subclassed per database.  The backends and the base of every suite,
:class:`~tests.contract.backends.Contract` (the ``backend``, ``store`` and
``reader`` fixtures), are in ``backends.py``:

* ``sqlite``: a fresh file per test;
* ``postgres``: a database created for this test session on the server
  named by ``CABLECAR_TEST_DATABASE_URL``, fresh game ids per test.  Its
  runs are skipped when that variable is unset, unless ``CI=true``, where
  its absence is an error (:func:`postgres_admin_url`);
* ``standby``, for the reads a standby may serve (``EventReaderContract``,
  read through ``reader``, the store's :attr:`~events.Stores.reader`):
  the same PostgreSQL database written through the primary and read through
  a hot standby of the test server, fed by streaming replication
  (``tests/contract/standby.py``; skipped when its tools are missing).

A test only one backend can pass (LISTEN/NOTIFY, a row lock held from another
connection) is a method of that backend's subclass; what only some backends
do (a database clock of its own) is a suite extending the common one
(``DatabaseClockContract``), subclassed for those backends alone.  Tests of
one backend by nature (its migrations, roles, processes, standby reader)
are plain tests in modules of their own.

To add a backend: write its :class:`~tests.contract.backends.Backend`
subclass in ``backends.py`` (how it opens a store, runs raw SQL, tampers with
events past its triggers and makes a database of a test's own; its marks),
then one subclass per suite it should pass, beside the others::

    class TestEventStoreMysql(EventStoreContract):
        backend_type = MysqlBackend

Nothing here or in the suites branches on a backend's name.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

import pytest

from events import Stores
from events.integrity.signing import Signer
from events.recorders.deliveries import AttemptOutcome, DeliveryLog, NewDelivery
from events.recorders.event_log import EventStore
from events.recorders.tournaments import OrganiserRecord, WebhookRecord
from events.records import NewEvent
from service.adapters.tokens import TokenHasher

T = TypeVar("T")


class Page(Protocol):
    """A page of a listing."""

    @property
    def next_cursor(self) -> str | None: ...


P = TypeVar("P", bound=Page)

#: the key the contract suite's stores sign with (the server's comes from its configuration)
TEST_SIGNER = Signer.generate("2020-01-01T00:00:00.000000Z")  # made before any clock a test runs on
#: the keyed token hashes of the suite's games (the server's key comes from its secret)
TEST_HASHER = TokenHasher(b"the contract suite's token key, 32+ bytes long")


def postgres_admin_url() -> str:
    """The test server URL; skips (or fails under CI=true) when unset."""
    url = os.environ.get("CABLECAR_TEST_DATABASE_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "CABLECAR_TEST_DATABASE_URL is not set but CI=true: the PostgreSQL contract tests must run "
                '(eval "$(scripts/test-services.sh up)")',
                pytrace=False,
            )
        pytest.skip('CABLECAR_TEST_DATABASE_URL is not set (eval "$(scripts/test-services.sh up)")')
    return url


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def create_database(admin_url: str, prefix: str = "cc_contract", migrated: bool = True) -> str:
    """Create a uniquely named database, migrated unless ``migrated`` is
    false (the store never migrates PostgreSQL itself); return its URL."""
    import psycopg

    from events.migrations.apply import migrate_postgres

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"'.encode())
    url = with_database(admin_url, name)
    if migrated:
        migrate_postgres(url)
    return url


def drop_database(admin_url: str, url: str) -> None:
    """Drop the database ``url`` names (closing its sessions)."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A database of its own for this test session, migrated (the store
    never migrates PostgreSQL itself)."""
    admin = postgres_admin_url()
    url = create_database(admin)
    yield url
    drop_database(admin, url)


@pytest.fixture
def fresh_postgres_url() -> Iterator[str]:
    """An empty database for one test (migration tests)."""
    admin = postgres_admin_url()
    url = create_database(admin, "cc_migrate", migrated=False)
    yield url
    drop_database(admin, url)


@pytest.fixture(scope="session")
def standby_url(postgres_url: str) -> Iterator[str]:
    """The session's database on a hot standby of the test server (skipped
    when the tools to make one are missing, unless ``CI=true``)."""
    from tests.contract.standby import hot_standby, standby_tools

    tools = standby_tools(postgres_url)
    if isinstance(tools, str):
        if os.environ.get("CI") == "true":
            pytest.fail(f"no hot standby can be made for the standby contract tests: {tools}", pytrace=False)
        pytest.skip(f"no hot standby: {tools}")
    with hot_standby(postgres_url, *tools) as url:
        yield url


@pytest.fixture
def new_id() -> Callable[[], str]:
    """Fresh game ids (unique across the session's shared database)."""
    return lambda: f"g-{uuid.uuid4().hex[:16]}"


# -- games and events -----------------------------------------------------------


def ev(kind: str = "tick", seat: int | None = 0, **payload: object) -> NewEvent:
    return NewEvent(type=kind, payload=payload or {"n": 1}, schema_version=1, seat=seat)


def rotated(seat: int) -> NewEvent:
    """The event a seat's token rotation is written with (by no seat)."""
    return NewEvent("seat_token_rotated", {"seat": seat}, 1, None)


def keyed(epoch: int, fill: str = "a") -> str:
    """A token hash in the keyed form the stores take for an epoch (its digest made up)."""
    return f"k1:{epoch}:{fill * 64}"


def started(game_id: str, store: EventStore, n: int = 1, game_type: str = "test-game") -> None:
    store.create_game(game_id, game_type, {}, [ev("started", None, i=i) for i in range(n)], "playing")


# -- tournaments and deliveries -------------------------------------------------

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
HASH = "k1:0:" + "ab" * 32  # a keyed token hash (events/migrations/tokenkeys.py keys plain ones when a store opens)


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def opening(n: int = 1) -> list[NewEvent]:
    return [NewEvent(type="set_up", payload={"i": i}) for i in range(n)]


def new_games(
    store: EventStore, new_id: Callable[[], str], n: int, game_type: str = "ttr-sf", status: str = "playing"
) -> list[str]:
    """``n`` new games with a one-event opening, in ``status``."""
    games = [new_id() for _ in range(n)]
    for game in games:
        store.create_game(game, game_type, {}, opening(), status)
    return games


def every_page(read: Callable[[str | None], P], items: Callable[[P], Sequence[T]]) -> list[T]:
    """The ``items`` of every page ``read(cursor)`` answers, from the first
    (``cursor=None``) along each page's ``next_cursor``."""
    found: list[T] = []
    cursor = None
    while True:
        page = read(cursor)
        found += items(page)
        cursor = page.next_cursor
        if cursor is None:
            return found


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
def organiser(store: Stores) -> OrganiserRecord:
    return store.tournaments.create_organiser(uid("o"), "Bay Area Open", HASH)


@pytest.fixture
def hooks(store: Stores, organiser: OrganiserRecord) -> Iterator[Callable[..., WebhookRecord]]:
    """Register webhooks for ``organiser``; all are deactivated at the end."""
    made: list[WebhookRecord] = []

    def make(events: tuple[str, ...] = ("game.finished",), batch_id: str | None = None) -> WebhookRecord:
        hook = store.tournaments.create_webhook(
            uid("w"), organiser.organiser_id, "http://127.0.0.1:9/h", events, "s3cret", batch_id
        )
        made.append(hook)
        return hook

    yield make
    for hook in made:
        store.tournaments.deactivate_webhook(hook.webhook_id)


def pending(
    deliveries: DeliveryLog, hook: WebhookRecord, game_ids: list[str], now: datetime = T0
) -> list[NewDelivery]:
    """Record one pending delivery per game for ``hook`` (cursor unchanged)."""
    made = [delivery(hook, gid) for gid in game_ids]
    cursor = deliveries.dispatch_state().cursor
    assert deliveries.record_deliveries(cursor, cursor, made, now)
    return made
