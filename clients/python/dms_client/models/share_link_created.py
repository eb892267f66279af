from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ShareLinkCreated")


@_attrs_define
class ShareLinkCreated:
    """
    Attributes:
        created_at (datetime.datetime):
        created_by (None | str):
        document_id (str):
        downloads (int): Downloads so far.
        expires_at (datetime.datetime):
        has_password (bool):
        id (str):
        max_downloads (int | None):
        revoked_at (datetime.datetime | None):
        status (str): active, expired, revoked or used_up.
        url (str): The public address (`<base>/s/<token>`); shown only once.
        version (int | None): The pinned version; null: the current one.
    """

    created_at: datetime.datetime
    created_by: None | str
    document_id: str
    downloads: int
    expires_at: datetime.datetime
    has_password: bool
    id: str
    max_downloads: int | None
    revoked_at: datetime.datetime | None
    status: str
    url: str
    version: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        created_by: None | str
        created_by = self.created_by

        document_id = self.document_id

        downloads = self.downloads

        expires_at = self.expires_at.isoformat()

        has_password = self.has_password

        id = self.id

        max_downloads: int | None
        max_downloads = self.max_downloads

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        status = self.status

        url = self.url

        version: int | None
        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "createdBy": created_by,
                "documentId": document_id,
                "downloads": downloads,
                "expiresAt": expires_at,
                "hasPassword": has_password,
                "id": id,
                "maxDownloads": max_downloads,
                "revokedAt": revoked_at,
                "status": status,
                "url": url,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_created_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_by = _parse_created_by(d.pop("createdBy"))

        document_id = d.pop("documentId")

        downloads = d.pop("downloads")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        has_password = d.pop("hasPassword")

        id = d.pop("id")

        def _parse_max_downloads(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_downloads = _parse_max_downloads(d.pop("maxDownloads"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt"))

        status = d.pop("status")

        url = d.pop("url")

        def _parse_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        version = _parse_version(d.pop("version"))

        share_link_created = cls(
            created_at=created_at,
            created_by=created_by,
            document_id=document_id,
            downloads=downloads,
            expires_at=expires_at,
            has_password=has_password,
            id=id,
            max_downloads=max_downloads,
            revoked_at=revoked_at,
            status=status,
            url=url,
            version=version,
        )

        share_link_created.additional_properties = d
        return share_link_created

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
