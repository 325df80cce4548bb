"""Time controls and the clocks they run (``domain/clocks.py``).

The clocks are a fold over :class:`~domain.clocks.Moment` values (one per
recorded event: its time and who is active after it), so every case below
is a short list of moments; the last tests fold the moments of real games
through :meth:`~domain.core.GameDefinition.moment`.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.cablecar import GAME as CABLECAR
from domain.clocks import (
    MAX_SECONDS,
    NO_TIME_CONTROL,
    ClockReading,
    Clocks,
    Moment,
    SeatClock,
    TimeControl,
    parse_time_control,
)
from domain.core import GameConfig, GameDefinition, replay
from domain.errors import InvalidConfig
from domain.ttr import GAME as TTR
from domain.ttr.actions import DrawCard
from domain.ttr.legal import keep_choices, placements

PER_TURN = TimeControl("per_turn", seconds=60)
CLOCK = TimeControl("clock", initial_seconds=100, increment_seconds=5)


def play(seat: int, at: float, turn: int) -> Moment:
    """``seat`` is to act in turn ``turn`` from time ``at``."""
    return Moment(at, (seat,), turn, setup=False, over=False)


def overdue(clocks: Clocks, now: float) -> tuple[int, ...]:
    """The seats whose deadline has passed at ``now``, earliest deadline first."""
    return tuple(seat for seat, due in clocks.deadlines() if due <= now)


def setup(at: float, *seats: int) -> Moment:
    """``seats`` have setup choices to make at time ``at``."""
    return Moment(at, seats, 0, setup=True, over=False)


def over(at: float) -> Moment:
    return Moment(at, (), 99, setup=False, over=True)


def fold(control: TimeControl, seats: int, *moments: Moment) -> Clocks:
    clocks = Clocks.start(control, seats, moments[0])
    for moment in moments[1:]:
        clocks = clocks.advance(moment)
    return clocks


def remaining(clocks: Clocks, now: float | None = None) -> list[float]:
    return [r.remaining_seconds for r in clocks.readings(now)]


def running(clocks: Clocks) -> list[bool]:
    return [r.running for r in clocks.readings()]


# --- parsing -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (None, NO_TIME_CONTROL),
        ({"kind": "none"}, NO_TIME_CONTROL),
        ({"kind": "per_turn", "seconds": 60}, TimeControl("per_turn", seconds=60)),
        ({"kind": "per_turn", "seconds": 1, "setup_seconds": 90}, TimeControl("per_turn", seconds=1, setup_seconds=90)),
        ({"kind": "clock", "initial_seconds": 600}, TimeControl("clock", initial_seconds=600)),
        (
            {"kind": "clock", "initial_seconds": 600, "increment_seconds": 5, "setup_seconds": 30},
            TimeControl("clock", initial_seconds=600, increment_seconds=5, setup_seconds=30),
        ),
        ({"kind": "clock", "initial_seconds": 600, "increment_seconds": 0}, TimeControl("clock", initial_seconds=600)),
        (
            {"kind": "clock", "initial_seconds": MAX_SECONDS, "increment_seconds": MAX_SECONDS},
            TimeControl("clock", initial_seconds=MAX_SECONDS, increment_seconds=MAX_SECONDS),
        ),
        ({"kind": "per_turn", "seconds": MAX_SECONDS}, TimeControl("per_turn", seconds=MAX_SECONDS)),
    ],
)
def test_valid_time_controls_parse_and_round_trip(body: Any, expected: TimeControl) -> None:
    control = parse_time_control(body)
    assert control == expected
    assert parse_time_control(control.to_json()) == control
    assert control.timed == (expected.kind != "none")


def test_to_json_is_the_shape_as_created() -> None:
    assert NO_TIME_CONTROL.to_json() == {"kind": "none"}
    assert PER_TURN.to_json() == {"kind": "per_turn", "seconds": 60}
    assert CLOCK.to_json() == {"kind": "clock", "initial_seconds": 100, "increment_seconds": 5}
    with_setup = TimeControl("per_turn", seconds=60, setup_seconds=20)
    assert with_setup.to_json() == {"kind": "per_turn", "seconds": 60, "setup_seconds": 20}


REFUSED = {
    "not an object": ("60", "object"),
    "a list": ([{"kind": "none"}], "object"),
    "no kind": ({}, "kind"),
    "unknown kind": ({"kind": "blitz"}, "kind"),
    "kind not a string": ({"kind": 3}, "kind"),
    "field of none": ({"kind": "none", "seconds": 60}, "seconds"),
    "field of the other kind": ({"kind": "per_turn", "seconds": 60, "initial_seconds": 60}, "initial_seconds"),
    "increment per turn": ({"kind": "per_turn", "seconds": 60, "increment_seconds": 1}, "increment_seconds"),
    "unknown field": ({"kind": "clock", "initial_seconds": 60, "bonus": 1}, "bonus"),
    "missing seconds": ({"kind": "per_turn"}, "seconds"),
    "missing seconds, setup given": ({"kind": "per_turn", "setup_seconds": 60}, "seconds"),
    "missing initial": ({"kind": "clock", "increment_seconds": 5}, "initial_seconds"),
    "string": ({"kind": "per_turn", "seconds": "60"}, "seconds"),
    "float": ({"kind": "per_turn", "seconds": 60.5}, "seconds"),
    "fraction": ({"kind": "clock", "initial_seconds": 1.5}, "initial_seconds"),
    "null": ({"kind": "per_turn", "seconds": None}, "seconds"),
    "true": ({"kind": "per_turn", "seconds": True}, "seconds"),
    "false increment": ({"kind": "clock", "initial_seconds": 60, "increment_seconds": False}, "increment_seconds"),
    "bool setup": ({"kind": "clock", "initial_seconds": 60, "setup_seconds": True}, "setup_seconds"),
    "zero": ({"kind": "per_turn", "seconds": 0}, "seconds"),
    "zero initial": ({"kind": "clock", "initial_seconds": 0}, "initial_seconds"),
    "zero setup": ({"kind": "per_turn", "seconds": 60, "setup_seconds": 0}, "setup_seconds"),
    "negative": ({"kind": "per_turn", "seconds": -5}, "seconds"),
    "negative increment": ({"kind": "clock", "initial_seconds": 60, "increment_seconds": -1}, "increment_seconds"),
    "over 7 days": ({"kind": "per_turn", "seconds": MAX_SECONDS + 1}, "seconds"),
    "initial over 7 days": ({"kind": "clock", "initial_seconds": MAX_SECONDS + 1}, "initial_seconds"),
    "increment over 7 days": (
        {"kind": "clock", "initial_seconds": 60, "increment_seconds": MAX_SECONDS + 1},
        "increment_seconds",
    ),
    "setup over 7 days": ({"kind": "clock", "initial_seconds": 60, "setup_seconds": 10**12}, "setup_seconds"),
}


@pytest.mark.parametrize(("body", "names"), REFUSED.values(), ids=REFUSED.keys())
def test_bad_time_controls_are_refused_naming_the_field(body: Any, names: str) -> None:
    with pytest.raises(InvalidConfig) as refused:
        parse_time_control(body)
    assert refused.value.code == "time_control"
    assert names in refused.value.detail


# --- untimed -----------------------------------------------------------------


def test_an_untimed_game_has_no_readings_and_no_deadline() -> None:
    clocks = fold(NO_TIME_CONTROL, 2, setup(0, 0, 1), play(0, 10, 1), play(1, 10_000, 2))
    assert clocks.readings() == () and clocks.readings(10**9) == ()
    assert clocks.deadlines() == () and clocks.deadline() is None
    assert overdue(clocks, 10**12) == ()


# --- per turn ----------------------------------------------------------------


def test_per_turn_each_turn_has_its_own_deadline() -> None:
    clocks = fold(PER_TURN, 2, play(0, 100, 1))
    assert clocks.deadlines() == ((0, 160.0),)
    assert clocks.readings(130) == (ClockReading(0, 30.0, True), ClockReading(1, 60.0, False))
    clocks = clocks.advance(play(1, 140, 2))
    assert clocks.deadlines() == ((1, 200.0),)
    # a seat waiting for its turn shows a whole turn
    assert clocks.readings(150) == (ClockReading(0, 60.0, False), ClockReading(1, 50.0, True))


def test_per_turn_a_turn_of_several_events_keeps_its_deadline() -> None:
    clocks = fold(PER_TURN, 2, play(0, 100, 1), play(0, 150, 1))  # e.g. the first of two card draws
    assert clocks.deadline() == 160.0
    assert remaining(clocks) == [10.0, 60.0]


def test_per_turn_a_new_turn_of_the_same_seat_starts_afresh() -> None:
    # everybody else passed: the seat plays again, with a new turn number
    clocks = fold(PER_TURN, 2, play(0, 100, 1), play(0, 150, 3))
    assert clocks.deadlines() == ((0, 210.0),)
    assert remaining(clocks) == [60.0, 60.0]


def test_per_turn_the_remaining_time_never_goes_below_zero() -> None:
    clocks = fold(PER_TURN, 2, play(0, 100, 1))
    assert remaining(clocks, 1000) == [0.0, 60.0]


def test_overdue_exactly_at_the_deadline() -> None:
    clocks = fold(PER_TURN, 2, play(0, 100, 1))
    assert overdue(clocks, 159.999) == ()
    assert overdue(clocks, 160) == (0,)
    assert overdue(clocks, 1000) == (0,)


def test_a_finished_game_has_no_deadline() -> None:
    clocks = fold(PER_TURN, 2, play(0, 100, 1), over(120))
    assert clocks.deadlines() == () and overdue(clocks, 10**9) == ()
    assert running(clocks) == [False, False]


# --- chess clock -------------------------------------------------------------


def test_the_clock_bank_drains_and_earns_the_increment_per_completed_turn() -> None:
    clocks = fold(CLOCK, 2, play(0, 0, 1))
    assert clocks.deadlines() == ((0, 100.0),)
    assert clocks.readings(40) == (ClockReading(0, 60.0, True), ClockReading(1, 100.0, False))
    clocks = clocks.advance(play(1, 30, 2))
    assert clocks.seats[0].bank == 100 - 30 + 5
    assert clocks.deadlines() == ((1, 130.0),)
    assert clocks.readings(50) == (ClockReading(0, 75.0, False), ClockReading(1, 80.0, True))
    clocks = clocks.advance(play(0, 60, 3))
    assert [c.bank for c in clocks.seats] == [75.0, 75.0]
    assert clocks.deadlines() == ((0, 135.0),)


def test_the_clock_runs_on_through_a_turn_of_several_events() -> None:
    clocks = fold(CLOCK, 2, play(0, 0, 1), play(0, 30, 1), play(1, 50, 2))
    assert [c.bank for c in clocks.seats] == [55.0, 100.0]  # charged 50 s once, one increment


def test_a_new_turn_of_the_same_seat_earns_the_increment() -> None:
    clocks = fold(CLOCK, 2, play(0, 0, 1), play(0, 10, 3))
    assert clocks.seats[0].bank == 95.0 and clocks.seats[0].since == 10
    assert clocks.deadline() == 105.0


def test_the_turn_that_ends_the_game_earns_no_increment() -> None:
    clocks = fold(CLOCK, 2, play(0, 0, 1), over(10))
    assert [c.bank for c in clocks.seats] == [90.0, 100.0]
    assert clocks.readings() == (ClockReading(0, 90.0, False), ClockReading(1, 100.0, False))


def test_a_spent_bank_reads_zero_and_is_overdue() -> None:
    clocks = fold(CLOCK, 2, play(0, 0, 1))
    assert remaining(clocks, 250) == [0.0, 100.0]
    assert overdue(clocks, 100) == (0,)


# --- setup -------------------------------------------------------------------


def test_setup_seconds_is_a_separate_allowance_that_leaves_the_bank_alone() -> None:
    control = TimeControl("clock", initial_seconds=100, increment_seconds=5, setup_seconds=30)
    clocks = fold(control, 2, setup(0, 0, 1))
    assert clocks.deadlines() == ((0, 30.0), (1, 30.0))
    clocks = clocks.advance(setup(10, 1))  # seat 0 made its last setup choice
    assert clocks.deadlines() == ((1, 30.0),)
    assert clocks.seats[0].bank == 100.0  # no drain, no increment
    assert clocks.readings(20) == (ClockReading(0, 100.0, False), ClockReading(1, 10.0, True))
    clocks = clocks.advance(play(0, 25, 1))  # setup done: play starts
    assert [c.bank for c in clocks.seats] == [100.0, 100.0]
    assert clocks.deadlines() == ((0, 125.0),)


def test_without_setup_seconds_setup_drains_the_bank_without_increment() -> None:
    clocks = fold(CLOCK, 2, setup(0, 0, 1))
    assert clocks.deadlines() == ((0, 100.0), (1, 100.0))
    clocks = clocks.advance(setup(10, 1))
    assert clocks.seats[0].bank == 90.0
    clocks = clocks.advance(play(0, 40, 1))
    assert clocks.seats[1].bank == 60.0
    assert clocks.deadlines() == ((0, 130.0),)  # seat 0's bank was 90 when its first turn began


def test_the_start_seat_moving_from_setup_to_its_first_turn_gets_a_fresh_turn() -> None:
    control = TimeControl("per_turn", seconds=60, setup_seconds=300)
    clocks = fold(control, 2, setup(0, 0, 1), setup(200, 0))  # seat 1 is done; seat 0 still choosing
    assert clocks.deadlines() == ((0, 300.0),)
    clocks = clocks.advance(play(0, 250, 1))  # same seat, same active set: but now a turn
    assert clocks.deadlines() == ((0, 310.0),)


def test_per_turn_setup_uses_setup_seconds_or_else_seconds() -> None:
    with_setup = TimeControl("per_turn", seconds=60, setup_seconds=300)
    assert fold(with_setup, 2, setup(0, 0, 1)).deadlines() == ((0, 300.0), (1, 300.0))
    assert fold(PER_TURN, 2, setup(0, 0, 1)).deadlines() == ((0, 60.0), (1, 60.0))
    # a waiting seat of a per-turn game shows a whole (play) turn, not the setup allowance
    assert remaining(fold(with_setup, 3, setup(0, 0, 1)), 10) == [290.0, 290.0, 60.0]


def test_simultaneous_setup_seats_each_have_their_own_deadline() -> None:
    control = TimeControl("per_turn", seconds=60, setup_seconds=100)
    clocks = fold(control, 3, setup(0, 0, 1), setup(20, 1), setup(50, 1, 2))
    # seat 2 only became active (e.g. to place a souvenir stack) at 50
    assert clocks.deadlines() == ((1, 100.0), (2, 150.0))
    assert overdue(clocks, 100) == (1,)
    assert overdue(clocks, 150) == (1, 2)
    assert running(clocks) == [False, True, True]


def test_deadlines_are_earliest_first_then_by_seat() -> None:
    clocks = Clocks(
        CLOCK,
        (
            SeatClock(50, since=0, turn=0, setup=True),
            SeatClock(20, since=5, turn=0, setup=True),
            SeatClock(45, since=5, turn=0, setup=True),
            SeatClock(100),
        ),
        at=5,
    )
    assert clocks.deadlines() == ((1, 25.0), (0, 50.0), (2, 50.0))
    assert clocks.deadline() == 25.0
    assert overdue(clocks, 50) == (1, 0, 2)


# --- timestamps out of order -------------------------------------------------


def test_timestamps_running_backwards_never_add_time() -> None:
    clocks = fold(CLOCK, 2, play(0, 100, 1), play(1, 90, 2))
    assert clocks.at == 100
    assert clocks.seats[0].bank == 105.0  # charged nothing, not -10
    assert clocks.seats[1].since == 100
    assert clocks.deadlines() == ((1, 200.0),)
    # a reading asked for before the last event is taken at the last event
    assert remaining(clocks, 50) == [105.0, 100.0]


def test_a_reading_before_the_last_event_is_taken_at_the_last_event_per_turn() -> None:
    clocks = fold(PER_TURN, 2, play(0, 100, 1), play(0, 130, 1))
    assert remaining(clocks, 0) == [30.0, 60.0]


# --- real games: the moments of their events ---------------------------------


def ttr_game(players: int, control: TimeControl) -> Any:
    config = GameConfig(tuple(f"p{i}" for i in range(players)), "clock-seed", time_control=control)
    return replay(TTR, TTR.setup(config))


def test_the_time_control_is_recorded_in_the_setup_event() -> None:
    control = TimeControl("clock", initial_seconds=600, increment_seconds=5, setup_seconds=60)
    games: tuple[GameDefinition[Any], ...] = (TTR, CABLECAR)
    for game in games:
        config = GameConfig(("a", "b"), "seed", time_control=control)
        events = game.setup(config)
        assert events[0].to_payload()["time_control"] == control.to_json()
        assert game.time_control(replay(game, events)) == control
        untimed = game.setup(GameConfig(("a", "b"), "seed"))
        assert "time_control" not in untimed[0].to_payload()
        assert game.time_control(replay(game, untimed)) == NO_TIME_CONTROL


def test_ttr_setup_moments_then_a_two_draw_turn_is_one_turn() -> None:
    control = TimeControl("per_turn", seconds=60, setup_seconds=120)
    state = ttr_game(2, control)
    moment = TTR.moment(state, 0)
    assert moment == Moment(0, (0, 1), 0, setup=True, over=False)
    clocks = Clocks.start(control, 2, moment)
    assert clocks.deadlines() == ((0, 120.0), (1, 120.0))
    t = 0
    while TTR.status(state) == "setup":
        t += 10
        seat = TTR.active_seats(state)[0]
        choices = placements(state) if state.next_placer == seat else keep_choices(state.players[seat].pending)
        state = replay(TTR, TTR.decide(state, seat, choices[0]), state)
        clocks = clocks.advance(TTR.moment(state, t))
    first = state.turn
    assert clocks.deadlines() == ((first, t + 60.0),)
    start = t
    state = replay(TTR, TTR.decide(state, first, DrawCard("deck")), state)
    clocks = clocks.advance(TTR.moment(state, t + 30))
    assert state.turn == first and clocks.deadlines() == ((first, start + 60.0),)
    state = replay(TTR, TTR.decide(state, first, DrawCard("deck")), state)
    clocks = clocks.advance(TTR.moment(state, t + 40))
    assert state.turn != first and clocks.deadlines() == ((state.turn, t + 100.0),)


def test_the_moment_of_a_cancelled_or_finished_game_stops_every_clock() -> None:
    config = GameConfig(("a", "b", "c"), "seed", time_control=CLOCK)
    state = replay(CABLECAR, CABLECAR.setup(config))
    moment = CABLECAR.moment(state, 5)
    assert moment.active == (state.turn,) and not moment.setup and not moment.over
    clocks = Clocks.start(CLOCK, 3, moment)
    assert clocks.deadlines() == ((state.turn, 105.0),)
    cancelled = replay(CABLECAR, CABLECAR.cancel(state), state)
    moment = CABLECAR.moment(cancelled, 20)
    assert moment.over and moment.active == ()
    clocks = clocks.advance(moment)
    assert clocks.deadlines() == ()
    assert clocks.seats[state.turn].bank == 85.0


def test_a_turn_that_began_at_time_zero_is_charged_like_any_other() -> None:
    """Regression: a turn's start of 0.0 was read as 'not running' (``since or now``),
    so a turn beginning at t = 0 was charged nothing and never counted down."""
    clocks = fold(CLOCK, 2, play(0, 0.0, 1))
    assert remaining(clocks, 30) == [70.0, 100.0]
    assert clocks.advance(play(1, 30, 2)).seats[0].bank == 75.0
    assert remaining(fold(PER_TURN, 2, play(0, 0.0, 1)), 45) == [15.0, 60.0]


def test_a_seat_that_times_out_earns_no_increment() -> None:
    control = TimeControl("clock", initial_seconds=10, increment_seconds=5)
    state = replay(CABLECAR, CABLECAR.setup(GameConfig(("a", "b", "c"), "seed", time_control=control)))
    seat = state.turn
    clocks = Clocks.start(control, 3, CABLECAR.moment(state, 1000))
    assert overdue(clocks, 1010) == (seat,)
    state = replay(CABLECAR, CABLECAR.time_out(state, [seat]), state)
    clocks = clocks.advance(CABLECAR.moment(state, 1010))
    assert clocks.readings()[seat] == ClockReading(seat, 0.0, False)
