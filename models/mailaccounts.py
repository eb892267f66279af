"""Mail accounts (`mac_…`, CONTRACT §10): a tenant's IMAP mailboxes that are polled for
documents, and the messages already taken from each (docs/mailaccounts.md). The password is
kept encrypted (services/core/sealing.py); each message's record commits with the
documents made from it, which is what makes an import happen once."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column


class MailSecurity(enum.StrEnum):
    SSL = "ssl"
    STARTTLS = "starttls"
    NONE = "none"


class MailAccount(TenantScoped, db.Model):
    __tablename__ = "mail_accounts"
    __not_found_label__ = "Mail account"
    __table_args__ = (Index("ix_mail_accounts_due", "enabled", "next_poll_at"),)

    id: Mapped[str] = id_column("mac")
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    imap_host: Mapped[str] = mapped_column(String(255), nullable=False)
    imap_port: Mapped[int] = mapped_column(Integer, nullable=False)
    security: Mapped[str] = mapped_column(String(10), nullable=False)
    username: Mapped[str] = mapped_column(String(320), nullable=False)
    # Fernet under a key derived from SECRET_KEY, like webhook secrets; never answered.
    password_encrypted: Mapped[str] = mapped_column(Text, nullable=False)
    folder: Mapped[str] = mapped_column(String(255), nullable=False, default="INBOX")
    poll_minutes: Mapped[int] = mapped_column(Integer, nullable=False, default=10)
    enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    rules: Mapped[list[dict[str, Any]]] = mapped_column(JSON, nullable=False, default=list)
    # The folder's UIDVALIDITY and the highest UID looked at: a poll asks only for newer ones.
    uid_validity: Mapped[int | None] = mapped_column(BigInteger)
    last_uid: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
    last_polled_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    last_error: Mapped[str | None] = mapped_column(String(500))
    last_error_code: Mapped[str | None] = mapped_column(String(40))
    # Polls failed in a row: each next poll waits longer (services/mailaccounts/polling.py).
    failures: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    next_poll_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    created_by: Mapped[str | None] = mapped_column(String(60))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = created_at_column()

    def __repr__(self) -> str:
        return f"<MailAccount {self.id} {self.imap_host}>"


class MailMessage(TenantScoped, db.Model):
    """One message taken from an account: its Message-ID's digest (unique per account), the
    attachments' SHA-256 and the documents made of them, and the after-import action still to
    do on the server (cleared once done; a crash leaves it for the next poll)."""

    __tablename__ = "mail_messages"
    __table_args__ = (
        UniqueConstraint("account_id", "message_key", name="uq_mail_messages_account_key"),
        Index("ix_mail_messages_pending", "account_id", "pending_action"),
    )

    id: Mapped[str] = id_column("mms")
    account_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("mail_accounts.id", ondelete="CASCADE"), nullable=False
    )
    # SHA-256 of the Message-ID (of the raw message when it has none).
    message_key: Mapped[str] = mapped_column(String(64), nullable=False)
    message_id: Mapped[str] = mapped_column(String(500), nullable=False)
    uid: Mapped[int] = mapped_column(BigInteger, nullable=False)
    uid_validity: Mapped[int | None] = mapped_column(BigInteger)
    # imported (at least one document), skipped (no rule matched), refused (nothing usable).
    outcome: Mapped[str] = mapped_column(String(20), nullable=False)
    # [{"sha256", "filename", "documentId" | None, "reason" | None}]
    parts: Mapped[list[dict[str, Any]]] = mapped_column(JSON, nullable=False, default=list)
    pending_action: Mapped[str | None] = mapped_column(String(20))
    move_to: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = created_at_column()
