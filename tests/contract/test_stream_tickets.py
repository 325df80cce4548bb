"""Stream tickets (events.recorders.tickets) on every place the server keeps them: the
SQLite file, PostgreSQL, and Redis when it is configured
(service/adapters/redis_tickets.py).  A ticket is taken once, by exactly one
of the processes racing for it; expired ones do not pile up."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Iterator

import pytest

from events import Stores
from events.recorders.tickets import StreamTicket, StreamTickets
from service.adapters.redis_tickets import RedisTickets
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend

NewId = Callable[[], str]
NOW = 1_900_000_000.0


def _ticket(game_id: str, seat: int = 1, expires_at: float = NOW + 60) -> StreamTicket:
    return StreamTicket(game_id, seat, "k1:0:" + "cd" * 32, expires_at)


def _hash() -> str:
    return "k1:0:" + secrets.token_hex(32)


class StreamTicketsContract(Contract):
    """What every place keeping tickets does."""

    @pytest.fixture
    def places(self, backend: Backend) -> Iterator[Callable[[], StreamTickets]]:
        """Opens one more process's view of the same tickets."""
        opened: list[Stores] = []

        def open_one() -> StreamTickets:
            opened.append(backend.open())
            return opened[-1].tickets

        yield open_one
        for store in opened:
            store.close()

    @pytest.fixture
    def game(self, store: Stores, new_id: NewId) -> str:
        game_id = new_id()
        store.events.create_game(game_id, "ttr-sf", {}, [], "playing")
        return game_id

    def test_a_ticket_is_taken_once(self, places: Callable[[], StreamTickets], game: str) -> None:
        tickets = places()
        key = _hash()
        tickets.put_stream_ticket(key, _ticket(game), NOW)
        assert tickets.take_stream_ticket(_hash()) is None
        assert tickets.take_stream_ticket(key) == _ticket(game)
        assert tickets.take_stream_ticket(key) is None

    def test_racing_processes_take_a_ticket_once(self, places: Callable[[], StreamTickets], game: str) -> None:
        workers = [places() for _ in range(4)]
        keys = [_hash() for _ in range(10)]
        for key in keys:
            workers[0].put_stream_ticket(key, _ticket(game), NOW)
        got: list[StreamTicket] = []
        barrier = threading.Barrier(len(workers))

        def race(tickets: StreamTickets) -> None:
            barrier.wait()
            for key in keys:
                found = tickets.take_stream_ticket(key)
                if found is not None:
                    got.append(found)

        threads = [threading.Thread(target=race, args=(w,)) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(got) == len(keys)


class SqlStreamTicketsContract(StreamTicketsContract):
    """The SQL stores sweep expired tickets when they write new ones."""

    def test_expired_tickets_are_swept(self, store: Stores, game: str) -> None:
        old, live = _hash(), _hash()
        store.tickets.put_stream_ticket(old, _ticket(game, expires_at=NOW + 10), NOW)
        store.tickets.put_stream_ticket(live, _ticket(game, expires_at=NOW + 80), NOW + 20)
        assert store.tickets.take_stream_ticket(old) is None
        assert store.tickets.take_stream_ticket(live) is not None


class TestStreamTicketsSqlite(SqlStreamTicketsContract):
    backend_type = SqliteBackend


class TestStreamTicketsPostgres(SqlStreamTicketsContract):
    backend_type = PostgresBackend


class TestStreamTicketsRedis(StreamTicketsContract):
    """In Redis (the SQLite backend only holds the games)."""

    backend_type = SqliteBackend

    @pytest.fixture
    def places(self, backend: Backend) -> Iterator[Callable[[], StreamTickets]]:
        import redis

        url = os.environ.get("CABLECAR_TEST_REDIS_URL")
        if not url:
            if os.environ.get("CI") == "true":
                pytest.fail("CABLECAR_TEST_REDIS_URL is not set: the test command must start Redis")
            pytest.skip("CABLECAR_TEST_REDIS_URL not set (run scripts/test.sh)")
        clients: list[redis.Redis] = []

        def open_one() -> StreamTickets:
            clients.append(redis.Redis.from_url(url))
            return RedisTickets(clients[-1])

        yield open_one
        for client in clients:
            client.close()

    def test_a_ticket_expires_in_redis_by_itself(self, places: Callable[[], StreamTickets], game: str) -> None:
        tickets = places()
        key = _hash()
        tickets.put_stream_ticket(key, _ticket(game, expires_at=NOW + 30), NOW)
        assert isinstance(tickets, RedisTickets)
        ttl = tickets._redis.ttl(f"cablecar:stream-ticket:{key}")
        assert 30 < ttl <= 35
