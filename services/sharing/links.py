"""Share links of a document: made with a random token (256 bits, shown once; its SHA-256 is
what is stored), listed newest first, revoked; and for the public page, the link a token
names, whether it still serves, and each download counted in one conditional UPDATE, so two
downloads racing for the last one of `maxDownloads` cannot both win."""

from __future__ import annotations

import enum
import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update

import clock
from errors import DomainError, FieldError, conflict, not_found, validation_failed
from extensions import db
from models import Document, DocumentStatus, DocumentVersion, ShareLink
from services.accounts import passwords
from services.audit import audit_log
from services.core import events
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.documents import documents
from services.sharing import settings

DEFAULT_LIFETIME = timedelta(days=7)
MAX_LIFETIME = timedelta(days=365)
TOKEN_BYTES = 32  # 256 bits; token_urlsafe gives 43 characters
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")
DISABLED_CODE = "SHARE_LINKS_DISABLED"


class LinkState(enum.StrEnum):
    ACTIVE = "active"
    EXPIRED = "expired"
    REVOKED = "revoked"
    USED_UP = "used_up"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def state_of(link: ShareLink, now: datetime | None = None) -> LinkState:
    """Revoked, then expired, then used up: the first reason it no longer serves."""
    if link.revoked_at is not None:
        return LinkState.REVOKED
    if (now or clock.now()) >= link.expires_at:
        return LinkState.EXPIRED
    if link.max_downloads is not None and link.downloads >= link.max_downloads:
        return LinkState.USED_UP
    return LinkState.ACTIVE


# --- the tenant's side -------------------------------------------------------------------------


def _refuse_when_disabled(tenant_id: str) -> None:
    if not settings.share_links_enabled(tenant_id):
        raise DomainError(
            403, DISABLED_CODE, "Share links are turned off for this workspace by an admin."
        )


def create_link(
    document: Document,
    actor: Actor,
    *,
    version: int | None = None,
    expires_at: datetime | None = None,
    password: str | None = None,
    max_downloads: int | None = None,
) -> tuple[ShareLink, str]:
    """A new link to `document` (its `version` pinned, else always the current one) and its
    token, which is never shown again."""
    _refuse_when_disabled(document.tenant_id)
    if document.status == DocumentStatus.DELETED.value:
        raise conflict("This document is in the trash; restore it before sharing it.")
    now = clock.now()
    problems = []
    if version is not None and not 1 <= version <= document.current_version:
        problems.append(
            FieldError(
                "VALIDATION_ERROR", f"version: the document has no version {version}.", "version"
            )
        )
    expires_at = expires_at or now + DEFAULT_LIFETIME
    if expires_at <= now:
        problems.append(
            FieldError("VALIDATION_ERROR", "expiresAt: must be in the future.", "expiresAt")
        )
    elif expires_at > now + MAX_LIFETIME:
        problems.append(
            FieldError("VALIDATION_ERROR", "expiresAt: at most 365 days from now.", "expiresAt")
        )
    if problems:
        raise validation_failed(problems)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    link = ShareLink(
        tenant_id=document.tenant_id,
        document_id=document.id,
        version=version,
        token_digest=token_digest(token),
        password_hash=passwords.hash_password(password) if password else None,
        max_downloads=max_downloads,
        downloads=0,
        expires_at=expires_at,
        created_by=actor.ref,
    )
    db.session.add(link)
    db.session.flush()
    audit_log.record(
        document.tenant_id,
        actor,
        "share_link.created",
        target_type="document",
        target_id=document.id,
        details={
            "shareLinkId": link.id,
            "version": version,
            "expiresAt": clock.rfc3339(expires_at),
            "hasPassword": link.password_hash is not None,
            "maxDownloads": max_downloads,
        },
    )
    return link, token


def list_links(
    document: Document, limit: int, after: Sequence[Any] | None
) -> tuple[list[ShareLink], bool]:
    """The document's links, newest first, a page at a time (keyset on the id)."""
    stmt = select(ShareLink).where(
        ShareLink.tenant_id == document.tenant_id, ShareLink.document_id == document.id
    )
    return keyset_page(stmt, [(ShareLink.id, True)], limit, after)


def get_link(tenant_id: str, link_id: str) -> ShareLink:
    return ShareLink.get_for_tenant(link_id, tenant_id)


def revoke_link(link: ShareLink, actor: Actor) -> ShareLink:
    """Revoke now (idempotent: revoking again changes nothing)."""
    if link.revoked_at is not None:
        return link
    link.revoked_at = clock.now()
    link.revoked_by = actor.ref
    db.session.flush()
    audit_log.record(
        link.tenant_id,
        actor,
        "share_link.revoked",
        target_type="document",
        target_id=link.document_id,
        details={"shareLinkId": link.id},
    )
    return link


# --- the public page -------------------------------------------------------------------------


class Gone(Exception):
    """The link exists but no longer serves (410): why, in words for the page."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_GONE = {
    LinkState.EXPIRED: "This link has expired.",
    LinkState.REVOKED: "This link was revoked.",
    LinkState.USED_UP: "This link has been used as many times as it allows.",
}


@dataclass(frozen=True)
class Shared:
    """What a serving link shares: the link, its document and the version it sends."""

    link: ShareLink
    document: Document
    version: DocumentVersion


def find_by_token(token: str) -> ShareLink:
    """The link a token names, or 404 (a malformed token too). The row is found by the
    token's digest, then the digests are compared in constant time."""
    if not TOKEN_RE.match(token or ""):
        raise not_found("Share link")
    digest = token_digest(token)
    link = db.session.scalar(select(ShareLink).where(ShareLink.token_digest == digest))
    if link is None or not hmac.compare_digest(link.token_digest, digest):
        raise not_found("Share link")
    return link


def serving(link: ShareLink) -> Shared:
    """What the link sends now, or Gone: the tenant turned share links off, the link is
    revoked, expired or used up, its document is in the trash, or its pinned version is
    no more."""
    if not settings.share_links_enabled(link.tenant_id):
        raise Gone("Share links are turned off for this workspace.")
    state = state_of(link)
    if state is not LinkState.ACTIVE:
        raise Gone(_GONE[state])
    document = documents.get_document(link.tenant_id, link.document_id)
    if document.status == DocumentStatus.DELETED.value:
        raise Gone("The shared document was deleted.")
    try:
        version = documents.get_version(document, link.version)
    except DomainError:
        raise Gone("The shared version of this document no longer exists.") from None
    return Shared(link, document, version)


def check_password(link: ShareLink, password: str) -> bool:
    """Argon2 verification; a link without a password takes none."""
    if link.password_hash is None:
        return True
    return passwords.verify_password(link.password_hash, password)


def record_download(shared: Shared, actor: Actor) -> None:
    """Count one download, audit it and emit share_link.downloaded; Gone when a concurrent
    download took the last one (or the link stopped serving) since it was read."""
    link = shared.link
    now = clock.now()
    counted = db.session.execute(
        update(ShareLink)
        .where(
            ShareLink.id == link.id,
            ShareLink.tenant_id == link.tenant_id,
            ShareLink.revoked_at.is_(None),
            ShareLink.expires_at > now,
            (ShareLink.max_downloads.is_(None)) | (ShareLink.downloads < ShareLink.max_downloads),
        )
        .values(downloads=ShareLink.downloads + 1, last_downloaded_at=now)
        .execution_options(synchronize_session=False)
    ).rowcount
    db.session.refresh(link)
    if counted != 1:
        raise Gone(_GONE.get(state_of(link, now), _GONE[LinkState.USED_UP]))
    details = {
        "shareLinkId": link.id,
        "documentId": shared.document.id,
        "version": shared.version.number,
        "downloads": link.downloads,
    }
    audit_log.record(
        link.tenant_id,
        actor,
        "share_link.downloaded",
        target_type="document",
        target_id=shared.document.id,
        details=details,
    )
    events.emit(
        link.tenant_id,
        "share_link.downloaded",
        {**details, "maxDownloads": link.max_downloads, "at": clock.rfc3339(now)},
    )
