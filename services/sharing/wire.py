"""Share links and the tenant's sharing settings as they go over the wire (CONTRACT §10;
camelCase): requests validated here, answers produced here (API bodies, the portal), and
both described in the OpenAPI document."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator
from pydantic.alias_generators import to_camel

from models import ShareLink
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null
from services.sharing import links

MAX_DOWNLOADS = 1_000_000
MAX_VERSION = 2**31 - 1


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class ShareLinkCreate(_Body):
    """POST /documents/{id}/share-links: every field optional."""

    version: int | None = Field(
        None, ge=1, le=MAX_VERSION, description="Pin this version; null: always the current one."
    )
    expires_at: datetime | None = Field(
        None, description="When the link stops working: default in 7 days, at most 365."
    )
    password: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="Asked on the public page before the download (stored hashed).",
    )
    max_downloads: int | None = Field(
        None, ge=1, le=MAX_DOWNLOADS, description="Downloads allowed; null: no limit."
    )

    @field_validator("expires_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        """A time without an offset is read as UTC."""
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class ShareLinkListQuery(PageQuery):
    """GET /documents/{id}/share-links: newest first."""


class SharingSettingsPatch(_Body):
    """PATCH /share-link-settings."""

    share_links_enabled: bool = absent()

    @field_validator("share_links_enabled", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class ShareLinkOut(Wire):
    id: str
    document_id: str
    version: int | None = Field(description="The pinned version; null: the current one.")
    expires_at: Timestamp
    has_password: bool
    max_downloads: int | None
    downloads: int = Field(description="Downloads so far.")
    status: str = Field(description="active, expired, revoked or used_up.")
    revoked_at: Timestamp | None
    created_by: str | None
    created_at: Timestamp


class ShareLinkCreatedOut(ShareLinkOut):
    url: str = Field(description="The public address (`<base>/s/<token>`); shown only once.")


class SharingSettingsOut(Wire):
    share_links_enabled: bool = Field(
        description="Off: no link can be created and every existing link answers 410."
    )


_LINKS = TypeAdapter(list[ShareLinkOut])


def _fields(link: ShareLink) -> dict[str, Any]:
    return {
        "id": link.id,
        "document_id": link.document_id,
        "version": link.version,
        "expires_at": link.expires_at,
        "has_password": link.password_hash is not None,
        "max_downloads": link.max_downloads,
        "downloads": link.downloads,
        "status": links.state_of(link).value,
        "revoked_at": link.revoked_at,
        "created_by": link.created_by,
        "created_at": link.created_at,
    }


def link_data(link: ShareLink) -> dict[str, Any]:
    return ShareLinkOut.model_validate(_fields(link)).model_dump(mode="json", by_alias=True)


def created_data(link: ShareLink, url: str) -> dict[str, Any]:
    model = ShareLinkCreatedOut.model_validate({**_fields(link), "url": url})
    return model.model_dump(mode="json", by_alias=True)


def links_data(rows: list[ShareLink]) -> list[dict[str, Any]]:
    models = _LINKS.validate_python([_fields(link) for link in rows])
    return _LINKS.dump_python(models, mode="json", by_alias=True)


def settings_data(enabled: bool) -> dict[str, Any]:
    return SharingSettingsOut(share_links_enabled=enabled).model_dump(mode="json", by_alias=True)
