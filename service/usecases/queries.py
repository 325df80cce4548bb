"""Reading games: the game row, the state at a version, legal actions, the log.

The store holds the truth; states come from the cache when it has them (a
snapshot older than the store is only a base the newer events are replayed
on, see :mod:`service.adapters.cache`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from domain.clocks import Clocks
from domain.core import JSON, Action, Event, GameDefinition
from domain.registry import game_definition
from events.encoding.codec import decode
from events.encoding.timestamps import epoch_seconds
from events.integrity.envelope import GENESIS_HASH, recompute_hash
from events.integrity.keyset import KeySet, first_bad_signature
from events.integrity.lifetimes import SERVER_STREAM
from events.recorders.event_log import EventReader, EventStore
from events.recorders.quarantine import QuarantineStore
from events.recorders.transparency_log import TransparencyLog
from events.records import DamagedEvent, GameNotFound, GameRecord, IntegrityError, StoredEvent
from service.adapters.cache import StateCache
from service.adapters.lru import LRU
from service.adapters.statecodec import Snapshot
from service.errors import BrokenGame, GameDamaged, InvalidRequest, NotFound
from service.usecases.loaded import Loaded
from service.usecases.presentation import render_event

#: legal-action lists shorter than this are cheap to recompute and not kept
LEGAL_MEMO_MIN = 2_000
#: the legal-action lists kept hold at most this many actions in all
LEGAL_MEMO_ACTIONS = 600_000


def definition_of(type_id: str) -> GameDefinition[Any]:
    """The definition of game type ``type_id`` (NotFound if not served)."""
    try:
        return game_definition(type_id)
    except KeyError as e:
        raise NotFound(f"no game type {type_id!r}") from e


class Timekeeping(Protocol):
    """What reads and writes need of the timekeeper (:mod:`service.usecases.timekeeper`),
    which appends through the commands that read through this module: declared
    here so that the imports point one way (timekeeper → queries)."""

    def settle(self, loaded: Loaded) -> Loaded: ...

    def record(self, loaded: Loaded) -> None: ...

    def maybe_due(self, clocks: Clocks) -> bool: ...


def advanced(
    definition: GameDefinition[Any], snapshot: Snapshot | None, state: Any, event: Event, recorded_at: str
) -> Snapshot:
    """The snapshot after ``event``, which led to ``state``, was recorded at ``recorded_at``."""
    clocks = definition.clocks_after(None if snapshot is None else snapshot.clocks, state, event,
                                     epoch_seconds(recorded_at))
    return Snapshot(state, clocks)


class GameQueries:
    """The read side of the game server."""

    def __init__(
        self,
        event_log: EventStore,
        cache: StateCache,
        recent_records: int = 1024,
        reader: EventReader | None = None,
        keys: KeySet | None = None,
        quarantine: QuarantineStore | None = None,
        log: TransparencyLog | None = None,
    ) -> None:
        self.event_log = event_log
        #: the runs of events set aside, which exports and audits name (None: a store that keeps none)
        self.quarantine = quarantine
        #: the transparency log, which audits and exports of a damaged game consult (None: not consulted)
        self.log = log
        #: where event pages, exports, audits and listings are read: a hot
        #: standby if one is configured (never staler than the primary, see
        #: :mod:`events.postgres.standby`); the game rows and the states
        #: actions are checked against come from ``event_log`` (the primary)
        self.reader: EventReader = event_log if reader is None else reader
        self.cache = cache
        #: the server's public keys: every event read is checked against them (None: signatures unchecked)
        self.keys = keys
        #: appends the timeouts due in a game a read finds (set by the runtime; None: reads never write)
        self.timekeeper: Timekeeping | None = None
        # Only what never changes or is re-checked is used from a remembered
        # row: the game type, and seat token hashes an append re-checks.
        self._records: LRU[str, GameRecord] = LRU(recent_records)
        # A cable-car opening has over 100,000 legal tile pairs (a large
        # fraction of a second to compute) and clients page through them; the
        # list at a (game, version, seat) never changes.
        self._legal: LRU[tuple[str, int, int, tuple[int, int] | None], Sequence[Action]] = LRU(LEGAL_MEMO_ACTIONS, len)

    def record(self, game_id: str) -> GameRecord:
        """The game's row from the store (GameNotFound if unknown, and for the
        server's own stream, which is no game); this process remembers it
        (:meth:`recent_record`)."""
        if game_id == SERVER_STREAM:
            raise GameNotFound(game_id)
        record = self.event_log.get_game(game_id)
        self._records.put(game_id, record)
        return record

    def recent_record(self, game_id: str) -> GameRecord | None:
        """The row this process read last for ``game_id``, without a round trip."""
        return self._records.get(game_id)

    def check_at(self, record: GameRecord, at: int) -> int:
        """``at`` if the game has an event ``at`` (a replay view), else InvalidRequest."""
        if not 1 <= at <= record.version:
            raise InvalidRequest(f"at must be between 1 and the game's version ({record.version})")
        return at

    def load(
        self, game_id: str, at: int | None = None, record: GameRecord | None = None, settle: bool = True
    ) -> Loaded:
        """The game's state now, or after event ``at`` (checked with
        :meth:`check_at` by the caller).

        ``record`` is the game's row if the caller has just read it (saves a
        query); the state returned is never older than that row.  Unless
        ``settle`` is false, the timeouts already due are appended first."""
        if record is None:
            record = self.record(game_id)
        definition = definition_of(record.game_type)
        if at is not None:
            cached = self.cache.get(game_id, at)
            if cached is not None and cached[0] == at:
                return self._loaded(record, definition, cached[1], at)
            events = self.stored_events(game_id, 0, at)
            return self._loaded(record, definition, self._rebuilt(definition, events, None), at)
        cached = self.cache.get(game_id, record.version)
        if cached is not None and cached[0] == record.version:
            self.cache.stats.hits += 1
            loaded = self._loaded(record, definition, cached[1], record.version)
            return self._settled(loaded) if settle else loaded
        snapshot: Snapshot | None
        if cached is not None and cached[0] < record.version:
            self.cache.stats.partial_hits += 1
            base_version, snapshot = cached
        else:
            self.cache.stats.misses += 1
            base_version, snapshot = 0, None
        events = self.stored_events(game_id, base_version)
        if not events and snapshot is None:
            raise BrokenGame(f"game {game_id} has no events")
        if events and events[-1].seq > record.version and events[-1].seq > self.event_log.version(game_id):
            # rows past the version the append path recorded were written behind its back
            raise self._damaged(game_id, self.event_log.version(game_id) + 1)
        if events:
            snapshot = self._rebuilt(definition, events, snapshot)
            version = events[-1].seq
            self.cache.put(game_id, version, snapshot)
        else:
            version = base_version
        assert snapshot is not None
        loaded = self._loaded(record, definition, snapshot, version)
        return self._settled(loaded) if settle else loaded

    def readable(self, game_id: str, record: GameRecord | None = None) -> Loaded:
        """What reads serve: :meth:`load`, or for a game whose stored tail fails
        its check the game after its last good event, with ``damaged_from``
        naming the first bad one (nothing is settled: a damaged game takes no
        write).  GameDamaged when not even its first event is good."""
        try:
            return self.load(game_id, record=record)
        except GameDamaged as damaged:
            if damaged.seq <= 1:
                raise
            good = self.load(game_id, damaged.seq - 1, record=record, settle=False)
            return replace(good, damaged_from=damaged.seq)

    def as_stored(self, record: GameRecord) -> Loaded:
        """The game as its stored rows give it, whatever their signatures say
        (for the export of a damaged record the log holds:
        :mod:`service.usecases.records`); GameDamaged for rows that are
        unreadable, unchained or that the rules cannot apply.  Never cached."""
        definition = definition_of(record.game_type)
        events = self.stored_events(record.game_id, signed=False)
        if not events:
            raise BrokenGame(f"game {record.game_id} has no events")
        return self._loaded(record, definition, self._rebuilt(definition, events, None), events[-1].seq)

    @staticmethod
    def _loaded(record: GameRecord, definition: GameDefinition[Any], snapshot: Snapshot, version: int) -> Loaded:
        return Loaded(record, definition, snapshot.state, version, snapshot.clocks)

    def _settled(self, loaded: Loaded) -> Loaded:
        """``loaded``, or the game after the timeouts due in it were appended
        (see :mod:`service.usecases.timekeeper`): a read never shows a seat whose time ran out as playing."""
        if self.timekeeper is None or loaded.finished or (loaded.clocks.deadline() is None and not loaded.scheduled):
            return loaded
        return self.timekeeper.settle(loaded)

    def stored_events(
        self, game_id: str, after: int = 0, limit: int | None = None, reader: EventReader | None = None,
        signed: bool = True,
    ) -> list[StoredEvent]:
        """Events ``after+1``, ``after+2``, ... from ``reader`` (default: the
        store), each checked: readable, numbered in order, hashing to its own
        hash, linked to the one before and signed by one of the server's keys
        (GameDamaged naming the first that is not; unsigned events, written
        before the server signed, only before the first signed one; not
        ``signed``: the signatures are left to the caller, as an audit does)."""
        try:
            events = (reader or self.event_log).load(game_id, after, limit)
        except DamagedEvent as e:
            raise self._damaged(game_id, e.seq) from e
        prev_hash = GENESIS_HASH if after == 0 else None
        for seq, event in enumerate(events, after + 1):
            linked = prev_hash is None or event.prev_hash == prev_hash
            if event.seq != seq or not linked or recompute_hash(event) != event.hash:
                raise self._damaged(game_id, min(seq, event.seq))
            prev_hash = event.hash
        if self.keys is not None and signed:
            bad = first_bad_signature(events, self.keys)
            if bad is not None:
                raise self._damaged(game_id, bad)
        return events

    def _damaged(self, game_id: str, seq: int) -> GameDamaged:
        """GameDamaged, with the cached states of the game forgotten: a state
        held from before the damage would let reads answer as if it were whole."""
        self.cache.forget(game_id)
        return GameDamaged(game_id, seq)

    def refused_write(self, game_id: str, error: IntegrityError) -> Exception:
        """What the store refusing an append by its own integrity means (a row
        already where the next event goes, written past the append path):
        GameDamaged when the game's stored record, read again in full, fails
        its check, else ``error`` itself."""
        self.cache.forget(game_id)
        try:
            self.load(game_id, settle=False)
        except GameDamaged as damaged:
            return damaged
        return error

    @staticmethod
    def _rebuilt(definition: GameDefinition[Any], events: Sequence[StoredEvent], snapshot: Snapshot | None) -> Snapshot:
        """``snapshot`` with checked stored ``events`` applied; an event the
        rules cannot read or apply is a damaged game, not a crash."""
        state = None if snapshot is None else snapshot.state
        for event in events:
            try:
                domain_event = decode(definition, event)
                state = definition.evolve(state, domain_event)
                snapshot = advanced(definition, snapshot, state, domain_event, event.recorded_at)
            except Exception as e:
                raise GameDamaged(event.game_id, event.seq) from e
        assert snapshot is not None
        return snapshot

    def legal_actions(self, loaded: Loaded, seat: int, square: tuple[int, int] | None = None) -> Sequence[Action]:
        """Every action ``seat`` may send in ``loaded``, or those whose first
        placement is on ``square`` (long lists are kept for the following
        pages); InvalidRequest for a square in a game without squares.
        Empty before a scheduled game's start."""
        if loaded.scheduled:
            return ()
        key = (loaded.record.game_id, loaded.version, seat, square)
        found = self._legal.get(key)
        if found is None:
            if square is None:
                found = loaded.definition.sendable(loaded.state, seat)
            elif loaded.definition.legal_actions_at is None:
                raise InvalidRequest(f"square: {loaded.definition.type_id} has no squares",
                                     errors=[{"field": "square", "message": "this game has no squares"}])
            else:
                found = loaded.definition.sendable_at(loaded.state, seat, square)
            if len(found) >= LEGAL_MEMO_MIN:
                self._legal.put(key, found)
        return found

    def events(self, loaded: Loaded, seat: int | None, after: int = 0, limit: int | None = None) -> list[dict[str, JSON]]:
        """A page of the event log as ``seat`` may see it (read from :attr:`reader`), each entry
        with the ``version`` and ``active_seats`` of ``loaded`` (the event page's and the stream's:
        whose turn it is, without another read; outside the hashed event)."""
        stored = self.stored_events(loaded.record.game_id, after, limit, self.reader)
        rendered = []
        turn = turn_of(loaded)
        for event in stored:
            try:
                rendered.append({**render_event(loaded, event, seat), **turn})
            except Exception as e:  # a checked row the rules cannot read
                raise GameDamaged(loaded.record.game_id, event.seq) from e
        return rendered

    @staticmethod
    def summary(loaded: Loaded, seat: int | None) -> dict[str, JSON]:
        """What a stream sends first (``event: view``): the game as it stands, and whose turn it is."""
        return {"game_id": loaded.record.game_id, "status": loaded.definition.status(loaded.state),
                "seat": seat, **turn_of(loaded)}


def turn_of(loaded: Loaded) -> dict[str, JSON]:
    """The game's version and the seats to act at it (as its view says them)."""
    return {"version": loaded.version, "active_seats": list(loaded.definition.active_seats(loaded.state))}
