"""The shape of an export document, checked before it is verified.

The verifier (:mod:`events.integrity.verify`) reads a record that anybody may have
written by hand: a field of the wrong type must be named, with the type it
should have (``events[3].seq: expected an integer, got a string``), instead of
surfacing as a Python error from deep inside a check (``'<' not supported
between instances of 'int' and 'str'``).  Only types are checked here; what
the values mean is the verifier's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: a field's expected kind: one of these names, or several joined with "|"
_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "boolean": (bool,),
    "object": (dict,),
    "list": (list,),
    "null": (type(None),),
}

#: the header fields the verifier reads, by path
_HEADER: dict[str, dict[str, str]] = {
    "game": {"id": "string", "type": "string", "version": "integer", "players": "list", "start_seat": "integer",
             "rules_version": "string|null", "status": "string|null"},
    "seed": {"value": "string|null", "salt": "string|null", "commitment": "string|null",
             "open_deal": "boolean|null", "caller_seed": "string|null", "server_secret": "string|null"},
    "chain": {"head": "string|null", "length": "integer|null"},
}

#: the top-level scalar fields the verifier reads
_TOP = {"leaf_salt": "string|null"}

#: every envelope field of an event
_EVENT = {"game_id": "string", "seq": "integer", "position": "integer", "type": "string",
          "schema_version": "integer", "payload": "object", "recorded_at": "string", "seat": "integer|null",
          "idempotency_key": "string|null", "prev_hash": "string", "hash": "string"}

#: at most this many problems are listed (a wholly wrong file would list thousands)
MAX_PROBLEMS = 10


def _name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    for name, kinds in _KINDS.items():
        if isinstance(value, kinds):
            return f"an {name}" if name[0] in "aeiou" else f"a {name}"
    return type(value).__name__


def _fits(value: Any, expected: str) -> bool:
    for kind in expected.split("|"):
        if kind == "integer" and isinstance(value, bool):
            continue  # JSON true is no integer
        if isinstance(value, _KINDS[kind]):
            return True
    return False


def _expected(expected: str) -> str:
    names = [("an " if k[0] in "aeiou" else "a ") + k if k != "null" else "null" for k in expected.split("|")]
    return " or ".join(names)


def _check(where: str, value: Any, expected: str, problems: list[str]) -> None:
    if not _fits(value, expected):
        problems.append(f"{where}: expected {_expected(expected)}, got {_name(value)}")


def shape_problems(export: Mapping[str, Any]) -> list[str]:
    """What is of the wrong type in ``export`` (a parsed export document), at
    most :data:`MAX_PROBLEMS` messages naming the field and its expected type;
    empty when every field the verifier reads has its type.  A missing
    optional field is no problem here (the verifier reports what it lacks)."""
    problems: list[str] = []
    for section, fields in _HEADER.items():
        if section not in export:
            continue
        part = export[section]
        if not isinstance(part, dict):
            _check(section, part, "object", problems)
            continue
        for name, expected in fields.items():
            if name in part:
                _check(f"{section}.{name}", part[name], expected, problems)
    for name, expected in _TOP.items():
        if name in export:
            _check(name, export[name], expected, problems)
    game = export.get("game")
    if isinstance(game, dict) and isinstance(game.get("players"), list):
        for i, player in enumerate(game["players"]):
            _check(f"game.players[{i}]", player, "string", problems)
    events = export.get("events")
    if isinstance(events, list):
        for i, event in enumerate(events):
            if len(problems) >= MAX_PROBLEMS:
                break
            if not isinstance(event, dict):
                _check(f"events[{i}]", event, "object", problems)
                continue
            for name, expected in _EVENT.items():
                if name in event:
                    _check(f"events[{i}].{name}", event[name], expected, problems)
    return problems[:MAX_PROBLEMS]
