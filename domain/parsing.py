"""Shared helpers for turning JSON action bodies into Action objects.

Each game type keeps its own per-action parsers; this module holds what they
share: the refusal type, the unknown-field check, and the dispatch on ``type``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.core import Action
from domain.errors import MalformedAction

JSON = Any
#: fields every action body may carry that are not the action's own
ENVELOPE_KEYS = frozenset({"type", "expected_version"})

Parser = Callable[[Mapping[str, Any]], Action]


def malformed(detail: str) -> MalformedAction:
    """The error for a body that has not the shape of an action."""
    return MalformedAction("malformed_action", detail)


def check_keys(body: Mapping[str, Any], allowed: frozenset[str]) -> None:
    """Refuse fields other than ``allowed`` (and the envelope's)."""
    extra = sorted(set(body) - allowed - ENVELOPE_KEYS)
    if extra:
        raise malformed(f"{body['type']}: unknown field(s) {', '.join(map(repr, extra))}")


def dispatch(parsers: Mapping[str, Parser], body: Mapping[str, JSON]) -> Action:
    """Parse ``body`` with the parser registered for its ``type``."""
    if not isinstance(body, Mapping):
        raise malformed("an action must be a JSON object")
    kind = body.get("type")
    if not isinstance(kind, str):
        raise malformed("missing or non-string field 'type'")
    parser = parsers.get(kind)
    if parser is None:
        raise malformed(f"unknown action type {kind!r} (one of {', '.join(sorted(parsers))})")
    return parser(body)
