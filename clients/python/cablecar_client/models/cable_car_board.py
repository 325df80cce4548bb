from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.cable_car_board_route_cards import CableCarBoardRouteCards
  from ..models.cable_car_board_start_hand import CableCarBoardStartHand
  from ..models.cable_car_grid import CableCarGrid
  from ..models.cable_car_line import CableCarLine
  from ..models.cable_car_stop import CableCarStop
  from ..models.cable_car_tile_type import CableCarTileType
  from ..models.player_counts import PlayerCounts





T = TypeVar("T", bound="CableCarBoard")



@_attrs_define
class CableCarBoard:
    """ The 12×12 grid of the cable-car game and its components.

        Attributes:
            type_ (Literal['cable-car']):
            grid (CableCarGrid): `rows` and `cols` (12 each); row 1 is the north edge, col 1 the west edge.
            stops (list[CableCarStop]): The 12 stops, each on its own square (which never holds a tile).
            lines (list[CableCarLine]): The 6 lines, each with two terminals on opposite edges.
            tiles (list[CableCarTileType]): The tile types with their track `segments` (pairs of edges) before rotation.
            die (list[str]): The die faces (`H` moves to the next stop or terminal).
            edges (list[str] | Unset): The tile edges in clockwise order (`N`, `E`, `S`, `W`).
            rotation (str | Unset): How a placed tile's `rotation` applies to its segments.
            tile_total (int | Unset):
            start_hand (CableCarBoardStartHand | Unset): Tile id → count in each player's start hand.
            hand_size (int | Unset):
            tiles_per_turn (int | Unset):
            players (PlayerCounts | Unset):
            route_cards (CableCarBoardRouteCards | Unset): Route cards by deck, card id, then line id → stop letters.
     """

    type_: Literal['cable-car']
    grid: CableCarGrid
    stops: list[CableCarStop]
    lines: list[CableCarLine]
    tiles: list[CableCarTileType]
    die: list[str]
    edges: list[str] | Unset = UNSET
    rotation: str | Unset = UNSET
    tile_total: int | Unset = UNSET
    start_hand: CableCarBoardStartHand | Unset = UNSET
    hand_size: int | Unset = UNSET
    tiles_per_turn: int | Unset = UNSET
    players: PlayerCounts | Unset = UNSET
    route_cards: CableCarBoardRouteCards | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cable_car_board_route_cards import CableCarBoardRouteCards # noqa: PLC0415
        from ..models.cable_car_board_start_hand import CableCarBoardStartHand # noqa: PLC0415
        from ..models.cable_car_grid import CableCarGrid # noqa: PLC0415
        from ..models.cable_car_line import CableCarLine # noqa: PLC0415
        from ..models.cable_car_stop import CableCarStop # noqa: PLC0415
        from ..models.cable_car_tile_type import CableCarTileType # noqa: PLC0415
        from ..models.player_counts import PlayerCounts # noqa: PLC0415
        type_ = self.type_

        grid = self.grid.to_dict()

        stops = []
        for stops_item_data in self.stops:
            stops_item = stops_item_data.to_dict()
            stops.append(stops_item)



        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)



        tiles = []
        for tiles_item_data in self.tiles:
            tiles_item = tiles_item_data.to_dict()
            tiles.append(tiles_item)



        die = self.die



        edges: list[str] | Unset = UNSET
        if not isinstance(self.edges, Unset):
            edges = self.edges



        rotation = self.rotation

        tile_total = self.tile_total

        start_hand: dict[str, Any] | Unset = UNSET
        if not isinstance(self.start_hand, Unset):
            start_hand = self.start_hand.to_dict()

        hand_size = self.hand_size

        tiles_per_turn = self.tiles_per_turn

        players: dict[str, Any] | Unset = UNSET
        if not isinstance(self.players, Unset):
            players = self.players.to_dict()

        route_cards: dict[str, Any] | Unset = UNSET
        if not isinstance(self.route_cards, Unset):
            route_cards = self.route_cards.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "grid": grid,
            "stops": stops,
            "lines": lines,
            "tiles": tiles,
            "die": die,
        })
        if edges is not UNSET:
            field_dict["edges"] = edges
        if rotation is not UNSET:
            field_dict["rotation"] = rotation
        if tile_total is not UNSET:
            field_dict["tile_total"] = tile_total
        if start_hand is not UNSET:
            field_dict["start_hand"] = start_hand
        if hand_size is not UNSET:
            field_dict["hand_size"] = hand_size
        if tiles_per_turn is not UNSET:
            field_dict["tiles_per_turn"] = tiles_per_turn
        if players is not UNSET:
            field_dict["players"] = players
        if route_cards is not UNSET:
            field_dict["route_cards"] = route_cards

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cable_car_board_route_cards import CableCarBoardRouteCards # noqa: PLC0415
        from ..models.cable_car_board_start_hand import CableCarBoardStartHand # noqa: PLC0415
        from ..models.cable_car_grid import CableCarGrid # noqa: PLC0415
        from ..models.cable_car_line import CableCarLine # noqa: PLC0415
        from ..models.cable_car_stop import CableCarStop # noqa: PLC0415
        from ..models.cable_car_tile_type import CableCarTileType # noqa: PLC0415
        from ..models.player_counts import PlayerCounts # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['cable-car'] , d.pop("type"))
        if type_ != 'cable-car':
            raise ValueError(f"type must match const 'cable-car', got '{type_}'")

        grid = CableCarGrid.from_dict(d.pop("grid"))




        stops = []
        _stops = d.pop("stops")
        for stops_item_data in (_stops):
            stops_item = CableCarStop.from_dict(stops_item_data)



            stops.append(stops_item)


        lines = []
        _lines = d.pop("lines")
        for lines_item_data in (_lines):
            lines_item = CableCarLine.from_dict(lines_item_data)



            lines.append(lines_item)


        tiles = []
        _tiles = d.pop("tiles")
        for tiles_item_data in (_tiles):
            tiles_item = CableCarTileType.from_dict(tiles_item_data)



            tiles.append(tiles_item)


        die = cast(list[str], d.pop("die"))


        edges = cast(list[str], d.pop("edges", UNSET))


        rotation = d.pop("rotation", UNSET)

        tile_total = d.pop("tile_total", UNSET)

        _start_hand = d.pop("start_hand", UNSET)
        start_hand: CableCarBoardStartHand | Unset
        if isinstance(_start_hand,  Unset):
            start_hand = UNSET
        else:
            start_hand = CableCarBoardStartHand.from_dict(_start_hand)




        hand_size = d.pop("hand_size", UNSET)

        tiles_per_turn = d.pop("tiles_per_turn", UNSET)

        _players = d.pop("players", UNSET)
        players: PlayerCounts | Unset
        if isinstance(_players,  Unset):
            players = UNSET
        else:
            players = PlayerCounts.from_dict(_players)




        _route_cards = d.pop("route_cards", UNSET)
        route_cards: CableCarBoardRouteCards | Unset
        if isinstance(_route_cards,  Unset):
            route_cards = UNSET
        else:
            route_cards = CableCarBoardRouteCards.from_dict(_route_cards)




        cable_car_board = cls(
            type_=type_,
            grid=grid,
            stops=stops,
            lines=lines,
            tiles=tiles,
            die=die,
            edges=edges,
            rotation=rotation,
            tile_total=tile_total,
            start_hand=start_hand,
            hand_size=hand_size,
            tiles_per_turn=tiles_per_turn,
            players=players,
            route_cards=route_cards,
        )


        cable_car_board.additional_properties = d
        return cable_car_board

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
