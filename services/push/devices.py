"""A person's push subscriptions: subscribe (the same device again is the same subscription),
list, unsubscribe, and the removal of a device whose token a provider refused. Each change is
audited. Flushes; the caller commits.

A device registered by another person of the tenant changed hands (a shared tablet, a phone
passed on): the previous holder's subscription is removed and the new one created, so nothing
still queued for the previous holder reaches the device. Tenants never see each other's
subscriptions: the same device in two tenants is two subscriptions (docs/push.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import current_app
from sqlalchemy.exc import IntegrityError

from errors import not_found
from extensions import db
from models import PushSubscription, User
from services.audit import audit_log
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.push import tokens
from services.push.tokens import DeviceToken, PushOptions

SUBSCRIBED = "push.subscribed"
UNSUBSCRIBED = "push.unsubscribed"
SYSTEM = Actor.system("push delivery")


def options() -> PushOptions:
    config = current_app.config
    return PushOptions(
        allow_http=config["DMS_WEBPUSH_ALLOW_HTTP"],
        allow_private=config["DMS_WEBPUSH_ALLOW_PRIVATE"],
        hosts=tuple(config["DMS_WEBPUSH_HOSTS"]),
    )


def subscribe(
    user: User, platform: str, raw_token: Any, actor: Actor
) -> tuple[PushSubscription, bool]:
    """(the subscription, whether it is new). The same device of the same person answers the
    existing one (a web subscription's fresh keys are kept)."""
    token = tokens.parse(platform, raw_token, options())
    existing = _by_hash(user.tenant_id, token.token_hash)
    if existing is not None and existing.user_id == user.id:
        existing.token = token.stored
        db.session.flush()
        return existing, False
    if existing is not None:
        remove(existing, actor, "registered by another person of the tenant")
    try:
        with db.session.begin_nested():
            subscription = _create(user, token)
    except IntegrityError:
        # A concurrent request of the same device won the unique (tenant, token) race.
        winner = _by_hash(user.tenant_id, token.token_hash)
        if winner is None or winner.user_id != user.id:
            raise
        return winner, False
    audit_log.record(
        user.tenant_id,
        actor,
        SUBSCRIBED,
        target_type="push_subscription",
        target_id=subscription.id,
        details={"userId": user.id, "platform": platform, "token": subscription.token_hint},
    )
    return subscription, True


def _create(user: User, token: DeviceToken) -> PushSubscription:
    subscription = PushSubscription(
        tenant_id=user.tenant_id,
        user_id=user.id,
        platform=token.platform,
        token=token.stored,
        token_hash=token.token_hash,
        token_hint=token.hint,
    )
    db.session.add(subscription)
    db.session.flush()
    return subscription


def _by_hash(tenant_id: str, token_hash: str) -> PushSubscription | None:
    return db.session.scalar(
        PushSubscription.query_for_tenant(tenant_id).where(
            PushSubscription.token_hash == token_hash
        )
    )


def list_own(
    user: User, limit: int, after: Sequence[Any] | None
) -> tuple[list[PushSubscription], bool]:
    """The person's subscriptions, newest first."""
    stmt = PushSubscription.query_for_tenant(user.tenant_id).where(
        PushSubscription.user_id == user.id
    )
    return keyset_page(stmt, [(PushSubscription.id, True)], limit, after)


def get_own(subscription_id: str, user: User) -> PushSubscription:
    """One of the person's own subscriptions; anyone else's (same tenant or not) is a 404."""
    subscription = PushSubscription.get_for_tenant(subscription_id, user.tenant_id)
    if subscription.user_id != user.id:
        raise not_found(PushSubscription.__not_found_label__)
    return subscription


def for_user(tenant_id: str, user_id: str) -> list[PushSubscription]:
    return list(
        db.session.scalars(
            PushSubscription.query_for_tenant(tenant_id)
            .where(PushSubscription.user_id == user_id)
            .order_by(PushSubscription.id)
        )
    )


def remove(subscription: PushSubscription, actor: Actor, reason: str) -> None:
    """Delete the subscription; its deliveries stay, without it (and an open one fails)."""
    details = {
        "userId": subscription.user_id,
        "platform": subscription.platform,
        "token": subscription.token_hint,
        "reason": reason,
    }
    tenant_id, subscription_id = subscription.tenant_id, subscription.id
    db.session.delete(subscription)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        UNSUBSCRIBED,
        target_type="push_subscription",
        target_id=subscription_id,
        details=details,
    )


def refused_by_provider(tenant_id: str, subscription_id: str, error: str | None) -> None:
    """The provider says the token is dead (uninstalled app, expired browser subscription)."""
    subscription = PushSubscription.find_for_tenant(subscription_id, tenant_id)
    if subscription is not None:
        remove(subscription, SYSTEM, f"the push service refused the token: {error or ''}"[:300])
