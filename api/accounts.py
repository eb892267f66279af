"""Sign-in for people through the API and the caller's identity: POST /api/v1/login (JSON; the
form-encoded variant is deprecated, sunset 2027-01-01) and GET /api/v1/me (CONTRACT §4, §9)."""

from __future__ import annotations

from flask import g, request

import tenancy
from api.auth import any_credential, current_credential, public
from api.blueprint import bp
from api.envelope import error_response, ok
from api.openapi_rules import operation
from api.validation import body_documented, parse_json, responds
from errors import DomainError
from services.accounts import roles, sign_in
from services.accounts.tokens import issuer
from services.accounts.user_grants import UserGrant
from services.accounts.wire import CallerOut, LoginBody, TokenOut
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
        tenant.id, email, password, tenancy.client_ip(), request.headers.get("User-Agent")
    )
    if outcome.error:
        code = {429: "RATE_LIMIT_EXCEEDED", 400: "VALIDATION_ERROR"}.get(
            outcome.status, "INVALID_CREDENTIALS"
        )
        headers = {"Retry-After": str(outcome.retry_after)} if outcome.retry_after else {}
        # Returned, not raised: raising would roll back the failure's audit entry and the
        # throttle's count along with everything else.
        return error_response(DomainError(outcome.status, code, outcome.error, headers=headers))
    if challenges.required(outcome.principal):
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
