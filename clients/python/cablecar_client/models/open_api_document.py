from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.open_api_document_info import OpenApiDocumentInfo
  from ..models.open_api_document_paths import OpenApiDocumentPaths





T = TypeVar("T", bound="OpenApiDocument")



@_attrs_define
class OpenApiDocument:
    """ An OpenAPI 3.1 document (this one).

        Attributes:
            openapi (str):
            info (OpenApiDocumentInfo):
            paths (OpenApiDocumentPaths):
     """

    openapi: str
    info: OpenApiDocumentInfo
    paths: OpenApiDocumentPaths
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.open_api_document_info import OpenApiDocumentInfo # noqa: PLC0415
        from ..models.open_api_document_paths import OpenApiDocumentPaths # noqa: PLC0415
        openapi = self.openapi

        info = self.info.to_dict()

        paths = self.paths.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "openapi": openapi,
            "info": info,
            "paths": paths,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.open_api_document_info import OpenApiDocumentInfo # noqa: PLC0415
        from ..models.open_api_document_paths import OpenApiDocumentPaths # noqa: PLC0415
        d = dict(src_dict)
        openapi = d.pop("openapi")

        info = OpenApiDocumentInfo.from_dict(d.pop("info"))




        paths = OpenApiDocumentPaths.from_dict(d.pop("paths"))




        open_api_document = cls(
            openapi=openapi,
            info=info,
            paths=paths,
        )


        open_api_document.additional_properties = d
        return open_api_document

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
