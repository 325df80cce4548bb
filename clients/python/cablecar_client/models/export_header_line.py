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
  from ..models.cable_car_result import CableCarResult
  from ..models.chain_head import ChainHead
  from ..models.export_game import ExportGame
  from ..models.export_seed import ExportSeed
  from ..models.ttr_sf_result import TtrSfResult





T = TypeVar("T", bound="ExportHeaderLine")



@_attrs_define
class ExportHeaderLine:
    """ The first NDJSON line; the fields of `Export` without `events`.

        Attributes:
            kind (Literal['header']):
            format_ (Literal['cablecar-export/1']):
            game (ExportGame): The game's header. `ref`, `batch_ref`, `player_refs` and `starts_at` appear only where given
                (older
                records and games without refs export as before). Like `batch`, they are facts of the game's row, fixed by
                the database from its creation on, but outside the signed hash chain: `cablecar verify` does not judge
                them. The scheduled wait itself is in the chain (`game_scheduled` with `starts_at`, then `game_started`),
                and verify checks that no seat acted and no clock ran in between.
            seed (ExportSeed):
            result (CableCarResult | None | TtrSfResult): A finished game's result as its type defines it (`TtrSfResult` or
                `CableCarResult`, told apart by the
                game's `type` next to it), or `null` before the end.
            chain (ChainHead):
            leaf_salt (str | Unset): The game's transparency-log salt (32 bytes, hex): each of its events' leaf in the log's
                Merkle tree is
                SHA-256(0x00 ‖ event hash ‖ leaf_salt), as raw bytes. Secret while the game is played (so that no leaf,
                proof or checkpoint lets anyone test a guess about it), revealed here once it is finished; records of
                games created before the log have one too.
                 Example: 9f2c4e1a7b3d5f60819a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70.
            damaged_from (int | Unset): Only for a damaged game (its stored record fails its chain or signature check from
                this event on): the
                seq of the first bad event. What is shown is the game up to the event before it (`version`); every
                action or write answers `409 game_damaged` until an operator moves the bad events aside (`cablecar
                quarantine`, recorded as an `events_quarantined` event), which is possible only for events no published
                checkpoint of the transparency log holds. Absent for a sound game.
     """

    kind: Literal['header']
    format_: Literal['cablecar-export/1']
    game: ExportGame
    seed: ExportSeed
    result: CableCarResult | None | TtrSfResult
    chain: ChainHead
    leaf_salt: str | Unset = UNSET
    damaged_from: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.cable_car_result import CableCarResult # noqa: PLC0415
        from ..models.chain_head import ChainHead # noqa: PLC0415
        from ..models.export_game import ExportGame # noqa: PLC0415
        from ..models.export_seed import ExportSeed # noqa: PLC0415
        from ..models.ttr_sf_result import TtrSfResult # noqa: PLC0415
        kind = self.kind

        format_ = self.format_

        game = self.game.to_dict()

        seed = self.seed.to_dict()

        result: dict[str, Any] | None
        if isinstance(self.result, TtrSfResult):
            result = self.result.to_dict()
        elif isinstance(self.result, CableCarResult):
            result = self.result.to_dict()
        else:
            result = self.result

        chain = self.chain.to_dict()

        leaf_salt = self.leaf_salt

        damaged_from = self.damaged_from


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "format": format_,
            "game": game,
            "seed": seed,
            "result": result,
            "chain": chain,
        })
        if leaf_salt is not UNSET:
            field_dict["leaf_salt"] = leaf_salt
        if damaged_from is not UNSET:
            field_dict["damaged_from"] = damaged_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cable_car_result import CableCarResult # noqa: PLC0415
        from ..models.chain_head import ChainHead # noqa: PLC0415
        from ..models.export_game import ExportGame # noqa: PLC0415
        from ..models.export_seed import ExportSeed # noqa: PLC0415
        from ..models.ttr_sf_result import TtrSfResult # noqa: PLC0415
        d = dict(src_dict)
        kind = cast(Literal['header'] , d.pop("kind"))
        if kind != 'header':
            raise ValueError(f"kind must match const 'header', got '{kind}'")

        format_ = cast(Literal['cablecar-export/1'] , d.pop("format"))
        if format_ != 'cablecar-export/1':
            raise ValueError(f"format must match const 'cablecar-export/1', got '{format_}'")

        game = ExportGame.from_dict(d.pop("game"))




        seed = ExportSeed.from_dict(d.pop("seed"))




        def _parse_result(data: object) -> CableCarResult | None | TtrSfResult:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_result_type_0 = TtrSfResult.from_dict(data)



                return componentsschemas_game_result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_result_type_1 = CableCarResult.from_dict(data)



                return componentsschemas_game_result_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CableCarResult | None | TtrSfResult, data)

        result = _parse_result(d.pop("result"))


        chain = ChainHead.from_dict(d.pop("chain"))




        leaf_salt = d.pop("leaf_salt", UNSET)

        damaged_from = d.pop("damaged_from", UNSET)

        export_header_line = cls(
            kind=kind,
            format_=format_,
            game=game,
            seed=seed,
            result=result,
            chain=chain,
            leaf_salt=leaf_salt,
            damaged_from=damaged_from,
        )

        return export_header_line

