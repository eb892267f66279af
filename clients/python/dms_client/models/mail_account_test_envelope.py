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

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.mail_account_test import MailAccountTest
    from ..models.meta import Meta


T = TypeVar("T", bound="MailAccountTestEnvelope")


@_attrs_define
class MailAccountTestEnvelope:
    """
    Attributes:
        data (MailAccountTest):
        success (Literal[True]):
        meta (Meta | Unset): Facts about the response beside its data.
    """

    data: MailAccountTest
    success: Literal[True]
    meta: Meta | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        success = self.success

        meta: dict[str, Any] | Unset = UNSET
        if not isinstance(self.meta, Unset):
            meta = self.meta.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "success": success,
            }
        )
        if meta is not UNSET:
            field_dict["meta"] = meta

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.mail_account_test import MailAccountTest
        from ..models.meta import Meta

        d = dict(src_dict)
        data = MailAccountTest.from_dict(d.pop("data"))

        success = cast(Literal[True], d.pop("success"))
        if success != True:
            raise ValueError(f"success must match const True, got '{success}'")

        _meta = d.pop("meta", UNSET)
        meta: Meta | Unset
        if isinstance(_meta, Unset):
            meta = UNSET
        else:
            meta = Meta.from_dict(_meta)

        mail_account_test_envelope = cls(
            data=data,
            success=success,
            meta=meta,
        )

        mail_account_test_envelope.additional_properties = d
        return mail_account_test_envelope

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
