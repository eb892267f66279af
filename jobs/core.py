"""The jobs of what every capability shares (services/core/): sending an e-mail, and once a day
deleting the Idempotency-Key records past their lifetime."""

from __future__ import annotations

from datetime import time

from services.core import idempotency, smtp, transaction
from services.core.queue import Periodic

IDEMPOTENCY_EXPIRY = Periodic(
    "idempotency-expiry", "jobs.core.expire_idempotency_records", daily_at=time(3, 0), timeout=600
)
PERIODIC = [IDEMPOTENCY_EXPIRY]


def expire_idempotency_records() -> dict[str, int]:
    """RQ job, daily at 03:00 UTC: book tomorrow's run, then delete, in one unit of work."""
    IDEMPOTENCY_EXPIRY.book()
    return {"idempotencyRecords": transaction.transactional(idempotency.purge_expired)()}


def send_mail(to: str, subject: str, text: str) -> None:
    """RQ job: one e-mail through `DMS_SMTP_URL` (services/core/smtp.py)."""
    smtp.send(to, subject, text)
