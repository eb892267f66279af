"""Webhook endpoints, the deliveries of events to them and every attempt of each delivery."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

import clock
from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column
from models.event import Event


class DeliveryStatus(enum.StrEnum):
    PENDING = "pending"  # no attempt yet
    RETRYING = "retrying"  # at least one attempt failed; another is scheduled
    SUCCEEDED = "succeeded"
    FAILED = "failed"  # the schedule is spent, or the endpoint went away


OPEN_STATUSES = (DeliveryStatus.PENDING.value, DeliveryStatus.RETRYING.value)


class WebhookEndpoint(TenantScoped, db.Model):
    __tablename__ = "webhook_endpoints"
    __not_found_label__ = "Webhook endpoint"

    id: Mapped[str] = id_column("whk")
    url: Mapped[str] = mapped_column(String(2000), nullable=False)
    description: Mapped[str | None] = mapped_column(String(500))
    # Event types, or ["*"] for every type (new types included).
    event_types: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    disabled_reason: Mapped[str | None] = mapped_column(String(300))
    # The signing secrets, encrypted (services/webhooks/signing.py; docs/webhooks.md says why
    # they cannot be hashed). The previous one signs too until it expires (rotation).
    secret_encrypted: Mapped[str] = mapped_column(Text, nullable=False)
    previous_secret_encrypted: Mapped[str | None] = mapped_column(Text)
    previous_secret_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False
    )

    def subscribes_to(self, event_type: str) -> bool:
        return "*" in self.event_types or event_type in self.event_types

    def __repr__(self) -> str:
        return f"<WebhookEndpoint {self.id} {self.url!r}>"


class WebhookDelivery(TenantScoped, db.Model):
    """One event for one endpoint: the record of truth of whether it arrived."""

    __tablename__ = "webhook_deliveries"
    __not_found_label__ = "Delivery"
    __table_args__ = (
        UniqueConstraint("event_id", "endpoint_id"),
        # The reconciler's question: which open deliveries are due?
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_endpoint", "endpoint_id", "id"),
    )

    id: Mapped[str] = id_column("dlv")
    endpoint_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("webhook_endpoints.id", ondelete="CASCADE"), nullable=False
    )
    event_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("events.id", ondelete="CASCADE"), nullable=False, index=True
    )
    status: Mapped[str] = mapped_column(
        String(16), nullable=False, default=DeliveryStatus.PENDING.value
    )
    attempt_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Set by the conditional UPDATE that claims the delivery for one attempt; an attempt
    # never outlives it, so a claim left by a killed worker lapses on its own.
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    job_id: Mapped[str | None] = mapped_column(String(64))
    # A replay restarts the schedule: its slots count from `schedule_from` (else the event's
    # time), and only the attempts made after `schedule_base` use them up.
    schedule_from: Mapped[datetime | None] = mapped_column(UTCDateTime())
    schedule_base: Mapped[int] = mapped_column(
        Integer, nullable=False, default=0, server_default="0"
    )
    created_at: Mapped[datetime] = created_at_column()
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    event: Mapped[Event] = relationship(lazy="joined")
    endpoint: Mapped[WebhookEndpoint] = relationship()
    attempts: Mapped[list[WebhookAttempt]] = relationship(
        order_by="WebhookAttempt.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
        back_populates="delivery",
    )


class WebhookAttempt(db.Model):
    """One HTTP request of a delivery and what came of it."""

    __tablename__ = "webhook_attempts"
    __table_args__ = (UniqueConstraint("delivery_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    delivery_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), nullable=False
    )
    number: Mapped[int] = mapped_column(Integer, nullable=False)
    at: Mapped[datetime] = created_at_column()
    status_code: Mapped[int | None] = mapped_column(Integer)
    latency_ms: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    error: Mapped[str | None] = mapped_column(String(500))
    response_excerpt: Mapped[str | None] = mapped_column(Text)

    delivery: Mapped[WebhookDelivery] = relationship(back_populates="attempts")
