"""Second factors beside passkeys: a person's TOTP authenticator (its secret encrypted), their
single-use recovery codes (keyed digests only), the short-lived tokens that carry a
password sign-in to its second step, and the tenant's switch that requires a second factor."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class TotpAuthenticator(TenantScoped, db.Model):
    """One per person: pending until a first code confirms it, then it signs them in."""

    __tablename__ = "mfa_totp"
    __not_found_label__ = "Authenticator"

    id: Mapped[str] = id_column("mft")
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False, unique=True
    )
    # Fernet under a key derived from SECRET_KEY (services/core/sealing.py).
    secret_encrypted: Mapped[str] = mapped_column(Text, nullable=False)
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The 30-second step of the newest code accepted: a code of that step or older is refused.
    last_used_step: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()


class RecoveryCode(TenantScoped, db.Model):
    __tablename__ = "mfa_recovery_codes"
    __not_found_label__ = "Recovery code"
    __table_args__ = (Index("ix_mfa_recovery_codes_user", "user_id", "used_at"),)

    id: Mapped[str] = id_column("mrc")
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )
    # HMAC-SHA256 (hex) of the code under a key derived from SECRET_KEY.
    code_digest: Mapped[str] = mapped_column(String(64), nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = created_at_column()


class MfaChallenge(TenantScoped, db.Model):
    """A password accepted, the second factor awaited: the `mfaToken` (its SHA-256 only)."""

    __tablename__ = "mfa_challenges"
    __not_found_label__ = "Sign-in challenge"

    id: Mapped[str] = id_column("mfc")
    user_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )
    token_digest: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), nullable=False)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    failures: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()


class MfaSettings(db.Model):
    """A tenant's second-factor policy; a tenant without a row does not require one."""

    __tablename__ = "mfa_settings"

    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    require_mfa: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    updated_by: Mapped[str | None] = mapped_column(String(60))
    updated_at: Mapped[datetime] = created_at_column()
