from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.claim_route_type import ClaimRouteType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.claim_route_cards import ClaimRouteCards





T = TypeVar("T", bound="ClaimRoute")



@_attrs_define
class ClaimRoute:
    """ `ttr-sf`: claim `route` paying `cards` (colour → count). Name `souvenir` only when both ends offer a symbol the
    seat lacks (a choice exists); otherwise the server takes the only possible one, if any.

        Attributes:
            type_ (ClaimRouteType): The action name `claim_route` (a one-value `enum` in a schema of its own, so that
                generators which ignore `const` still tell the action bodies apart by `type`).
            route (str): A route id of the board.
            cards (ClaimRouteCards): The cards paid, colour → count.
            souvenir (None | str | Unset): The souvenir symbol chosen, when a choice exists.
            expected_version (int | None | Unset): Refuse the action with `409 stale_version` unless the game is at exactly
                this version.
     """

    type_: ClaimRouteType
    route: str
    cards: ClaimRouteCards
    souvenir: None | str | Unset = UNSET
    expected_version: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.claim_route_cards import ClaimRouteCards # noqa: PLC0415
        type_ = self.type_.value

        route = self.route

        cards = self.cards.to_dict()

        souvenir: None | str | Unset
        if isinstance(self.souvenir, Unset):
            souvenir = UNSET
        else:
            souvenir = self.souvenir

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "route": route,
            "cards": cards,
        })
        if souvenir is not UNSET:
            field_dict["souvenir"] = souvenir
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.claim_route_cards import ClaimRouteCards # noqa: PLC0415
        d = dict(src_dict)
        type_ = ClaimRouteType(d.pop("type"))




        route = d.pop("route")

        cards = ClaimRouteCards.from_dict(d.pop("cards"))




        def _parse_souvenir(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        souvenir = _parse_souvenir(d.pop("souvenir", UNSET))


        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))


        claim_route = cls(
            type_=type_,
            route=route,
            cards=cards,
            souvenir=souvenir,
            expected_version=expected_version,
        )

        return claim_route

