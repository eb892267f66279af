"""The append-only audit log, hash-chained per tenant for tamper evidence, and the entries a
tenant brought from another installation (`flask tenants import`): kept as they were sealed
there, apart from the live chain, whose `tenant.imported` entry names their count and head hash
(docs/tenant-archive.md, "The audit log")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class AuditEntry(TenantScoped, db.Model):
    __tablename__ = "audit_entries"
    __table_args__ = (UniqueConstraint("tenant_id", "seq"),)
    __not_found_label__ = "Audit entry"

    id: Mapped[str] = id_column("aud")
    # Position in the tenant's chain, 1-based and gapless.
    seq: Mapped[int] = mapped_column(Integer, nullable=False)
    actor_type: Mapped[str] = mapped_column(String(20), nullable=False)  # user|key|support|system
    actor_id: Mapped[str | None] = mapped_column(String(60), index=True)
    actor_label: Mapped[str | None] = mapped_column(String(254))
    action: Mapped[str] = mapped_column(String(60), nullable=False, index=True)
    target_type: Mapped[str | None] = mapped_column(String(40))
    target_id: Mapped[str | None] = mapped_column(String(60), index=True)
    ip: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(300))
    details: Mapped[dict] = mapped_column(JSON, nullable=False, default=dict)
    created_at: Mapped[datetime] = created_at_column()
    prev_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    hash: Mapped[str] = mapped_column(String(64), nullable=False)
    # The audit key that sealed this entry (HMAC); None for entries sealed before the chain
    # was keyed, with plain SHA-256 (services/audit/audit_log.py).
    key_id: Mapped[str | None] = mapped_column(String(40))


class ImportedAuditEntry(TenantScoped, db.Model):
    __tablename__ = "imported_audit_entries"
    __table_args__ = (UniqueConstraint("tenant_id", "import_id", "seq"),)
    __not_found_label__ = "Audit entry"

    id: Mapped[str] = id_column("aui")
    # The import that brought it: the `importId` of a `tenant.imported` entry.
    import_id: Mapped[str] = mapped_column(String(40), nullable=False, index=True)
    # The entry as sealed at the source: its id, tenant, position and every sealed field.
    entry_id: Mapped[str] = mapped_column(String(40), nullable=False)
    source_tenant_id: Mapped[str] = mapped_column(String(63), nullable=False)
    seq: Mapped[int] = mapped_column(Integer, nullable=False)
    actor_type: Mapped[str] = mapped_column(String(20), nullable=False)
    actor_id: Mapped[str | None] = mapped_column(String(60))
    actor_label: Mapped[str | None] = mapped_column(String(254))
    action: Mapped[str] = mapped_column(String(60), nullable=False)
    target_type: Mapped[str | None] = mapped_column(String(40))
    target_id: Mapped[str | None] = mapped_column(String(60))
    ip: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(300))
    details: Mapped[dict] = mapped_column(JSON, nullable=False, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    prev_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    hash: Mapped[str] = mapped_column(String(64), nullable=False)
    key_id: Mapped[str | None] = mapped_column(String(40))
