"""The two WebAuthn ceremonies, with py_webauthn: registering a passkey for a signed-in user
and signing in with one. Each has an options step (a challenge kept on the server, see
challenges.py) and a verification step that checks the authenticator's answer against that
challenge, the relying party id and the allowed origins (DMS_WEBAUTHN_*, docs/passkeys.md).

Sign-in outcomes are audited whatever they are, so they come back as a `PasskeySignIn`
rather than raised: the caller commits the refusal's audit entry, then answers with it.
Flushes; the caller commits, and issues tokens (API) or starts a session (portal)."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from dataclasses import dataclass
from typing import Any

from flask import current_app

import clock
from errors import DomainError, conflict
from extensions import db
from models import Passkey, User
from services.accounts import users
from services.audit import audit_log
from services.core import lazy
from services.core.actors import Actor
from services.passkeys import challenges, credentials

# py_webauthn (and the cryptography it brings) loads with the first passkey ceremony.
webauthn = lazy.module("webauthn")
webauthn_helpers = lazy.module("webauthn.helpers")
webauthn_errors = lazy.module("webauthn.helpers.exceptions")
structs = lazy.module("webauthn.helpers.structs")

log = logging.getLogger("dms.passkeys")

INVALID = "INVALID_PASSKEY"
EXPIRED = "This passkey request has expired or was already used: start again."
NOT_HERE = "This passkey does not sign anyone in to this workspace."
COUNTER_WENT_BACK = (
    "This passkey's signature counter did not increase: the authenticator may have been "
    "copied. Sign in another way and tell your administrator."
)


@dataclass(frozen=True)
class RelyingParty:
    """Who passkeys are for (DMS_WEBAUTHN_RP_ID, _RP_NAME) and where they may be used
    (DMS_WEBAUTHN_ORIGINS)."""

    id: str
    name: str
    origins: list[str]

    @classmethod
    def from_config(cls) -> RelyingParty:
        config = current_app.config
        origins = config["DMS_WEBAUTHN_ORIGINS"]
        if isinstance(origins, str):
            origins = [origin.strip() for origin in origins.split(",") if origin.strip()]
        return cls(config["DMS_WEBAUTHN_RP_ID"], config["DMS_WEBAUTHN_RP_NAME"], list(origins))


@dataclass(frozen=True)
class PasskeySignIn:
    """The outcome of a passkey sign-in: the user and passkey, or the refusal to answer with."""

    user: User | None
    passkey: Passkey | None = None
    refusal: DomainError | None = None


def user_handle(user: User) -> bytes:
    """The WebAuthn user handle: the user's id, opaque and free of personal data."""
    return user.id.encode()


# --- registration ----------------------------------------------------------------------------


def registration_options(user: User) -> dict[str, Any]:
    """`{"challengeId", "publicKey"}`: the options for navigator.credentials.create() in
    their JSON form, excluding the authenticators the user registered already."""
    rp = RelyingParty.from_config()
    challenge_id, challenge = challenges.issue(challenges.REGISTRATION, user.tenant_id, user.id)
    options = webauthn.generate_registration_options(
        rp_id=rp.id,
        rp_name=rp.name,
        user_id=user_handle(user),
        user_name=user.email,
        user_display_name=user.name or user.email,
        challenge=challenge,
        timeout=challenges.TTL_SECONDS * 1000,
        attestation=structs.AttestationConveyancePreference.NONE,
        authenticator_selection=structs.AuthenticatorSelectionCriteria(
            # Discoverable when the authenticator can (sign-in without typing an email);
            # security keys with no room left still register, for sign-in by email.
            resident_key=structs.ResidentKeyRequirement.PREFERRED,
            user_verification=structs.UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[_descriptor(p) for p in credentials.list_for_user(user)],
    )
    return {"challengeId": challenge_id, "publicKey": json.loads(webauthn.options_to_json(options))}


def register(
    user: User, challenge_id: str, credential: dict[str, Any], name: str | None, actor: Actor
) -> Passkey:
    """Verify the answer of navigator.credentials.create() and keep the new passkey."""
    label = credentials.clean_name(name) if name else f"Passkey added {clock.now():%Y-%m-%d}"
    challenge = challenges.take(challenge_id, challenges.REGISTRATION)
    if challenge is None or challenge.user_id != user.id or challenge.tenant_id != user.tenant_id:
        raise DomainError(400, INVALID, EXPIRED, "challengeId")
    rp = RelyingParty.from_config()
    try:
        parsed: structs.RegistrationCredential = (
            webauthn_helpers.parse_registration_credential_json(credential)
        )
        verified = webauthn.verify_registration_response(
            credential=parsed,
            expected_challenge=challenge.value,
            expected_rp_id=rp.id,
            expected_origin=rp.origins,
            require_user_verification=False,  # "preferred": asked for, not demanded
        )
    except Exception as error:  # malformed input of any kind is the client's, never a 500
        raise DomainError(400, INVALID, _explain(error), "credential") from None
    credential_id = webauthn_helpers.bytes_to_base64url(verified.credential_id)
    if credentials.find(credential_id) is not None:
        raise conflict("This passkey is registered already.")
    passkey = Passkey(
        tenant_id=user.tenant_id,
        user_id=user.id,
        credential_id=credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=[t.value for t in parsed.response.transports or []],
        name=label,
    )
    db.session.add(passkey)
    db.session.flush()
    audit_log.record(
        user.tenant_id,
        actor,
        "passkey.registered",
        target_type="passkey",
        target_id=passkey.id,
        details={
            "userId": user.id,
            "name": passkey.name,
            "transports": passkey.transports,
            "userVerified": verified.user_verified,
            "backedUp": verified.credential_backed_up,
        },
    )
    return passkey


# --- authentication --------------------------------------------------------------------------


def authentication_options(tenant_id: str, email: str | None = None) -> dict[str, Any]:
    """Options for navigator.credentials.get(): with an email, the passkeys of that person
    (an unknown email gets a stand-in, so the answer does not tell who has an account);
    without, none listed, and the authenticator offers its discoverable passkeys."""
    rp = RelyingParty.from_config()
    allowed: list[structs.PublicKeyCredentialDescriptor] | None = None
    user = users.find_user(tenant_id, email.strip()) if email else None
    if email:
        own = credentials.list_for_user(user) if user is not None and user.is_active else []
        allowed = [_descriptor(p) for p in own] or [_stand_in(tenant_id, email)]
    challenge_id, challenge = challenges.issue(
        challenges.AUTHENTICATION, tenant_id, user.id if user is not None else None
    )
    options = webauthn.generate_authentication_options(
        rp_id=rp.id,
        challenge=challenge,
        timeout=challenges.TTL_SECONDS * 1000,
        allow_credentials=allowed,
        user_verification=structs.UserVerificationRequirement.PREFERRED,
    )
    return {"challengeId": challenge_id, "publicKey": json.loads(webauthn.options_to_json(options))}


def authenticate(
    tenant_id: str, challenge_id: str, credential: dict[str, Any], ip: str, user_agent: str | None
) -> PasskeySignIn:
    """Verify the answer of navigator.credentials.get() for a sign-in to `tenant_id`; audits
    the outcome (user.login or user.login_failed, method "passkey")."""
    challenge = challenges.take(challenge_id, challenges.AUTHENTICATION)
    try:
        parsed: structs.AuthenticationCredential | None = (
            webauthn_helpers.parse_authentication_credential_json(credential)
        )
    except Exception:  # refused below with the rest, once the failure is audited
        parsed = None
    passkey = (
        credentials.find(webauthn_helpers.bytes_to_base64url(parsed.raw_id)) if parsed else None
    )
    if passkey is not None and passkey.tenant_id != tenant_id:
        passkey = None  # another workspace's passkey is unknown here
    user = User.find_for_tenant(passkey.user_id, tenant_id) if passkey is not None else None
    attempt = _Attempt(tenant_id, user, passkey, ip, user_agent)

    if challenge is None or challenge.tenant_id != tenant_id:
        return attempt.refuse("challenge unknown, expired or used", EXPIRED, "challengeId")
    if parsed is None:
        return attempt.refuse("malformed credential", "The passkey response is malformed.")
    if passkey is None or user is None:
        return attempt.refuse("passkey not registered in this workspace", NOT_HERE)
    if challenge.user_id is not None and challenge.user_id != user.id:
        return attempt.refuse("passkey of another person than the email named", NOT_HERE)
    if not user.is_active:
        return attempt.refuse("user deactivated", NOT_HERE)
    handle = parsed.response.user_handle
    if handle is not None and handle != user_handle(user):
        return attempt.refuse("user handle does not match the passkey's user", NOT_HERE)
    rp = RelyingParty.from_config()
    try:
        verified = webauthn.verify_authentication_response(
            credential=parsed,
            expected_challenge=challenge.value,
            expected_rp_id=rp.id,
            expected_origin=rp.origins,
            credential_public_key=passkey.public_key,
            # Compared here, below, once the signature holds: a counter that went back is
            # then a real sign of a copied authenticator, worth its own audit reason.
            credential_current_sign_count=0,
            require_user_verification=False,
        )
    except Exception as error:  # whatever the library could not accept is the client's
        return attempt.refuse(f"verification failed: {_reason(error)}", _explain(error))
    counted = verified.new_sign_count > 0 or passkey.sign_count > 0
    if counted and verified.new_sign_count <= passkey.sign_count:
        log.warning(
            "passkey sign counter did not increase",
            extra={
                "passkey": passkey.id,
                "stored": passkey.sign_count,
                "presented": verified.new_sign_count,
            },
        )
        return attempt.refuse(
            f"sign counter did not increase ({passkey.sign_count} -> {verified.new_sign_count})",
            COUNTER_WENT_BACK,
        )
    now = clock.now()
    passkey.sign_count = verified.new_sign_count
    passkey.last_used_at = now
    user.last_login_at = now
    db.session.flush()
    audit_log.record(
        tenant_id,
        attempt.actor(),
        "user.login",
        target_type="user",
        target_id=user.id,
        details={
            "method": "passkey",
            "passkeyId": passkey.id,
            "userVerified": verified.user_verified,
        },
    )
    return PasskeySignIn(user, passkey)


@dataclass(frozen=True)
class _Attempt:
    tenant_id: str
    user: User | None
    passkey: Passkey | None
    ip: str
    user_agent: str | None

    def actor(self) -> Actor:
        if self.user is None:
            return Actor("user", None, "unknown passkey", self.ip, self.user_agent)
        return Actor("user", self.user.id, self.user.email, self.ip, self.user_agent)

    def refuse(self, reason: str, message: str, field: str = "credential") -> PasskeySignIn:
        audit_log.record(
            self.tenant_id,
            self.actor(),
            "user.login_failed",
            target_type="user",
            target_id=self.user.id if self.user else None,
            details={
                "method": "passkey",
                "reason": reason[:300],
                "knownUser": self.user is not None,
                "passkeyId": self.passkey.id if self.passkey else None,
            },
        )
        return PasskeySignIn(None, refusal=DomainError(400, INVALID, message, field))


# --- helpers ---------------------------------------------------------------------------------


def _descriptor(passkey: Passkey) -> structs.PublicKeyCredentialDescriptor:
    known = {t.value for t in structs.AuthenticatorTransport}
    return structs.PublicKeyCredentialDescriptor(
        id=webauthn.base64url_to_bytes(passkey.credential_id),
        transports=[structs.AuthenticatorTransport(t) for t in passkey.transports if t in known]
        or None,
    )


def _stand_in(tenant_id: str, email: str) -> structs.PublicKeyCredentialDescriptor:
    """The same made-up credential id every time for this workspace and email."""
    secret = current_app.config["SECRET_KEY"].encode()
    message = f"passkey-stand-in:{tenant_id}:{email.strip().lower()}".encode()
    return structs.PublicKeyCredentialDescriptor(
        id=hmac.new(secret, message, hashlib.sha256).digest(),
        transports=[
            structs.AuthenticatorTransport.INTERNAL,
            structs.AuthenticatorTransport.HYBRID,
        ],  # the usual
    )


def _reason(error: Exception) -> str:
    """The library's words, for the audit log."""
    text = str(error).replace(" See __cause__ for more info", "").strip()
    if isinstance(error, webauthn_errors.WebAuthnException) and error.__cause__ is not None:
        text = f"{text} ({type(error.__cause__).__name__}: {error.__cause__})"
    return text or type(error).__name__


def _explain(error: Exception) -> str:
    """The refusal in words for the client: which check failed, without the configuration."""
    text = str(error).lower()
    if "challenge" in text:
        return "The passkey signed another challenge than the one of this request."
    if "origin" in text:
        return "The passkey was used from a site (origin) this service does not accept."
    if "rp id" in text:
        return "The passkey belongs to another relying party (RP id) than this service."
    if "signature" in text:
        return "The passkey's signature does not verify."
    if "user was not present" in text or "user presence" in text:
        return "The authenticator did not confirm that a person was present."
    if isinstance(error, webauthn_errors.WebAuthnException):
        return f"The passkey response is not valid: {_reason(error)}"
    return "The passkey response is malformed."
