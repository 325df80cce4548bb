"""The search bot sees only its seat's view: it cannot reach the hidden parts of the state."""

from __future__ import annotations

import random
from dataclasses import replace

from bots.arena import legal_bodies
from bots.strategies import strategy
from bots.ttr_mcts import MctsBot, determinise
from domain.core import GameConfig, replay
from domain.ttr import GAME
from domain.ttr.cards import hand_of
from domain.ttr.state import PHASE_TURN_START, TtrState


def midgame(seed: str = "hidden", moves: int = 24) -> TtrState:
    """A 2-player game played by planners until seat 0 starts a turn after ``moves`` moves."""
    state = replay(GAME, GAME.setup(GameConfig(("Ada", "Bo"), seed)))
    bots = [strategy("planner", "ttr-sf"), strategy("planner", "ttr-sf")]
    rng = random.Random(seed)
    n = 0
    while not (n >= moves and state.phase == PHASE_TURN_START and state.turn == 0):
        seat = GAME.active_seats(state)[0]
        body = bots[seat](GAME.view(state, seat), legal_bodies(GAME, state, seat), rng)
        state = replay(GAME, GAME.decide(state, seat, GAME.parse_action(body)), state)
        n += 1
    return state


def with_other_secrets(state: TtrState) -> TtrState:
    """The same game as seat 0 sees it, with seat 1's hand and tickets and both decks' orders changed."""
    other = state.players[1]
    pool = list(state.deck) + [c for c, n in zip(("blue", "green", "black", "purple", "red", "orange", "ferry"),
                                                   other.hand, strict=True) for _ in range(n)]
    random.Random(99).shuffle(pool)
    new_hand = pool[: other.hand_count]
    tickets = list(state.ticket_deck) + list(other.tickets)
    random.Random(98).shuffle(tickets)
    changed = replace(other, hand=hand_of(new_hand), tickets=tuple(tickets[: len(other.tickets)]))
    return replace(
        state,
        players=(state.players[0], changed),
        deck=tuple(pool[other.hand_count :]),
        ticket_deck=tuple(tickets[len(other.tickets) :]),
    )


def test_two_states_seat_0_cannot_tell_apart_get_the_same_decision() -> None:
    state = midgame()
    twin = with_other_secrets(state)
    assert twin != state and twin.players[1] != state.players[1]
    view = GAME.view(state, 0)
    assert GAME.view(twin, 0) == view  # nothing seat 0 may see differs
    bot = MctsBot(iterations=3)
    first = bot(view, legal_bodies(GAME, state, 0), random.Random(5))
    second = bot(GAME.view(twin, 0), legal_bodies(GAME, twin, 0), random.Random(5))
    assert first == second
    # the sampled worlds are the same too: they are made from the view alone
    assert determinise(view, random.Random(1)) == determinise(GAME.view(twin, 0), random.Random(1))


def test_a_sampled_world_keeps_what_the_seat_knows_and_deals_the_rest() -> None:
    state = midgame("worlds")
    view = GAME.view(state, 0)
    world = determinise(view, random.Random(3))
    assert GAME.view(world, 0)["me"] == view["me"]
    assert world.players[0].hand == state.players[0].hand
    assert world.face_up == state.face_up and world.claimed == state.claimed
    assert [p.hand_count for p in world.players] == [p.hand_count for p in state.players]
    assert [len(p.tickets) for p in world.players] == [len(p.tickets) for p in state.players]
    assert (len(world.deck), len(world.discard)) == (len(state.deck), len(state.discard))
    cards = sum(p.hand_count for p in world.players) + len(world.deck) + len(world.discard)
    assert cards + sum(1 for c in world.face_up if c is not None) == 44
    # the others' tickets are sampled, never read: over a few worlds they vary
    samples = {determinise(view, random.Random(k)).players[1].tickets for k in range(8)}
    assert len(samples) > 1
    # every move the search can choose in a sampled world is legal in the real game
    bot = MctsBot(iterations=2)
    body = bot(view, legal_bodies(GAME, state, 0), random.Random(4))
    GAME.decide(state, 0, GAME.parse_action(body))
