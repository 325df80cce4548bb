"""A bounded, thread-safe least-recently-used map (every per-process memo uses it)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _one(_: object) -> int:
    return 1


class LRU(Generic[K, V]):
    """At most ``capacity`` units of values, least recently used out first.

    ``size`` weighs a value (one unit each by default); a value heavier than
    the whole capacity is not kept.  ``put`` may keep an existing entry when
    ``replace(old)`` says so (e.g. never replace a newer state by an older)."""

    def __init__(self, capacity: int, size: Callable[[V], int] = _one) -> None:
        self._capacity = capacity
        self._size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), if any."""
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
            return found

    def put(self, key: K, value: V, replace: Callable[[V], bool] | None = None) -> None:
        """Keep ``value`` for ``key``; an existing entry is replaced unless
        ``replace`` is given and refuses it."""
        weight = self._size(value)
        if weight > self._capacity:
            return
        with self._lock:
            old = self._data.get(key)
            if old is not None:
                if replace is not None and not replace(old):
                    return
                self._held -= self._size(old)
            self._data[key] = value
            self._data.move_to_end(key)
            self._held += weight
            while self._held > self._capacity:
                _, dropped = self._data.popitem(last=False)
                self._held -= self._size(dropped)

    def discard(self, key: K) -> None:
        """Forget ``key`` (nothing if it is not kept)."""
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._held -= self._size(old)

    def __len__(self) -> int:
        return len(self._data)
