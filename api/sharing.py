"""Share links resource (CONTRACT §10): create and list a document's links, revoke one, and
the tenant's switch that turns share links off. Routes only: the work is in services/sharing
(docs/sharing.md). The public page the links open is portal/sharing.py's."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.openapi_rules import operation
from api.pagination import id_position
from api.validation import json_body, query_args, responds
from errors import DomainError
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.documents import documents
from services.sharing import links, settings, wire
from services.sharing.wire import (
    ShareLinkCreate,
    ShareLinkCreatedOut,
    ShareLinkListQuery,
    ShareLinkOut,
    SharingSettingsOut,
    SharingSettingsPatch,
)
from tenancy import current_tenant


@bp.post("/documents/<document_id>/share-links")
@require_scope("documents:write")
@transactional  # not @idempotent: a stored replay would keep the token in the clear
@json_body(ShareLinkCreate)
@responds(ShareLinkCreatedOut, status=201)
@operation(tag="sharing")
def create_share_link(document_id: str, body: ShareLinkCreate):
    """A link that downloads the document without signing in, until it expires (default 7
    days, at most 365), is revoked or used up. `url` holds its token and is shown only
    here. 403 SHARE_LINKS_DISABLED when an admin turned share links off; 409 for a trashed
    document. Idempotency-Key is not honoured: the token is never stored, so an answer could
    not be replayed; a retried create makes a second link (listed, revocable)."""
    document = documents.get_document(current_tenant.id, document_id)
    link, token = links.create_link(
        document,
        current_credential.actor(),
        version=body.version,
        expires_at=body.expires_at,
        password=body.password,
        max_downloads=body.max_downloads,
    )
    url = url_for("portal.public_share_link", token=token, _external=True)
    return ok(wire.created_data(link, url), status=201)


@bp.get("/documents/<document_id>/share-links")
@require_scope("documents:read")
@query_args(ShareLinkListQuery)
@responds(ShareLinkOut, many=True)
@operation(tag="sharing")
def list_share_links(document_id: str, query: ShareLinkListQuery):
    """The document's share links, newest first, revoked and expired ones included."""
    document = documents.get_document(current_tenant.id, document_id)
    binding = binding_of(current_tenant.id, resource="share-links", document=document.id)
    rows, more = links.list_links(document, query.limit, id_position(query.cursor, binding))
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.links_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.delete("/share-links/<link_id>")
@require_scope("documents:write")
@transactional
@responds(ShareLinkOut)
def revoke_share_link(link_id: str):
    """Revoke a link: its page answers 410 from the next request. Revoking again is a no-op."""
    link = links.revoke_link(links.get_link(current_tenant.id, link_id), current_credential.actor())
    return ok(wire.link_data(link))


@bp.get("/share-link-settings")
@require_scope("documents:read")
@responds(SharingSettingsOut)
@operation("getShareLinkSettings")
def get_share_link_settings():
    return ok(wire.settings_data(settings.share_links_enabled(current_tenant.id)))


@bp.patch("/share-link-settings")
@require_scope("documents:write")
@transactional
@json_body(SharingSettingsPatch)
@responds(SharingSettingsOut)
@operation("updateShareLinkSettings")
def update_share_link_settings(body: SharingSettingsPatch):
    """Turn share links on or off for the tenant: off, creating answers 403
    SHARE_LINKS_DISABLED and every existing link answers 410 (nothing is deleted; on again,
    unexpired links work again). A person needs the admin role; an API key, the scope."""
    if current_credential.kind == "user" and not current_credential.is_admin:
        raise DomainError(403, "FORBIDDEN", "Only an admin changes the sharing settings.")
    enabled = settings.share_links_enabled(current_tenant.id)
    if body.share_links_enabled is not None:
        enabled = settings.set_share_links_enabled(
            current_tenant.id, body.share_links_enabled, current_credential.actor()
        )
    return ok(wire.settings_data(enabled))
