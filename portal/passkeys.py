"""Passkeys in the portal: the "Passkeys" page, where every signed-in tenant user lists,
renames, removes and adds their own, and signing in with a passkey from the sign-in page.

The ceremonies run in the browser (static/js/passkeys.js) against the JSON endpoints here,
which take the session cookie and the CSRF token (X-CSRFToken header), never a bearer token.
A passkey sign-in starts a portal session exactly as the password does (portal/accounts.py); the
password throttle does not apply, as there is no secret to guess."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import flash, jsonify, redirect, render_template, request, session, url_for
from flask_login import current_user, login_user
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import tenancy
from errors import DomainError
from extensions import db
from models import User
from portal.access import TENANT_ROLES, portal_actor, roles_required
from portal.accounts import _landing, _safe_next
from portal.blueprint import bp
from portal.security import SESSION_KEY
from services.accounts import invitations, sessions, tenants
from services.accounts.tenants import TenantRef
from services.core.actors import Actor
from services.core.messages import pydantic_message
from services.core.transaction import transactional
from services.passkeys import ceremonies, credentials
from services.passkeys.credentials import NAME_MAX
from services.passkeys.wire import (
    AuthenticationCredentialJSON,
    ChallengeId,
    RegistrationCredentialJSON,
    passkey_json,
)

# --- request bodies of the script ------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class RegistrationVerify(_Body):
    challenge_id: ChallengeId = Field(alias="challengeId")
    credential: RegistrationCredentialJSON
    name: str | None = Field(None, max_length=NAME_MAX)


class SignInOptions(_Body):
    workspace: str | None = Field(None, max_length=63)
    email: str | None = Field(None, max_length=254)


class SignInVerify(_Body):
    workspace: str | None = Field(None, max_length=63)
    challenge_id: ChallengeId = Field(alias="challengeId")
    credential: AuthenticationCredentialJSON
    next: str | None = Field(None, max_length=2000)


M = TypeVar("M", bound=BaseModel)


def _parse(model: type[M]) -> M:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise DomainError(400, "INVALID_JSON", "Send a JSON object.")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        message = f"{field}: {pydantic_message(first)}" if field else pydantic_message(first)
        raise DomainError(422, "VALIDATION_ERROR", message, field) from None


def _json_error(error: DomainError):
    body = {"success": False, "errors": [e.as_dict() for e in error.errors]}
    return jsonify(body), error.status, {"Cache-Control": "no-store"}


def json_endpoint(view: Callable) -> Callable:
    """A view the script calls: its dict is the JSON answer, and a refusal is JSON too (the
    portal's HTML error pages are for people). A raised refusal undoes the unit of work."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        try:
            result = view(*args, **kwargs)
        except DomainError as error:
            db.session.rollback()
            return _json_error(error)
        if isinstance(result, DomainError):  # returned: what was written (the audit) stays
            return _json_error(result)
        data, status = result if isinstance(result, tuple) else (result, 200)
        return jsonify({"success": True, "data": data}), status, {"Cache-Control": "no-store"}

    return wrapper


def _me() -> User:
    return User.get_for_tenant(current_user.id, current_user.tenant_id)


# --- the Passkeys page -----------------------------------------------------------------------


@bp.get("/passkeys")
@roles_required(*TENANT_ROLES)
def passkeys_page():
    return render_template(
        "portal/passkeys/index.html", passkeys=credentials.list_for_user(_me()), name_max=NAME_MAX
    )


@bp.post("/passkeys/<passkey_id>/rename")
@roles_required(*TENANT_ROLES)
@transactional
def rename_passkey(passkey_id: str):
    passkey = credentials.get_own(passkey_id, _me())
    try:
        credentials.rename(passkey, request.form.get("name", ""), portal_actor())
    except DomainError as error:
        flash(f"The passkey keeps its name: {error.message}", "error")
    else:
        flash(f"Passkey renamed to “{passkey.name}”.", "success")
    return redirect(url_for("portal.passkeys_page"))


@bp.post("/passkeys/<passkey_id>/remove")
@roles_required(*TENANT_ROLES)
@transactional
def remove_passkey(passkey_id: str):
    passkey = credentials.get_own(passkey_id, _me())
    name = passkey.name
    credentials.remove(passkey, portal_actor())
    flash(f"Passkey “{name}” removed: it no longer signs you in.", "success")
    return redirect(url_for("portal.passkeys_page"))


@bp.post("/passkeys/registration/options")
@roles_required(*TENANT_ROLES)
@json_endpoint
def passkey_registration_options():
    return ceremonies.registration_options(_me())


@bp.post("/passkeys/registration/verify")
@roles_required(*TENANT_ROLES)
@transactional
@json_endpoint
def passkey_registration_verify():
    body = _parse(RegistrationVerify)
    passkey = ceremonies.register(
        _me(), body.challenge_id, body.credential.browser_json(), body.name, portal_actor()
    )
    flash(f"Passkey “{passkey.name}” added: you can sign in with it now.", "success")
    return {"passkey": passkey_json(passkey), "redirect": url_for("portal.passkeys_page")}, 201


# --- signing in with a passkey ---------------------------------------------------------------


def _sign_in_tenant(workspace: str | None) -> TenantRef:
    """The host's tenant, else the workspace typed on the sign-in page."""
    host = tenancy.host_tenant()
    if host is not None:
        return host
    tenant = tenants.get_tenant((workspace or "").strip().lower()) if workspace else None
    if tenant is None:
        raise DomainError(
            400,
            "TENANT_REQUIRED",
            "Enter your workspace id to sign in with a passkey.",
            "workspace",
        )
    return TenantRef.of(tenant)


@bp.post("/login/passkey/options")
@json_endpoint
def login_passkey_options():
    body = _parse(SignInOptions)
    tenant = _sign_in_tenant(body.workspace)
    return ceremonies.authentication_options(tenant.id, (body.email or "").strip() or None)


@bp.post("/login/passkey/verify")
@transactional  # refusals are audited: the commit stands whatever the outcome
@json_endpoint
def login_passkey_verify() -> Any:
    body = _parse(SignInVerify)
    tenant = _sign_in_tenant(body.workspace)
    ip, user_agent = tenancy.client_ip(), request.headers.get("User-Agent")
    outcome = ceremonies.authenticate(
        tenant.id, body.challenge_id, body.credential.browser_json(), ip, user_agent
    )
    if outcome.refusal is not None:
        return outcome.refusal
    portal_session = sessions.start(outcome.user, ip, user_agent)
    session.clear()  # a fresh session at each sign-in defeats session fixation
    session[SESSION_KEY] = portal_session.id
    login_user(outcome.user)
    flash("Signed in with a passkey.", "success")
    return {"redirect": _safe_next(body.next) or _landing(outcome.user)}


# --- accepting an invitation with a passkey --------------------------------------------------


class InvitationPasskeyVerify(_Body):
    challenge_id: ChallengeId = Field(alias="challengeId")
    credential: RegistrationCredentialJSON
    name: str | None = Field(None, max_length=NAME_MAX)


def _invitation(token: str):
    host = tenancy.host_tenant()
    try:
        return invitations.open_invitation(token, host.id if host else None)
    except invitations.Gone as gone:
        raise DomainError(410, "GONE", gone.reason) from None


@bp.post("/invite/<token>/passkey/options")
@json_endpoint
def invitation_passkey_options(token: str):
    """Registration options for the account the invitation will create (its id fixed)."""
    return ceremonies.registration_options(invitations.newcomer(_invitation(token)))


@bp.post("/invite/<token>/passkey/verify")
@transactional
@json_endpoint
def invitation_passkey_verify(token: str):
    """Create the account without a password and keep its passkey, in one unit of work (a
    refused passkey creates nothing), then sign the person in."""
    invitation = _invitation(token)
    body = _parse(InvitationPasskeyVerify)
    ip, user_agent = tenancy.client_ip(), request.headers.get("User-Agent")
    try:
        user = invitations.accept(
            invitation, Actor("public", None, "invitation link", ip, user_agent), password=None
        )
    except invitations.Gone as gone:
        raise DomainError(410, "GONE", gone.reason) from None
    actor = Actor("user", user.id, user.email, ip, user_agent)
    ceremonies.register(user, body.challenge_id, body.credential.browser_json(), body.name, actor)
    portal_session = sessions.start(user, ip, user_agent)
    session.clear()
    session[SESSION_KEY] = portal_session.id
    login_user(user)
    flash("Welcome: sign in with your passkey from now on.", "success")
    return {"redirect": _landing(user)}
