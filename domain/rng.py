"""Our own versioned, deterministic random generator.

Algorithm ``hmac-sha256-ctr/1``: the generator is a key (32 bytes derived from
the game's seed) and a counter.  Block *i* of the stream is
``HMAC-SHA256(key, b"cablecar-rng/1" || i as 8 big-endian bytes)``.  Integers
below ``n`` are drawn with rejection sampling from 64-bit words, so they are
exactly uniform; shuffles are Fisher–Yates from the last index down.  Nothing
here depends on Python's ``random`` module, so the same seed gives the same
stream on every machine and every Python version.

The generator is a frozen value kept in the game state: every draw returns
the drawn value(s) and the advanced generator.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

ALGORITHM = "hmac-sha256-ctr/1"
_DOMAIN = b"cablecar-rng/1"
_MAX64 = 1 << 64

T = TypeVar("T")


def derive_key(seed: str, purpose: str = "game") -> str:
    """Derive the generator key (hex) from a seed string and a purpose label."""
    return hmac.new(seed.encode("utf-8"), f"cablecar-seed/1:{purpose}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Rng:
    """A position in the deterministic stream: ``key`` (hex) and ``counter``."""

    key: str
    counter: int = 0

    @classmethod
    def from_seed(cls, seed: str, purpose: str = "game") -> Rng:
        """Create the generator for a game seed."""
        return cls(derive_key(seed, purpose), 0)

    def below(self, n: int) -> tuple[int, Rng]:
        """Return a uniform integer in ``[0, n)`` and the advanced generator."""
        if n <= 0:
            raise ValueError("n must be positive")
        word, counter = _below(bytes.fromhex(self.key), self.counter, n)
        return word, Rng(self.key, counter)

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """Return a Fisher–Yates shuffled copy of ``items`` and the advanced generator."""
        out = list(items)
        key, counter = bytes.fromhex(self.key), self.counter
        for i in range(len(out) - 1, 0, -1):
            j, counter = _below(key, counter, i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), Rng(self.key, counter)

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """Return one uniformly chosen element and the advanced generator."""
        i, rng = self.below(len(items))
        return items[i], rng


def _below(key: bytes, counter: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``[0, n)`` drawn from block ``counter`` on (rejection
    sampling), and the counter after the blocks used.  One-shot HMAC, no
    generator value per block: a deal draws hundreds of blocks."""
    limit = _MAX64 - (_MAX64 % n)
    while True:
        word = int.from_bytes(hmac.digest(key, _DOMAIN + counter.to_bytes(8, "big"), "sha256")[:8], "big")
        counter += 1
        if word < limit:
            return word % n, counter
