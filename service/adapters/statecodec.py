"""Game states as JSON and back: what the shared cache stores is data, never code.

Why a structural codec of the state (and not the events since a snapshot):
a cached state saves the replay, which is the expensive part of a load (a
long cable-car game replays in milliseconds; decoding its state takes a
fraction of that, see ``bench/bench_cache.py``), while caching events would
save only the database read.  Pickle did the same job but lets whoever can
write to Redis run code in every worker.

The codec is compiled from type annotations, never from the entry: each
registered game's state class is the return annotation of its ``evolve``,
and every class it may construct is a frozen dataclass reachable from that
class's field annotations (tuples, frozensets, dicts, optionals and unions
of scalars of them).  Anything else in a state (``Any``, a plain class, a
union of two records) is refused when the codec is built, so a game whose
state cannot be cached fails the conformance suite and start-up, not a
request.  A dataclass is written as the list of its field values in field
order; decoding checks every value against its annotation and builds only
the classes compiled here (through their ``__init__``), so an entry, even a
forged one, can at worst fail to decode.  Nothing is ever imported or looked
up by a name found in the data; the only name read is the game's type id,
looked up in the codec's own table.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import operator
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

from domain.clocks import Clocks
from domain.core import GameDefinition

Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]

#: Version of the encoding; it is part of every cache entry's signed header,
#: so entries written in another format are ignored rather than misread.
#: 2: an entry is a :class:`Snapshot` (the state and its clocks).
#: 3: cable-car states carry their rules generation (``cable-car/3``): an
#: older release's entries are misses, not undecodable entries counted as rejected.
#: 4: clocks say when a scheduled game starts (``starts_at``).
FORMAT = 4

_SCALARS: tuple[type, ...] = (str, int, float, bool, type(None))
#: distinct records of scalars a codec keeps per class for reuse (a bound: entries are outside input)
_INTERNED_MAX = 4096


class UnsupportedState(TypeError):
    """A state class holds something the codec will not encode (named in the message)."""


class Undecodable(ValueError):
    """Data that is not an encoded state of a registered game."""


def _same(value: Any) -> Any:
    return value


def _is_scalar(tp: Any) -> bool:
    return tp in _SCALARS


def _scalars_of(tp: Any) -> frozenset[type] | None:
    """The scalar types a value of ``tp`` may have, if ``tp`` is a scalar or a union of scalars."""
    if _is_scalar(tp):
        return frozenset({tp})
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType) and all(_is_scalar(a) for a in args):
        return frozenset(args)
    return None


def _scalar_check(allowed: frozenset[type], where: str) -> Decode:
    def decode(value: Any) -> Any:
        if type(value) not in allowed:
            raise Undecodable(f"{where}: unexpected {type(value).__name__}")
        return value

    return decode


class _Compiler:
    """Builds the encoder and decoder of one annotation, recursively."""

    def __init__(self) -> None:
        self.records: dict[type, tuple[Encode, Decode]] = {}

    def compile(self, tp: Any, where: str) -> tuple[Encode, Decode]:
        scalars = _scalars_of(tp)
        if scalars is not None:
            return _same, _scalar_check(scalars, where)
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin in (typing.Union, types.UnionType):
            return self._union(args, where)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return self._sequence(args[0], tuple, where)
            return self._fixed_tuple(args, where)
        if origin is frozenset:
            return self._sequence(args[0], frozenset, where)
        if origin is dict:
            return self._mapping(args[0], args[1], where)
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return self._record(tp)
        raise UnsupportedState(f"{where}: cannot cache a value of type {tp!r}")

    def _union(self, args: tuple[Any, ...], where: str) -> tuple[Encode, Decode]:
        others = [a for a in args if a is not type(None)]
        if len(others) != 1 or len(args) != 2:
            raise UnsupportedState(f"{where}: a union of {args!r} is ambiguous once encoded")
        enc, dec = self.compile(others[0], where)
        return (lambda v: None if v is None else enc(v)), (lambda v: None if v is None else dec(v))

    def _sequence(self, item: Any, kind: type, where: str) -> tuple[Encode, Decode]:
        scalars = _scalars_of(item)
        if scalars is not None:
            return self._scalar_sequence(scalars, kind, where)
        enc, dec = self.compile(item, f"{where}[]")
        def encode(value: Any) -> Any:
            return [enc(v) for v in value]

        def decode(value: Any) -> Any:
            if type(value) is not list:
                raise Undecodable(f"{where}: expected an array")
            return kind(dec(v) for v in value)

        return encode, decode

    @staticmethod
    def _scalar_sequence(allowed: frozenset[type], kind: type, where: str) -> tuple[Encode, Decode]:
        # The common case (decks, hands, board cells), checked in one loop without a call per item.
        def decode(value: Any) -> Any:
            if type(value) is not list:
                raise Undecodable(f"{where}: expected an array")
            for v in value:
                if type(v) not in allowed:
                    raise Undecodable(f"{where}[]: unexpected {type(v).__name__}")
            return kind(value)

        # json writes a tuple as an array by itself
        return (_same if kind is tuple else list), decode

    def _fixed_tuple(self, items: tuple[Any, ...], where: str) -> tuple[Encode, Decode]:
        parts = [self.compile(item, f"{where}[{i}]") for i, item in enumerate(items)]

        def encode(value: Any) -> Any:
            return [enc(v) for (enc, _), v in zip(parts, value, strict=True)]

        def decode(value: Any) -> Any:
            if type(value) is not list or len(value) != len(parts):
                raise Undecodable(f"{where}: expected an array of {len(parts)}")
            return tuple(dec(v) for (_, dec), v in zip(parts, value, strict=True))

        return encode, decode

    def _mapping(self, key: Any, item: Any, where: str) -> tuple[Encode, Decode]:
        enc_k, dec_k = self.compile(key, f"{where}{{key}}")
        enc_v, dec_v = self.compile(item, f"{where}{{}}")

        def encode(value: Any) -> Any:
            return [[enc_k(k), enc_v(v)] for k, v in value.items()]

        def decode(value: Any) -> Any:
            if type(value) is not list or any(type(p) is not list or len(p) != 2 for p in value):
                raise Undecodable(f"{where}: expected an array of pairs")
            return {dec_k(k): dec_v(v) for k, v in value}

        return encode, decode

    def _record(self, cls: type) -> tuple[Encode, Decode]:
        if cls in self.records:
            return self.records[cls]
        # Filled below, after registering the record, so that a record reachable from itself compiles.
        checked: list[tuple[int, frozenset[type]]] = []  # scalar fields: (index, allowed types)
        nested: list[tuple[int, Encode, Decode]] = []  # every other field
        size = 0
        interned: dict[tuple[Any, ...], Any] = {}

        def encode(value: Any) -> Any:
            if type(value) is not cls:
                raise UnsupportedState(f"expected a {cls.__qualname__}, got {type(value).__qualname__}")
            if not nested:
                return fields_of(value)  # a tuple of scalars: json writes it as an array
            values = list(fields_of(value))
            for i, enc, _ in nested:
                values[i] = enc(values[i])
            return values

        def decode(value: Any) -> Any:
            if type(value) is not list or len(value) != size:
                raise Undecodable(f"{cls.__qualname__}: expected an array of {size} fields")
            if not nested:
                # A record of scalars (a tile orientation, a souvenir stack) recurs many times in
                # a state: build each distinct one once; they are frozen, so sharing them is safe.
                key = tuple(value)
                found = interned.get(key)
                if found is not None:
                    return found
            for i, allowed in checked:
                if type(value[i]) not in allowed:
                    raise Undecodable(f"{cls.__qualname__}.{names[i]}: unexpected {type(value[i]).__name__}")
            args = list(value)
            for i, _, dec in nested:
                args[i] = dec(args[i])
            made = cls(*args)
            if not nested and len(interned) < _INTERNED_MAX:
                interned[key] = made
            return made

        self.records[cls] = (encode, decode)
        fields = dataclasses.fields(cls)
        if any(not f.init for f in fields):
            raise UnsupportedState(f"{cls.__qualname__}: every field must be an __init__ argument")
        if not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            raise UnsupportedState(f"{cls.__qualname__}: a cached record must be a frozen dataclass")
        hints = typing.get_type_hints(cls)
        names = [f.name for f in fields]
        size = len(names)
        fields_of = operator.attrgetter(*names) if size > 1 else (lambda v: tuple(getattr(v, n) for n in names))
        for i, f in enumerate(fields):
            where = f"{cls.__qualname__}.{f.name}"
            scalars = _scalars_of(hints[f.name])
            if scalars is not None:
                checked.append((i, scalars))
            else:
                nested.append((i, *self.compile(hints[f.name], where)))
        return encode, decode


@dataclasses.dataclass(frozen=True, slots=True)
class Snapshot:
    """What the cache keeps of a game at a version: its state and its clocks
    (both derived from the events; the clocks from their timestamps)."""

    state: Any
    clocks: Clocks


def state_class(game: GameDefinition[Any]) -> type:
    """The class of ``game``'s states: the return annotation of its ``evolve``."""
    found = typing.get_type_hints(inspect.unwrap(game.evolve)).get("return")
    if not (isinstance(found, type) and dataclasses.is_dataclass(found)):
        raise UnsupportedState(f"{game.type_id}: evolve must be annotated to return its state dataclass")
    return found


class StateCodec:
    """Encodes :class:`Snapshot` s of the given games to JSON bytes and back.

    ``encode`` raises :class:`UnsupportedState` for a value that is not a
    snapshot of one of these games; ``decode`` raises :class:`Undecodable` for
    anything that is not such a snapshot's encoding."""

    def __init__(self, games: Iterable[GameDefinition[Any]]) -> None:
        compiler = _Compiler()
        self._by_class: dict[type, tuple[str, Encode]] = {}
        self._by_type: dict[str, Decode] = {}
        for game in games:
            cls = state_class(game)
            encode, decode = compiler.compile(cls, game.type_id)
            self._by_class[cls] = (game.type_id, encode)
            self._by_type[game.type_id] = decode
        self._clocks = compiler.compile(Clocks, "clocks")

    def encode(self, snapshot: Snapshot) -> bytes:
        """``snapshot`` as UTF-8 JSON: ``[type id, state fields, clock fields]``."""
        state = getattr(snapshot, "state", None)
        found = self._by_class.get(type(state))
        if found is None or type(snapshot) is not Snapshot:
            raise UnsupportedState(f"not a snapshot of a registered game: {type(snapshot).__qualname__}")
        type_id, encode = found
        body = [type_id, encode(state), self._clocks[0](snapshot.clocks)]
        return json.dumps(body, separators=(",", ":"), allow_nan=False).encode()

    def decode(self, data: bytes) -> Snapshot:
        """The snapshot ``data`` encodes; raises :class:`Undecodable`."""
        try:
            value = json.loads(data)
        except (ValueError, RecursionError) as e:  # UnicodeDecodeError is a ValueError
            raise Undecodable(f"not JSON: {e}") from None
        if type(value) is not list or len(value) != 3 or type(value[0]) is not str:
            raise Undecodable("expected [type id, state, clocks]")
        decode = self._by_type.get(value[0])
        if decode is None:
            raise Undecodable(f"no registered game type {value[0][:40]!r}")
        try:
            return Snapshot(decode(value[1]), self._clocks[1](value[2]))
        except (TypeError, ValueError, RecursionError) as e:  # a constructor refusing its values
            raise Undecodable(f"{value[0]}: {e}") from None
