"""Read-only summaries of endpoints for the portal: each endpoint's health over its recent
attempts (success rate, the last attempt and the last delivery's status). Reads only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, case, func, select

import clock
from extensions import db
from models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from models.base import in_tenant

HEALTH_WINDOW = timedelta(days=7)


def attempt_succeeded(attempt: WebhookAttempt) -> bool:
    """A 2xx answer without an error, as the delivery job judges it."""
    code = attempt.status_code
    return attempt.error is None and code is not None and 200 <= code < 300


@dataclass(frozen=True)
class Health:
    attempts: int  # within HEALTH_WINDOW
    succeeded: int
    last_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    last_ok: bool | None  # None: never attempted
    last_delivery_status: str | None

    @property
    def success_rate(self) -> float | None:
        """Share of the window's attempts that succeeded, 0-100 (None: no attempt)."""
        return round(100 * self.succeeded / self.attempts, 1) if self.attempts else None

    @property
    def level(self) -> str:
        rate = self.success_rate
        if rate is None:
            return "none"
        return "ok" if rate >= 95 else "warn" if rate >= 50 else "over"


_NO_HEALTH = Health(0, 0, None, None, None, None, None)


def health_of(tenant_id: str, endpoint_ids: Sequence[str]) -> dict[str, Health]:
    """Health per endpoint id (every id answered, those without attempts included)."""
    if not endpoint_ids:
        return {}
    ids = list(endpoint_ids)
    ok = and_(
        WebhookAttempt.error.is_(None),
        WebhookAttempt.status_code >= 200,
        WebhookAttempt.status_code < 300,
    )
    joined = (
        select(WebhookDelivery.endpoint_id)
        .join(WebhookAttempt, WebhookAttempt.delivery_id == WebhookDelivery.id)
        .where(WebhookDelivery.tenant_id == tenant_id, WebhookDelivery.endpoint_id.in_(ids))
    )
    counts = {
        row[0]: (row[1], row[2] or 0)
        for row in db.session.execute(
            joined.add_columns(func.count(WebhookAttempt.id), func.sum(case((ok, 1), else_=0)))
            .where(WebhookAttempt.at >= clock.now() - HEALTH_WINDOW)
            .group_by(WebhookDelivery.endpoint_id)
        )
    }
    last_at = dict(
        db.session.execute(
            joined.add_columns(func.max(WebhookAttempt.at)).group_by(WebhookDelivery.endpoint_id)
        ).all()
    )
    health: dict[str, Health] = {}
    for endpoint_id in ids:
        attempts, succeeded = counts.get(endpoint_id, (0, 0))
        last = _last_attempt(endpoint_id, last_at.get(endpoint_id))
        latest = db.session.scalar(
            select(WebhookDelivery.status)
            .where(
                WebhookDelivery.endpoint_id == endpoint_id, in_tenant(WebhookDelivery, tenant_id)
            )
            .order_by(WebhookDelivery.id.desc())
            .limit(1)
        )
        if last is None and latest is None:
            health[endpoint_id] = _NO_HEALTH
            continue
        health[endpoint_id] = Health(
            attempts=attempts,
            succeeded=succeeded,
            last_attempt_at=last.at if last else None,
            last_status_code=last.status_code if last else None,
            last_error=last.error if last else None,
            last_ok=attempt_succeeded(last) if last else None,
            last_delivery_status=latest,
        )
    return health


def _last_attempt(endpoint_id: str, at: datetime | None) -> WebhookAttempt | None:
    if at is None:
        return None
    return db.session.scalar(
        select(WebhookAttempt)
        .join(WebhookDelivery, WebhookAttempt.delivery_id == WebhookDelivery.id)
        .where(WebhookDelivery.endpoint_id == endpoint_id, WebhookAttempt.at == at)
        .order_by(WebhookAttempt.id.desc())
        .limit(1)
    )


def all_endpoints(tenant_id: str, limit: int = 200) -> list[WebhookEndpoint]:
    """The tenant's endpoints, newest first (the portal shows them on one page)."""
    return list(
        db.session.scalars(
            WebhookEndpoint.query_for_tenant(tenant_id)
            .order_by(WebhookEndpoint.id.desc())
            .limit(limit)
        )
    )
