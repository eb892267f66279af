from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.list_meta import ListMeta
    from ..models.mail_account import MailAccount


T = TypeVar("T", bound="MailAccountListEnvelope")


@_attrs_define
class MailAccountListEnvelope:
    """
    Attributes:
        data (list[MailAccount]):
        meta (ListMeta):
        success (Literal[True]):
    """

    data: list[MailAccount]
    meta: ListMeta
    success: Literal[True]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        meta = self.meta.to_dict()

        success = self.success

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "meta": meta,
                "success": success,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_meta import ListMeta
        from ..models.mail_account import MailAccount

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = MailAccount.from_dict(data_item_data)

            data.append(data_item)

        meta = ListMeta.from_dict(d.pop("meta"))

        success = cast(Literal[True], d.pop("success"))
        if success != True:
            raise ValueError(f"success must match const True, got '{success}'")

        mail_account_list_envelope = cls(
            data=data,
            meta=meta,
            success=success,
        )

        mail_account_list_envelope.additional_properties = d
        return mail_account_list_envelope

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
