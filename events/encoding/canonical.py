"""The one canonical JSON text of a value (sorted keys, compact, UTF-8): what
hashes, signatures and idempotency fingerprints are computed over."""

from __future__ import annotations

import json

from domain.core import JSON

_ENCODER = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"), check_circular=True
)


def canonical_json(value: JSON) -> str:
    """Encode ``value`` canonically (sorted keys, compact, UTF-8 text).

    Raises ``TypeError`` or ``ValueError`` if ``value`` is not plain JSON data
    (e.g. a set, an object, NaN)."""
    return _ENCODER.encode(value)
