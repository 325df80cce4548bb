"""A sequence generated on demand: long legal-action lists page lazily.

A cable-car turn has up to hundreds of thousands of legal pairs; a client
reads them a page at a time.  :class:`LazySequence` produces items from an
iterator only as far as an index or slice needs, keeps what it produced
(later pages reuse it), and answers ``len`` from a separate, cheaper count.
It is shared between request threads (the service memoises it per game,
version and seat), so producing is done under a lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")


class LazySequence(Sequence[T]):
    """The items of ``source`` in order, produced when first asked for;
    ``count()`` must return how many ``source`` yields in all."""

    def __init__(self, source: Iterator[T], count: Callable[[], int]) -> None:
        self._source: Iterator[T] | None = source
        self._count: Callable[[], int] | None = count
        self._made: list[T] = []
        self._length: int | None = None
        self._lock = threading.Lock()

    def _produce(self, upto: int | None) -> None:
        """Produce items until ``upto`` exist (None: all of them)."""
        with self._lock:
            source = self._source
            if source is None:
                return
            made = self._made
            if upto is None:
                made.extend(source)
            else:
                while len(made) < upto:
                    item = next(source, _END)
                    if item is _END:
                        break
                    made.append(item)
                else:
                    return
            self._source = None
            self._length = len(made)

    def __len__(self) -> int:
        if self._length is None:
            count = self._count
            if count is not None:
                self._length = count()
            else:  # pragma: no cover - the source ended in another thread meanwhile
                self._produce(None)
        assert self._length is not None
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            plain = (index.step is None or index.step > 0) and (index.start or 0) >= 0
            stop = index.stop if plain and index.stop is not None and index.stop >= 0 else None
            self._produce(stop)
        else:
            self._produce(index + 1 if index >= 0 else None)
        return self._made[index]

    def __iter__(self) -> Iterator[T]:
        i = 0
        while True:
            if i >= len(self._made):
                self._produce(i + 1)
                if i >= len(self._made):
                    return
            yield self._made[i]
            i += 1

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, LazySequence | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazySequence({len(self._made)} produced)"


_END: Any = object()
