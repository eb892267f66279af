"""OAuth apps a tenant registers: name, exact redirect URIs, public or confidential, the scopes
they may ask for. A confidential app's secret is shown once and stored as a SHA-256 digest
(256 random bits: nothing to brute-force). Every change is audited. Operations flush; the
caller commits."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from sqlalchemy import select

import clock
from errors import FieldError, validation_failed
from extensions import db
from models import OAuthClient, Tenant
from services.accounts import roles
from services.audit import audit_log
from services.core.actors import Actor
from services.oauth import tokens

SECRET_PREFIX = "dmsc_"  # noqa: S105  (a public prefix, not a secret)
MAX_REDIRECT_URIS = 10


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_matches(client: OAuthClient, secret: str | None) -> bool:
    if not client.confidential or client.secret_hash is None or not secret:
        return False
    return hmac.compare_digest(client.secret_hash, hash_secret(secret))


def _redirect_uri_error(uri: str) -> str | None:
    """RFC 8252 / RFC 9700: absolute, no fragment; https, or http only on loopback (native
    apps and development); custom schemes (app.example:/cb) for native apps."""
    if len(uri) > 2000:
        return "is longer than 2,000 characters"
    parts = urlsplit(uri)
    if not parts.scheme or parts.fragment or "#" in uri:
        return "must be an absolute URI without a fragment"
    if parts.scheme == "http" and parts.hostname not in {"localhost", "127.0.0.1", "::1"}:
        return "must use https (http only for localhost)"
    if parts.scheme in ("https", "http") and not parts.netloc:
        return "has no host"
    if parts.scheme in ("javascript", "data", "file", "vbscript"):
        return "uses a scheme that cannot be a redirect"
    return None


def _validate(name: str | None, redirect_uris: list[str] | None, scopes: list[str] | None):
    errors: list[FieldError] = []
    if name is not None and not (name.strip() and len(name.strip()) <= 100):
        errors.append(FieldError("VALIDATION_ERROR", "Name is 1 to 100 characters.", "name"))
    clean_uris: list[str] = []
    if redirect_uris is not None:
        clean_uris = list(dict.fromkeys(u.strip() for u in redirect_uris if u.strip()))
        if not clean_uris:
            errors.append(
                FieldError("VALIDATION_ERROR", "Give at least one redirect URI.", "redirectUris")
            )
        if len(clean_uris) > MAX_REDIRECT_URIS:
            errors.append(
                FieldError(
                    "VALIDATION_ERROR",
                    f"At most {MAX_REDIRECT_URIS} redirect URIs.",
                    "redirectUris",
                )
            )
        for uri in clean_uris:
            problem = _redirect_uri_error(uri)
            if problem:
                errors.append(FieldError("VALIDATION_ERROR", f"{uri!r} {problem}.", "redirectUris"))
    clean_scopes: list[str] = []
    if scopes is not None:
        clean_scopes, scope_errors = roles.checked_scopes(scopes)
        errors.extend(scope_errors)
    if errors:
        raise validation_failed(errors)
    return clean_uris, clean_scopes


def create_client(
    tenant: Tenant,
    name: str,
    redirect_uris: list[str],
    scopes: list[str],
    actor: Actor,
    *,
    confidential: bool = False,
) -> tuple[OAuthClient, str | None]:
    """Register an app; returns it with its secret (confidential apps only), shown once."""
    uris, clean_scopes = _validate(name, redirect_uris, scopes)
    secret = SECRET_PREFIX + secrets.token_urlsafe(32) if confidential else None
    client = OAuthClient(
        tenant_id=tenant.id,
        name=name.strip(),
        redirect_uris=uris,
        confidential=confidential,
        secret_hash=hash_secret(secret) if secret else None,
        secret_hint=secret[-4:] if secret else None,
        scopes=clean_scopes,
        created_by=actor.ref,
    )
    db.session.add(client)
    db.session.flush()
    audit_log.record(
        tenant.id,
        actor,
        "oauth_client.created",
        target_type="oauth_client",
        target_id=client.id,
        details={"name": client.name, "redirectUris": uris, "scopes": clean_scopes,
                 "confidential": confidential},
    )  # fmt: skip
    return client, secret


def update_client(
    client: OAuthClient,
    actor: Actor,
    *,
    name: str | None = None,
    redirect_uris: list[str] | None = None,
    scopes: list[str] | None = None,
) -> None:
    uris, clean_scopes = _validate(name, redirect_uris, scopes)
    changes: dict[str, list] = {}
    if name is not None and name.strip() != client.name:
        changes["name"] = [client.name, name.strip()]
        client.name = name.strip()
    if redirect_uris is not None and uris != client.redirect_uris:
        changes["redirectUris"] = [client.redirect_uris, uris]
        client.redirect_uris = uris
    if scopes is not None and clean_scopes != client.scopes:
        changes["scopes"] = [client.scopes, clean_scopes]
        client.scopes = clean_scopes
    if changes:
        client.updated_at = clock.now()
        audit_log.record(
            client.tenant_id,
            actor,
            "oauth_client.updated",
            target_type="oauth_client",
            target_id=client.id,
            details=changes,
        )


def rotate_secret(client: OAuthClient, actor: Actor) -> str:
    """A new secret for a confidential app; the old one stops working at once."""
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    client.secret_hash = hash_secret(secret)
    client.secret_hint = secret[-4:]
    client.updated_at = clock.now()
    audit_log.record(
        client.tenant_id, actor, "oauth_client.secret_rotated",
        target_type="oauth_client", target_id=client.id,
    )  # fmt: skip
    return secret


def delete_client(client: OAuthClient, actor: Actor) -> None:
    """Remove the app; every token it was given stops working at the next request."""
    client.deleted_at = clock.now()
    tokens.revoke_client(client.tenant_id, client.id, "client-deleted")
    audit_log.record(
        client.tenant_id, actor, "oauth_client.deleted",
        target_type="oauth_client", target_id=client.id, details={"name": client.name},
    )  # fmt: skip


def find_client(client_id: str | None) -> OAuthClient | None:
    """The live app with this public id (any tenant: the id names its tenant), or None."""
    if not client_id or len(client_id) > 40:
        return None
    client = db.session.get(OAuthClient, client_id)
    return client if client is not None and client.deleted_at is None else None


def redirect_origin(client_id: str | None, redirect_uri: str | None) -> str | None:
    """The origin (`https://app.example`) of `redirect_uri` when it is one the live app
    registered, exactly; None otherwise (and for a URI without a host)."""
    client = find_client(client_id)
    if client is None or redirect_uri not in client.redirect_uris:
        return None
    parts = urlsplit(redirect_uri)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


def list_clients(tenant_id: str) -> list[OAuthClient]:
    return list(
        db.session.scalars(
            select(OAuthClient)
            .where(OAuthClient.tenant_id == tenant_id, OAuthClient.deleted_at.is_(None))
            .order_by(OAuthClient.created_at.desc())
        )
    )
