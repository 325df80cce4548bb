"""Creating games: the setup run in memory, then stored with its opening
events; with an Idempotency-Key, a retry is answered with the game it
already created (ids and tokens derived from the key, see
:mod:`service.adapters.idempotency`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.clocks import parse_time_control
from domain.core import JSON, GameConfig, GameDefinition
from domain.custody import STATUS_SCHEDULED, GameScheduled
from domain.errors import DomainError
from domain.registry import game_definition
from events.encoding.codec import decode, encode
from events.integrity.seeds import deal_seed, seed_commitment
from events.recorders.event_log import EventStore
from events.recorders.tournaments import OrganiserRecord
from events.records import GameExists, GameNotFound, GameRecord, NewEvent
from service.adapters.cache import StateCache
from service.adapters.idempotency import REQUEST_HASH, CreationKey, refuse_reuse
from service.adapters.tokens import HOST, TokenHasher, new_token
from service.errors import InvalidConfig, InvalidRequest
from service.usecases.auth import TokenCheck
from service.usecases.bot_seats import METADATA_KEY as BOTS_KEY
from service.usecases.bot_seats import bot_seats, checked_bots
from service.usecases.bot_turns import BotTurns
from service.usecases.loaded import Loaded
from service.usecases.queries import GameQueries, advanced, definition_of


@dataclass(frozen=True)
class GameRequest:
    """What a caller asks a new game to be: its type and players, and the
    options of its deal (``bots`` names, per seat, the server-side bot that
    plays it, None for a person; ``extra_metadata`` is stored with the game)."""

    type_id: str
    players: Sequence[str]
    seed: str | None = None
    start_seat: int = 0
    extra_metadata: Mapping[str, JSON] | None = None
    open_deal: bool = False
    time_control: Mapping[str, JSON] | None = None
    bots: Sequence[str | None] | None = None
    #: the anonymous creator's address, for the bot runners' round-robin across creators (not stored in the game)
    address: str | None = None
    #: the organiser's own ids of the game (``ref``) and of each seat's player (None: none), stored with it
    ref: str | None = None
    player_refs: Sequence[str | None] | None = None
    #: when the game starts (ISO-8601 UTC; None: now): it waits until then, recorded as ``game_scheduled``
    starts_at: str | None = None


@dataclass(frozen=True)
class NewGame:
    """A game set up in memory, ready to be written: id, type, metadata,
    opening events, tokens (shown only once) and the state after each
    opening event (what the clocks and the cache start from)."""

    game_id: str
    game_type: str
    metadata: dict[str, JSON]
    events: tuple[NewEvent, ...]
    status: str
    #: None for a bot seat (the server plays it: nobody holds a token for it)
    seat_tokens: tuple[str | None, ...]
    host_token: str
    states: tuple[Any, ...]


@dataclass(frozen=True)
class CreatedGame:
    """What creating a game returns (tokens are shown only here, once)."""

    record: GameRecord
    version: int
    seat_tokens: tuple[str | None, ...]
    host_token: str
    status: str


class GameCreation:
    """Creating games: set up in memory, then stored in one write."""

    def __init__(self, queries: GameQueries, tokens: TokenCheck, bot_turns: BotTurns | None = None) -> None:
        """``tokens``' hasher makes the stored hashes of new games' tokens;
        ``bot_turns`` (None: no runner is told) learns of bot seats to play."""
        self.queries = queries
        self.event_log: EventStore = queries.event_log
        self.cache: StateCache = queries.cache
        self.tokens = tokens
        self.bot_turns = bot_turns

    def remember(self, loaded: Loaded, address: str | None = None) -> None:
        """Keep the newest state of a game just written, its next deadline,
        and whether a bot seat of it must act (``address``: its anonymous creator's)."""
        self.cache.put(loaded.record.game_id, loaded.version, loaded.snapshot)
        if self.queries.timekeeper is not None:
            self.queries.timekeeper.record(loaded)
        if self.bot_turns is not None:
            self.bot_turns.record(loaded, address)

    def new_game(
        self, request: GameRequest, key: CreationKey | None = None, key_parts: tuple[str, ...] = ()
    ) -> NewGame:
        """Run the setup of a new game in memory (nothing is written).

        The deal mixes a fresh server secret with the request's seed unless
        ``open_deal`` asks for the caller's seed alone (see :mod:`events.integrity.seeds`).
        With an Idempotency-Key (``key``, and ``key_parts`` naming the game
        among those it creates) the id and tokens are derived from it."""
        definition, seat_bots = _checked(request)
        if self.bot_turns is not None:
            self.bot_turns.require_runners(seat_bots)  # a bot seat nobody would play is refused: nothing written
        server_secret = None if request.open_deal else secrets.token_hex(32)
        seed = deal_seed(server_secret, request.seed)
        game_id = key.identifier("game", *key_parts) if key else secrets.token_hex(8)
        try:
            control = parse_time_control(request.time_control)
            config = GameConfig(tuple(request.players), seed, request.start_seat, control)
            domain_events = definition.setup(config)
        except DomainError as e:
            raise InvalidConfig(e.detail, reason=e.code) from e
        if request.starts_at is not None:
            domain_events.append(GameScheduled(request.starts_at))
        states = _folded(definition, domain_events)
        status = STATUS_SCHEDULED if request.starts_at is not None else definition.status(states[-1])
        seat_tokens, host_token = _tokens(game_id, len(request.players), seat_bots, key)
        hashes = _hashes(self.tokens.hasher, game_id, seat_tokens, host_token)
        metadata = _metadata(definition, request, seed, server_secret, hashes)
        if control.timed:
            metadata["time_control"] = control.to_json()
        if seat_bots is not None:
            metadata[BOTS_KEY] = list(seat_bots)
        metadata.update(_refs(request))
        metadata.update(request.extra_metadata or {})
        if key is not None:
            # what a retry with the key compares, and the first answer's status and version
            metadata[REQUEST_HASH] = key.hash
            metadata["creation_answer"] = {"status": status, "version": len(domain_events)}
        return NewGame(
            game_id=game_id,
            game_type=definition.type_id,
            metadata=metadata,
            events=tuple(encode(definition, e, None) for e in domain_events),
            status=status,
            seat_tokens=seat_tokens,
            host_token=host_token,
            states=states,
        )

    def create(self, request: GameRequest, key: CreationKey | None = None,
               charge: Callable[[GameRequest], None] | None = None) -> CreatedGame:
        """Set up and store a new game; returns its tokens (shown once).
        The request's ``extra_metadata`` (e.g. the creating organiser) is stored with it.
        With an Idempotency-Key, a game it already created is answered again,
        and not charged: ``charge`` (a rate limit, which may refuse before
        anything is written) is called only for a game about to be created."""
        if key is not None and (before := self.created_with(key)) is not None:
            return before
        if charge is not None:
            charge(request)
        new = self.new_game(request, key)
        try:
            stored = self.event_log.create_game(new.game_id, new.game_type, new.metadata, new.events, new.status)
        except GameExists:
            # a concurrent request with the same key created it first
            if key is None or (before := self.created_with(key)) is None:
                raise
            return before
        record = self.queries.record(new.game_id)  # also what this worker holds for the first action
        definition = definition_of(new.game_type)
        snapshot = None
        # the states the setup already folded (the stored events hold the same facts: no decoding them again)
        for state, event in zip(new.states, stored, strict=True):
            snapshot = advanced(definition, snapshot, state, decode(definition, event), event.recorded_at)
        assert snapshot is not None
        self.remember(Loaded(record, definition, snapshot.state, stored[-1].seq, snapshot.clocks), request.address)
        return CreatedGame(record, stored[-1].seq, new.seat_tokens, new.host_token, new.status)

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
        seat_bots = bot_seats(record.metadata)
        return CreatedGame(
            record,
            int(answer["version"]),
            tuple(None if bot else key.token("st", record.game_id, str(seat)) for seat, bot in enumerate(seat_bots)),
            key.token("ht", record.game_id),
            str(answer["status"]),
        )


def _checked(request: GameRequest) -> tuple[GameDefinition[Any], list[str | None] | None]:
    """The game's definition and its seats' bots, once the request is one the game can be."""
    try:
        definition = game_definition(request.type_id)
    except KeyError as e:
        raise InvalidRequest(f"unknown game type {request.type_id!r}; see /v1/game-types") from e
    count = len(request.players)
    if not definition.min_players <= count <= definition.max_players:
        raise InvalidConfig(
            f"{definition.title} is played by {definition.min_players} to {definition.max_players} players,"
            f" not {count}",
            reason="player_count",
        )
    if not 0 <= request.start_seat < count:
        raise InvalidConfig(f"start_seat must be a seat of this game (0..{count - 1})", reason="start_seat")
    seat_bots = checked_bots(definition.type_id, request.bots, count)
    if request.open_deal and request.seed is None:
        raise InvalidRequest("an open deal is dealt from the caller's seed: send a seed with open_deal")
    return definition, seat_bots


def _refs(request: GameRequest) -> dict[str, JSON]:
    """The organiser's refs and start time as stored with the game (only those given: a game
    without them stores what it always did)."""
    out: dict[str, JSON] = {}
    if request.ref is not None:
        out["ref"] = request.ref
    if request.player_refs is not None and any(r is not None for r in request.player_refs):
        out["player_refs"] = list(request.player_refs)
    if request.starts_at is not None:
        out["starts_at"] = request.starts_at
    return out


def _folded(definition: GameDefinition[Any], domain_events: Sequence[Any]) -> tuple[Any, ...]:
    """The state after each opening event."""
    folded: list[Any] = []
    state = None
    for event in domain_events:
        state = definition.evolve(state, event)
        folded.append(state)
    return tuple(folded)


def _tokens(
    game_id: str, seats: int, seat_bots: list[str | None] | None, key: CreationKey | None
) -> tuple[tuple[str | None, ...], str]:
    """The seats' tokens (None for a bot seat) and the host's: fresh, or derived from an Idempotency-Key."""
    if key is None:
        seat_tokens: tuple[str | None, ...] = tuple(new_token("st", game_id) for _ in range(seats))
        host_token = new_token("ht", game_id)
    else:
        seat_tokens = tuple(key.token("st", game_id, str(seat)) for seat in range(seats))
        host_token = key.token("ht", game_id)
    if seat_bots is not None:
        seat_tokens = tuple(None if bot else t for t, bot in zip(seat_tokens, seat_bots, strict=True))
    return seat_tokens, host_token


def _hashes(
    hasher: TokenHasher, game_id: str, seat_tokens: tuple[str | None, ...], host_token: str
) -> dict[str, JSON]:
    """The stored hashes of a new game's tokens (a bot seat has no token, so no hash: no token can match it)."""
    return {
        "seat_token_hashes": [None if t is None else hasher.stored(t, game_id, seat) for seat, t in enumerate(seat_tokens)],
        "host_token_hash": hasher.stored(host_token, game_id, HOST),
    }


def _metadata(
    definition: GameDefinition[Any], request: GameRequest, seed: str, server_secret: str | None,
    hashes: dict[str, JSON],
) -> dict[str, JSON]:
    """What is stored with every game: its players, its deal's seed and commitment, its
    transparency-log leaf salt, versions and token hashes."""
    salt = secrets.token_hex(16)
    return {
        "players": list(request.players),
        "start_seat": request.start_seat,
        "seed": seed,
        "salt": salt,
        "seed_commitment": seed_commitment(seed, salt),
        # the transparency log's per-game secret (issue 35), revealed by the export once the game is finished
        "leaf_salt": secrets.token_hex(32),
        "seed_source": "caller" if request.seed is not None else "server",
        "open_deal": request.open_deal,
        "caller_seed": request.seed,
        "server_secret": server_secret,
        "rules_version": definition.rules_version,
        "board_version": definition.board_version,
        **hashes,
    }


def requested_game(body: Mapping[str, Any], organiser: OrganiserRecord | None, address: str | None) -> GameRequest:
    """The game a ``POST /v1/games`` body asks for, by ``organiser`` (None:
    anonymous, from ``address``).  Refs are an organiser's own ids: given
    without an organiser token they are refused (nothing is written)."""
    players = body["players"]
    refs = [p["ref"] for p in players]
    if organiser is None and (body["ref"] is not None or any(r is not None for r in refs)):
        message = "refs are an organiser's own ids: send the organiser token to give them"
        raise InvalidRequest(message, errors=[{"field": "ref", "message": message}])
    return GameRequest(
        body["type"],
        [p["name"] for p in players],
        body["seed"],
        body["start_seat"],
        {"organiser": organiser.organiser_id} if organiser else None,
        body["open_deal"],
        body["time_control"],
        [p["bot"] for p in players],
        None if organiser else address,
        ref=body["ref"],
        player_refs=refs,
    )
