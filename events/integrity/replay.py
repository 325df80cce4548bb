"""Re-deciding an exported game (checks 3 to 5 of :mod:`events.integrity.verify`):
its setup dealt again from the seed, every move decided again by the rules
with the clocks following the recorded timestamps, the result computed
again.  Messages name events and field names, never values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.clocks import Clocks, epoch_of, parse_time_control
from domain.core import JSON, Event, GameConfig, GameDefinition
from domain.custody import EventsQuarantined, GameScheduled, GameStarted, SeatTokenRotated
from domain.errors import DomainError
from domain.forfeits import GameCancelled, SeatTimedOut
from events.encoding.canonical import canonical_json
from events.encoding.codec import current_payload, decode
from events.encoding.timestamps import epoch_seconds
from events.integrity.seeds import deal_seed
from events.integrity.verdict import Check
from events.records import StoredEvent


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


def check_setup(
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


def check_moves(
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


def check_result(
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
            wrong = first.problem(stored.seq)
            return f"{_label(stored)}: {wrong}" if wrong else (None, [first])
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


