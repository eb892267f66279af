"""Share links in the portal, and their public page.

On a document's detail page (templates/portal/sharing/_panel.html): its links with when each
was made and expires, its downloads and a revoke button, and a form that makes one (expiry,
optional password and download cap) and shows its address once; htmx swaps the panel, and
every form also works as a plain POST. Admins turn share links off for the workspace on
the Sharing page.

The public page `/s/<token>` (tenancy.PATH_CLASSES "share-links": counted per client IP, the
token kept out of the logs) downloads the file with the API download's headers
(services/documents/download.py), after a password form when the link has one: plain HTML,
no JavaScript, a per-form token, wrong passwords throttled per client address. It names
neither the workspace nor the document before the download. An unknown token is 404; a
link that no longer serves (expired, revoked, used up, turned off, its document in the
trash, its pinned version gone) is 410."""

from __future__ import annotations

from datetime import timedelta

from flask import Response, flash, redirect, render_template, request, url_for
from flask_login import current_user

import clock
import tenancy
from errors import DomainError
from extensions import db
from models import Document
from portal.access import ADMIN, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.layout import field_errors
from services.accounts.roles import ROLE_SCOPES
from services.core.actors import Actor
from services.core.transaction import transactional
from services.documents import documents
from services.documents.download import content_response, download_headers
from services.sharing import links, password_form, settings, wire

PANEL_SIZE = 20
EXPIRY_CHOICES = (1, 7, 30, 90, 365)  # days; 7 is the default
EDITORS = tuple(role for role, scopes in ROLE_SCOPES.items() if "documents:write" in scopes)
# Every public answer: the token in the address must not travel on as a Referer, and the
# page is nobody's to index or keep.
PUBLIC_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "no-store",
}


# --- the document's panel ----------------------------------------------------------------------


def share_panel(document: Document, **extra) -> dict:
    """What the detail page's Share links panel shows: the newest links, whether links are
    on for the workspace, and whether this person may make and revoke them."""
    rows, more = links.list_links(document, PANEL_SIZE, None)
    return {
        "document": document,
        "links": wire.links_data(rows),
        "more": more,
        "enabled": settings.share_links_enabled(document.tenant_id),
        "can_share": current_user.is_authenticated and current_user.role in EDITORS,
        "expiry_choices": EXPIRY_CHOICES,
        "created_url": None,
        "errors": {},
        "values": {},
        **extra,
    }


def _panel(document: Document, status: int = 200, **extra):
    return render_template("portal/sharing/_panel.html", share=share_panel(document, **extra)), (
        status
    )


def _int_field(name: str, errors: dict, label: str) -> int | None:
    raw = request.form.get(name, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        errors.setdefault(name, []).append(f"{label}: a whole number.")
        return None


@bp.post("/documents/<document_id>/share-links")
@roles_required(*EDITORS)
@transactional
def create_share_link_page(document_id: str):
    document = documents.get_document(portal_tenant().id, document_id)
    errors: dict[str, list[str]] = {}
    days = _int_field("expires_in_days", errors, "Expires in")
    if days is not None and days not in EXPIRY_CHOICES:
        errors.setdefault("expires_in_days", []).append("Choose one of the offered expiries.")
    max_downloads = _int_field("max_downloads", errors, "Downloads")
    if max_downloads is not None and not 1 <= max_downloads <= wire.MAX_DOWNLOADS:
        errors.setdefault("max_downloads", []).append("Downloads: from 1 to 1,000,000.")
    password = request.form.get("password", "")
    if len(password) > 200:
        errors.setdefault("password", []).append("Password: at most 200 characters.")
    version = _int_field("version", errors, "Version")
    values = {"expires_in_days": days, "max_downloads": max_downloads, "version": version}
    link = token = None
    if not errors:
        try:
            link, token = links.create_link(
                document,
                portal_actor(),
                version=version,
                expires_at=clock.now() + timedelta(days=days or 7),
                password=password or None,
                max_downloads=max_downloads,
            )
        except DomainError as error:
            db.session.rollback()
            errors = field_errors(error)
    if errors:
        # htmx swaps only a 2xx: the panel with its errors; a plain POST gets the 422.
        return _panel(document, 200 if is_htmx() else 422, errors=errors, values=values)
    url = url_for("portal.public_share_link", token=token, _external=True)
    if is_htmx():
        return _panel(document, created_url=url, created_id=link.id)
    # Without JavaScript: a page of its own shows the address once (never a flash cookie).
    page = render_template("portal/sharing/created.html", document=document, url=url, link=link)
    return page, 201, {"Cache-Control": "no-store"}


@bp.post("/share-links/<link_id>/revoke")
@roles_required(*EDITORS)
@transactional
def revoke_share_link_page(link_id: str):
    link = links.get_link(portal_tenant().id, link_id)
    links.revoke_link(link, portal_actor())
    document = documents.get_document(link.tenant_id, link.document_id)
    if is_htmx():
        return _panel(document)
    flash("Revoked the share link: it answers 410 from now on.", "success")
    return redirect(url_for("portal.document_detail", document_id=document.id, _anchor="sharing"))


# --- the workspace's switch ----------------------------------------------------------------


@bp.get("/sharing")
@roles_required(*ADMIN)
def sharing_settings_page():
    enabled = settings.share_links_enabled(portal_tenant().id)
    return render_template("portal/sharing/settings.html", enabled=enabled)


@bp.post("/sharing")
@roles_required(*ADMIN)
@transactional
def update_sharing_settings_page():
    enabled = request.form.get("share_links_enabled") == "on"
    settings.set_share_links_enabled(portal_tenant().id, enabled, portal_actor())
    flash(
        "Share links are on." if enabled else "Share links are off: every link answers 410.",
        "success",
    )
    return redirect(url_for("portal.sharing_settings_page"))


# --- the public page -------------------------------------------------------------------------


def _public_actor() -> Actor:
    return Actor(
        "public",
        None,
        "share link",
        tenancy.client_ip(),
        (request.headers.get("User-Agent") or "")[:300] or None,
    )


def _public_page(template: str, status: int, **context):
    headers = dict(PUBLIC_HEADERS)
    if "retry_after" in context:
        headers["Retry-After"] = str(context["retry_after"])
    return render_template(f"sharing/{template}", **context), status, headers


def _serving(token: str) -> links.Shared:
    """The link's share, or a DomainError: 404 for a token that names no link (or a link of
    another tenant than the host names), 410 for one that no longer serves."""
    link = links.find_by_token(token)
    host = tenancy.host_tenant()
    if host is not None and host.id != link.tenant_id:
        raise DomainError(404, "NOT_FOUND", "Share link not found.")
    try:
        return links.serving(link)
    except links.Gone as gone:
        raise DomainError(410, "GONE", gone.reason) from None


def _answer_error(error: DomainError):
    if error.status == 404:
        return _public_page("gone.html", 404, title="Link not found", reason=None)
    return _public_page(
        "gone.html", error.status, title="Link no longer available", reason=error.message
    )


def _download(shared: links.Shared) -> Response:
    try:
        links.record_download(shared, _public_actor())
    except links.Gone as gone:
        db.session.rollback()
        return _answer_error(DomainError(410, "GONE", gone.reason))
    return content_response(shared.version, conditional=False, extra=PUBLIC_HEADERS)


def _password_page(shared: links.Shared, status: int = 200, error: str | None = None):
    token = password_form.form_token(shared.link.id, tenancy.client_ip())
    return _public_page("password.html", status, form_token=token, error=error)


@bp.route("/s/<token>", methods=["GET", "HEAD"])
@transactional
def public_share_link(token: str):
    """GET downloads (the password form first when the link has one); HEAD answers the
    same headers and counts nothing."""
    try:
        shared = _serving(token)
    except DomainError as error:
        return _answer_error(error)
    if shared.link.password_hash is not None:
        return _password_page(shared)
    if request.method == "HEAD":
        headers = download_headers(shared.version, PUBLIC_HEADERS)
        response = Response(status=200, headers=headers, content_type=shared.version.content_type)
        response.content_length = shared.version.size
        return response
    return _download(shared)


@bp.post("/s/<token>")
@transactional
def unlock_share_link(token: str):
    """The password form: a valid per-form token, then the throttle, then the password."""
    try:
        shared = _serving(token)
    except DomainError as error:
        return _answer_error(error)
    if shared.link.password_hash is None:
        return _download(shared)
    ip = tenancy.client_ip()
    if not password_form.form_token_valid(request.form.get("form_token", ""), shared.link.id, ip):
        return _password_page(shared, 400, "This form has expired. Enter the password again.")
    wait = password_form.retry_after(ip)
    if wait is not None:
        return _public_page("throttled.html", 429, retry_after=wait)
    if not links.check_password(shared.link, request.form.get("password", "")):
        password_form.record_failure(ip)
        return _password_page(shared, 403, "That password is not right.")
    return _download(shared)
