"""The chain heads this process last saw, per game: ``(version, hash of event
version)``.

A signed append (migration 0012) must know the hash it chains on before its
one round trip, to sign the new events' hashes.  The hash of event N never
changes once written, so a head seen at the version an append expects is
right for it; the service reads the game (its row, or its events) at that
version just before it acts, which records the head here.  A head not known
(or wrong) costs one more round trip: the append functions answer 'head'
with the right one.  Bounded; the oldest entries go first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

#: games remembered per store
MAX_HEADS = 8192


class ChainHeads:
    """A bounded, thread-safe map game id -> (version, head hash)."""

    def __init__(self, size: int = MAX_HEADS) -> None:
        self._size = size
        self._heads: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def saw(self, game_id: str, version: int, digest: str) -> None:
        """Record that event ``version`` of the game hashes to ``digest``."""
        with self._lock:
            known = self._heads.get(game_id)
            if known is not None and known[0] > version:
                return  # keep the newer head
            self._heads[game_id] = (version, digest)
            self._heads.move_to_end(game_id)
            if len(self._heads) > self._size:
                self._heads.popitem(last=False)

    def at(self, game_id: str, version: int) -> str | None:
        """The hash of event ``version`` of the game if known here."""
        known = self._heads.get(game_id)
        return known[1] if known is not None and known[0] == version else None

    def forget(self, game_id: str) -> None:
        """Drop what is known of the game (it did not match the database)."""
        with self._lock:
            self._heads.pop(game_id, None)
