from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.claim_route import ClaimRoute
  from ..models.draw_card import DrawCard
  from ..models.draw_tickets import DrawTickets
  from ..models.draw_tile import DrawTile
  from ..models.keep_tickets import KeepTickets
  from ..models.lay_tiles import LayTiles
  from ..models.place_souvenir_stack import PlaceSouvenirStack
  from ..models.resign import Resign
  from ..models.roll import Roll
  from ..models.start_ride import StartRide





T = TypeVar("T", bound="LegalActions")



@_attrs_define
class LegalActions:
    """ 
        Attributes:
            game_id (str):
            version (int):
            seat (int): A seat number, 0-based, in turn order.
            total (int): The number of legal actions (all pages).
            next_cursor (None | str): Pass as `cursor` for the next page; `null` on the last page (a string since 0.2.0).
            actions (list[ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack |
                Resign | Roll | StartRide]): Ready-to-send action bodies.
     """

    game_id: str
    version: int
    seat: int
    total: int
    next_cursor: None | str
    actions: list[ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack | Resign | Roll | StartRide]





    def to_dict(self) -> dict[str, Any]:
        from ..models.claim_route import ClaimRoute # noqa: PLC0415
        from ..models.draw_card import DrawCard # noqa: PLC0415
        from ..models.draw_tickets import DrawTickets # noqa: PLC0415
        from ..models.draw_tile import DrawTile # noqa: PLC0415
        from ..models.keep_tickets import KeepTickets # noqa: PLC0415
        from ..models.lay_tiles import LayTiles # noqa: PLC0415
        from ..models.place_souvenir_stack import PlaceSouvenirStack # noqa: PLC0415
        from ..models.resign import Resign # noqa: PLC0415
        from ..models.roll import Roll # noqa: PLC0415
        from ..models.start_ride import StartRide # noqa: PLC0415
        game_id = self.game_id

        version = self.version

        seat = self.seat

        total = self.total

        next_cursor: None | str
        next_cursor = self.next_cursor

        actions = []
        for actions_item_data in self.actions:
            actions_item: dict[str, Any]
            if isinstance(actions_item_data, Resign):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, PlaceSouvenirStack):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, KeepTickets):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, DrawCard):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, ClaimRoute):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, DrawTickets):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, LayTiles):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, StartRide):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, Roll):
                actions_item = actions_item_data.to_dict()
            else:
                actions_item = actions_item_data.to_dict()

            actions.append(actions_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "game_id": game_id,
            "version": version,
            "seat": seat,
            "total": total,
            "next_cursor": next_cursor,
            "actions": actions,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.claim_route import ClaimRoute # noqa: PLC0415
        from ..models.draw_card import DrawCard # noqa: PLC0415
        from ..models.draw_tickets import DrawTickets # noqa: PLC0415
        from ..models.draw_tile import DrawTile # noqa: PLC0415
        from ..models.keep_tickets import KeepTickets # noqa: PLC0415
        from ..models.lay_tiles import LayTiles # noqa: PLC0415
        from ..models.place_souvenir_stack import PlaceSouvenirStack # noqa: PLC0415
        from ..models.resign import Resign # noqa: PLC0415
        from ..models.roll import Roll # noqa: PLC0415
        from ..models.start_ride import StartRide # noqa: PLC0415
        d = dict(src_dict)
        game_id = d.pop("game_id")

        version = d.pop("version")

        seat = d.pop("seat")

        total = d.pop("total")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))


        actions = []
        _actions = d.pop("actions")
        for actions_item_data in (_actions):
            def _parse_actions_item(data: object) -> ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack | Resign | Roll | StartRide:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_0 = Resign.from_dict(data)



                    return componentsschemas_action_request_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_1 = PlaceSouvenirStack.from_dict(data)



                    return componentsschemas_action_request_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_2 = KeepTickets.from_dict(data)



                    return componentsschemas_action_request_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_3 = DrawCard.from_dict(data)



                    return componentsschemas_action_request_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_4 = ClaimRoute.from_dict(data)



                    return componentsschemas_action_request_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_5 = DrawTickets.from_dict(data)



                    return componentsschemas_action_request_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_6 = LayTiles.from_dict(data)



                    return componentsschemas_action_request_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_7 = StartRide.from_dict(data)



                    return componentsschemas_action_request_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_action_request_type_8 = Roll.from_dict(data)



                    return componentsschemas_action_request_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_action_request_type_9 = DrawTile.from_dict(data)



                return componentsschemas_action_request_type_9

            actions_item = _parse_actions_item(actions_item_data)

            actions.append(actions_item)


        legal_actions = cls(
            game_id=game_id,
            version=version,
            seat=seat,
            total=total,
            next_cursor=next_cursor,
            actions=actions,
        )

        return legal_actions

