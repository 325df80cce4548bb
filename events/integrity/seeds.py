"""Where a game's deal comes from: the seed, its commitment, open deals.

The deal is made from one *deal seed*.  Unless the game is an **open deal**
it always holds a random server secret: alone, or mixed with a seed the
caller chose (a reproducible tag per table that is not enough to predict
the deal).  An open deal is made from the caller's seed alone, so whoever
knows it knows every hand; it is marked so every seat can see it.

At creation only ``sha256(salt + ":" + deal seed)`` is published; the export
reveals the seed, the salt, the caller's seed and the server secret, so the
verifier can check the commitment and the mixing offline.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

#: how a deal seed is derived, as stated in every export
DERIVATION = "server secret alone; sha256(server_secret + ':' + caller_seed) with a caller seed; " \
             "caller_seed alone in an open deal"


def seed_commitment(seed: str, salt: str) -> str:
    """The published commitment to a seed: ``sha256(salt + ":" + seed)`` (hex)."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def deal_seed(server_secret: str | None, caller_seed: str | None) -> str:
    """The seed the deal is made from (``server_secret`` None: an open deal)."""
    if server_secret is None:
        if caller_seed is None:
            raise ValueError("an open deal is made from the caller's seed")
        return caller_seed
    if caller_seed is None:
        return server_secret
    return hashlib.sha256(f"{server_secret}:{caller_seed}".encode()).hexdigest()


def is_open_deal(seed_info: Mapping[str, Any]) -> bool:
    """Whether a game's deal was predictable from the caller's seed alone.

    ``seed_info`` is a game's metadata or an export's ``seed`` block.  Games
    stored before open deals were marked used a caller's seed alone whenever
    one was given (``seed_source`` ``caller``): they count as open deals."""
    if "open_deal" in seed_info:
        return bool(seed_info["open_deal"])
    return seed_info.get("seed_source", seed_info.get("source")) == "caller"
