"""An endpoint's health: one whose every attempt has failed for FAILING_FOR (and that has not
succeeded since) is disabled with a reason, so that a receiver gone for good stops costing
attempts. Checked after each failed attempt, in its unit of work."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, func, select

import clock
from extensions import db
from models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from services.webhooks import endpoints

FAILING_FOR = timedelta(days=5)


def _attempts_of(endpoint: WebhookEndpoint):
    return (
        select(func.min(WebhookAttempt.at))
        .join(WebhookDelivery, WebhookDelivery.id == WebhookAttempt.delivery_id)
        .where(WebhookDelivery.endpoint_id == endpoint.id)
    )


def failing_since(endpoint: WebhookEndpoint) -> datetime | None:
    """When the run of failed attempts still going on began (None: the last one succeeded)."""
    last_success = db.session.scalar(
        _attempts_of(endpoint)
        .with_only_columns(func.max(WebhookAttempt.at))
        .where(
            WebhookAttempt.error.is_(None),
            and_(WebhookAttempt.status_code >= 200, WebhookAttempt.status_code < 300),
        )
    )
    stmt = _attempts_of(endpoint)
    if last_success is not None:
        stmt = stmt.where(WebhookAttempt.at > last_success)
    return db.session.scalar(stmt)


def disable_if_failing(endpoint: WebhookEndpoint) -> bool:
    """Disable `endpoint` when every attempt for FAILING_FOR has failed; True if it did."""
    if not endpoint.enabled:
        return False
    db.session.flush()
    since = failing_since(endpoint)
    if since is None or clock.now() - since < FAILING_FOR:
        return False
    endpoints.disable(
        endpoint,
        f"Every delivery failed for {FAILING_FOR.days} days (since {clock.rfc3339(since)}).",
    )
    return True
