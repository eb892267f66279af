"""Push to people's devices: the devices a user subscribed (an APNs or FCM token, or a browser's
Web Push subscription) and the delivery of each notification to each of them."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class Platform(enum.StrEnum):
    IOS = "ios"  # APNs
    ANDROID = "android"  # FCM
    WEB = "web"  # Web Push (VAPID)


class PushChannel(enum.StrEnum):
    APNS = "apns"
    FCM = "fcm"
    WEBPUSH = "webpush"


CHANNEL_OF = {
    Platform.IOS.value: PushChannel.APNS.value,
    Platform.ANDROID.value: PushChannel.FCM.value,
    Platform.WEB.value: PushChannel.WEBPUSH.value,
}


class PushStatus(enum.StrEnum):
    PENDING = "pending"  # no attempt yet
    RETRYING = "retrying"  # the provider was out; another attempt is booked
    DELIVERED = "delivered"  # the provider accepted it
    FAILED = "failed"  # refused, the token was invalid, or the attempts are spent
    UNCONFIGURED = "unconfigured"  # this service has no credentials for the channel


OPEN_PUSH_STATUSES = (PushStatus.PENDING.value, PushStatus.RETRYING.value)


class PushSubscription(TenantScoped, db.Model):
    __tablename__ = "push_subscriptions"
    __not_found_label__ = "Push subscription"
    __table_args__ = (
        # One row per device and tenant: the same token again is the same subscription, and a
        # device signed in by another person of the tenant moves to them (docs/push.md).
        UniqueConstraint("tenant_id", "token_hash"),
        Index("ix_push_subscriptions_user", "user_id", "id"),
    )

    id: Mapped[str] = id_column("psh")
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )
    platform: Mapped[str] = mapped_column(String(10), nullable=False)
    # What the provider needs: the APNs or FCM token, or the Web Push subscription as JSON.
    # Never answered whole; `token_hint` is what people see.
    token: Mapped[str] = mapped_column(Text, nullable=False)
    # SHA-256 of platform and the token's identity (a web subscription's endpoint).
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    token_hint: Mapped[str] = mapped_column(String(120), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    last_delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    @property
    def push_channel(self) -> str:
        return CHANNEL_OF[self.platform]

    def __repr__(self) -> str:
        return f"<PushSubscription {self.id} {self.platform}>"


class PushDelivery(TenantScoped, db.Model):
    """One notification to one device: the record of truth of whether it was pushed."""

    __tablename__ = "push_deliveries"
    __not_found_label__ = "Push delivery"
    __table_args__ = (
        UniqueConstraint("notification_id", "subscription_id"),
        # The reconciler's question: which open deliveries are due?
        Index("ix_push_deliveries_due", "status", "next_attempt_at"),
    )

    id: Mapped[str] = id_column("pdl")
    notification_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("notifications.id", ondelete="CASCADE"), nullable=False
    )
    # NULL once the device is unsubscribed or its token was refused; the row stays as history.
    subscription_id: Mapped[str | None] = mapped_column(
        String(40), ForeignKey("push_subscriptions.id", ondelete="SET NULL"), index=True
    )
    push_channel: Mapped[str] = mapped_column(String(10), nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, default=PushStatus.PENDING)
    attempt_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    at: Mapped[datetime] = created_at_column()  # the last change of status
    error: Mapped[str | None] = mapped_column(String(500))
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Set by the conditional UPDATE that claims the delivery for one attempt; it lapses on its
    # own when a worker dies mid-attempt.
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    job_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_at_column()

    subscription: Mapped[PushSubscription | None] = relationship()

    def __repr__(self) -> str:
        return f"<PushDelivery {self.id} {self.push_channel} {self.status}>"
