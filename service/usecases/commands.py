"""Changing games: act in one, cancel one (creating one: :mod:`service.usecases.creation`).

An action takes one store round trip when this process already holds the
game (its row and its newest state): the append itself re-checks what the
held copy could have got wrong (the seat's token hash, the version, the
idempotency key).  Anything unusual takes the full path, which reads the
game and gives the exact answer, errors included.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from domain.core import JSON, Action, GameDefinition
from domain.custody import STATUS_SCHEDULED, GameStarted
from domain.errors import DomainError, GameFinished, MalformedAction
from events.encoding.canonical import canonical_json
from events.encoding.codec import encode
from events.records import (
    AppendOptions,
    AppendResult,
    GameNotFound,
    GameRecord,
    GuardFailed,
    IntegrityError,
    MetadataGuard,
    OutsideDeadline,
    StaleVersion,
    StoredEvent,
    TokenChange,
)
from service.errors import Forbidden, IdempotencyKeyReused, InvalidRequest, NotStarted
from service.usecases import auth
from service.usecases.bot_seats import bot_seats
from service.usecases.creation import GameCreation
from service.usecases.loaded import Loaded
from service.usecases.presentation import render_event
from service.usecases.queries import GameQueries, advanced, definition_of

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


def seat_key(seat: int, key: str | None) -> str | None:
    """An action's Idempotency-Key as stored: scoped to the seat that sent it
    (``<seat>:<key>``), so one seat's key never meets another's and no seat
    learns from a replay or a 422 which keys another seat used.  The stored
    events carry it in this form (an export shows ``<seat>:<key>``)."""
    return None if key is None else f"{seat}:{key}"


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


def _still_waiting(loaded: Loaded, state: Any, domain_events: Sequence[Any]) -> bool:
    """Whether a scheduled game still waits for its start after ``domain_events`` (a token rotation)."""
    return loaded.scheduled and not loaded.definition.is_over(state) \
        and not any(isinstance(e, GameStarted) for e in domain_events)


class GameCommands:
    """The write side of the game server: creating games (:class:`GameCreation`),
    acting in them, cancelling them and appending what the server decides."""

    def __init__(self, queries: GameQueries, tokens: auth.TokenCheck, creation: GameCreation) -> None:
        self.queries = queries
        self.event_log = queries.event_log
        self.creation = creation
        self.tokens = tokens
        self.cache = queries.cache

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
        return self._act_as(record, seat, parsed or _Parsed(definition_of(record.game_type), request.body), request)

    def act_for_bot(self, game_id: str, seat: int, request: ActionRequest) -> ActionOutcome:
        """The server's bot acts for its ``seat`` (a seat the game's creator
        gave to a bot; no token names it): the same decision and append as a
        person's action, authored by the seat, with the request's expected
        version and Idempotency-Key.  Forbidden for a seat a person plays."""
        record = self.queries.record(game_id)
        bots = bot_seats(record.metadata)
        if not 0 <= seat < len(bots) or bots[seat] is None:
            raise Forbidden(f"seat {seat} of game {game_id} is not played by a server bot")
        return self._act_as(record, seat, _Parsed(definition_of(record.game_type), request.body), request)

    def _act_as(self, record: GameRecord, seat: int, parsed: _Parsed, request: ActionRequest) -> ActionOutcome:
        game_id = record.game_id
        action = parsed.action()
        request_hash = _request_hash(seat, action, request.expected_version)
        try:
            return self._decide_and_append(record, seat, action, request, request_hash)
        except (StaleVersion, DomainError):
            if request.idempotency_key is not None:
                # The first attempt with this key may have committed meanwhile:
                # its answer, not this refusal, is the answer to a retry.
                prior = self.event_log.lookup_idempotency(game_id, f"{seat}:{request.idempotency_key}")
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
        seat = auth.seat_of_token(self.tokens.hasher, record, request.authorization)
        if seat is None:
            return None
        self.cache.stats.hits += 1
        loaded = Loaded(record, parsed.definition, snapshot.state, version, snapshot.clocks)
        try:
            action = parsed.action()
            if loaded.finished or loaded.scheduled:
                return None
            domain_events = parsed.definition.decide(loaded.state, seat, action)
        except DomainError:
            return None
        request_hash = _request_hash(seat, action, request.expected_version)
        # The append re-checks the seat's token hash this row showed.
        guard = MetadataGuard(("seat_token_hashes", seat), record.metadata["seat_token_hashes"][seat])
        try:
            return self._append_decided(loaded, seat, domain_events, seat_key(seat, request.idempotency_key),
                                        request_hash, guard)
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
            if loaded.scheduled:
                raise NotStarted(f"the game starts at {loaded.starts_at}: no seat may act before",
                                 starts_at=loaded.starts_at)
            domain_events = loaded.definition.decide(loaded.state, seat, action)
            try:
                return self._append_decided(loaded, seat, domain_events, seat_key(seat, request.idempotency_key),
                                            request_hash)
            except StaleVersion as e:
                if expected_version is None and attempt < MAX_RETRIES - 1:
                    continue  # someone else moved first: decide again on the new state
                if isinstance(e, OutsideDeadline):  # the timeout wins: the answer names the version after it
                    raise StaleVersion(game_id, e.expected, self.queries.load(game_id).version) from e
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

    def append_events(
        self, loaded: Loaded, seat: int | None, domain_events: Sequence[Any], due: float | None = None,
        guard: MetadataGuard | None = None, token: TokenChange | None = None,
    ) -> Loaded:
        """Append events the server decided (a timeout, a cancel, a token
        rotation with its ``token`` change; ``seat`` None) after
        ``loaded.version``; the game after them.  StaleVersion if anything
        was appended since, GuardFailed if ``guard`` no longer holds;
        OutsideDeadline (a StaleVersion) if a timeout's deadline ``due``
        (epoch seconds) has not passed by the database's clock."""
        not_before = None if due is None else datetime.fromtimestamp(due, UTC)
        written = self._append(loaded, seat, domain_events, guard=guard, not_before=not_before, token=token)
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
        not_before: datetime | None = None,
        token: TokenChange | None = None,
    ) -> tuple[Loaded, tuple[StoredEvent, ...]] | AppendResult:
        """Append and keep the new state; the replayed result when the key was used.

        A seat's action must reach the log before every deadline running in
        ``loaded`` by the database's clock (else OutsideDeadline: the timeout
        wins, see :mod:`service.usecases.timekeeper`)."""
        definition, game_id = loaded.definition, loaded.record.game_id
        not_after = None
        if seat is not None and not loaded.finished:
            due = loaded.clocks.deadline()
            not_after = None if due is None else datetime.fromtimestamp(due, UTC)
        states, state = [], loaded.state
        for event in domain_events:
            state = definition.evolve(state, event)
            states.append(state)
        try:
            result = self.event_log.append(
                game_id,
                loaded.version,
                [encode(definition, e, seat) for e in domain_events],
                AppendOptions(
                    idempotency_key=idempotency_key,
                    request_hash=request_hash,
                    status=STATUS_SCHEDULED if _still_waiting(loaded, state, domain_events) else definition.status(state),
                    guard=guard,
                    not_before=not_before,
                    not_after=not_after,
                    token=token,
                ),
            )
        except IntegrityError as e:
            raise self.queries.refused_write(game_id, e) from e
        if result.replayed:
            return result
        snapshot = loaded.snapshot
        for stored, after_event, event in zip(result.events, states, domain_events, strict=True):
            snapshot = advanced(definition, snapshot, after_event, event, stored.recorded_at)
        after = Loaded(loaded.record, definition, snapshot.state, result.events[-1].seq, snapshot.clocks)
        self.creation.remember(after)
        return after, result.events

    def _replayed(
        self, game_id: str, seat: int, events: Sequence[StoredEvent], stored_hash: str | None, request_hash: str
    ) -> ActionOutcome:
        if stored_hash != request_hash:
            raise IdempotencyKeyReused("this Idempotency-Key was already used for a different request on this game")
        loaded = self.queries.load(game_id)
        rendered = tuple(render_event(loaded, e, seat) for e in events)
        return ActionOutcome(events[-1].seq, rendered, True)
