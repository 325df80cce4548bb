"""Page cursors of the per-game lists, with one rule for all of them.

A cursor is opaque to clients.  One this server did not hand out for this
list (malformed, of another game, seat or filter, or past the list's end) is
``400 invalid_request``; one handed out at an older version of a list that
changes with the version (legal actions) is ``409 stale_cursor``.  The event
log only grows, so its cursor (a seq, in digits) stays valid; a seq beyond
the log was never handed out.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

from service.errors import InvalidRequest, StaleCursor

_LEGAL = "a1"


def _never_issued(why: str) -> InvalidRequest:
    return InvalidRequest(f"cursor: not a cursor returned by this listing ({why})",
                          errors=[{"field": "cursor", "message": why}])


def _scope(game_id: str, seat: int, square: tuple[int, int] | None) -> str:
    """What the cursor continues: the game, the seat and the filter."""
    where = "" if square is None else f"{square[0]},{square[1]}"
    text = f"{game_id}:{seat}:{where}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def legal_cursor(game_id: str, seat: int, square: tuple[int, int] | None, version: int, offset: int) -> str:
    """The cursor of the legal-action page starting at ``offset`` at ``version``."""
    text = f"{_LEGAL}:{version}:{offset}:{_scope(game_id, seat, square)}"
    return base64.urlsafe_b64encode(text.encode()).decode("ascii").rstrip("=")


def legal_offset(
    cursor: str, game_id: str, seat: int, square: tuple[int, int] | None, version: int, total: int
) -> int:
    """Where the page of ``cursor`` starts; InvalidRequest for a cursor never
    handed out for this list, StaleCursor for one of an older version."""
    try:
        text = base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode("ascii")).decode("ascii")
    except (binascii.Error, UnicodeError, ValueError):
        raise _never_issued("malformed") from None
    parts = text.split(":")
    if len(parts) != 4 or parts[0] != _LEGAL or not parts[1].isdigit() or not parts[2].isdigit():
        raise _never_issued("malformed")
    issued, offset = int(parts[1]), int(parts[2])
    if parts[3] != _scope(game_id, seat, square):
        raise _never_issued("it continues another game, seat or square")
    if issued > version:
        raise _never_issued(f"version {issued} is ahead of the game")
    if issued < version:
        raise StaleCursor(
            f"cursor: handed out at version {issued}; the game is at version {version} and its legal "
            "actions have changed: read the list again from its first page", current_version=version,
        )
    if not 0 < offset < total:
        raise _never_issued("past the end of the list")
    return offset


def events_after(cursor: int, version: int) -> int:
    """The seq an event-log cursor continues after; InvalidRequest beyond the log."""
    if cursor > version:
        raise _never_issued(f"seq {cursor} is beyond the log (version {version})")
    return cursor
