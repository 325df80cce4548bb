"""The application service: create games, load state, run actions.

This is the only place where the rules (``domain``), the event store
(``events``) and the state cache meet.  HTTP concerns (requests, status
codes, schemas) stay in the route modules; this module raises
:class:`~service.problems.ApiError`, rules errors and store errors, which
the single error handler turns into problem+json.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import STATUS_FINISHED, Action, GameConfig, GameDefinition, replay
from domain.errors import DomainError, GameFinished
from domain.registry import get_game
from events.codec import decode, encode
from events.store import (
    EventStore,
    GameNotFound,
    GameRecord,
    GuardFailed,
    MetadataGuard,
    NewEvent,
    StaleVersion,
    StoredEvent,
)
from events.verify import seed_commitment
from service.cache import StateCache
from service.problems import ApiError
from service.tokens import hash_token, new_token

JSON = Any
MAX_RETRIES = 3


def canonical_json(value: JSON) -> str:
    """Sorted-key, compact JSON used for hashing requests and seeds."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _request_hash(seat: int, action: Action, expected_version: int | None) -> str:
    """What an Idempotency-Key is bound to: the seat, the action and the expected version."""
    document = {"seat": seat, "action": action.to_body(), "expected_version": expected_version}
    return hashlib.sha256(canonical_json(document).encode()).hexdigest()


def find_game_type(type_id: str) -> GameDefinition[Any]:
    """The game definition for ``type_id`` or a 404/400 problem."""
    try:
        return get_game(type_id)
    except KeyError as e:
        raise ApiError(404, "not_found", f"no game type {type_id!r}") from e


@dataclass(frozen=True)
class Loaded:
    """A game's record, rules and rebuilt state at ``version``."""

    record: GameRecord
    game: GameDefinition[Any]
    state: Any
    version: int

    @property
    def finished(self) -> bool:
        """Whether the game has ended."""
        return bool(self.game.status(self.state) == STATUS_FINISHED)


@dataclass(frozen=True)
class CreatedGame:
    """What creating a game returns (tokens are shown only here, once)."""

    record: GameRecord
    version: int
    seat_tokens: tuple[str, ...]
    host_token: str
    status: str


@dataclass(frozen=True)
class ActionOutcome:
    """The answer to an accepted (or idempotently replayed) action."""

    version: int
    events: tuple[dict[str, JSON], ...]
    replayed: bool


@dataclass(frozen=True)
class PreparedGame:
    """A game ready to be written: id, type, metadata, opening events, tokens."""

    game_id: str
    game_type: str
    metadata: dict[str, JSON]
    events: tuple[NewEvent, ...]
    status: str
    seat_tokens: tuple[str, ...]
    host_token: str
    state: Any = None


class RecentRecords:
    """The game rows this process read last (a thread-safe LRU).

    Only the parts of a row that never change or are re-checked by the store
    are used from here: the game type, and the seat token hashes, which an
    append re-checks with a :class:`~events.store.MetadataGuard`."""

    def __init__(self, max_entries: int = 1024) -> None:
        self._max = max(1, max_entries)
        self._data: OrderedDict[str, GameRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> GameRecord | None:
        """The row last seen for ``game_id``, if any."""
        with self._lock:
            record = self._data.get(game_id)
            if record is not None:
                self._data.move_to_end(game_id)
            return record

    def put(self, record: GameRecord) -> None:
        """Remember ``record`` (the newest read wins)."""
        with self._lock:
            self._data[record.game_id] = record
            self._data.move_to_end(record.game_id)
            while len(self._data) > self._max:
                self._data.popitem(last=False)


class LegalActionMemo:
    """The legal-action lists this process computed last, for paging.

    A cable-car opening has over 100,000 legal tile pairs and computing them
    takes a large fraction of a second; a client reads them a page at a time,
    so each list is kept per ``(game, version, seat)`` (the list at a given
    version never changes) until newer ones push it out.  Only long lists are
    kept (short ones are cheap to recompute), and the kept lists hold at most
    ``max_actions`` actions in all, which bounds the memory."""

    def __init__(self, max_actions: int = 600_000, min_length: int = 2_000) -> None:
        self._max = max_actions
        self._min = min_length
        self._data: OrderedDict[tuple[str, int, int], Sequence[Action]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int]) -> Sequence[Action] | None:
        """The list kept for ``(game_id, version, seat)``, if any."""
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
            return found

    def put(self, key: tuple[str, int, int], actions: Sequence[Action]) -> None:
        """Keep ``actions`` if it is long enough to be worth it and fits."""
        if not self._min <= len(actions) <= self._max:
            return
        with self._lock:
            if key in self._data:
                return
            self._data[key] = actions
            self._held += len(actions)
            while self._held > self._max:
                _, dropped = self._data.popitem(last=False)
                self._held -= len(dropped)


class GameService:
    """Use cases of the game server, independent of HTTP."""

    def __init__(self, store: EventStore, cache: StateCache, recent_records: int = 1024) -> None:
        self.store = store
        self.cache = cache
        self.records = RecentRecords(recent_records)
        self.legal_memo = LegalActionMemo()

    # ----------------------------------------------------------------- create
    def prepare_game(
        self,
        type_id: str,
        players: Sequence[str],
        seed: str | None = None,
        start_seat: int = 0,
        extra_metadata: Mapping[str, JSON] | None = None,
    ) -> PreparedGame:
        """Run the setup of a new game in memory (nothing is written)."""
        try:
            game = get_game(type_id)
        except KeyError as e:
            raise ApiError(400, "invalid_request", f"unknown game type {type_id!r}; see /v1/games-types") from e
        if not game.min_players <= len(players) <= game.max_players:
            raise ApiError(
                422,
                "invalid_config",
                f"{game.title} is played by {game.min_players} to {game.max_players} players, not {len(players)}",
                reason="player_count",
            )
        if not 0 <= start_seat < len(players):
            raise ApiError(
                422, "invalid_config", f"start_seat must be a seat of this game (0..{len(players) - 1})",
                reason="start_seat",
            )
        seed_source = "caller" if seed is not None else "server"
        if seed is None:
            seed = secrets.token_hex(32)
        salt = secrets.token_hex(16)
        game_id = secrets.token_hex(8)
        try:
            domain_events = game.setup(GameConfig(tuple(players), seed, start_seat))
        except DomainError as e:
            raise ApiError(422, "invalid_config", e.detail, reason=e.code) from e
        state = replay(game, domain_events)
        seat_tokens = tuple(new_token("st", game_id) for _ in players)
        host_token = new_token("ht", game_id)
        metadata: dict[str, JSON] = {
            "players": list(players),
            "start_seat": start_seat,
            "seed": seed,
            "salt": salt,
            "seed_commitment": seed_commitment(seed, salt),
            "seed_source": seed_source,
            "rules_version": game.rules_version,
            "board_version": game.board_version,
            "seat_token_hashes": [hash_token(t) for t in seat_tokens],
            "host_token_hash": hash_token(host_token),
        }
        metadata.update(extra_metadata or {})
        return PreparedGame(
            game_id=game_id,
            game_type=game.type_id,
            metadata=metadata,
            events=tuple(encode(game, e, None) for e in domain_events),
            status=game.status(state),
            seat_tokens=seat_tokens,
            host_token=host_token,
            state=state,
        )

    def create_game(
        self,
        type_id: str,
        players: Sequence[str],
        seed: str | None = None,
        start_seat: int = 0,
        extra_metadata: Mapping[str, JSON] | None = None,
    ) -> CreatedGame:
        """Set up and store a new game; returns its tokens (shown once).
        ``extra_metadata`` (e.g. the creating organiser) is stored with it."""
        prepared = self.prepare_game(type_id, players, seed, start_seat, extra_metadata)
        stored = self.store.create_game(
            prepared.game_id, prepared.game_type, prepared.metadata, prepared.events, prepared.status
        )
        record = self.get_record(prepared.game_id)
        self.cache.put(prepared.game_id, stored[-1].seq, prepared.state)
        return CreatedGame(record, stored[-1].seq, prepared.seat_tokens, prepared.host_token, prepared.status)

    def get_record(self, game_id: str) -> GameRecord:
        """The game's row from the store (GameNotFound if unknown); this
        process remembers it for :meth:`act_on_recent`."""
        record = self.store.get_game(game_id)
        self.records.put(record)
        return record

    # ------------------------------------------------------------------- read
    def load(self, game_id: str, at: int | None = None, record: GameRecord | None = None) -> Loaded:
        """The game's state now, or after event ``at`` (replay view).

        ``record`` is the game's row if the caller has just read it (saves a
        query); the state returned is never older than that row."""
        if record is None:
            record = self.get_record(game_id)
        game = find_game_type(record.game_type)
        if at is not None:
            if not 1 <= at <= record.version:
                raise ApiError(
                    400, "invalid_request", f"at must be between 1 and the game's version ({record.version})"
                )
            cached = self.cache.get(game_id, at)
            if cached is not None and cached[0] == at:
                return Loaded(record, game, cached[1], at)
            events = self.store.load(game_id, 0, at)
            return Loaded(record, game, replay(game, [decode(game, e) for e in events]), at)
        cached = self.cache.get(game_id, record.version)
        if cached is not None and cached[0] == record.version:
            self.cache.stats.hits += 1
            return Loaded(record, game, cached[1], record.version)
        if cached is not None and cached[0] < record.version:
            self.cache.stats.partial_hits += 1
            base_version, state = cached
        else:
            self.cache.stats.misses += 1
            base_version, state = 0, None
        events = self.store.load(game_id, base_version)
        if not events and state is None:
            raise ApiError(500, "internal_error", f"game {game_id} has no events")
        if events:
            state = replay(game, [decode(game, e) for e in events], state)
            version = events[-1].seq
            self.cache.put(game_id, version, state)
        else:
            version = base_version
        return Loaded(record, game, state, version)

    def legal_actions(self, loaded: Loaded, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may send in ``loaded`` (long lists are kept
        for the following pages, see :class:`LegalActionMemo`)."""
        key = (loaded.record.game_id, loaded.version, seat)
        found = self.legal_memo.get(key)
        if found is None:
            found = loaded.game.legal_actions(loaded.state, seat)
            self.legal_memo.put(key, found)
        return found

    def render_event(
        self, loaded: Loaded, stored: StoredEvent, seat: int | None, domain_event: Any = None
    ) -> dict[str, JSON]:
        """One stored event as ``seat`` may see it (hashes only once finished:
        a hash over a redacted secret could be brute-forced).  ``domain_event``
        is the event ``stored`` holds, when the caller has it (saves decoding)."""
        if domain_event is None:
            domain_event = decode(loaded.game, stored)
        finished = loaded.finished
        payload = dict(domain_event.to_payload()) if finished else loaded.game.redact(loaded.state, domain_event, seat)
        out: dict[str, JSON] = {
            "seq": stored.seq,
            "type": stored.type,
            "schema_version": domain_event.SCHEMA_VERSION,
            "seat": stored.seat,
            "recorded_at": stored.recorded_at,
            "payload": payload,
        }
        if finished:
            out["prev_hash"] = stored.prev_hash
            out["hash"] = stored.hash
        return out

    def events_for(
        self, loaded: Loaded, seat: int | None, after: int = 0, limit: int | None = None
    ) -> list[dict[str, JSON]]:
        """A page of the event log as ``seat`` may see it."""
        stored = self.store.load(loaded.record.game_id, after, limit)
        return [self.render_event(loaded, e, seat) for e in stored]

    # ------------------------------------------------------------------ write
    def act(
        self,
        game_id: str,
        seat: int,
        body: Mapping[str, JSON],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        record: GameRecord | None = None,
    ) -> ActionOutcome:
        """Decide and append one action of ``seat``; all or nothing.

        With an ``idempotency_key``, a request that was already applied (even
        one still in flight when this one started) gets the first answer: the
        append replays it when the key is known, and a refusal (stale version,
        illegal move) is checked against the key before it is raised."""
        if record is None:
            record = self.get_record(game_id)
        game = find_game_type(record.game_type)
        action = game.parse_action(body)
        request_hash = _request_hash(seat, action, expected_version)
        try:
            return self._decide_and_append(
                game, record, seat, action, expected_version, idempotency_key, request_hash
            )
        except (StaleVersion, DomainError):
            if idempotency_key is not None:
                # The first attempt with this key may have committed meanwhile:
                # its answer, not this refusal, is the answer to a retry.
                prior = self.store.lookup_idempotency(game_id, idempotency_key)
                if prior is not None:
                    return self._replayed(game_id, seat, prior.events, prior.request_hash, request_hash)
            raise

    def act_on_recent(
        self,
        game_id: str,
        token: str,
        body: Mapping[str, JSON],
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> ActionOutcome | None:
        """The common case of :meth:`act` in one store round trip, or None.

        Works from what this process already holds: the game's row (read by
        an earlier request) and its newest state in the process-local cache.
        The seat is the one whose stored token hash matches ``token``; the
        append re-checks that hash (a :class:`~events.store.MetadataGuard`),
        the version the state is at, and the idempotency key, so a rotated
        token, a stale state or a retried request cannot get through.  None
        whenever anything is unusual (nothing held, an unknown token, a
        version other than ``expected_version``, an illegal move, a lost
        race): the caller then runs the full path, which gives the exact
        answer, errors included."""
        record = self.records.get(game_id)
        held = self.cache.get_local(game_id)
        if record is None or held is None:
            return None
        version, state = held
        if expected_version is not None and expected_version != version:
            return None
        hashes = record.metadata.get("seat_token_hashes") or []
        token_hash = hash_token(token)
        seat = next((i for i, h in enumerate(hashes) if hmac.compare_digest(token_hash, str(h))), None)
        if seat is None:
            return None
        self.cache.stats.hits += 1
        try:
            game = get_game(record.game_type)
            action = game.parse_action(body)
            if game.status(state) == STATUS_FINISHED:
                return None
            domain_events = game.decide(state, seat, action)
        except (KeyError, DomainError):
            return None
        held_game = Loaded(record, game, state, version)
        request_hash = _request_hash(seat, action, expected_version)
        guard = MetadataGuard(("seat_token_hashes", seat), token_hash)
        try:
            return self._append_decided(held_game, seat, domain_events, idempotency_key, request_hash, guard)
        except (StaleVersion, GuardFailed, GameNotFound):
            return None

    def _append_decided(
        self,
        loaded: Loaded,
        seat: int,
        domain_events: Sequence[Any],
        idempotency_key: str | None,
        request_hash: str,
        guard: MetadataGuard | None = None,
    ) -> ActionOutcome:
        """Append the events ``seat``'s action produced on ``loaded`` (with
        ``loaded.version`` as the expected version) and build the answer: the
        first answer again when the key was used.  Store errors propagate."""
        game, game_id = loaded.game, loaded.record.game_id
        new_state = replay(game, domain_events, loaded.state)
        result = self.store.append(
            game_id,
            loaded.version,
            [encode(game, e, seat) for e in domain_events],
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            status=game.status(new_state),
            guard=guard,
        )
        if result.replayed:
            return self._replayed(game_id, seat, result.events, result.request_hash, request_hash)
        version = result.events[-1].seq
        self.cache.put(game_id, version, new_state)
        after = Loaded(loaded.record, game, new_state, version)
        rendered = tuple(
            self.render_event(after, stored, seat, event)
            for stored, event in zip(result.events, domain_events, strict=True)
        )
        return ActionOutcome(version, rendered, False)

    def _decide_and_append(
        self,
        game: GameDefinition[Any],
        record: GameRecord,
        seat: int,
        action: Action,
        expected_version: int | None,
        idempotency_key: str | None,
        request_hash: str,
    ) -> ActionOutcome:
        game_id = record.game_id
        fresh: GameRecord | None = record
        for attempt in range(MAX_RETRIES):
            loaded = self.load(game_id, record=fresh)
            fresh = None  # a retry re-reads the game row
            if expected_version is not None and expected_version != loaded.version:
                raise StaleVersion(game_id, expected_version, loaded.version)
            if loaded.finished:
                raise GameFinished()
            domain_events = game.decide(loaded.state, seat, action)
            try:
                return self._append_decided(loaded, seat, domain_events, idempotency_key, request_hash)
            except StaleVersion:
                if expected_version is None and attempt < MAX_RETRIES - 1:
                    continue  # someone else moved first: decide again on the new state
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _replayed(
        self,
        game_id: str,
        seat: int,
        events: Sequence[StoredEvent],
        stored_hash: str | None,
        request_hash: str,
    ) -> ActionOutcome:
        if stored_hash != request_hash:
            raise ApiError(
                422,
                "idempotency_key_reused",
                "this Idempotency-Key was already used for a different request on this game",
            )
        loaded = self.load(game_id)
        rendered = tuple(self.render_event(loaded, e, seat) for e in events)
        return ActionOutcome(events[-1].seq, rendered, True)
