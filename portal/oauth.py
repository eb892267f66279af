"""The OAuth pages a person sees: /oauth/authorize (sign in if needed, then consent, then back
to the app with a code), "Authorized apps" for every user, and "OAuth apps" for admins.

An unknown app or a redirect URI it did not register is shown here and never redirected to
(an open-redirect guard); every other refusal goes back to the app's registered redirect URI
as RFC 6749 §4.1.2.1 says."""

from __future__ import annotations

from urllib.parse import urlsplit

from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import InvalidScopeError
from flask import flash, g, redirect, render_template, request, url_for
from flask_login import current_user

import tenancy
from errors import DomainError
from extensions import db
from models import SCOPES, OAuthClient, User
from portal.access import ADMIN, TENANT_ROLES, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.layout import NO_STORE, field_errors
from portal.security import allow_form_redirect_to
from services.accounts import roles
from services.audit import audit_log
from services.core.transaction import transactional
from services.oauth import clients, consents
from services.oauth import server as oauth_server


def _refused(code: str, message: str, status: int = 400):
    page = render_template("portal/oauth/error.html", code=code, message=message)
    return page, status, NO_STORE


@bp.route("/oauth/authorize", methods=["GET", "POST"])
@transactional  # consents and refusals are audited whatever the outcome
def oauth_authorize():
    server = oauth_server.server()
    host = tenancy.host_tenant()
    g.oauth_host_tenant = host.id if host is not None else None
    person = current_user if current_user.is_authenticated and not current_user.is_support else None
    try:
        grant = server.get_consent_grant(end_user=person)
    except OAuth2Error as error:
        if getattr(error, "redirect_uri", None):  # set by authlib once the URI is verified
            return server.handle_error_response(None, error)
        return _refused(error.error, error.description or "The request is not valid.")
    except ValueError:
        # authlib cannot word an error about a parameter holding characters it refuses to
        # echo (an unsupported response_type of control characters): still a bad request.
        return _refused("invalid_request", "A parameter holds characters that are not allowed.")
    client: OAuthClient = grant.client.row
    if person is None:
        flash(f"Sign in to let {client.name} act for you.", "info")
        return redirect(url_for("portal.login", next=request.full_path, workspace=client.tenant_id))
    user = User.find_for_tenant(person.id, client.tenant_id)
    if user is None:
        return _refused("access_denied", "This app belongs to another workspace.", 403)
    requested = set(grant.request.scope.split())
    oauth_server.narrow_to_role(grant, user)
    granted = set(grant.request.scope.split())
    if not granted:
        error = InvalidScopeError(
            "Your role allows none of the scopes this app asks for."
            if requested
            else "None of the requested scopes is registered for this app."
        )
        error.redirect_uri, error.state = grant.redirect_uri, grant.request.payload.state
        return server.handle_error_response(None, error)
    if request.method == "GET":
        if granted <= consents.remembered(user, client.id):
            return server.create_authorization_response(grant=grant, grant_user=user)
        allow_form_redirect_to(clients.redirect_origin(client.id, grant.redirect_uri))
        return (
            render_template(
                "portal/oauth/consent.html",
                client=client,
                user=user,
                scopes=[(scope, SCOPES[scope]) for scope in sorted(granted)],
                withheld=sorted(requested - granted),
                redirect_host=urlsplit(grant.redirect_uri).netloc or grant.redirect_uri,
                action=request.full_path,
            ),
            200,
            NO_STORE,
        )
    if request.form.get("decision") == "allow":
        consents.grant(user, client, granted, portal_actor())
        return server.create_authorization_response(grant=grant, grant_user=user)
    audit_log.record(
        user.tenant_id, portal_actor(), "oauth.consent_denied", target_type="oauth_client",
        target_id=client.id, details={"scopes": sorted(granted)},
    )  # fmt: skip
    return server.create_authorization_response(grant=grant, grant_user=None)


# --- Authorized apps (every user) ------------------------------------------------------------


@bp.get("/authorized-apps")
@roles_required(*TENANT_ROLES)
def authorized_apps():
    return render_template(
        "portal/oauth/authorized.html",
        apps=consents.authorized_apps(current_user.tenant_id, current_user.id),
        scope_words=SCOPES,
    )


@bp.post("/authorized-apps/<client_id>/revoke")
@roles_required(*TENANT_ROLES)
@transactional
def revoke_authorized_app(client_id: str):
    if consents.revoke(current_user.id, current_user.tenant_id, client_id, portal_actor()):
        flash("Access revoked: the app's tokens stopped working.", "success")
    return redirect(url_for("portal.authorized_apps"))


# --- OAuth apps (admins) ---------------------------------------------------------------------


def _form() -> dict:
    return {
        "name": request.form.get("name", ""),
        "redirect_uris": request.form.get("redirect_uris", ""),
        "scopes": request.form.getlist("scopes"),
        "confidential": request.form.get("confidential") == "1",
    }


@bp.get("/oauth-apps")
@roles_required(*ADMIN)
def oauth_apps():
    form = {"name": "", "redirect_uris": "", "scopes": [], "confidential": False}
    return _apps_page(form, {})


def _apps_page(form: dict, errors: dict, status: int = 200):
    tenant = portal_tenant()
    return render_template(
        "portal/oauth/apps.html",
        apps=clients.list_clients(tenant.id),
        form=form,
        errors=errors,
        scopes=SCOPES,
        role_scopes=roles.scopes_for("admin"),
    ), status


@bp.post("/oauth-apps")
@roles_required(*ADMIN)
@transactional
def create_oauth_app():
    form = _form()
    try:
        client, secret = clients.create_client(
            portal_tenant(),
            form["name"],
            form["redirect_uris"].splitlines(),
            form["scopes"],
            portal_actor(),
            confidential=form["confidential"],
        )
    except DomainError as error:
        db.session.rollback()
        return _apps_page(form, field_errors(error), 422)
    page = render_template("portal/oauth/created.html", client=client, secret=secret)
    return page, 201, NO_STORE


@bp.post("/oauth-apps/<client_id>/delete")
@roles_required(*ADMIN)
@transactional
def delete_oauth_app(client_id: str):
    client = OAuthClient.get_for_tenant(client_id, portal_tenant().id)
    clients.delete_client(client, portal_actor())
    flash(f"Deleted {client.name}; every token it held stopped working.", "success")
    return redirect(url_for("portal.oauth_apps"))
