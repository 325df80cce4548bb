"""What a string from outside the process may hold, decided once for the
request edge, the schemas and the access log."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

#: C0 controls, DEL, C1 controls and lone surrogates: no input needs them, a
#: surrogate cannot even be encoded as UTF-8, and PostgreSQL cannot store NUL.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

#: C0 controls but tab, and DEL: what a header value (bytes read as Latin-1,
#: so UTF-8 text shows C1 bytes) may not hold.
_HEADER_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")

#: Unicode categories a player name may not contain: controls, format
#: characters (bidi overrides and isolates, zero-width joiners), surrogates,
#: and line and paragraph separators.
_NOT_IN_NAMES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def has_control_characters(value: str) -> bool:
    """Whether ``value`` holds a control character or a lone surrogate."""
    return _CONTROL.search(value) is not None


def header_has_control_characters(value: str) -> bool:
    """Whether a header value holds a control character other than tab."""
    return _HEADER_CONTROL.search(value) is not None


def escape_controls(value: str) -> str:
    """``value`` with every control character and lone surrogate written as
    ``\\xNN`` / ``\\uNNNN``, so that a logged request stays one line."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 256 else f"\\u{ord(m[0]):04x}", value)


def name_problem(name: str) -> str | None:
    """Why ``name`` (already trimmed) cannot be a player name, or None."""
    for c in name:
        if unicodedata.category(c) in _NOT_IN_NAMES:
            return f"must not contain control or format characters (U+{ord(c):04X})"
    return None


def json_text(body: Any) -> str:
    """``body`` as the API writes every JSON answer: compact, as Flask writes
    the answers routes return as dicts, and ending in a new line."""
    return json.dumps(body, separators=(",", ":")) + "\n"
