from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SharingSettingsPatch")


@_attrs_define
class SharingSettingsPatch:
    """PATCH /share-link-settings.

    Attributes:
        share_links_enabled (bool | Unset):
    """

    share_links_enabled: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        share_links_enabled = self.share_links_enabled

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if share_links_enabled is not UNSET:
            field_dict["shareLinksEnabled"] = share_links_enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        share_links_enabled = d.pop("shareLinksEnabled", UNSET)

        sharing_settings_patch = cls(
            share_links_enabled=share_links_enabled,
        )

        return sharing_settings_patch
