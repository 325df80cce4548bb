"""The actions a seat can send, their JSON bodies, and the parser.

Bodies (fixed by the HTTP contract)::

    {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 3, "col": 4, "rotation": 1}, ...]}
    {"type": "start_ride", "from": "Ocean Beach", "path": [[6, 1], [6, 2], ...]}
    {"type": "roll"}

``lay_tiles`` carries one or two placements (one only when no legal pair
exists); a placement on an occupied square is an exchange.  There is no
field for drawing: draws are automatic (see :mod:`domain.cablecar.drawing`).

``start_ride``: ``from`` and ``path`` are both optional.  ``path`` lists the
squares the tram drives through, in order, from the square next to the
start terminal to the square next to the destination terminal.  Where the
path drives over another line's terminal loop, the loop may be written as
that terminal's name between its two squares (``[..., [6, 1], "Ocean
Beach", [7, 1], ...]``); it is only needed when the two squares could also
be joined directly.

:func:`parse_action` checks shapes only (MalformedAction); whether the rules
allow the action is decided by :mod:`domain.cablecar.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.core import JSON, Action
from domain.parsing import check_keys, dispatch, malformed

#: one step of a requested ride path: a square ``(row, col)`` or a terminal loop's name
PathStep = tuple[int, int] | str


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile laid (or exchanged) on square ``(row, col)`` in ``rotation``."""

    tile: str
    row: int
    col: int
    rotation: int

    @property
    def square(self) -> tuple[int, int]:
        """The ``(row, col)`` of the placement."""
        return self.row, self.col


@dataclass(frozen=True)
class LayTiles(Action):
    """Lay two tiles (one when no legal pair exists), in order."""

    TYPE: ClassVar[str] = "lay_tiles"

    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class StartRide(Action):
    """Reveal the cards and start the inaugural ride.

    ``origin`` is the ``from`` terminal's name; ``path`` the squares (and
    loop names) to drive.  Both None means: the server picks.
    """

    TYPE: ClassVar[str] = "start_ride"

    origin: str | None = None
    path: tuple[PathStep, ...] | None = None

    def to_body(self) -> dict[str, JSON]:
        """The JSON body (``from`` is a Python keyword, hence the override)."""
        body: dict[str, JSON] = {"type": self.TYPE}
        if self.origin is not None:
            body["from"] = self.origin
        if self.path is not None:
            body["path"] = [step if isinstance(step, str) else [step[0], step[1]] for step in self.path]
        return body


@dataclass(frozen=True)
class Roll(Action):
    """A riding player rolls the die and moves its tram."""

    TYPE: ClassVar[str] = "roll"


# --- parsing -----------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_placement(index: int, raw: Any) -> Placement:
    where = f"lay_tiles: placements[{index}]"
    if not isinstance(raw, Mapping):
        raise malformed(f"{where} must be an object {{tile, row, col, rotation}}")
    extra = sorted(set(raw) - {"tile", "row", "col", "rotation"})
    if extra:
        raise malformed(f"{where}: unknown field(s) {', '.join(map(repr, extra))}")
    tile = raw.get("tile")
    if not isinstance(tile, str):
        raise malformed(f"{where}: 'tile' must be a tile id string")
    for name in ("row", "col", "rotation"):
        if not _is_int(raw.get(name)):
            raise malformed(f"{where}: {name!r} must be an integer")
    return Placement(tile, raw["row"], raw["col"], raw["rotation"])


def _parse_lay(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset({"placements"}))
    raw = body.get("placements")
    if not isinstance(raw, list):
        raise malformed("lay_tiles: 'placements' must be a list of one or two placements")
    if not 1 <= len(raw) <= 2:
        raise malformed(f"lay_tiles: 'placements' must hold one or two placements, not {len(raw)}")
    return LayTiles(tuple(_parse_placement(i, p) for i, p in enumerate(raw)))


def _parse_step(index: int, raw: Any) -> PathStep:
    if isinstance(raw, str):
        return raw
    if isinstance(raw, list | tuple) and len(raw) == 2 and all(_is_int(v) for v in raw):
        return int(raw[0]), int(raw[1])
    raise malformed(f"start_ride: path[{index}] must be [row, col] or a terminal name")


def _parse_start(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset({"from", "path"}))
    origin = body.get("from")
    if origin is not None and not isinstance(origin, str):
        raise malformed("start_ride: 'from' must be a terminal name")
    raw_path = body.get("path")
    if raw_path is None:
        return StartRide(origin, None)
    if not isinstance(raw_path, list) or not raw_path:
        raise malformed("start_ride: 'path' must be a non-empty list of [row, col] squares")
    return StartRide(origin, tuple(_parse_step(i, s) for i, s in enumerate(raw_path)))


def _parse_roll(body: Mapping[str, Any]) -> Action:
    check_keys(body, frozenset())
    return Roll()


_PARSERS: Mapping[str, Callable[[Mapping[str, Any]], Action]] = {
    LayTiles.TYPE: _parse_lay,
    StartRide.TYPE: _parse_start,
    Roll.TYPE: _parse_roll,
}


def parse_action(body: Mapping[str, JSON]) -> Action:
    """Turn a JSON action body into an Action; MalformedAction names the problem."""
    return dispatch(_PARSERS, body)
