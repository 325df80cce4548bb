"""How the two SQL backends differ in what they send and get back.

Shared SQL is written with ``?`` placeholders; PostgreSQL's driver decodes
JSON, timestamps and arrays into Python values itself, where SQLite hands
back the text that was stored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from domain.core import JSON
from events.encoding.timestamps import format_timestamp
from events.records import IntegrityError

_DECODER = json.JSONDecoder()


def loads_object(text: str | bytes) -> dict[str, JSON]:
    """A JSON object read back from its stored text; IntegrityError if it is
    not one (``raw_decode`` skips ``json.loads``' wrapper layers)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    try:
        value, end = _DECODER.raw_decode(text)
    except ValueError as e:
        raise IntegrityError(f"stored JSON is not valid: {e}") from e
    if end != len(text) and text[end:].strip():
        raise IntegrityError("stored JSON has data after its object")
    if not isinstance(value, dict):
        raise IntegrityError("stored JSON is not an object")
    return value


@lru_cache(maxsize=512)
def _pyformat(sql: str) -> str:
    return sql.replace("?", "%s")


@dataclass(frozen=True)
class Dialect:
    """One backend's conventions (see the module docs)."""

    name: str
    #: the driver turns json/timestamptz/text[] columns into Python values
    native_types: bool
    #: row lock for a read inside a write transaction ("" where the whole
    #: database is locked by the transaction, as in SQLite)
    for_update: str
    #: the LIMIT value that means "no limit"
    unlimited: int | None
    #: ``metadata['batch']`` as an SQL expression (matching the index)
    batch_of_game: str
    #: ``metadata['leaf_salt']`` (a game's transparency-log salt, hex) as an SQL expression
    leaf_salt_of_game: str
    #: the organiser's ref of a game (its table), from its metadata
    ref_of_game: str
    #: the condition a global-log reader adds so that it never reads past an
    #: event that an unfinished transaction may still precede (see
    #: events/postgres/store.py "Global positions"); SQLite commits one
    #: writer at a time, in position order, so it needs none
    readable_position: str = "true"

    def sql(self, text: str) -> str:
        """``text`` (``?`` placeholders) in this driver's parameter style."""
        return _pyformat(text) if self.native_types else text

    def json_value(self, raw: Any) -> dict[str, JSON]:
        """A JSON object column as a dict."""
        return raw if self.native_types else loads_object(raw)

    def time_text(self, raw: Any) -> str:
        """A timestamp column as the text the records carry."""
        return format_timestamp(raw) if self.native_types else raw

    def optional_time_text(self, raw: Any) -> str | None:
        """A nullable timestamp column as text or None."""
        return None if raw is None else self.time_text(raw)

    def time_param(self, moment: datetime) -> Any:
        """A timestamp to write."""
        return moment if self.native_types else format_timestamp(moment)

    def list_param(self, items: Sequence[str]) -> Any:
        """A list of strings to write (``text[]`` or JSON text)."""
        return list(items) if self.native_types else json.dumps(list(items))

    def list_value(self, raw: Any) -> tuple[str, ...]:
        """A list-of-strings column as a tuple."""
        return tuple(raw) if self.native_types else tuple(json.loads(raw))


POSTGRES = Dialect(
    name="postgres", native_types=True, for_update=" FOR UPDATE", unlimited=None,
    batch_of_game="metadata ->> 'batch'", leaf_salt_of_game="metadata ->> 'leaf_salt'",
    ref_of_game="metadata ->> 'ref'",
    readable_position="position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16)",
)
SQLITE = Dialect(
    name="sqlite", native_types=False, for_update="", unlimited=-1,
    batch_of_game="json_extract(metadata, '$.batch')", leaf_salt_of_game="json_extract(metadata, '$.leaf_salt')",
    ref_of_game="json_extract(metadata, '$.ref')",
)
