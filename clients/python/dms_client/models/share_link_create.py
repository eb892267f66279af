from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ShareLinkCreate")


@_attrs_define
class ShareLinkCreate:
    """POST /documents/{id}/share-links: every field optional.

    Attributes:
        expires_at (datetime.datetime | None | Unset): When the link stops working: default in 7 days, at most 365.
        max_downloads (int | None | Unset): Downloads allowed; null: no limit.
        password (None | str | Unset): Asked on the public page before the download (stored hashed).
        version (int | None | Unset): Pin this version; null: always the current one.
    """

    expires_at: datetime.datetime | None | Unset = UNSET
    max_downloads: int | None | Unset = UNSET
    password: None | str | Unset = UNSET
    version: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        max_downloads: int | None | Unset
        if isinstance(self.max_downloads, Unset):
            max_downloads = UNSET
        else:
            max_downloads = self.max_downloads

        password: None | str | Unset
        if isinstance(self.password, Unset):
            password = UNSET
        else:
            password = self.password

        version: int | None | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if max_downloads is not UNSET:
            field_dict["maxDownloads"] = max_downloads
        if password is not UNSET:
            field_dict["password"] = password
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))

        def _parse_max_downloads(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_downloads = _parse_max_downloads(d.pop("maxDownloads", UNSET))

        def _parse_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        password = _parse_password(d.pop("password", UNSET))

        def _parse_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        version = _parse_version(d.pop("version", UNSET))

        share_link_create = cls(
            expires_at=expires_at,
            max_downloads=max_downloads,
            password=password,
            version=version,
        )

        return share_link_create
