"""Passkeys (WebAuthn) through the API, CONTRACT §4: registering one needs a person signed in
with an access token; signing in with one is public and answers tokens like the login."""

from __future__ import annotations

from flask import request

import tenancy
from api.auth import current_credential, public, require_user
from api.blueprint import bp
from api.envelope import error_response, ok
from api.openapi_rules import operation
from api.validation import json_body, responds
from errors import DomainError
from models import User
from services.accounts import roles
from services.accounts.tenants import TenantRef
from services.accounts.tokens import issuer
from services.accounts.user_grants import UserGrant
from services.accounts.wire import TokenOut
from services.core.transaction import transactional
from services.oauth import tokens
from services.passkeys import ceremonies
from services.passkeys.wire import (
    PasskeyAuthenticationOptionsBody,
    PasskeyAuthenticationVerifyBody,
    PasskeyOptionsOut,
    PasskeyOut,
    PasskeyRegistrationVerifyBody,
    passkey_json,
)

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def _tenant() -> TenantRef:
    tenant = tenancy.resolve_tenant()
    if tenant is None:
        raise DomainError(400, "TENANT_REQUIRED", "Send the X-Tenant-Id header with your tenant.")
    return tenant


@bp.post("/auth/passkeys/registration/options")
@require_user
@responds(PasskeyOptionsOut)
@operation("startPasskeyRegistration", takes_body=False)
def passkey_registration_options():
    """Start registering a passkey for the signed-in person (a user's access token; an API key
    is refused with 403 USER_CONTEXT_REQUIRED). No body. Pass `publicKey` to
    navigator.credentials.create() and send the result to registration/verify with the
    `challengeId` within 5 minutes."""
    user = User.get_for_tenant(current_credential.id, tenancy.current_tenant.id)
    return ok(ceremonies.registration_options(user), headers=NO_STORE)


@bp.post("/auth/passkeys/registration/verify")
@require_user
@transactional
@json_body(PasskeyRegistrationVerifyBody)
@responds(PasskeyOut, status=201)
@operation("registerPasskey")
def passkey_registration_verify(body: PasskeyRegistrationVerifyBody):
    """Keep the passkey the authenticator created: checks the challenge (single use), the
    origin, the RP id and the attestation (`none` accepted). 400 INVALID_PASSKEY when any
    check fails, 409 when the passkey is registered already."""
    user = User.get_for_tenant(current_credential.id, tenancy.current_tenant.id)
    passkey = ceremonies.register(
        user,
        body.challenge_id,
        body.credential.browser_json(),
        body.name,
        current_credential.actor(),
    )
    return ok(passkey_json(passkey), status=201)


@bp.post("/auth/passkeys/authentication/options")
@public
@json_body(PasskeyAuthenticationOptionsBody)
@responds(PasskeyOptionsOut)
@operation("startPasskeySignIn")
def passkey_authentication_options(body: PasskeyAuthenticationOptionsBody):
    """Start signing in with a passkey to the tenant of the usual sources (subdomain, custom
    domain, X-Tenant-Id). Pass `publicKey` to navigator.credentials.get() and send the result
    to authentication/verify with the `challengeId` within 5 minutes."""
    tenant = _tenant()
    return ok(ceremonies.authentication_options(tenant.id, body.email), headers=NO_STORE)


@bp.post("/auth/passkeys/authentication/verify")
@public
@transactional  # refusals are audited: the commit stands whatever the outcome
@json_body(PasskeyAuthenticationVerifyBody)
@responds(TokenOut)
@operation("signInWithPasskey")
def passkey_authentication_verify(body: PasskeyAuthenticationVerifyBody):
    """Sign in with the passkey's answer; returns an access token (1 hour) and a refresh
    token, as `POST /api/v1/login` does. 400 INVALID_PASSKEY when the challenge is unknown,
    expired or used, the passkey is not registered in this tenant, its user is deactivated,
    the origin, RP id or signature does not verify, or its signature counter went back."""
    tenant = _tenant()
    outcome = ceremonies.authenticate(
        tenant.id,
        body.challenge_id,
        body.credential.browser_json(),
        tenancy.client_ip(),
        request.headers.get("User-Agent"),
    )
    if outcome.refusal is not None:
        return error_response(outcome.refusal)  # returned, not raised: the audit entry stays
    user = UserGrant.of(outcome.user)
    scopes = sorted(roles.scopes_for(user.role))
    pair = tokens.issue(user, tokens.FIRST_PARTY, scopes, issuer=issuer(request.host_url))
    return ok(pair.as_dict(), headers=NO_STORE)
