"""Legal-action pages generated lazily: the same actions in the same order
as the full list, a page producing only what it needs, and a count that
matches what generation yields."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles
from domain.cablecar.pairs import PairTables, legal_pairs
from domain.lazy import LazySequence
from tests.unit.cablecar.test_movegen import sample_states


def test_pair_tables_count_and_generate_the_documented_list() -> None:
    """On every sample position (openings to crowded boards with exchanges):
    the count, which reuses seconds counted for an equal neighbour
    constraint, is the number of pairs generated."""
    for state in sample_states():
        hand = state.players[state.turn].hand
        tables = PairTables(state.board, hand)
        listed = list(tables.pairs())
        assert tables.count() == len(listed)
        assert listed == legal_pairs(state.board, hand)
        assert all(seconds for _, seconds in tables.chunks())


def test_the_lazy_list_is_the_full_list_and_pages_like_it() -> None:
    state = sample_states()[1]
    seat = state.turn
    lazy = GAME.legal_actions(state, seat)
    assert isinstance(lazy, LazySequence)
    full = [*lazy]
    hand = state.players[seat].hand
    assert [a for a in full if isinstance(a, LayTiles)] == [LayTiles(p) for p in legal_pairs(state.board, hand)]
    fresh = GAME.legal_actions(state, seat)
    assert fresh[100:200] == full[100:200]
    assert fresh[5] == full[5]
    assert len(fresh) == len(full)
    assert fresh == full


class _Counted:
    def __init__(self, n: int) -> None:
        self.taken = 0
        self.n = n

    def __iter__(self) -> Iterator[int]:
        for i in range(self.n):
            self.taken += 1
            yield i


def test_a_page_produces_only_what_it_needs_and_len_does_not_produce() -> None:
    source = _Counted(1000)
    seq = LazySequence(iter(source), lambda: 1000)
    assert len(seq) == 1000 and source.taken == 0
    assert seq[0:10] == list(range(10)) and source.taken == 10
    assert seq[5:20] == list(range(5, 20)) and source.taken == 20
    assert seq[990:2000] == list(range(990, 1000))
    assert seq[-1] == 999 and list(seq) == list(range(1000))


def test_threads_share_one_production() -> None:
    seq = LazySequence(iter(range(50_000)), lambda: 50_000)
    pages: list[list[int]] = []

    def read(start: int) -> None:
        pages.append(list(seq[start : start + 5000]))

    threads = [threading.Thread(target=read, args=(s,)) for s in range(0, 50_000, 5000)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(x for page in pages for x in page) == list(range(50_000))


def test_what_a_seat_may_send_stays_lazy_with_resign_last() -> None:
    state = sample_states()[1]
    sendable = GAME.sendable(state, state.turn)
    assert isinstance(sendable, LazySequence)
    assert sendable[:3] == list(GAME.legal_actions(state, state.turn)[:3])
    assert len(sendable) == len(GAME.legal_actions(state, state.turn)) + 1
    assert sendable[len(sendable) - 1].TYPE == "resign"
