from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PlayerResult")



@_attrs_define
class PlayerResult:
    """ 
        Attributes:
            seat (int): A seat number, 0-based, in turn order.
            name (str):
            ref (None | str): The organiser's own id (of a batch, a table or a player) as it was given (see `Ref`), or
                `null`: none.
            score (int | None): The final total (ttr-sf); null for cable-car and until finished.
            rank (int | None): 1 for the best; ties share a rank; seats that are out rank below every seat still in; null
                until
                finished and for a cancelled game.
            winner (bool):
            completed_tickets (int | None): Completed tickets (ttr-sf); null otherwise.
            standing (str): Whether a seat is still in (`in`; it stays `in` once the game ended if it played to the end),
                `resigned`,
                or `timed_out` (its deadline passed). A seat that resigned or timed out is out: its turns are skipped, it
                never wins and it ranks below every seat still in (see *Time controls, resignations and forfeits*). Open:
                treat a value you do not know as out.
     """

    seat: int
    name: str
    ref: None | str
    score: int | None
    rank: int | None
    winner: bool
    completed_tickets: int | None
    standing: str





    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        name = self.name

        ref: None | str
        ref = self.ref

        score: int | None
        score = self.score

        rank: int | None
        rank = self.rank

        winner = self.winner

        completed_tickets: int | None
        completed_tickets = self.completed_tickets

        standing = self.standing


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "seat": seat,
            "name": name,
            "ref": ref,
            "score": score,
            "rank": rank,
            "winner": winner,
            "completed_tickets": completed_tickets,
            "standing": standing,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        name = d.pop("name")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))


        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))


        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))


        winner = d.pop("winner")

        def _parse_completed_tickets(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        completed_tickets = _parse_completed_tickets(d.pop("completed_tickets"))


        standing = d.pop("standing")

        player_result = cls(
            seat=seat,
            name=name,
            ref=ref,
            score=score,
            rank=rank,
            winner=winner,
            completed_tickets=completed_tickets,
            standing=standing,
        )

        return player_result

