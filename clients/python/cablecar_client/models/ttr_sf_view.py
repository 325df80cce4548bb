from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.ttr_card import TtrCard
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.clock_time_control import ClockTimeControl
  from ..models.no_time_control import NoTimeControl
  from ..models.per_turn_time_control import PerTurnTimeControl
  from ..models.seat_clock import SeatClock
  from ..models.ttr_sf_me import TtrSfMe
  from ..models.ttr_sf_player import TtrSfPlayer
  from ..models.ttr_sf_result import TtrSfResult
  from ..models.ttr_sf_view_claimed import TtrSfViewClaimed
  from ..models.ttr_sf_view_souvenir_stacks import TtrSfViewSouvenirStacks
  from ..models.ttr_sf_view_souvenirs_in_box import TtrSfViewSouvenirsInBox





T = TypeVar("T", bound="TtrSfView")



@_attrs_define
class TtrSfView:
    """ A Ticket to Ride San Francisco game as the caller may see it. `me` is there only with a seat token,
    `result` once the game is finished.

        Attributes:
            type_ (Literal['ttr-sf']):
            id (str): The game id.
            status (str): A game's status in an answer: `scheduled` (waiting for its start at `starts_at`: nobody may act
                yet),
                `setup` (setup choices still to make), `playing`, `last_round` (ttr-sf: the
                final round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended by its host
                with no result). Open: a later server may answer a status not listed here; a client
                should treat one it does not know as "not playable by me now".
            version (int): The seq of the last event this view includes (the `ETag`).
            active_seats (list[int]): The seats that may make a move now (several during setup, none once the game is over).
                Any seat still
                in may also resign at any time.
            face_up (list[None | TtrCard]): The face-up row, slot 0 first; `null` marks an empty slot (deck and discard pile
                both empty).
            deck_count (int):
            discard_count (int):
            tickets_left (int): Tickets in the ticket deck.
            claimed (TtrSfViewClaimed): Route id → the seat that claimed it.
            souvenir_stacks (TtrSfViewSouvenirStacks): Location id → its souvenir stack (a stack may be empty).
            set_aside (list[str]): Souvenir symbols still to be placed during setup.
            players (list[TtrSfPlayer]): One entry per seat, in seat order.
            time_control (ClockTimeControl | NoTimeControl | PerTurnTimeControl): How long the seats may think (see *Time
                controls, resignations and forfeits*): `kind` tells which. In a view
                it is the control as created, a `clock` with its `increment_seconds` always shown.
            clocks (list[SeatClock]): Every seat's clock at the view's version, in seat order; empty for an untimed game.
                Once the game is over
                no clock runs.
            deadline (datetime.datetime | None): When the earliest running deadline passes (ISO 8601, UTC), or `null`
                (untimed, or over). The seat whose
                clock runs out then is timed out by the server (see *Time controls, resignations and forfeits*).
            seed_commitment (None | str | Unset): The game's seed commitment.
            open_deal (bool | Unset): True when the caller's seed alone made the deal (anyone who knows it knows every
                hand); false when a server secret, committed at creation and revealed by the export, was mixed in.
            ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`),
                or `null`: none.
            batch_ref (None | str | Unset): The organiser's own id (of a batch, a table or a player) as it was given (see
                `Ref`), or `null`: none.
            starts_at (datetime.datetime | None | Unset): When a scheduled game starts (ISO 8601, UTC), while it waits
                (`status` `scheduled`); otherwise absent from
                a view and `null` in the listing.
            set_aside_stack_size (int | None | Unset): Tokens in each set-aside stack while some are still to place, else
                `null`.
            souvenir_placer (int | None | Unset): The seat due to place the next set-aside stack during setup, else `null`.
            souvenirs_in_box (TtrSfViewSouvenirsInBox | Unset): Souvenir symbol → tokens not on the board and not held.
            phase (str | Unset): Finer than `status`: `setup`, `turn_start`, `second_draw` (the seat took one card and must
                take a
                second), `choosing_tickets` (the seat drew tickets and must keep some), `finished` (once over, also
                cancelled). Open: a later
                server may add phases, so treat an unknown value as "not my move to plan".
            turn (int | None | Unset): The seat whose turn it is (`null` during setup and once over).
            start_seat (int | Unset): A seat number, 0-based, in turn order.
            final_turns_left (int | None | Unset): During the last round, the turns left before the end; else `null`.
            me (TtrSfMe | Unset): The caller's own secrets.
            result (None | TtrSfResult | Unset): Once finished, the final result; `null` before, and for a cancelled game.
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event), which is possible only for events no published
                checkpoint of the transparency log holds. Absent for a sound game.
     """

    type_: Literal['ttr-sf']
    id: str
    status: str
    version: int
    active_seats: list[int]
    face_up: list[None | TtrCard]
    deck_count: int
    discard_count: int
    tickets_left: int
    claimed: TtrSfViewClaimed
    souvenir_stacks: TtrSfViewSouvenirStacks
    set_aside: list[str]
    players: list[TtrSfPlayer]
    time_control: ClockTimeControl | NoTimeControl | PerTurnTimeControl
    clocks: list[SeatClock]
    deadline: datetime.datetime | None
    seed_commitment: None | str | Unset = UNSET
    open_deal: bool | Unset = UNSET
    ref: None | str | Unset = UNSET
    batch_ref: None | str | Unset = UNSET
    starts_at: datetime.datetime | None | Unset = UNSET
    set_aside_stack_size: int | None | Unset = UNSET
    souvenir_placer: int | None | Unset = UNSET
    souvenirs_in_box: TtrSfViewSouvenirsInBox | Unset = UNSET
    phase: str | Unset = UNSET
    turn: int | None | Unset = UNSET
    start_seat: int | Unset = UNSET
    final_turns_left: int | None | Unset = UNSET
    me: TtrSfMe | Unset = UNSET
    result: None | TtrSfResult | Unset = UNSET
    damaged_from: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.seat_clock import SeatClock # noqa: PLC0415
        from ..models.ttr_sf_me import TtrSfMe # noqa: PLC0415
        from ..models.ttr_sf_player import TtrSfPlayer # noqa: PLC0415
        from ..models.ttr_sf_result import TtrSfResult # noqa: PLC0415
        from ..models.ttr_sf_view_claimed import TtrSfViewClaimed # noqa: PLC0415
        from ..models.ttr_sf_view_souvenir_stacks import TtrSfViewSouvenirStacks # noqa: PLC0415
        from ..models.ttr_sf_view_souvenirs_in_box import TtrSfViewSouvenirsInBox # noqa: PLC0415
        type_ = self.type_

        id = self.id

        status = self.status

        version = self.version

        active_seats = self.active_seats



        face_up = []
        for face_up_item_data in self.face_up:
            face_up_item: None | str
            if isinstance(face_up_item_data, TtrCard):
                face_up_item = face_up_item_data.value
            else:
                face_up_item = face_up_item_data
            face_up.append(face_up_item)



        deck_count = self.deck_count

        discard_count = self.discard_count

        tickets_left = self.tickets_left

        claimed = self.claimed.to_dict()

        souvenir_stacks = self.souvenir_stacks.to_dict()

        set_aside = self.set_aside



        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)



        time_control: dict[str, Any]
        if isinstance(self.time_control, NoTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, PerTurnTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control.to_dict()


        clocks = []
        for componentsschemas_seat_clocks_item_data in self.clocks:
            componentsschemas_seat_clocks_item = componentsschemas_seat_clocks_item_data.to_dict()
            clocks.append(componentsschemas_seat_clocks_item)



        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        seed_commitment: None | str | Unset
        if isinstance(self.seed_commitment, Unset):
            seed_commitment = UNSET
        else:
            seed_commitment = self.seed_commitment

        open_deal = self.open_deal

        ref: None | str | Unset
        if isinstance(self.ref, Unset):
            ref = UNSET
        else:
            ref = self.ref

        batch_ref: None | str | Unset
        if isinstance(self.batch_ref, Unset):
            batch_ref = UNSET
        else:
            batch_ref = self.batch_ref

        starts_at: None | str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        elif isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        set_aside_stack_size: int | None | Unset
        if isinstance(self.set_aside_stack_size, Unset):
            set_aside_stack_size = UNSET
        else:
            set_aside_stack_size = self.set_aside_stack_size

        souvenir_placer: int | None | Unset
        if isinstance(self.souvenir_placer, Unset):
            souvenir_placer = UNSET
        else:
            souvenir_placer = self.souvenir_placer

        souvenirs_in_box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.souvenirs_in_box, Unset):
            souvenirs_in_box = self.souvenirs_in_box.to_dict()

        phase = self.phase

        turn: int | None | Unset
        if isinstance(self.turn, Unset):
            turn = UNSET
        else:
            turn = self.turn

        start_seat = self.start_seat

        final_turns_left: int | None | Unset
        if isinstance(self.final_turns_left, Unset):
            final_turns_left = UNSET
        else:
            final_turns_left = self.final_turns_left

        me: dict[str, Any] | Unset = UNSET
        if not isinstance(self.me, Unset):
            me = self.me.to_dict()

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, TtrSfResult):
            result = self.result.to_dict()
        else:
            result = self.result

        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "id": id,
            "status": status,
            "version": version,
            "active_seats": active_seats,
            "face_up": face_up,
            "deck_count": deck_count,
            "discard_count": discard_count,
            "tickets_left": tickets_left,
            "claimed": claimed,
            "souvenir_stacks": souvenir_stacks,
            "set_aside": set_aside,
            "players": players,
            "time_control": time_control,
            "clocks": clocks,
            "deadline": deadline,
        })
        if seed_commitment is not UNSET:
            field_dict["seed_commitment"] = seed_commitment
        if open_deal is not UNSET:
            field_dict["open_deal"] = open_deal
        if ref is not UNSET:
            field_dict["ref"] = ref
        if batch_ref is not UNSET:
            field_dict["batch_ref"] = batch_ref
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if set_aside_stack_size is not UNSET:
            field_dict["set_aside_stack_size"] = set_aside_stack_size
        if souvenir_placer is not UNSET:
            field_dict["souvenir_placer"] = souvenir_placer
        if souvenirs_in_box is not UNSET:
            field_dict["souvenirs_in_box"] = souvenirs_in_box
        if phase is not UNSET:
            field_dict["phase"] = phase
        if turn is not UNSET:
            field_dict["turn"] = turn
        if start_seat is not UNSET:
            field_dict["start_seat"] = start_seat
        if final_turns_left is not UNSET:
            field_dict["final_turns_left"] = final_turns_left
        if me is not UNSET:
            field_dict["me"] = me
        if result is not UNSET:
            field_dict["result"] = result
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clock_time_control import ClockTimeControl # noqa: PLC0415
        from ..models.no_time_control import NoTimeControl # noqa: PLC0415
        from ..models.per_turn_time_control import PerTurnTimeControl # noqa: PLC0415
        from ..models.seat_clock import SeatClock # noqa: PLC0415
        from ..models.ttr_sf_me import TtrSfMe # noqa: PLC0415
        from ..models.ttr_sf_player import TtrSfPlayer # noqa: PLC0415
        from ..models.ttr_sf_result import TtrSfResult # noqa: PLC0415
        from ..models.ttr_sf_view_claimed import TtrSfViewClaimed # noqa: PLC0415
        from ..models.ttr_sf_view_souvenir_stacks import TtrSfViewSouvenirStacks # noqa: PLC0415
        from ..models.ttr_sf_view_souvenirs_in_box import TtrSfViewSouvenirsInBox # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['ttr-sf'] , d.pop("type"))
        if type_ != 'ttr-sf':
            raise ValueError(f"type must match const 'ttr-sf', got '{type_}'")

        id = d.pop("id")

        status = d.pop("status")

        version = d.pop("version")

        active_seats = cast(list[int], d.pop("active_seats"))


        face_up = []
        _face_up = d.pop("face_up")
        for face_up_item_data in (_face_up):
            def _parse_face_up_item(data: object) -> None | TtrCard:
                if data is None:
                    return data
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    face_up_item_type_0 = TtrCard(data)



                    return face_up_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(None | TtrCard, data)

            face_up_item = _parse_face_up_item(face_up_item_data)

            face_up.append(face_up_item)


        deck_count = d.pop("deck_count")

        discard_count = d.pop("discard_count")

        tickets_left = d.pop("tickets_left")

        claimed = TtrSfViewClaimed.from_dict(d.pop("claimed"))




        souvenir_stacks = TtrSfViewSouvenirStacks.from_dict(d.pop("souvenir_stacks"))




        set_aside = cast(list[str], d.pop("set_aside"))


        players = []
        _players = d.pop("players")
        for players_item_data in (_players):
            players_item = TtrSfPlayer.from_dict(players_item_data)



            players.append(players_item)


        def _parse_time_control(data: object) -> ClockTimeControl | NoTimeControl | PerTurnTimeControl:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_0 = NoTimeControl.from_dict(data)



                return componentsschemas_time_control_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_1 = PerTurnTimeControl.from_dict(data)



                return componentsschemas_time_control_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_time_control_type_2 = ClockTimeControl.from_dict(data)



            return componentsschemas_time_control_type_2

        time_control = _parse_time_control(d.pop("time_control"))


        clocks = []
        _clocks = d.pop("clocks")
        for componentsschemas_seat_clocks_item_data in (_clocks):
            componentsschemas_seat_clocks_item = SeatClock.from_dict(componentsschemas_seat_clocks_item_data)



            clocks.append(componentsschemas_seat_clocks_item)


        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_deadline_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))


        def _parse_seed_commitment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed_commitment = _parse_seed_commitment(d.pop("seed_commitment", UNSET))


        open_deal = d.pop("open_deal", UNSET)

        def _parse_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        ref = _parse_ref(d.pop("ref", UNSET))


        def _parse_batch_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        batch_ref = _parse_batch_ref(d.pop("batch_ref", UNSET))


        def _parse_starts_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_starts_at_type_0 = datetime.datetime.fromisoformat(data)



                return componentsschemas_starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))


        def _parse_set_aside_stack_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        set_aside_stack_size = _parse_set_aside_stack_size(d.pop("set_aside_stack_size", UNSET))


        def _parse_souvenir_placer(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        souvenir_placer = _parse_souvenir_placer(d.pop("souvenir_placer", UNSET))


        _souvenirs_in_box = d.pop("souvenirs_in_box", UNSET)
        souvenirs_in_box: TtrSfViewSouvenirsInBox | Unset
        if isinstance(_souvenirs_in_box,  Unset):
            souvenirs_in_box = UNSET
        else:
            souvenirs_in_box = TtrSfViewSouvenirsInBox.from_dict(_souvenirs_in_box)




        phase = d.pop("phase", UNSET)

        def _parse_turn(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        turn = _parse_turn(d.pop("turn", UNSET))


        start_seat = d.pop("start_seat", UNSET)

        def _parse_final_turns_left(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        final_turns_left = _parse_final_turns_left(d.pop("final_turns_left", UNSET))


        _me = d.pop("me", UNSET)
        me: TtrSfMe | Unset
        if isinstance(_me,  Unset):
            me = UNSET
        else:
            me = TtrSfMe.from_dict(_me)




        def _parse_result(data: object) -> None | TtrSfResult | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = TtrSfResult.from_dict(data)



                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TtrSfResult | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        damaged_from = d.pop("damaged_from", UNSET)

        ttr_sf_view = cls(
            type_=type_,
            id=id,
            status=status,
            version=version,
            active_seats=active_seats,
            face_up=face_up,
            deck_count=deck_count,
            discard_count=discard_count,
            tickets_left=tickets_left,
            claimed=claimed,
            souvenir_stacks=souvenir_stacks,
            set_aside=set_aside,
            players=players,
            time_control=time_control,
            clocks=clocks,
            deadline=deadline,
            seed_commitment=seed_commitment,
            open_deal=open_deal,
            ref=ref,
            batch_ref=batch_ref,
            starts_at=starts_at,
            set_aside_stack_size=set_aside_stack_size,
            souvenir_placer=souvenir_placer,
            souvenirs_in_box=souvenirs_in_box,
            phase=phase,
            turn=turn,
            start_seat=start_seat,
            final_turns_left=final_turns_left,
            me=me,
            result=result,
            damaged_from=damaged_from,
        )


        ttr_sf_view.additional_properties = d
        return ttr_sf_view

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
