"""The hot answers written without marshmallow's per-field machinery.

``POST /v1/games/{id}/actions`` is the request the server answers most; its
body is built by the service from checked, plain data, so dumping it needs
no conversion, only the declared fields.  :func:`action_result` writes the
same dict ``ActionResultSchema().dump`` writes (``tests/unit/test_fastdump.py``
compares them field by field, and fails if the schemas gain a field this
module does not write), in one pass and without marshmallow's per-value
field calls.  marshmallow remains the validator of every request body and
the source of the OpenAPI shapes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: EventSchema's fields: always written, and written when present.
EVENT_REQUIRED = ("seq", "type", "schema_version", "seat", "recorded_at", "payload")
EVENT_OPTIONAL = ("prev_hash", "hash", "signature", "key_id")


def event(rendered: Mapping[str, Any]) -> dict[str, Any]:
    """One rendered event as ``EventSchema().dump`` writes it."""
    out = {name: rendered[name] for name in EVENT_REQUIRED}
    out["payload"] = dict(out["payload"])
    for name in EVENT_OPTIONAL:
        if name in rendered:
            out[name] = rendered[name]
    return out


def action_result(version: int, events: Sequence[Mapping[str, Any]], replayed: bool) -> dict[str, Any]:
    """The ``POST .../actions`` answer as ``ActionResultSchema().dump`` writes it."""
    return {"version": version, "events": [event(e) for e in events], "replayed": replayed}


#: LegalActionsSchema's fields, in its order (all required).
LEGAL_ACTIONS_FIELDS = ("game_id", "version", "seat", "total", "next_cursor", "actions")


def legal_actions_page(
    game_id: str, version: int, seat: int, total: int, next_cursor: str | None, actions: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """A ``GET .../legal-actions`` page as ``LegalActionsSchema().dump`` writes it
    (up to 10,000 action bodies: marshmallow's per-item field calls were most of a page's cost)."""
    return {"game_id": game_id, "version": version, "seat": seat, "total": total, "next_cursor": next_cursor,
            "actions": [dict(a) for a in actions]}
