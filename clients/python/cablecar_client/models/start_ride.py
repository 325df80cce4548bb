from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.start_ride_type import StartRideType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="StartRide")



@_attrs_define
class StartRide:
    """ `cable-car`: reveal the line and route cards and start the inaugural ride, at the start of the turn, once the
    network is complete. `from` is the terminal to start at and `path` the squares to drive; without them the
    server chooses the shortest legal path. Never in the turn that completed the network: the ride starts at the
    seat's next turn.

    **Ruling (the ride is due, `cable-car/4`):** the rulebook says a player whose network is complete *must*
    reveal it and begin the ride at its next turn. At the start of its turn, a seat whose network is complete
    (whoever laid the last tile) may only start its ride or resign; `lay_tiles`, `roll` and `draw_tile` are
    refused with `422 illegal_action`, `reason` `ride_due`. Games created under `cable-car/1` to `/3` keep their
    rule: such a seat may keep laying tiles.

        Attributes:
            type_ (StartRideType): The action name `start_ride` (a one-value `enum` in a schema of its own, so that
                generators which ignore `const` still tell the action bodies apart by `type`).
            from_ (None | str | Unset): The name of the starting terminal (one of the seat's line).
            path (list[Any] | None | Unset): The squares of the ride in order, `[row, col]` each; where the path drives over
                another line's
                terminal loop, that loop's name stands between its two squares.
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: StartRideType
    from_: None | str | Unset = UNSET
    path: list[Any] | None | Unset = UNSET
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        path: list[Any] | None | Unset
        if isinstance(self.path, Unset):
            path = UNSET
        elif isinstance(self.path, list):
            path = self.path


        else:
            path = self.path

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if from_ is not UNSET:
            field_dict["from"] = from_
        if path is not UNSET:
            field_dict["path"] = path
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = StartRideType(d.pop("type"))




        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))


        def _parse_path(data: object) -> list[Any] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                path_type_0 = cast(list[Any], data)

                return path_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unset, data)

        path = _parse_path(d.pop("path", UNSET))


        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        start_ride = cls(
            type_=type_,
            from_=from_,
            path=path,
            expected_version=expected_version,
        )

        return start_ride

