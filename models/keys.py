"""API keys: a public id, a hashed secret, scopes, an optional IP allowlist and their lifecycle."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

import clock
from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column

if TYPE_CHECKING:
    from models.accounts import Tenant

# CONTRACT §3: the scope catalogue, with what each lets a caller do (shown in the portal).
SCOPES: dict[str, str] = {
    "documents:read": "List, read and download documents; search",
    "documents:write": "Upload, change and delete documents",
    "workflows:read": "Read workflow definitions and instances",
    "workflows:write": "Create workflows and start instances",
    "analytics:read": "Read usage analytics",
    "forms:read": "Read eForms and submissions",
    "forms:write": "Create eForms and submit them",
    "knowledge-graph:read": "Read knowledge-graph entities and relationships",
    "knowledge-graph:write": "Change knowledge-graph entities and relationships",
    "copilot:use": "Talk to the copilot (Business plans and above)",
    "webhooks:read": "Read webhook endpoints and deliveries",
    "webhooks:write": "Manage webhook endpoints",
    "notifications:read": "Read notifications",
    "notifications:write": "Manage push subscriptions and notifications",
}

ROTATION_DUE_AFTER = timedelta(days=90)
# Last-used bookkeeping is coalesced: at most one write per key per this interval.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class ApiKey(TenantScoped, db.Model):
    __tablename__ = "api_keys"
    __not_found_label__ = "API key"
    __table_args__ = (
        # A name identifies a live key; revoked keys free their name.
        Index(
            "uq_api_keys_live_name",
            "tenant_id",
            "name",
            unique=True,
            sqlite_where=text("revoked_at IS NULL"),
            postgresql_where=text("revoked_at IS NULL"),
        ),
    )

    id: Mapped[str] = id_column("key")
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    # SHA-256 of the secret: the secret holds 256 random bits, so a fast hash is safe,
    # and it lets us find the key by an indexed equality lookup.
    secret_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    secret_hint: Mapped[str] = mapped_column(String(8), nullable=False)
    scopes: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    allowed_ips: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    hourly_quota: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = created_at_column()
    created_by: Mapped[str | None] = mapped_column(String(60))
    rotated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    predecessor_id: Mapped[str | None] = mapped_column(
        String(40), ForeignKey("api_keys.id", ondelete="SET NULL"), index=True
    )
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    revoked_by: Mapped[str | None] = mapped_column(String(60))
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    last_used_ip: Mapped[str | None] = mapped_column(String(45))

    predecessor: Mapped[ApiKey | None] = relationship(
        remote_side="ApiKey.id", foreign_keys=[predecessor_id], back_populates="successors"
    )
    successors: Mapped[list[ApiKey]] = relationship(back_populates="predecessor")
    # Loaded with the key when authenticating (services.keys.api_keys.find_by_digest).
    tenant: Mapped[Tenant] = relationship(viewonly=True)

    @property
    def status(self) -> str:
        return "revoked" if self.revoked_at is not None else "active"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def rotation_due(self) -> bool:
        """Spec 5.1.8 recommends rotating every 90 days; rotated keys are done with."""
        return (
            self.is_active
            and self.rotated_at is None
            and clock.now() - self.created_at >= ROTATION_DUE_AFTER
        )

    @property
    def successor(self) -> ApiKey | None:
        return self.successors[-1] if self.successors else None

    @property
    def display_secret(self) -> str:
        return f"dms_…{self.secret_hint}"

    def __repr__(self) -> str:
        return f"<ApiKey {self.id} {self.name!r} {self.status}>"
