"""Drawing a repeatable uniform sample from a long list by index.

A bot choosing among a cable-car turn's ~290,000 pairs needs a few of them,
uniformly: :func:`sample` picks ``n`` distinct positions with Floyd's
algorithm (each ``n``-subset equally likely, ``n`` draws whatever the
list's length) from the project's own generator (:mod:`domain.rng`, no
global random), and reads only those positions, so a list that finds an item
by index (:class:`~domain.lazy.Runs`) never produces the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from domain.rng import Rng

T = TypeVar("T")

#: the purpose label of the generator (a new algorithm gets a new label)
SAMPLE_PURPOSE = "legal-sample/1"


def sample_positions(total: int, n: int, rng: Rng) -> list[int]:
    """``min(n, total)`` distinct positions below ``total``, uniformly, ascending."""
    n = min(n, total)
    chosen: set[int] = set()
    for j in range(total - n, total):  # Floyd: after each step, every subset of the size is equally likely
        t, rng = rng.below(j + 1)
        chosen.add(j if t in chosen else t)
    return sorted(chosen)


def sample(items: Sequence[T], n: int, seed: str, version: int) -> list[T]:
    """``n`` items of ``items`` (all of them when fewer) drawn uniformly
    without replacement, in list order; the same for the same ``seed`` and
    ``version`` (the list a version has is fixed)."""
    rng = Rng.from_seed(seed, f"{SAMPLE_PURPOSE}:{version}")
    return [items[i] for i in sample_positions(len(items), n, rng)]
