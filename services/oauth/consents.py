"""What each user allowed each app: the scopes granted on the consent page, remembered until
the user (or an admin) revokes them; revoking also revokes every token the app holds for
that user. Operations flush; the caller commits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

import clock
from extensions import db
from models import OAuthClient, OAuthConsent, User
from services.audit import audit_log
from services.core.actors import Actor
from services.oauth import tokens


def remembered(user: User, client_id: str) -> frozenset[str]:
    """The scopes the user granted this app and has not revoked (empty when none)."""
    consent = _live(user.tenant_id, user.id, client_id)
    return frozenset(consent.scope.split()) if consent is not None else frozenset()


def grant(user: User, client: OAuthClient, scopes: set[str], actor: Actor) -> OAuthConsent:
    """Remember `scopes` for the user and app (added to what was granted before)."""
    consent = db.session.scalar(
        select(OAuthConsent).where(
            OAuthConsent.user_id == user.id,
            OAuthConsent.client_id == client.id,
            OAuthConsent.tenant_id == user.tenant_id,
        )
    )
    if consent is None:
        consent = OAuthConsent(
            tenant_id=user.tenant_id, user_id=user.id, client_id=client.id, scope=""
        )
        db.session.add(consent)
    before = set() if consent.revoked_at else set(consent.scope.split())
    consent.scope = " ".join(sorted(before | scopes))
    consent.revoked_at = None
    consent.granted_at = clock.now()
    db.session.flush()
    audit_log.record(
        user.tenant_id, actor, "oauth.consent_granted", target_type="oauth_client",
        target_id=client.id, details={"user": user.id, "scopes": sorted(scopes)},
    )  # fmt: skip
    return consent


def revoke(user_id: str, tenant_id: str, client_id: str, actor: Actor) -> bool:
    """Forget the consent and revoke the app's tokens for the user; False when none."""
    consent = _live(tenant_id, user_id, client_id)
    if consent is None:
        return False
    consent.revoked_at = clock.now()
    families = tokens.revoke_user_client(tenant_id, user_id, client_id, "consent-revoked")
    audit_log.record(
        tenant_id, actor, "oauth.consent_revoked", target_type="oauth_client",
        target_id=client_id, details={"user": user_id, "tokenFamilies": len(families)},
    )  # fmt: skip
    return True


@dataclass(frozen=True)
class AuthorizedApp:
    client: OAuthClient
    scopes: list[str]
    granted_at: datetime
    last_used_at: datetime | None


def authorized_apps(tenant_id: str, user_id: str) -> list[AuthorizedApp]:
    """The apps the user allowed, with what each may do and when it was last used."""
    rows = db.session.execute(
        select(OAuthConsent, OAuthClient)
        .join(OAuthClient, OAuthClient.id == OAuthConsent.client_id)
        .where(
            OAuthConsent.tenant_id == tenant_id,
            OAuthConsent.user_id == user_id,
            OAuthConsent.revoked_at.is_(None),
            OAuthClient.deleted_at.is_(None),
        )
        .order_by(OAuthClient.name)
    ).all()
    apps = []
    for consent, client in rows:
        used = tokens.last_used(user_id, client.id)
        apps.append(AuthorizedApp(client, consent.scope.split(), consent.granted_at, used))
    return apps


def _live(tenant_id: str, user_id: str, client_id: str) -> OAuthConsent | None:
    return db.session.scalar(
        select(OAuthConsent).where(
            OAuthConsent.tenant_id == tenant_id,
            OAuthConsent.user_id == user_id,
            OAuthConsent.client_id == client_id,
            OAuthConsent.revoked_at.is_(None),
        )
    )
