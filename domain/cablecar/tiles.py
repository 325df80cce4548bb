"""Tile orientations and the precomputed tables that make placement checks fast.

An :class:`Orientation` is a tile type turned by a rotation, with its segment
mask and edge mask (see :mod:`domain.cablecar.geometry`).  Rotations that give
the same track (a straight turned twice, a crossing turned once...) are
*equivalent*; :data:`DISTINCT` keeps the lowest rotation of each class, which
is the one the legal-move generator offers.

Placement checks reduce to masks: a square imposes ``must`` (edges that need
track) and ``forbid`` (edges that must stay bare); an orientation with edge
mask ``m`` fits iff ``m & must == must and m & forbid == 0``.  :func:`fitting`
answers that from a table indexed by ``(must, forbid)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cablecar.components import COMPONENTS
from domain.cablecar.geometry import edge_mask_of_segments, edge_of, rotate, segment_mask


@dataclass(frozen=True, slots=True)
class Orientation:
    """A tile type in one rotation: its track as segment and edge masks."""

    tile: str
    rotation: int
    segments: int
    edges: int
    tree: bool


def _orient(tile_id: str, rotation: int) -> Orientation:
    tile = COMPONENTS.tile_type(tile_id)
    pairs = tuple((rotate(edge_of(a), rotation), rotate(edge_of(b), rotation)) for a, b in tile.segments)
    seg = segment_mask(pairs)
    return Orientation(tile_id, rotation, seg, edge_mask_of_segments(seg), tile.tree)


TILE_IDS: tuple[str, ...] = tuple(t.id for t in COMPONENTS.tile_types)
TREE_TILES: frozenset[str] = frozenset(t.id for t in COMPONENTS.tile_types if t.tree)
ROTATIONS = (0, 1, 2, 3)

#: ORIENTATION[(tile, rotation)] for every tile and rotation 0-3
ORIENTATION: dict[tuple[str, int], Orientation] = {(t, r): _orient(t, r) for t in TILE_IDS for r in ROTATIONS}


def _distinct(tile_id: str) -> tuple[Orientation, ...]:
    seen: dict[int, Orientation] = {}
    for r in ROTATIONS:
        o = ORIENTATION[(tile_id, r)]
        seen.setdefault(o.segments, o)
    return tuple(seen.values())


#: DISTINCT[tile]: one orientation (the lowest rotation) per distinct track layout
DISTINCT: dict[str, tuple[Orientation, ...]] = {t: _distinct(t) for t in TILE_IDS}


def _fit_table(tile_id: str) -> tuple[tuple[Orientation, ...], ...]:
    table: list[tuple[Orientation, ...]] = []
    for must in range(16):
        for forbid in range(16):
            table.append(
                tuple(o for o in DISTINCT[tile_id] if o.edges & must == must and not o.edges & forbid)
            )
    return tuple(table)


_FIT: dict[str, tuple[tuple[Orientation, ...], ...]] = {t: _fit_table(t) for t in TILE_IDS}


def fitting(tile_id: str, must: int, forbid: int) -> tuple[Orientation, ...]:
    """The distinct orientations of ``tile_id`` whose edges satisfy ``must``/``forbid``."""
    return _FIT[tile_id][must * 16 + forbid]


def fits(orientation: Orientation, must: int, forbid: int) -> bool:
    """Whether one orientation satisfies an edge constraint."""
    return orientation.edges & must == must and not orientation.edges & forbid


def is_upgrade(old: Orientation, new: Orientation) -> bool:
    """Whether ``new`` keeps every segment of ``old`` and adds at least one."""
    return new.segments & old.segments == old.segments and new.segments != old.segments


_UPGRADES: dict[tuple[str, int], tuple[Orientation, ...]] = {
    (t, old.segments): tuple(o for o in DISTINCT[t] if is_upgrade(old, o))
    for t in TILE_IDS
    for old in ORIENTATION.values()
}


def upgrades(tile_id: str, old: Orientation) -> tuple[Orientation, ...]:
    """The distinct orientations of ``tile_id`` that may replace ``old`` in an exchange."""
    return _UPGRADES[(tile_id, old.segments)]


