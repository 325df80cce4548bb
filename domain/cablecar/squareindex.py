"""Placements of one tile type indexed by square: what the pair lists
(:mod:`domain.cablecar.pairs`) and their counts (:mod:`domain.cablecar.paircount`)
slice by square ranges."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from domain.cablecar.actions import Placement
from domain.cablecar.geometry import SQUARE_COUNT


@dataclass(frozen=True, slots=True)
class SquareIndex:
    """Placements of one tile type, sorted by square.

    ``start[s]`` is the position of the first placement on a square ``>= s``
    (``start[SQUARE_COUNT]`` is the length), so squares ``[a, b)`` are the
    slice ``placements[start[a]:start[b]]``.
    """

    placements: tuple[Placement, ...]
    start: tuple[int, ...]

    def span(self, low: int, high: int, holes: Sequence[int]) -> Iterator[tuple[Placement, ...]]:
        """The placements on squares ``[low, high)`` except the sorted ``holes``, as slices."""
        a = low
        for hole in holes:
            if low <= hole < high:
                if hole > a:
                    yield self.placements[self.start[a] : self.start[hole]]
                a = max(a, hole + 1)
        if a < high:
            yield self.placements[self.start[a] : self.start[high]]

    def span_len(self, low: int, high: int, holes: Sequence[int]) -> int:
        """How many placements :meth:`span` yields, without slicing."""
        start = self.start
        total = start[high] - start[low] if low < high else 0
        for hole in holes:
            if low <= hole < high:
                total -= start[hole + 1] - start[hole]
        return total


def build_index(per_square: Sequence[tuple[int, tuple[Placement, ...]]]) -> SquareIndex:
    placements: list[Placement] = []
    start = [0] * (SQUARE_COUNT + 1)
    by_square = dict(per_square)
    for square in range(SQUARE_COUNT):
        start[square] = len(placements)
        placements.extend(by_square.get(square, ()))
    start[SQUARE_COUNT] = len(placements)
    return SquareIndex(tuple(placements), tuple(start))
