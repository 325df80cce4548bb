"""Legal-action lists found by index: the same actions in the same order as
the full list, a page or a sample producing only the runs it reads, per-run
counts that match what generation yields, and the square filter."""

from __future__ import annotations

import threading

from domain.cablecar import GAME
from domain.cablecar.actions import LayTiles
from domain.cablecar.geometry import square_of
from domain.cablecar.pairs import PairTables, legal_pairs
from domain.lazy import Runs, concat
from domain.rng import Rng
from domain.sampling import sample, sample_positions
from tests.unit.cablecar.test_movegen import sample_states


def test_pair_tables_count_and_generate_the_documented_list() -> None:
    """On every sample position (openings to crowded boards with exchanges):
    each first placement's count is the number of pairs generated after it,
    and the runs in order are the documented list."""
    for state in sample_states():
        hand = state.players[state.turn].hand
        tables = PairTables(state.board, hand)
        counts = tables.first_counts()
        runs = [tables.pairs_of(k) for k in range(len(tables.firsts))]
        assert counts == [len(r) for r in runs]
        listed = [p for r in runs for p in r]
        assert tables.count() == len(listed)
        assert listed == legal_pairs(state.board, hand)
        assert all(seconds for _, seconds in tables.chunks())


def test_the_lazy_list_is_the_full_list_and_pages_like_it() -> None:
    state = sample_states()[1]
    seat = state.turn
    lazy = GAME.legal_actions(state, seat)
    assert isinstance(lazy, Runs)
    full = [*lazy]
    hand = state.players[seat].hand
    assert [a for a in full if isinstance(a, LayTiles)] == [LayTiles(p) for p in legal_pairs(state.board, hand)]
    fresh = GAME.legal_actions(state, seat)
    assert fresh[100:200] == full[100:200]
    assert fresh[5] == full[5]
    assert fresh[-1] == full[-1]
    assert fresh[len(full) - 3 : len(full) + 10] == full[-3:]
    assert len(fresh) == len(full)
    assert fresh == full


class _Counted:
    """Runs of ``size`` integers each, counting which runs were produced."""

    def __init__(self, sizes: list[int]) -> None:
        self.sizes = sizes
        self.made: list[int] = []
        self.starts = [sum(sizes[:k]) for k in range(len(sizes))]

    def produce(self, k: int) -> list[int]:
        self.made.append(k)
        return list(range(self.starts[k], self.starts[k] + self.sizes[k]))


def test_a_page_produces_only_the_runs_it_reads_and_len_produces_none() -> None:
    source = _Counted([10, 0, 0, 25, 5, 0, 60])
    seq = Runs(lambda: source.sizes, source.produce)
    assert len(seq) == 100 and source.made == []
    assert seq[0:10] == list(range(10)) and source.made == [0]
    assert seq[12] == 12 and source.made == [0, 3]  # empty runs are skipped, never produced
    assert seq[38:45] == list(range(38, 45)) and source.made == [0, 3, 4, 6]
    assert seq[90:2000] == list(range(90, 100))
    assert seq[-1] == 99 and list(seq) == list(range(100))
    assert seq[::7] == list(range(0, 100, 7))
    odd = seq.select(lambda k: k % 2 == 1)
    assert len(odd) == 25 and list(odd) == list(range(10, 35))


def test_threads_share_the_runs() -> None:
    seq = Runs(lambda: [500] * 100, lambda k: list(range(k * 500, (k + 1) * 500)))
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
    assert isinstance(sendable, Runs)
    assert sendable[:3] == list(GAME.legal_actions(state, state.turn)[:3])
    assert len(sendable) == len(GAME.legal_actions(state, state.turn)) + 1
    assert sendable[len(sendable) - 1].TYPE == "resign"
    assert concat([1], (2,)) == [1, 2]  # plain lists stay plain


def test_a_sample_is_uniform_repeatable_and_reads_only_its_runs() -> None:
    source = _Counted([1000] * 300)
    seq = Runs(lambda: source.sizes, source.produce)
    drawn = sample(seq, 10, "s", 8)
    assert len(set(source.made)) <= 10
    assert drawn == sample(seq, 10, "s", 8) == sorted(set(drawn)) and len(drawn) == 10
    assert drawn != sample(seq, 10, "s", 9) and drawn != sample(seq, 10, "t", 8)
    assert sample(list(range(5)), 10, "s", 1) == list(range(5))
    # every position equally likely: 20,000 draws of 3 of 10, each position about 6,000 times
    hits = [0] * 10
    rng = Rng.from_seed("uniform")
    for i in range(20_000):
        for p in sample_positions(10, 3, Rng(rng.key, i * 1000)):
            hits[p] += 1
    assert all(5_700 < h < 6_300 for h in hits), hits


def test_the_square_filter_keeps_the_actions_whose_first_placement_is_there() -> None:
    for state in sample_states()[:4]:
        seat = state.turn
        everything = list(GAME.legal_actions(state, seat))
        squares = {a.placements[0].square for a in everything if isinstance(a, LayTiles)}
        for square in sorted(squares)[:: max(1, len(squares) // 5)]:
            expected = [a for a in everything if isinstance(a, LayTiles) and a.placements[0].square == square]
            found = GAME.sendable_at(state, seat, square)
            assert len(found) == len(expected) and list(found) == expected
        empty = next(square_of(i) for i in range(144) if square_of(i) not in squares)
        assert list(GAME.sendable_at(state, seat, empty)) == []
        assert list(GAME.sendable_at(state, seat, (0, 0))) == []
