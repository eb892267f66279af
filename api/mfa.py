"""Second factors through the API (CONTRACT §10): a person's TOTP (status, set-up,
confirmation with the recovery codes, turning it off), the second step of the password
sign-in (`POST /login/mfa`) and the tenant's `requireMfa`. Routes only: services/mfa works
(docs/mfa.md). The first step is `POST /login` (api/accounts.py), which answers 401
MFA_REQUIRED with the `mfaToken` when TOTP is on."""

from __future__ import annotations

from flask import request

import tenancy
from api.auth import current_credential, public, require_user
from api.blueprint import bp
from api.envelope import error_response, ok
from api.openapi_rules import operation
from api.validation import also_answers, json_body, responds
from errors import DomainError
from models import User
from services.accounts import roles
from services.accounts.tokens import issuer
from services.accounts.user_grants import UserGrant
from services.accounts.wire import TokenOut
from services.core.transaction import transactional
from services.mfa import challenges, policy, totp
from services.mfa.wire import (
    MfaLoginBody,
    MfaSettingsOut,
    MfaSettingsPatch,
    MfaStatusOut,
    RecoveryCodesOut,
    TotpCodeBody,
    TotpSetupOut,
    dump,
)
from services.oauth import tokens

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def _me() -> User:
    return User.get_for_tenant(current_credential.id, tenancy.current_tenant.id)


@bp.get("/me/mfa")
@require_user
@responds(MfaStatusOut)
@operation("getMfaStatus")
def get_mfa_status():
    """The caller's second factors: TOTP on or off, passkeys, recovery codes left. Needs a
    person (a user's access token); an API key gets 403 USER_CONTEXT_REQUIRED."""
    return ok(dump(MfaStatusOut, **_snake(policy.status(_me()))))


def _snake(status: dict) -> dict:
    return {"totp": status["totp"], "passkeys": status["passkeys"],
            "recovery_codes_left": status["recoveryCodesLeft"]}  # fmt: skip


@bp.post("/me/mfa/totp")
@require_user
@transactional
@responds(TotpSetupOut)
@operation("startTotpSetup", takes_body=False)
def start_totp_setup():
    """A new TOTP secret and its otpauth URI (for a QR code), pending until
    `POST /me/mfa/totp/confirm` with a first code. Asking again replaces a pending secret;
    409 when TOTP is on already. No body."""
    secret, uri = totp.start(_me())
    return ok(dump(TotpSetupOut, secret=secret, otpauth_uri=uri), headers=NO_STORE)


@bp.post("/me/mfa/totp/confirm")
@require_user
@transactional
@json_body(TotpCodeBody)
@responds(RecoveryCodesOut)
@operation("confirmTotpSetup")
def confirm_totp_setup(body: TotpCodeBody):
    """Turn TOTP on with the code the app shows now; answers ten single-use recovery codes,
    shown only here. 422 when the code is wrong, 409 without a pending set-up."""
    codes = totp.confirm(_me(), body.code, current_credential.actor())
    return ok(dump(RecoveryCodesOut, recovery_codes=codes), headers=NO_STORE)


@bp.delete("/me/mfa/totp")
@require_user
@transactional
@json_body(TotpCodeBody)
@responds(MfaStatusOut)
@operation("disableTotp")
def disable_totp(body: TotpCodeBody):
    """Turn TOTP off with a current code or a recovery code; the recovery codes go with it.
    422 when the code is wrong, 409 when TOTP is off."""
    user = _me()
    totp.disable(user, body.code, current_credential.actor())
    return ok(dump(MfaStatusOut, **_snake(policy.status(user))))


@bp.post("/login/mfa")
@public
@transactional  # wrong codes are counted and audited: the commit stands whatever the outcome
@json_body(MfaLoginBody)
@also_answers(401)
@responds(TokenOut)
@operation("signInWithSecondFactor")
def login_mfa(body: MfaLoginBody):
    """The second step of `POST /login` when it answered 401 MFA_REQUIRED: the `mfaToken`
    (5 minutes, single-use) with a TOTP `code` or a `recoveryCode`; answers the tokens as the
    login does. 401 INVALID_TOKEN for an expired, used or unknown token (sign in with the
    password again), 401 INVALID_CREDENTIALS for a wrong or replayed code, 429 after too many
    wrong codes for the person or from the address (`Retry-After`)."""
    tenant = tenancy.resolve_tenant()
    if tenant is None:
        raise DomainError(400, "TENANT_REQUIRED", "Send the X-Tenant-Id header with your tenant.")
    outcome = challenges.redeem(
        tenant.id,
        body.mfa_token,
        body.code,
        body.recovery_code,
        tenancy.client_ip(),
        request.headers.get("User-Agent"),
    )
    if outcome.refusal is not None:
        return error_response(outcome.refusal)  # returned, not raised: the count stays
    user = UserGrant.of(outcome.user)
    scopes = sorted(roles.scopes_for(user.role))
    pair = tokens.issue(user, tokens.FIRST_PARTY, scopes, issuer=issuer(request.host_url))
    return ok(pair.as_dict(), headers=NO_STORE)


@bp.get("/mfa-settings")
@require_user
@responds(MfaSettingsOut)
@operation("getMfaSettings", tag="sign-in")
def get_mfa_settings():
    return ok(dump(MfaSettingsOut, require_mfa=policy.require_mfa(tenancy.current_tenant.id)))


@bp.patch("/mfa-settings")
@require_user
@transactional
@json_body(MfaSettingsPatch)
@responds(MfaSettingsOut)
@operation("updateMfaSettings", tag="sign-in")
def update_mfa_settings(body: MfaSettingsPatch):
    """Require a second factor (TOTP or a passkey) of every person of the tenant: those
    without one set one up at their next portal sign-in. Admins only (403 otherwise)."""
    if not current_credential.is_admin:
        raise DomainError(403, "FORBIDDEN", "Only an admin changes the sign-in settings.")
    tenant_id = tenancy.current_tenant.id
    required = policy.require_mfa(tenant_id)
    if body.require_mfa is not None:
        required = policy.set_require_mfa(tenant_id, body.require_mfa, current_credential.actor())
    return ok(dump(MfaSettingsOut, require_mfa=required))
