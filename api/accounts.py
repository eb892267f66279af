"""Sign-in for people through the API, the caller's identity and invitations: POST /api/v1/login
(JSON; the form-encoded variant is deprecated, sunset 2027-01-01), GET /api/v1/me (CONTRACT §4,
§9) and an admin's /api/v1/users/invitations (§10; the accept page is portal/accounts.py's)."""

from __future__ import annotations

from flask import g, request, url_for

import tenancy
from api.auth import any_credential, current_credential, public, require_user
from api.blueprint import bp
from api.envelope import error_response, ok, ok_list
from api.openapi_rules import operation
from api.pagination import id_position
from api.validation import body_documented, json_body, parse_json, query_args, responds
from errors import DomainError
from extensions import db
from models import Tenant
from services.accounts import invitations, roles, sign_in
from services.accounts.tokens import issuer
from services.accounts.user_grants import UserGrant
from services.accounts.wire import (
    CallerOut,
    InvitationCreate,
    InvitationCreatedOut,
    InvitationListQuery,
    InvitationOut,
    LoginBody,
    TokenOut,
    invitation_data,
    invitations_data,
)
from services.core import smtp
from services.core.cursors import binding_of, encode_cursor
from services.core.transaction import transactional
from services.lifecycle import deprecations
from services.mfa import challenges
from services.oauth import tokens

FORM = "application/x-www-form-urlencoded"
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def _credentials() -> tuple[str, str]:
    if request.mimetype == FORM:  # deprecated, answered the same until its sunset
        return request.form.get("email", ""), request.form.get("password", "")
    body = parse_json(LoginBody)
    return body.email, body.password


@bp.post("/login")
@public
@transactional  # failures are audited and throttled: the commit stands whatever the outcome
@body_documented(LoginBody, errors=(401,))
@responds(TokenOut)
@operation("signInWithPassword")
def login():
    """Sign in with email and password; returns an access token (1 hour) and a refresh token
    (rotated by `POST /oauth/token` with `grant_type=refresh_token&client_id=first-party`).
    With two-factor sign-in on, answers 401 MFA_REQUIRED with `data.mfaToken` for
    `POST /login/mfa`.
    The tenant comes from the usual sources (subdomain, custom domain, X-Tenant-Id)."""
    tenant = tenancy.resolve_tenant()
    if tenant is None:
        raise DomainError(400, "TENANT_REQUIRED", "Send the X-Tenant-Id header with your tenant.")
    email, password = _credentials()
    outcome = sign_in.sign_in(
        tenant.id,
        email,
        password,
        tenancy.client_ip(),
        request.headers.get("User-Agent"),
        second_step=challenges.required,
    )
    if outcome.error:
        code = {429: "RATE_LIMIT_EXCEEDED", 400: "VALIDATION_ERROR"}.get(
            outcome.status, "INVALID_CREDENTIALS"
        )
        headers = {"Retry-After": str(outcome.retry_after)} if outcome.retry_after else {}
        # Returned, not raised: raising would roll back the failure's audit entry and the
        # throttle's count along with everything else.
        return error_response(DomainError(outcome.status, code, outcome.error, headers=headers))
    if outcome.second_step:
        refusal = DomainError(
            401,
            "MFA_REQUIRED",
            "Two-factor sign-in is on: send the mfaToken with a code to POST /api/v1/login/mfa.",
        )
        token = challenges.issue(outcome.principal)
        return error_response(refusal, data={"mfaToken": token})
    user = UserGrant.of(outcome.principal)
    scopes = sorted(roles.scopes_for(user.role))
    pair = tokens.issue(user, tokens.FIRST_PARTY, scopes, issuer=issuer(request.host_url))
    item = g.get("deprecation")
    if item is not None:  # the form-encoded variant: counted against the person who used it
        deprecations.record_use(tenant.id, item, user.id, "user", user.email)
    return ok(pair.as_dict(), headers=NO_STORE)


@bp.get("/me")
@any_credential
@responds(CallerOut)
@operation("getCaller")
def me():
    """The caller: a user (with an access token) or an API key, its scopes and its tenant.
    Needs only a valid credential."""
    credential = current_credential
    tenant = tenancy.current_tenant
    body = {
        "type": "user" if credential.kind == "user" else "api_key",
        "id": credential.id,
        "name": credential.user.name if credential.user else credential.label,
        "scopes": sorted(credential.scopes),
        "tenant": {"id": tenant.id, "name": tenant.name, "plan": tenant.plan},
    }
    if credential.user is not None:
        body.update(email=credential.user.email, role=credential.user.role)
    return ok(body)


# --- invitations (admins) --------------------------------------------------------------------


def _admin_only() -> None:
    if not current_credential.is_admin:
        raise DomainError(403, "FORBIDDEN", "Only an admin invites people.")


@bp.post("/users/invitations")
@require_user
@transactional  # not @idempotent: a stored replay would keep the link in the clear
@json_body(InvitationCreate)
@responds(InvitationCreatedOut, status=201)
@operation("invitePerson", tag="users")
def create_invitation(body: InvitationCreate):
    """Invite a person by e-mail with a role: a single-use link, valid 7 days, on which they
    set a password or a passkey and are signed in. It is e-mailed through the configured SMTP
    server; without one the answer carries `acceptUrl` to pass on. An open invitation of the
    same address is revoked; 409 when the address has an account already. Admins only."""
    _admin_only()
    tenant = db.session.get(Tenant, tenancy.current_tenant.id)
    invitation, url = invitations.create_invitation(
        tenant, body.email, body.role, current_credential.actor(), _accept_link
    )
    shown = None if smtp.configured() else url
    return ok(invitation_data(invitation, shown), status=201, headers=NO_STORE)


def _accept_link(token: str) -> str:
    return url_for("portal.accept_invitation", token=token, _external=True)


@bp.get("/users/invitations")
@require_user
@query_args(InvitationListQuery)
@responds(InvitationOut, many=True)
@operation("listInvitations", tag="users")
def list_invitations(query: InvitationListQuery):
    """The tenant's invitations, newest first, whatever their status. Admins only."""
    _admin_only()
    tenant_id = tenancy.current_tenant.id
    binding = binding_of(tenant_id, resource="invitations")
    rows, more = invitations.list_invitations(tenant_id, query.limit,
                                              id_position(query.cursor, binding))  # fmt: skip
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(invitations_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.delete("/users/invitations/<invitation_id>")
@require_user
@transactional
@responds(InvitationOut)
@operation("revokeInvitation", tag="users")
def revoke_invitation(invitation_id: str):
    """Revoke an open invitation: its link answers 410 from now on. 409 when it was accepted
    already; revoking again changes nothing. Admins only."""
    _admin_only()
    invitation = invitations.get_invitation(tenancy.current_tenant.id, invitation_id)
    return ok(invitation_data(invitations.revoke(invitation, current_credential.actor())))
