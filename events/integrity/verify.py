"""The offline verifier of a game record (an export), trusting nobody.

Given a complete record (the JSON of ``GET /v1/games/{id}/export``), it checks
with no server and no database:

1. ``chain``: every event's SHA-256 hash, the ``prev_hash`` links, and ``seq``
   continuity (an edited, removed or reordered event breaks it);
   ``signatures``: every event's Ed25519 signature of its hash, against the
   server's public keys (``GET /v1/keys``, saved: ``cablecar verify --keys``).
   A chain anyone can recompute, a signature only the private key's holder:
   a record rebuilt or stripped of signatures fails here, as does an event
   recorded after its key was retired (rules: :mod:`events.integrity.keyset`); without
   keys the check is not made (never ``ok``);
2. ``seed``: the revealed seed matches the commitment published at creation
   (the detail flags an open deal: the caller's seed alone made it);
3. ``setup``: the rules' setup, re-derived from the seed, produces exactly the
   recorded opening events, and the seed is the revealed server secret (mixed
   with the caller's seed, if any), or the caller's seed in an open deal;
4. ``moves``: every move (recovered from its first event) is accepted by the
   rules in the state before it and produces exactly the recorded events;
   every timeout (``seat_timed_out``, appended by the server) is one the
   clocks allow: the seat's deadline, derived from the recorded timestamps
   of the events before it, had passed when it was recorded, and its
   consequences are what the forfeit rules produce; a ``game_cancelled`` is
   accepted only before the end, a ``seat_token_rotated`` too (for a seat of
   the game), an ``events_quarantined`` anywhere (:mod:`domain.custody`:
   neither changes the game); a ``game_scheduled`` only right after the
   setup, and then no seat acts and no clock runs until its one
   ``game_started`` (the clocks start from that event's time);
5. ``result``: the final state's status, version and result equal the record.

Messages name the event (``seq N (type)``) and the differing *field names*,
never their values, so the same checks can run on a game still in progress
without revealing its secrets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.clocks import Clocks, epoch_of, parse_time_control
from domain.core import JSON, Event, GameConfig, GameDefinition
from domain.custody import EventsQuarantined, GameScheduled, GameStarted, SeatTokenRotated
from domain.errors import DomainError
from domain.forfeits import GameCancelled, SeatTimedOut
from domain.registry import game_definition
from events.encoding.canonical import canonical_json
from events.encoding.codec import current_payload, decode
from events.encoding.timestamps import epoch_seconds
from events.integrity.envelope import verify_events
from events.integrity.keyset import KeySet, signature_check
from events.integrity.record_shape import shape_problems
from events.integrity.seeds import deal_seed, is_open_deal, seed_commitment
from events.integrity.verdict import Check, Verdict
from events.records import StoredEvent

ENVELOPE_FIELDS = ("game_id", "seq", "position", "type", "schema_version", "payload", "recorded_at", "seat",
                   "idempotency_key", "prev_hash", "hash")
#: envelope fields records written before signing lack
SIGNATURE_FIELDS = ("signature", "key_id")


class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, message: str) -> None:
        self.items.append(message)


def _label(stored: StoredEvent) -> str:
    return f"event seq {stored.seq} ({stored.type})"


def _differing_fields(a: Mapping[str, JSON], b: Mapping[str, JSON]) -> list[str]:
    keys = sorted(set(a) | set(b))
    return [k for k in keys if canonical_json(a.get(k)) != canonical_json(b.get(k))]


def _compare(
    game: GameDefinition[Any], produced: Event, stored: StoredEvent, expected_seat: int | None
) -> str | None:
    """Why ``stored`` is not the event the rules produced, or None."""
    if stored.type != produced.TYPE:
        return f"{_label(stored)}: the rules produce a {produced.TYPE!r} event here"
    try:
        recorded = current_payload(game, stored)
    except Exception as e:  # unknown type, failed upcast
        return f"{_label(stored)}: cannot be read: {type(e).__name__}"
    fields = _differing_fields(recorded, produced.to_payload())
    if fields:
        return f"{_label(stored)}: recorded field(s) {', '.join(fields)} differ from what the rules produce"
    if stored.seat != expected_seat:
        return f"{_label(stored)}: recorded acting seat differs from the move's seat"
    return None


def _seed_check(seed_info: Mapping[str, JSON], seed: str, salt: str, commitment: JSON) -> Check:
    """The seed against its commitment; the detail says whether the caller's
    seed alone made the deal (an open deal: predictable by whoever knew it)."""
    if seed_commitment(seed, salt) != commitment:
        return Check("seed", False, "the revealed seed does not match the published commitment")
    if is_open_deal(seed_info):
        return Check("seed", True, "the seed matches the commitment; OPEN DEAL: the caller chose the seed, "
                                   "so whoever knew it could predict every hand")
    return Check("seed", True, "the seed matches the commitment published at creation")


def _derivation_problem(seed_info: Mapping[str, JSON], seed: str) -> str | None:
    """Why the deal seed is not what the record says it was made from: the
    caller's seed alone (open deal) or the revealed server secret mixed with
    the caller's seed.  Records from before open deals say neither."""
    if "open_deal" not in seed_info:
        return None
    caller_seed, server_secret = seed_info.get("caller_seed"), seed_info.get("server_secret")
    if seed_info["open_deal"]:
        return None if caller_seed == seed else "an open deal must be dealt from the caller's seed alone"
    caller = None if caller_seed is None else str(caller_seed)
    if isinstance(server_secret, str) and deal_seed(server_secret, caller) == seed:
        return None
    return "the seed is not the revealed server secret mixed with the caller's seed"


def _rules(version: JSON) -> str | None:
    """The rules version to set a record up under (None: the current one)."""
    return version if isinstance(version, str) else None


def parse_events(game_id: str, raw_events: Sequence[Mapping[str, JSON]]) -> tuple[list[StoredEvent], list[str]]:
    """Envelopes from export JSON; malformed entries are reported, not raised."""
    events: list[StoredEvent] = []
    problems: list[str] = []
    for i, raw in enumerate(raw_events):
        missing = [f for f in ENVELOPE_FIELDS if f not in raw]
        if missing:
            problems.append(f"event #{i + 1}: missing envelope fields {', '.join(missing)}")
            continue
        fields = {f: raw[f] for f in ENVELOPE_FIELDS}
        events.append(StoredEvent(**fields, **{f: raw.get(f) for f in SIGNATURE_FIELDS}))  # type: ignore[arg-type]
    return events, problems


def verify_record(
    header: Mapping[str, JSON],
    raw_events: Sequence[Mapping[str, JSON]],
    seed: str | None = None,
    salt: str | None = None,
    require_revealed_seed: bool = True,
    keys: KeySet | None = None,
    allow_unsigned: bool = False,
    unsigned_before: str | None = None,
) -> Verdict:
    """Verify a game record: ``header`` is the export without its events; ``keys``
    (None: not checked), ``allow_unsigned``, ``unsigned_before``: :func:`signature_check`'s.

    ``seed``/``salt`` override the header's (the server's own audit of a game
    in progress passes the secret seed; nothing of it appears in messages)."""
    game_info = header.get("game") or {}
    game_id = str(game_info.get("id", "?"))
    checks: list[Check] = []
    try:
        game = game_definition(str(game_info.get("type")))
    except KeyError:
        return Verdict(game_id, (Check("game_type", False, f"unknown game type {game_info.get('type')!r}"),))
    rules_version = game_info.get("rules_version")
    if rules_version not in (None, game.rules_version, *game.legacy_rules_versions):
        checks.append(Check("rules_version", False,
                            f"record made under rules {game_info.get('rules_version')!r}; "
                            f"this verifier implements {game.rules_version!r}"))

    # 1. the hash chain
    events, chain_check = _chain_check(header, game_info, game_id, raw_events)
    checks.append(chain_check)
    checks.append(signature_check(events, keys, allow_unsigned, unsigned_before))

    # 2. the seed against its commitment
    seed_info = header.get("seed") or {}
    seed = seed if seed is not None else seed_info.get("value")
    salt = salt if salt is not None else seed_info.get("salt")
    if seed is None or salt is None:
        checks.append(Check.not_made("seed", "the seed is not revealed in this record") if not require_revealed_seed
                      else Check("seed", False, "the seed is not revealed in this record"))
        return Verdict(game_id, tuple(checks))
    checks.append(_seed_check(seed_info, str(seed), str(salt), seed_info.get("commitment")))

    # 3. setup re-derived from the seed
    setup_check, state, opened = _setup_check(game, game_info, seed_info, str(seed), events)
    checks.append(setup_check)
    if not setup_check.ok:
        return Verdict(game_id, tuple(checks))

    # 4. every move through the rules
    moves_check, state = _moves_check(game, state, events, opened)
    checks.append(moves_check)
    if not moves_check.ok:
        return Verdict(game_id, tuple(checks))

    # 5. the final state against the record
    checks.append(_result_check(game, state, header, game_info))
    return Verdict(game_id, tuple(checks))


def _chain_check(
    header: Mapping[str, JSON], game_info: Mapping[str, JSON], game_id: str, raw_events: Sequence[Mapping[str, JSON]]
) -> tuple[list[StoredEvent], Check]:
    """The record's events, and the check of their hash chain (and of the published head)."""
    events, malformed = parse_events(game_id, raw_events)
    version = game_info.get("version")
    chain = verify_events(game_id, events, expected_count=version if isinstance(version, int) else None)
    chain_problems = [*malformed, *chain.problems]
    head = (header.get("chain") or {}).get("head")
    if head is not None and events and head != events[-1].hash:
        chain_problems.append("the chain head published in the record is not the last event's hash")
    return events, Check("chain", not chain_problems,
                         f"{len(events)} events chained from genesis" if not chain_problems
                         else "; ".join(chain_problems))


def _setup_check(
    game: GameDefinition[Any],
    game_info: Mapping[str, JSON],
    seed_info: Mapping[str, JSON],
    seed: str,
    events: Sequence[StoredEvent],
) -> tuple[Check, Any, int]:
    """The check of the opening events against the setup re-derived from
    ``seed``, the state after them, and how many events the setup made."""
    players = tuple(str(p) for p in game_info.get("players", []))
    start_seat = int(game_info.get("start_seat", 0))
    try:
        control = parse_time_control(events[0].payload.get("time_control") if events else None)
        config = GameConfig(players, seed, start_seat, control, _rules(game_info.get("rules_version")))
        opening = game.setup(config)
    except DomainError as e:
        return Check("setup", False, f"the rules cannot set this game up: {e.detail}"), None, 0
    problems = _Problems()
    state: Any = None
    for i, produced in enumerate(opening):
        if i >= len(events):
            problems.add(f"the record ends before the setup's event {i + 1} ({produced.TYPE})")
            break
        why = _compare(game, produced, events[i], None)
        if why:
            problems.add(why)
        state = game.evolve(state, produced)
    derivation = _derivation_problem(seed_info, seed)
    if derivation:
        problems.add(derivation)
    check = Check("setup", not problems.items,
                  f"{len(opening)} setup events re-derived from the seed" if not problems.items
                  else "; ".join(problems.items[:5]))
    return check, state, len(opening)


def _moves_check(
    game: GameDefinition[Any], state: Any, events: Sequence[StoredEvent], start: int
) -> tuple[Check, Any]:
    """Replay every move from event ``start`` (the first after the setup)
    through the rules, the clocks following the recorded timestamps; the
    check stops at the first problem.  Returns it and the final state."""
    moves = _Problems()
    i = start
    count = 0
    clocks = Clocks.start(game.time_control(state), game.seat_count(state),
                          game.moment(state, epoch_seconds(events[i - 1].recorded_at)))
    while i < len(events) and not moves.items:
        stored = events[i]
        try:
            first = decode(game, stored)
        except Exception as e:
            moves.add(f"{_label(stored)}: cannot be decoded ({type(e).__name__})")
            break
        opened = _opened(game, state, first, events[i:], clocks, i == start)
        if isinstance(opened, str):
            moves.add(opened)
            break
        seat, produced_events = opened
        state, clocks, why = _replay_move(game, state, clocks, seat, produced_events, events, i)
        if why:
            moves.add(why)
        i += len(produced_events)
        count += 1
    check = Check("moves", not moves.items,
                  f"{count} moves replayed through the rules" if not moves.items else moves.items[0])
    return check, state


def _replay_move(
    game: GameDefinition[Any],
    state: Any,
    clocks: Clocks,
    seat: int | None,
    produced_events: Sequence[Event],
    events: Sequence[StoredEvent],
    i: int,
) -> tuple[Any, Clocks, str | None]:
    """Compare the events the rules produced for one move with the recorded
    ones from ``events[i]``, evolving the state and clocks through them; the
    third value is the first difference found (None: none)."""
    stored = events[i]
    for j, produced in enumerate(produced_events):
        if i + j >= len(events):
            return state, clocks, f"{_label(stored)}: the record ends inside this move ({produced.TYPE} missing)"
        why = _compare(game, produced, events[i + j], seat)
        if why:
            return state, clocks, why
        state = game.evolve(state, produced)
        clocks = game.clocks_after(clocks, state, produced, epoch_seconds(events[i + j].recorded_at))
    return state, clocks, None


def _result_check(
    game: GameDefinition[Any], state: Any, header: Mapping[str, JSON], game_info: Mapping[str, JSON]
) -> Check:
    """The final state's status and result against the recorded ones."""
    outcome: list[str] = []
    if game_info.get("status") not in (None, game.status(state)):
        outcome.append(f"recorded status {game_info.get('status')!r} but the rules give {game.status(state)!r}")
    derived_result = _as_recorded_then(header.get("result"), game.result(state))
    if "result" in header and header.get("result") != derived_result:
        recorded = header.get("result") or {}
        derived = derived_result or {}
        fields = _differing_fields(recorded, derived)
        outcome.append(f"recorded result differs from the replayed one in {', '.join(fields) or 'shape'}")
    return Check("result", not outcome,
                 "final status and result equal the replay" if not outcome else "; ".join(outcome))


def _as_recorded_then(recorded: JSON, derived: dict[str, JSON] | None) -> dict[str, JSON] | None:
    """``derived`` in the shape of a result recorded before seats had a
    ``standing`` (such a game has no forfeit, so every seat's was ``in``)."""
    players = recorded.get("players") if isinstance(recorded, dict) else None
    if derived is None or not isinstance(recorded, dict):
        return derived
    if players is None and "players" in derived and all(
        set(p) == {"seat", "standing"} for p in derived["players"]
    ):
        return {k: v for k, v in derived.items() if k != "players"}
    if isinstance(players, list) and players and all(isinstance(p, dict) and "standing" not in p for p in players):
        return {**derived, "players": [{k: v for k, v in p.items() if k != "standing"} for p in derived["players"]]}
    return derived


def _opened(
    game: GameDefinition[Any], state: Any, first: Event, rest: Sequence[StoredEvent], clocks: Clocks,
    after_setup: bool = False,
) -> tuple[int | None, list[Event]] | str:
    """The acting seat and the events the rules produce for what ``first``
    (the event ``rest[0]`` holds; ``after_setup``: the first after the
    opening events) opens: a seat's move, a timeout of one or more seats that
    missed one deadline, a cancel, a scheduled game's wait or start; or why
    they refuse it."""
    stored = rest[0]
    scheduled = _scheduled(game, state, first, stored, clocks, after_setup)
    if scheduled is not None:
        return scheduled
    try:
        if isinstance(first, SeatTimedOut):
            at = epoch_seconds(stored.recorded_at)
            running = dict(clocks.deadlines())
            seats: list[int] = []
            for later in rest:
                if later.type != SeatTimedOut.TYPE:
                    break
                seat = later.payload.get("seat")
                due = running.get(seat) if isinstance(seat, int) else None
                if due is None or not isinstance(seat, int):
                    return f"{_label(later)}: seat {seat} had no running deadline to time out"
                if at < due:
                    return f"{_label(later)}: recorded {due - at:.3f} s before seat {seat}'s deadline"
                if seats and due != running[seats[0]]:
                    return f"{_label(later)}: seats with different deadlines timed out together"
                seats.append(seat)
            return None, game.time_out(state, seats)
        if isinstance(first, GameCancelled):
            return None, game.cancel(state)
        if isinstance(first, SeatTokenRotated):
            if game.is_over(state):
                return f"{_label(stored)}: a seat's token was rotated after the end"
            if not 0 <= first.seat < game.seat_count(state):
                return f"{_label(stored)}: seat {first.seat} is not a seat of this game"
            return None, [first]
        if isinstance(first, EventsQuarantined):
            return None, [first]
        move = game.action_of(first)
        if move is None:
            return f"{_label(stored)}: does not start a move (events were removed or reordered)"
        seat, action = move
        return seat, game.decide(state, seat, action)
    except DomainError as e:
        return f"{_label(stored)}: the rules refuse this: {e.code}"


def _scheduled(
    game: GameDefinition[Any], state: Any, first: Event, stored: StoredEvent, clocks: Clocks, after_setup: bool
) -> tuple[None, list[Event]] | str | None:
    """What the schedule rules say of ``first``: a ``game_scheduled`` right
    after the setup, one ``game_started`` while the game waits, nothing else
    while it waits but a token rotation or a cancel; None: they say nothing."""
    waiting = clocks.starts_at is not None and not game.is_over(state)
    if isinstance(first, GameScheduled):
        if not after_setup:
            return f"{_label(stored)}: a game is scheduled only right after its setup"
        try:
            epoch_of(first.starts_at)
        except (TypeError, ValueError, AttributeError):
            return f"{_label(stored)}: starts_at is not an ISO-8601 time"
        return None, [first]
    if isinstance(first, GameStarted):
        return (None, [first]) if waiting else f"{_label(stored)}: the game was not waiting for its start"
    if waiting and not isinstance(first, SeatTokenRotated | GameCancelled | EventsQuarantined):
        return f"{_label(stored)}: recorded before the scheduled game started"
    return None


def verify_export(export: Mapping[str, JSON], keys: KeySet | None = None, allow_unsigned: bool = False) -> Verdict:
    """Verify a complete export document (``header`` fields plus ``events``),
    its signatures against ``keys`` if given (``allow_unsigned``: a record from before
    the server signed: unsigned events before its first signed one and its oldest key)."""
    header = {k: v for k, v in export.items() if k != "events"}
    events = export.get("events")
    game = export.get("game")
    game_id = str(game.get("id", "?")) if isinstance(game, dict) else "?"
    if not isinstance(events, list):
        return Verdict(game_id, (Check("format", False, "the record has no list of events"),))
    mistyped = shape_problems(export)
    if mistyped:
        return Verdict(game_id, (Check("format", False, "; ".join(mistyped)),))
    since = keys.signing_since() if keys is not None and allow_unsigned else None
    return verify_record(header, events, keys=keys, allow_unsigned=allow_unsigned, unsigned_before=since)
