"""Server-Sent Events for a game's event log, shared by every watcher of a game.

Each connection sends the events after the client's position (``Last-Event-ID``
or ``?after=``), then waits for new ones.  Waiting is done once per game and
process, not once per watcher: a :class:`StreamHub` keeps one *channel* per
watched game, whose pump thread waits in the event store
(``EventStore.wait_for_events``: LISTEN/NOTIFY on PostgreSQL, polling on
SQLite, so any worker on any host wakes it) and publishes the game's new state;
the watchers wait on the channel's condition, and watchers at the same
position share one read and one rendering of each page.  A thousand
spectators of one game thus cost one store wait and one read per new version.

Watchers are cheap only if they hold no request thread: production serves
with gevent workers (``service/serving/gunicorn_conf.py`` says why), where a stream is
a greenlet.  The hub admits at most ``max_streams`` streams per process (what
the process can hold: a threaded worker spends a thread per stream), and
``max_per_address`` per client address, never more than ``max_streams`` (else
one address could fill every worker and lock everybody else out).  The
per-address places are counted across every worker of the server
(:class:`events.recorders.counts.SharedPlaces`): in Redis when it is configured
(:mod:`service.adapters.redis_places`), else in the embedded store's file; each
stream holds its place for :data:`PLACE_SECONDS` and pushes that back while
it runs, so that a killed worker's places free themselves.  While the shared
place fails (and on PostgreSQL without Redis) each process counts alone.
Beyond a cap the route answers ``503 streams_busy`` with ``Retry-After``.  Comment lines keep
idle connections alive; after ``max_seconds`` the server closes the stream and
the client reconnects with ``Last-Event-ID``.

A stream opened with a seat token lives only as long as that token: while a
channel has seat watchers its pump re-reads the game's row from the store
(the one every worker and host shares) at least every
:data:`TOKEN_RECHECK` seconds, and a watcher whose token hash is no longer
its seat's ends within that time (the client reconnects with its new token).  :meth:`StreamHub.close_all`
(the worker's shutdown signal) ends every stream at once.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from events.recorders.counts import SharedPlaces
from events.records import StoreError
from service.api.sse_channel import Channel, damaged_comment, format_event
from service.errors import GameDamaged, StreamsBusy
from service.usecases.loaded import Loaded
from service.usecases.queries import GameQueries

log = logging.getLogger(__name__)

#: seconds a refused client is told to wait: about how long a stream that
#: just ended takes to be replaced by its client's reconnection
RETRY_AFTER = 5
#: pause of a pump whose store failed, before it tries again
_PUMP_RETRY = 1.0
#: seconds a stream's shared place is held without being renewed (a stream
#: renews it every third of that, so only a killed worker's places lapse)
PLACE_SECONDS = 60.0
#: the group of the stream places in the shared counts
_PLACES = "event-streams"
#: longest wait of a pump between two reads of its game's row (seat tokens)
TOKEN_RECHECK = 1.0
#: longest time an idle stream goes without looking whether its client closed
#: the connection (its place is given back then, not at the next heartbeat)
CLOSE_CHECK = 0.5


@dataclass
class Admission:
    """One admitted stream's place in the hub's counts (and in the shared
    counts, ``place_id``), given back by :meth:`release`."""

    hub: StreamHub
    address: str
    place_id: str | None = None
    renewed_at: float = 0.0
    released: bool = False

    def keep(self) -> None:
        """Push the shared place's lapse back, once a sixth to a third of it
        has passed (at random: streams opened together do not all write at once)."""
        if self.place_id is not None and time.monotonic() - self.renewed_at >= PLACE_SECONDS / 3 * (
                1 - random.random() / 2):
            self.renewed_at = time.monotonic()
            self.hub._renew(self.place_id)

    def release(self) -> None:
        """Give the place back (once; later calls do nothing)."""
        if not self.released:
            self.released = True
            self.hub._leave(self.address, self.place_id)


class StreamHub:
    """The event streams of one process (see the module docs)."""

    def __init__(
        self, queries: GameQueries, max_streams: int, max_per_address: int, places: SharedPlaces | None = None
    ) -> None:
        self._queries = queries
        self.max_streams = max_streams
        self.max_per_address = min(max_per_address, max_streams)
        self._places = places
        self._lock = threading.Lock()
        self._open = 0
        self._by_address: dict[str, int] = {}
        self._channels: dict[str, Channel] = {}
        self._closing = threading.Event()

    @property
    def open_streams(self) -> int:
        """How many streams this process holds now."""
        return self._open

    def limit(self, max_streams: int) -> None:
        """Lower the process-wide cap (a threaded worker keeps threads for other
        requests), and the per-address cap with it."""
        self.max_streams = min(self.max_streams, max_streams)
        self.max_per_address = min(self.max_per_address, self.max_streams)

    def admit(self, address: str) -> Admission:
        """A place for one more stream from ``address``, or StreamsBusy."""
        shared = self._places is not None
        with self._lock:
            if self._closing.is_set():
                raise StreamsBusy("this worker is shutting down", retry_after=RETRY_AFTER)
            if self._open >= self.max_streams:
                raise StreamsBusy(
                    f"this worker already holds {self.max_streams} event streams", retry_after=RETRY_AFTER
                )
            if not shared and self._by_address.get(address, 0) >= self.max_per_address:
                raise StreamsBusy(
                    f"this address already holds {self.max_per_address} event streams on this worker",
                    retry_after=RETRY_AFTER,
                )
            self._open += 1
            self._by_address[address] = self._by_address.get(address, 0) + 1
        admission = Admission(self, address)
        if shared:
            try:
                self._take_place(admission)
            except BaseException:
                admission.release()
                raise
        return admission

    def _take_place(self, admission: Admission) -> None:
        """The admission's place among the address's streams on the whole server."""
        assert self._places is not None
        now = time.time()
        try:
            place = self._places.take_place(
                _PLACES, admission.address, self.max_per_address, now + PLACE_SECONDS, now
            )
        except StoreError as e:
            # The shared place is failing: count in this process alone rather than refuse everybody.
            log.warning("shared stream places unavailable, counting per worker: %s", e)
            with self._lock:
                if self._by_address.get(admission.address, 0) > self.max_per_address:
                    raise StreamsBusy(
                        f"this address already holds {self.max_per_address} event streams on this worker",
                        retry_after=RETRY_AFTER,
                    ) from e
            return
        if place is None:
            raise StreamsBusy(
                f"this address already holds {self.max_per_address} event streams on this server",
                retry_after=RETRY_AFTER,
            )
        admission.place_id = place
        admission.renewed_at = time.monotonic()

    def _renew(self, place_id: str) -> None:
        if self._places is not None:
            try:
                self._places.renew_place(place_id, time.time() + PLACE_SECONDS)
            except StoreError as e:
                log.warning("cannot renew a stream's shared place: %s", e)

    def _leave(self, address: str, place_id: str | None = None) -> None:
        if place_id is not None and self._places is not None:
            try:
                self._places.free_place(place_id)
            except StoreError as e:  # the place lapses by itself
                log.warning("cannot give a stream's shared place back: %s", e)
        with self._lock:
            self._open -= 1
            left = self._by_address[address] - 1
            if left:
                self._by_address[address] = left
            else:
                del self._by_address[address]

    def close_all(self) -> None:
        """End every stream now and admit no more (the worker is stopping)."""
        self._closing.set()
        with self._lock:
            channels = list(self._channels.values())
        for channel in channels:
            with channel.cond:
                channel.cond.notify_all()

    def stream(
        self, game_id: str, seat: int | None, after: int, max_seconds: float, heartbeat: float,
        admission: Admission | None = None,
        token_hash: str | None = None,
        loaded: Loaded | None = None,
        closed: Callable[[], bool] = lambda: False,
    ) -> Iterator[str]:
        """Yield SSE messages for ``game_id`` from ``after`` on, as ``seat``
        (None: a spectator) may see them, keeping ``admission``'s place.

        ``loaded`` is the game as the route loaded it before answering (so a
        game that cannot be served is refused with its own status, not cut off
        after a 200).  A game found damaged while the stream runs ends it with a
        comment saying so: the answer's status was sent long before.

        ``token_hash`` is the hash of the seat token that opened the stream
        (as the game's row showed it before this call): once the store shows
        another token for the seat, the stream ends.

        ``closed`` says whether the client closed the connection: an idle
        stream asks it every :data:`CLOSE_CHECK` seconds and ends once it is
        true (so its place is free within a second, not at its next write)."""
        opened_at = time.monotonic()
        deadline = opened_at + max_seconds
        watched_seat = seat if token_hash is not None else None
        channel = self._join(game_id, watched_seat is not None)

        def gone() -> bool:
            return channel.revoked(watched_seat, token_hash, opened_at)

        try:
            if channel.loaded is None:
                channel.publish(loaded or self._queries.load(game_id))
            yield "retry: 2000\n\n"
            # the game as it stands first (issue 38): a client reconnecting at the head learns whose turn it is
            yield format_event(None, self._queries.summary(channel.loaded or self._queries.load(game_id), seat), "view")
            position = after
            beat_at = time.monotonic()
            while not self._closing.is_set():
                if admission is not None:
                    admission.keep()
                if gone():
                    yield ": the seat's token was rotated: reconnect with the new one\n\n"
                    return
                if channel.damaged is not None:
                    yield damaged_comment(game_id)
                    return
                loaded = channel.loaded
                assert loaded is not None
                if loaded.version > position:
                    for seq, message in channel.page(self._queries, loaded, seat, position):
                        position = seq
                        yield message
                    beat_at = time.monotonic()
                    continue
                if loaded.finished:
                    status = loaded.definition.status(loaded.state)  # finished or cancelled
                    yield format_event(None, {"version": loaded.version, "status": status}, "end")
                    return
                now = time.monotonic()
                if now >= deadline:
                    return
                if now - beat_at >= heartbeat:
                    beat_at = now
                    yield ": keep-alive\n\n"
                    continue
                wait = min(heartbeat - (now - beat_at), deadline - now, CLOSE_CHECK)
                if not channel.wait(position, wait, self._closing, gone) and closed():
                    return
        except GameDamaged as e:  # found while rendering a page
            channel.damage(e)
            yield damaged_comment(game_id)
        finally:
            self._part(channel, watched_seat is not None)

    # -- channels and their pumps -----------------------------------------------

    def _join(self, game_id: str, seat_watcher: bool) -> Channel:
        with self._lock:
            channel = self._channels.get(game_id)
            start = channel is None
            if channel is None:
                channel = self._channels[game_id] = Channel(game_id)
            channel.watchers += 1
            channel.seat_watchers += seat_watcher
        if start:
            threading.Thread(target=self._pump, args=(channel,), name="cablecar-sse-pump", daemon=True).start()
        return channel

    def _part(self, channel: Channel, seat_watcher: bool) -> None:
        with self._lock:
            channel.watchers -= 1
            channel.seat_watchers -= seat_watcher
            if not channel.watchers and self._channels.get(channel.game_id) is channel:
                del self._channels[channel.game_id]

    def _watched(self, channel: Channel) -> bool:
        with self._lock:
            return bool(channel.watchers) and not self._closing.is_set()

    def _pump(self, channel: Channel) -> None:
        """Publish each new version of the channel's game while anybody watches it."""
        store = self._queries.event_log
        while self._watched(channel):
            loaded = channel.loaded
            try:
                if loaded is not None and loaded.finished:
                    return
                if loaded is not None and not store.wait_for_events(channel.game_id, loaded.version, TOKEN_RECHECK):
                    if channel.seat_watchers:
                        # a rotation appends no event: read the row for the seats' tokens
                        read_at = time.monotonic()
                        channel.tokens_seen(store.get_game(channel.game_id).metadata.get("seat_token_hashes"),
                                            read_at)
                    continue
                read_at = time.monotonic()
                loaded = self._queries.load(channel.game_id)
                channel.tokens_seen(loaded.record.metadata.get("seat_token_hashes"), read_at)
                channel.publish(loaded)
            except GameDamaged as e:  # not served again until repaired: the watchers end
                channel.damage(e)
                return
            except StoreError as e:
                # The watchers keep their heartbeats; the store may come back.
                log.warning("event stream of game %s cannot read the store: %s", channel.game_id, e)
                time.sleep(_PUMP_RETRY)
