"""Changing games: create one, act in one.

An action takes one store round trip when this process already holds the
game (its row and its newest state): the append itself re-checks what the
held copy could have got wrong (the seat's token hash, the version, the
idempotency key).  Anything unusual takes the full path, which reads the
game and gives the exact answer, errors included.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.clocks import parse_time_control
from domain.core import JSON, Action, GameConfig, GameDefinition, replay
from domain.errors import DomainError, GameFinished, MalformedAction
from domain.registry import game_definition
from events.codec import decode, encode
from events.envelope import canonical_json
from events.seeds import deal_seed, seed_commitment
from events.store import (
    AppendResult,
    GameExists,
    GameNotFound,
    GameRecord,
    GuardFailed,
    MetadataGuard,
    NewEvent,
    StaleVersion,
    StoredEvent,
)
from service import auth
from service.creation_keys import REQUEST_HASH, CreationKey, refuse_reuse
from service.errors import IdempotencyKeyReused, InvalidConfig, InvalidRequest
from service.presentation import render_event
from service.queries import GameQueries, Loaded, advanced, definition_of
from service.tokens import hash_token, new_token

#: decisions retried when another action is appended first (no expected version)
MAX_RETRIES = 3


@dataclass(frozen=True)
class ActionRequest:
    """One action as a client sent it.

    ``refusal`` is what the edge found wrong with it (its Idempotency-Key,
    its JSON, its ``expected_version``); it is raised once the caller is
    known, so a request without a valid token is refused as such first."""

    authorization: str | None
    body: Mapping[str, JSON]
    expected_version: int | None = None
    idempotency_key: str | None = None
    refusal: InvalidRequest | None = None


@dataclass(frozen=True)
class ActionOutcome:
    """The answer to an accepted (or idempotently replayed) action."""

    version: int
    events: tuple[dict[str, JSON], ...]
    replayed: bool


@dataclass(frozen=True)
class NewGame:
    """A game set up in memory, ready to be written: id, type, metadata,
    opening events, tokens (shown only once) and its opening state."""

    game_id: str
    game_type: str
    metadata: dict[str, JSON]
    events: tuple[NewEvent, ...]
    status: str
    seat_tokens: tuple[str, ...]
    host_token: str
    state: Any


@dataclass(frozen=True)
class CreatedGame:
    """What creating a game returns (tokens are shown only here, once)."""

    record: GameRecord
    version: int
    seat_tokens: tuple[str, ...]
    host_token: str
    status: str


def _request_hash(seat: int, action: Action, expected_version: int | None) -> str:
    """What an Idempotency-Key is bound to: the seat, the action and the expected version."""
    document = {"seat": seat, "action": action.to_body(), "expected_version": expected_version}
    return hashlib.sha256(canonical_json(document).encode()).hexdigest()


class _Parsed:
    """An action body parsed at most once: on whichever path reaches it first."""

    __slots__ = ("_body", "_result", "definition")

    def __init__(self, definition: GameDefinition[Any], body: Mapping[str, JSON]) -> None:
        self.definition = definition
        self._body = body
        self._result: Action | MalformedAction | None = None

    def action(self) -> Action:
        """The action (MalformedAction for a body of the wrong shape)."""
        if self._result is None:
            try:
                self._result = self.definition.parse_action(self._body)
            except MalformedAction as e:
                self._result = e
        if isinstance(self._result, MalformedAction):
            raise self._result
        return self._result


class GameCommands:
    """The write side of the game server."""

    def __init__(self, queries: GameQueries, tokens: auth.TokenLookup) -> None:
        self.queries = queries
        self.store = queries.store
        self.tokens = tokens
        self.cache = queries.cache

    # ----------------------------------------------------------------- create
    def new_game(
        self,
        type_id: str,
        players: Sequence[str],
        seed: str | None = None,
        start_seat: int = 0,
        extra_metadata: Mapping[str, JSON] | None = None,
        open_deal: bool = False,
        time_control: Mapping[str, JSON] | None = None,
        key: CreationKey | None = None,
        key_parts: tuple[str, ...] = (),
    ) -> NewGame:
        """Run the setup of a new game in memory (nothing is written).

        The deal mixes a fresh server secret with ``seed`` unless
        ``open_deal`` asks for the caller's seed alone (see :mod:`events.seeds`).
        With an Idempotency-Key (``key``, and ``key_parts`` naming the game
        among those it creates) the id and tokens are derived from it."""
        try:
            definition = game_definition(type_id)
        except KeyError as e:
            raise InvalidRequest(f"unknown game type {type_id!r}; see /v1/game-types") from e
        if not definition.min_players <= len(players) <= definition.max_players:
            raise InvalidConfig(
                f"{definition.title} is played by {definition.min_players} to {definition.max_players} players,"
                f" not {len(players)}",
                reason="player_count",
            )
        if not 0 <= start_seat < len(players):
            raise InvalidConfig(
                f"start_seat must be a seat of this game (0..{len(players) - 1})", reason="start_seat"
            )
        if open_deal and seed is None:
            raise InvalidRequest("an open deal is dealt from the caller's seed: send a seed with open_deal")
        server_secret = None if open_deal else secrets.token_hex(32)
        caller_seed = seed
        seed = deal_seed(server_secret, caller_seed)
        salt = secrets.token_hex(16)
        game_id = key.identifier("game", *key_parts) if key else secrets.token_hex(8)
        try:
            control = parse_time_control(time_control)
            domain_events = definition.setup(GameConfig(tuple(players), seed, start_seat, control))
        except DomainError as e:
            raise InvalidConfig(e.detail, reason=e.code) from e
        state = replay(definition, domain_events)
        if key is None:
            seat_tokens = tuple(new_token("st", game_id) for _ in players)
            host_token = new_token("ht", game_id)
        else:
            seat_tokens = tuple(key.token("st", game_id, str(seat)) for seat in range(len(players)))
            host_token = key.token("ht", game_id)
        metadata: dict[str, JSON] = {
            "players": list(players),
            "start_seat": start_seat,
            "seed": seed,
            "salt": salt,
            "seed_commitment": seed_commitment(seed, salt),
            "seed_source": "caller" if caller_seed is not None else "server",
            "open_deal": open_deal,
            "caller_seed": caller_seed,
            "server_secret": server_secret,
            "rules_version": definition.rules_version,
            "board_version": definition.board_version,
            "seat_token_hashes": [hash_token(t) for t in seat_tokens],
            "host_token_hash": hash_token(host_token),
        }
        if control.timed:
            metadata["time_control"] = control.to_json()
        metadata.update(extra_metadata or {})
        if key is not None:
            # what a retry with the key compares, and the first answer's status and version
            metadata[REQUEST_HASH] = key.hash
            metadata["creation_answer"] = {"status": definition.status(state), "version": len(domain_events)}
        return NewGame(
            game_id=game_id,
            game_type=definition.type_id,
            metadata=metadata,
            events=tuple(encode(definition, e, None) for e in domain_events),
            status=definition.status(state),
            seat_tokens=seat_tokens,
            host_token=host_token,
            state=state,
        )

    def create(
        self,
        type_id: str,
        players: Sequence[str],
        seed: str | None = None,
        start_seat: int = 0,
        extra_metadata: Mapping[str, JSON] | None = None,
        open_deal: bool = False,
        time_control: Mapping[str, JSON] | None = None,
        key: CreationKey | None = None,
    ) -> CreatedGame:
        """Set up and store a new game; returns its tokens (shown once).
        ``extra_metadata`` (e.g. the creating organiser) is stored with it.
        With an Idempotency-Key, a game it already created is answered again."""
        if key is not None and (before := self.created_with(key)) is not None:
            return before
        new = self.new_game(type_id, players, seed, start_seat, extra_metadata, open_deal, time_control, key)
        try:
            stored = self.store.create_game(new.game_id, new.game_type, new.metadata, new.events, new.status)
        except GameExists:
            # a concurrent request with the same key created it first
            if key is None or (before := self.created_with(key)) is None:
                raise
            return before
        record = self.queries.record(new.game_id)
        definition = definition_of(new.game_type)
        state, snapshot = None, None
        for event in stored:
            state = definition.evolve(state, decode(definition, event))
            snapshot = advanced(definition, snapshot, state, event.recorded_at)
        assert snapshot is not None
        self._stored(Loaded(record, definition, snapshot.state, stored[-1].seq, snapshot.clocks))
        return CreatedGame(record, stored[-1].seq, new.seat_tokens, new.host_token, new.status)

    def _stored(self, loaded: Loaded) -> None:
        """Keep the newest state of a game just written, and its next deadline."""
        self.cache.put(loaded.record.game_id, loaded.version, loaded.snapshot)
        if self.queries.timekeeper is not None:
            self.queries.timekeeper.record(loaded)

    # ----------------------------------------------------------------- cancel
    def cancel(self, game_id: str, authorization: str | None) -> Loaded:
        """The host ends the game with no result; 409 ``game_finished`` once it is over."""
        record = self.queries.record(game_id)
        auth.require_host(auth.game_caller(self.tokens, record, authorization))
        for attempt in range(MAX_RETRIES):
            loaded = self.queries.load(game_id)
            events = loaded.definition.cancel(loaded.state)
            try:
                return self.append_events(loaded, None, events)
            except StaleVersion:
                if attempt == MAX_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def created_with(self, key: CreationKey, key_parts: tuple[str, ...] = ()) -> CreatedGame | None:
        """The game an Idempotency-Key created, as its creation answered (the
        tokens derived again), or None; IdempotencyKeyReused when the key
        made it for another request."""
        try:
            record = self.queries.record(key.identifier("game", *key_parts))
        except GameNotFound:
            return None
        if not key.same_request(record.metadata.get(REQUEST_HASH)):
            raise refuse_reuse()
        answer = record.metadata.get("creation_answer")
        assert isinstance(answer, dict)
        seats = len(record.metadata.get("players", []))
        return CreatedGame(
            record,
            int(answer["version"]),
            tuple(key.token("st", record.game_id, str(seat)) for seat in range(seats)),
            key.token("ht", record.game_id),
            str(answer["status"]),
        )

    # -------------------------------------------------------------------- act
    def act(self, game_id: str, request: ActionRequest) -> ActionOutcome:
        """Decide and append one action of the caller's seat; all or nothing.

        With an Idempotency-Key, a request that was already applied (even
        one still in flight when this one started) gets the first answer: the
        append replays it when the key is known, and a refusal (stale version,
        illegal move) is checked against the key before it is raised."""
        parsed: _Parsed | None = None
        held = self.queries.recent_record(game_id)
        if held is not None and request.refusal is None:
            parsed = _Parsed(definition_of(held.game_type), request.body)
            outcome = self._act_on_held(held, request, parsed)
            if outcome is not None:
                return outcome
        record = self.queries.record(game_id)
        seat = auth.require_seat(auth.game_caller(self.tokens, record, request.authorization))
        if request.refusal is not None:
            raise request.refusal
        if parsed is None:
            parsed = _Parsed(definition_of(record.game_type), request.body)
        action = parsed.action()
        request_hash = _request_hash(seat, action, request.expected_version)
        try:
            return self._decide_and_append(record, seat, action, request, request_hash)
        except (StaleVersion, DomainError):
            if request.idempotency_key is not None:
                # The first attempt with this key may have committed meanwhile:
                # its answer, not this refusal, is the answer to a retry.
                prior = self.store.lookup_idempotency(game_id, request.idempotency_key)
                if prior is not None:
                    return self._replayed(game_id, seat, prior.events, prior.request_hash, request_hash)
            raise

    def _act_on_held(self, record: GameRecord, request: ActionRequest, parsed: _Parsed) -> ActionOutcome | None:
        """The action in one store round trip from the row and the newest
        state this process holds, or None for the full path (nothing held, a
        token the held row does not know, another version than expected, an
        illegal or malformed move, a lost race)."""
        held = self.cache.get_local(record.game_id)
        if held is None:
            return None
        version, snapshot = held
        timekeeper = self.queries.timekeeper
        if timekeeper is not None and timekeeper.maybe_due(snapshot.clocks):
            return None  # a timeout may be due: the full path appends it first
        if request.expected_version is not None and request.expected_version != version:
            return None
        seat = auth.seat_of_token(record, request.authorization)
        if seat is None:
            return None
        self.cache.stats.hits += 1
        loaded = Loaded(record, parsed.definition, snapshot.state, version, snapshot.clocks)
        try:
            action = parsed.action()
            if loaded.finished:
                return None
            domain_events = parsed.definition.decide(loaded.state, seat, action)
        except DomainError:
            return None
        request_hash = _request_hash(seat, action, request.expected_version)
        # The append re-checks the seat's token hash this row showed.
        guard = MetadataGuard(("seat_token_hashes", seat), record.metadata["seat_token_hashes"][seat])
        try:
            return self._append_decided(loaded, seat, domain_events, request.idempotency_key, request_hash, guard)
        except (StaleVersion, GuardFailed, GameNotFound):
            return None

    def _decide_and_append(
        self, record: GameRecord, seat: int, action: Action, request: ActionRequest, request_hash: str
    ) -> ActionOutcome:
        game_id, expected_version = record.game_id, request.expected_version
        fresh: GameRecord | None = record
        for attempt in range(MAX_RETRIES):
            loaded = self.queries.load(game_id, record=fresh)
            fresh = None  # a retry re-reads the game row
            if expected_version is not None and expected_version != loaded.version:
                raise StaleVersion(game_id, expected_version, loaded.version)
            if loaded.finished:
                raise GameFinished()
            domain_events = loaded.definition.decide(loaded.state, seat, action)
            try:
                return self._append_decided(loaded, seat, domain_events, request.idempotency_key, request_hash)
            except StaleVersion:
                if expected_version is None and attempt < MAX_RETRIES - 1:
                    continue  # someone else moved first: decide again on the new state
                raise
        raise AssertionError("unreachable")  # pragma: no cover

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
        written = self._append(loaded, seat, domain_events, idempotency_key, request_hash, guard)
        if isinstance(written, AppendResult):
            return self._replayed(loaded.record.game_id, seat, written.events, written.request_hash, request_hash)
        after, stored_events = written
        rendered = tuple(
            render_event(after, stored, seat, event) for stored, event in zip(stored_events, domain_events, strict=True)
        )
        return ActionOutcome(after.version, rendered, False)

    def append_events(self, loaded: Loaded, seat: int | None, domain_events: Sequence[Any]) -> Loaded:
        """Append events the server decided (a timeout, a cancel; ``seat``
        None) after ``loaded.version``; the game after them.  StaleVersion if
        anything was appended since."""
        written = self._append(loaded, seat, domain_events)
        assert not isinstance(written, AppendResult), "no idempotency key, no replay"
        return written[0]

    def _append(
        self,
        loaded: Loaded,
        seat: int | None,
        domain_events: Sequence[Any],
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        guard: MetadataGuard | None = None,
    ) -> tuple[Loaded, tuple[StoredEvent, ...]] | AppendResult:
        """Append and keep the new state; the replayed result when the key was used."""
        definition, game_id = loaded.definition, loaded.record.game_id
        states, state = [], loaded.state
        for event in domain_events:
            state = definition.evolve(state, event)
            states.append(state)
        result = self.store.append(
            game_id,
            loaded.version,
            [encode(definition, e, seat) for e in domain_events],
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            status=definition.status(state),
            guard=guard,
        )
        if result.replayed:
            return result
        snapshot = loaded.snapshot
        for stored, after_event in zip(result.events, states, strict=True):
            snapshot = advanced(definition, snapshot, after_event, stored.recorded_at)
        after = Loaded(loaded.record, definition, snapshot.state, result.events[-1].seq, snapshot.clocks)
        self._stored(after)
        return after, result.events

    def _replayed(
        self, game_id: str, seat: int, events: Sequence[StoredEvent], stored_hash: str | None, request_hash: str
    ) -> ActionOutcome:
        if stored_hash != request_hash:
            raise IdempotencyKeyReused("this Idempotency-Key was already used for a different request on this game")
        loaded = self.queries.load(game_id)
        rendered = tuple(render_event(loaded, e, seat) for e in events)
        return ActionOutcome(events[-1].seq, rendered, True)
