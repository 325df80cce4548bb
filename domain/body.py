"""The JSON shape of an action body, declared once on the action's dataclass.

Each field of an :class:`~domain.core.Action` dataclass carries its body
shape as field metadata (:func:`body_field`).  From that one declaration come
the parser (:func:`build`, shape checks only: MalformedAction), the way
back to JSON (:func:`dump_fields`), the service's request schemas and the
consistency test against ``openapi.yaml``.
Whether the rules allow an action is for the game's ``decide``.

Shapes::

    Text(max_length=80)                     a non-empty string
    Text(choices=("deck", "face_up"))       one of these strings
    Integer(minimum=0, maximum=4)           an integer (never a bool)
    ListOf(Text(max_length=10), 1, 3)       a list (frozen to a tuple)
    MapOf(Text(...), Integer(...))          an object of counts (a dict)
    Record(Placement)                       a nested object: a dataclass of body fields
    AnyOf(Text(...), ListOf(Integer(...), 2, 2))   the first alternative that fits
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from domain.errors import MalformedAction
from domain.jsonvalue import JSON

T = TypeVar("T")

#: fields every action body may carry that are not the action's own
ENVELOPE_KEYS = frozenset({"type", "expected_version"})
#: metadata key under which a dataclass field keeps its :class:`BodyField`
_META = "body"


def malformed(detail: str) -> MalformedAction:
    """The error for a body that has not the shape of an action."""
    return MalformedAction("malformed_action", detail)


@dataclass(frozen=True)
class Text:
    """A string of ``min_length..max_length`` characters, or one of ``choices``."""

    max_length: int = 60
    min_length: int = 1
    choices: tuple[str, ...] | None = None

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return f"a string of {self.min_length}-{self.max_length} characters"

    def parse(self, value: JSON, where: str) -> str:
        if not isinstance(value, str):
            raise malformed(f"{where} must be {self.describe()}")
        if self.choices is not None:
            if value not in self.choices:
                raise malformed(f"{where} must be {self.describe()}, not {value[:40]!r}")
        elif not self.min_length <= len(value) <= self.max_length:
            raise malformed(f"{where} must be {self.describe()}")
        return value

    def dump(self, value: str) -> JSON:
        return value


def integral(value: JSON) -> int | None:
    """``value`` as an int if it is a JSON number with an integral value
    (``8`` or ``8.0``: JSON Schema counts both as integers), else None (JSON
    booleans are not numbers)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


@dataclass(frozen=True)
class Integer:
    """An integer in ``minimum..maximum`` (JSON booleans are not integers)."""

    minimum: int = 0
    maximum: int = 2**31 - 1

    def describe(self) -> str:
        return f"an integer {self.minimum}-{self.maximum}"

    def parse(self, value: JSON, where: str) -> int:
        number = integral(value)
        if number is None:
            raise malformed(f"{where} must be {self.describe()}")
        if not self.minimum <= number <= self.maximum:
            raise malformed(f"{where} must be {self.describe()}, not {value}")
        return number

    def dump(self, value: int) -> JSON:
        return value


@dataclass(frozen=True)
class ListOf:
    """A list of ``min_items..max_items`` items of one shape (parsed to a tuple)."""

    item: Shape
    min_items: int = 0
    max_items: int = 100

    def describe(self) -> str:
        return f"a list of {self.min_items}-{self.max_items} items, each {self.item.describe()}"

    def parse(self, value: JSON, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise malformed(f"{where} must be {self.describe()}")
        if not self.min_items <= len(value) <= self.max_items:
            raise malformed(f"{where} must hold {self.min_items}-{self.max_items} items, not {len(value)}")
        return tuple(self.item.parse(v, f"{where}[{i}]") for i, v in enumerate(value))

    def dump(self, value: Any) -> JSON:
        return [self.item.dump(v) for v in value]


@dataclass(frozen=True)
class MapOf:
    """An object whose keys and values each have one shape (parsed to a dict)."""

    keys: Text
    values: Integer
    max_entries: int = 20

    def describe(self) -> str:
        return f"an object of at most {self.max_entries} entries {{{self.keys.describe()}: {self.values.describe()}}}"

    def parse(self, value: JSON, where: str) -> dict[str, Any]:
        if not isinstance(value, dict) or len(value) > self.max_entries:
            raise malformed(f"{where} must be {self.describe()}")
        return {
            self.keys.parse(k, f"{where} key"): self.values.parse(v, f"{where}[{k[:40]!r}]")
            for k, v in value.items()
        }

    def dump(self, value: Any) -> JSON:
        # a field may keep its entries as (key, value) pairs (hashable), see ClaimRoute
        return {k: self.values.dump(v) for k, v in dict(value).items()}


@dataclass(frozen=True)
class Record:
    """A nested object whose fields are the body fields of dataclass ``cls``."""

    cls: type

    def describe(self) -> str:
        return "an object {" + ", ".join(f.json_name for f in body_fields(self.cls)) + "}"

    def parse(self, value: JSON, where: str) -> Any:
        if not isinstance(value, Mapping):
            raise malformed(f"{where} must be {self.describe()}")
        return build(self.cls, value, where, frozenset())

    def dump(self, value: Any) -> JSON:
        return dump_fields(value)


@dataclass(frozen=True)
class AnyOf:
    """The first of ``options`` that the value fits."""

    options: tuple[Shape, ...]

    def describe(self) -> str:
        return " or ".join(o.describe() for o in self.options)

    def parse(self, value: JSON, where: str) -> Any:
        for option in self.options:
            try:
                return option.parse(value, where)
            except MalformedAction:
                continue
        raise malformed(f"{where} must be {self.describe()}")

    def dump(self, value: Any) -> JSON:
        # the alternatives are told apart by their JSON type, so plain data will do
        if isinstance(value, tuple | list):
            return [self.dump(v) for v in value]
        return value


Shape = Text | Integer | ListOf | MapOf | Record | AnyOf


@dataclass(frozen=True)
class BodyField:
    """One body field of an action: its dataclass attribute, JSON name and shape."""

    attr: str
    json_name: str
    shape: Shape
    required: bool
    doc: str


def body_field(shape: Shape, *, optional: bool = False, name: str | None = None, doc: str = "") -> Any:
    """Declare a dataclass field as a body field of ``shape``.

    ``optional`` fields default to None (absent or null in the body); ``name``
    is the JSON name when it differs from the attribute (``from``).
    """
    meta = {_META: (shape, not optional, name, doc)}
    if optional:
        return dataclasses.field(default=None, metadata=meta)
    return dataclasses.field(metadata=meta)


_FIELDS: dict[type, tuple[BodyField, ...]] = {}


def body_fields(cls: type) -> tuple[BodyField, ...]:
    """The body fields of dataclass ``cls`` in declaration order (looked up once)."""
    found = _FIELDS.get(cls)
    if found is None:
        items = []
        for f in dataclasses.fields(cls):
            if _META not in f.metadata:
                raise TypeError(f"{cls.__name__}.{f.name} is not declared with body_field()")
            shape, required, name, doc = f.metadata[_META]
            items.append(BodyField(f.name, name or f.name, shape, required, doc))
        found = _FIELDS.setdefault(cls, tuple(items))
    return found


def build(cls: type[T], body: Mapping[str, JSON], where: str, extra_keys: frozenset[str]) -> T:
    """Check ``body`` against the body fields of ``cls`` and build an instance.

    Unknown keys (other than ``extra_keys``) are refused; null counts as absent
    for optional fields.  A class may normalise further in ``__post_init__``.
    """
    declared = body_fields(cls)
    unknown = sorted(set(body) - {f.json_name for f in declared} - extra_keys)
    if unknown:
        raise malformed(f"{where}: unknown field(s) {', '.join(repr(k[:40]) for k in unknown)}")
    values: dict[str, Any] = {}
    for f in declared:
        raw = body.get(f.json_name)
        if raw is None:
            if f.required:
                raise malformed(f"{where}: missing field {f.json_name!r} ({f.shape.describe()})")
            continue
        values[f.attr] = f.shape.parse(raw, f"{where}: field {f.json_name!r}")
    return cls(**values)


def dump_fields(value: Any) -> dict[str, JSON]:
    """The body fields of dataclass instance ``value`` as JSON (None fields left out)."""
    out: dict[str, JSON] = {}
    for f in body_fields(type(value)):
        field_value = getattr(value, f.attr)
        if field_value is not None:
            out[f.json_name] = f.shape.dump(field_value)
    return out
