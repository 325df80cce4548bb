"""Sequences found by index: long legal-action lists page and sample lazily.

A cable-car turn has up to hundreds of thousands of legal pairs; a client
reads them a page at a time, or draws a few at random.  :class:`Runs` keeps
its items in runs (a cable-car run: the pairs of one first placement) whose
sizes are counted without producing them, so any position is found by
bisecting the run starts and only the runs read are produced.  It is shared
between request threads (the service memoises it per game, version and
seat), so what it keeps is guarded by a lock.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")


class Runs(Sequence[T]):
    """Items kept in runs that are counted cheaply and produced one at a time.

    ``sizes()`` counts every run (once, on first need); ``produce(k)`` makes
    run ``k``, which must have ``sizes()[k]`` items.  Item ``i`` is found by
    bisecting the run starts, so reading it (a page, a random sample) produces
    only the runs it falls in, never the runs before it.  The last few runs
    produced are kept: pages read in order reuse them.  Shared between request
    threads.
    """

    _KEEP = 16

    def __init__(
        self,
        sizes: Callable[[], Sequence[int]],
        produce: Callable[[int], Sequence[Any]],
        item: Callable[[Any], T] | None = None,
    ) -> None:
        self._sizes = sizes
        self._produce_run = produce
        #: makes an item of what a run holds, only for the items read (a sample of
        #: ten reads ten, not the runs' hundreds)
        self._item = item
        self._starts: list[int] | None = None
        self._kept: dict[int, Sequence[T]] = {}
        self._lock = threading.Lock()

    @property
    def starts(self) -> list[int]:
        """Where each run starts, then the length."""
        if self._starts is None:
            starts = [0]
            for size in self._sizes():
                starts.append(starts[-1] + size)
            self._starts = starts
        return self._starts

    def run(self, k: int) -> Sequence[Any]:
        """Run ``k`` as produced (before ``item``), produced once while it is kept."""
        with self._lock:
            found = self._kept.get(k)
        if found is None:
            found = self._produce_run(k)
            starts = self.starts
            assert len(found) == starts[k + 1] - starts[k], (k, len(found))
            with self._lock:
                if len(self._kept) >= self._KEEP:
                    self._kept.pop(next(iter(self._kept)))
                self._kept[k] = found
        return found

    def where(self, index: int) -> tuple[int, int]:
        """The run holding item ``index`` (0 <= index < len) and the position in it."""
        starts = self.starts
        k = bisect.bisect_right(starts, index) - 1  # runs of no items share the next one's start
        return k, index - starts[k]

    def select(self, keep: Callable[[int], bool]) -> Runs[T]:
        """The runs ``k`` for which ``keep(k)``, in order, as a sequence of their own."""
        starts = self.starts
        chosen = [k for k in range(len(starts) - 1) if keep(k)]
        return Runs(lambda: [starts[k + 1] - starts[k] for k in chosen], lambda j: self.run(chosen[j]), self._item)

    def __len__(self) -> int:
        return self.starts[-1]

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            out: list[Any] = []
            while start < stop:
                k, offset = self.where(start)
                taken = self.run(k)[offset : offset + stop - start]
                out.extend(taken)
                start += len(taken)
            return out if self._item is None else [self._item(x) for x in out]
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(index)
        k, offset = self.where(i)
        found = self.run(k)[offset]
        return found if self._item is None else self._item(found)

    def __iter__(self) -> Iterator[T]:
        for k in range(len(self.starts) - 1):
            run = self.run(k)
            yield from (run if self._item is None else map(self._item, run))

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Runs({len(self._kept)} kept)"


def concat(*parts: Sequence[T]) -> Sequence[T]:
    """The items of ``parts`` in order, as one sequence whose items are found
    by index (a part that is a :class:`Runs` stays lazy); a plain list when
    every part is one."""
    if all(isinstance(p, list | tuple) for p in parts):
        return [item for p in parts for item in p]
    return Runs(lambda: [len(p) for p in parts], lambda k: parts[k]) if len(parts) != 1 else parts[0]
