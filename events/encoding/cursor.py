"""Opaque cursors for :meth:`EventStore.list_games` pagination.

A cursor names the last game of a page by its insertion number (``game_no``,
a database-assigned counter: newest first means highest first).  It is
base64url text so clients treat it as opaque; a tampered or foreign cursor
raises :class:`~events.records.InvalidCursor`.
"""

from __future__ import annotations

import base64
import binascii

from events.records import InvalidCursor

_PREFIX = "g1:"


def encode_cursor(game_no: int) -> str:
    """The cursor that continues a listing after the game numbered ``game_no``."""
    return base64.urlsafe_b64encode(f"{_PREFIX}{game_no}".encode()).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> int:
    """The ``game_no`` inside ``cursor``; raises InvalidCursor if malformed."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        text = base64.urlsafe_b64decode(padded.encode("ascii")).decode("ascii")
    except (binascii.Error, UnicodeError, ValueError) as e:
        raise InvalidCursor(f"malformed cursor {cursor!r}") from e
    if not text.startswith(_PREFIX) or not text[len(_PREFIX) :].isdigit():
        raise InvalidCursor(f"malformed cursor {cursor!r}")
    return int(text[len(_PREFIX) :])
