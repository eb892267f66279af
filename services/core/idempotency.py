"""Owns Idempotency-Key bookkeeping (CONTRACT §6): claiming a key, completing it with the
response to replay, releasing it when the request failed, and expiring old records.

Claiming and releasing commit on their own, mid-request, on purpose: a claim must be visible
to concurrent requests at once, and a release must stand even though the request failed.
Completing only flushes; the request's boundary commits it with the request's changes.

The claim is a row insert in its own short transaction, guarded by the unique
(tenant_id, key) constraint: of N concurrent requests with one key exactly one inserts the
row and runs; the others find it and answer 409 (still running) or replay (finished)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

import clock
from errors import DomainError, invalid_parameter
from extensions import db
from models.idempotency import IdempotencyRecord, IdempotencyState

RETENTION = timedelta(hours=24)
# A request still "in progress" after this long is presumed dead (its process crashed), so
# its key becomes usable again. Long enough for a 1 GiB upload over a slow link.
IN_PROGRESS_TIMEOUT = timedelta(hours=1)
MAX_KEY_LENGTH = 255
_KEY_RE = re.compile(r"[\x21-\x7e]{1,255}")  # printable ASCII, no spaces
# Response headers worth replaying; request ids, rate limits and dates belong to each request.
REPLAYED_HEADERS = ("Content-Type", "Location")


@dataclass
class Claim:
    """The outcome of claiming a key: either we own it (`owned`), or a finished record exists."""

    record: IdempotencyRecord
    owned: bool


def validate_key(raw: str) -> str:
    key = raw.strip()
    if not _KEY_RE.fullmatch(key):
        raise invalid_parameter(
            f"Idempotency-Key must be 1-{MAX_KEY_LENGTH} printable ASCII characters.",
            "Idempotency-Key",
        )
    return key


def claim(tenant_id: str, key: str, method: str, path: str) -> Claim:
    """Take the key for this request, or return the finished record that already holds it.

    Commits (the claim must be visible to concurrent requests at once). Raises 409
    IDEMPOTENCY_KEY_IN_USE while another request with the key is still running."""
    db.session.commit()  # start from a clean transaction; the claim is its own
    now = clock.now()
    for _ in range(3):
        # Expired records (and in-progress ones whose holder died) free their key.
        db.session.execute(
            delete(IdempotencyRecord).where(
                IdempotencyRecord.tenant_id == tenant_id,
                IdempotencyRecord.key == key,
                IdempotencyRecord.expires_at <= now,
            )
        )
        record = IdempotencyRecord(
            tenant_id=tenant_id,
            key=key,
            method=method,
            path=path[:500],
            state=IdempotencyState.IN_PROGRESS.value,
            created_at=now,
            expires_at=now + IN_PROGRESS_TIMEOUT,
        )
        db.session.add(record)
        try:
            db.session.commit()  # the claim is visible to concurrent requests at once
            return Claim(record, owned=True)
        except IntegrityError:
            db.session.rollback()
        existing = db.session.scalar(
            select(IdempotencyRecord).where(
                IdempotencyRecord.tenant_id == tenant_id, IdempotencyRecord.key == key
            )
        )
        if existing is None:
            continue  # released or expired between our insert and this read: try again
        if existing.state != IdempotencyState.COMPLETED.value:
            raise DomainError(
                409,
                "IDEMPOTENCY_KEY_IN_USE",
                "A request with this Idempotency-Key is still being processed; retry shortly.",
                "Idempotency-Key",
                headers={"Retry-After": "1"},
            )
        return Claim(existing, owned=False)
    raise DomainError(
        409,
        "IDEMPOTENCY_KEY_IN_USE",
        "This Idempotency-Key is changing hands; retry shortly.",
        "Idempotency-Key",
        headers={"Retry-After": "1"},
    )


def check_same_request(record: IdempotencyRecord, fingerprint: str) -> None:
    """422 IDEMPOTENCY_KEY_REUSED unless this request is the one the record answered."""
    if record.fingerprint != fingerprint:
        raise DomainError(
            422,
            "IDEMPOTENCY_KEY_REUSED",
            "This Idempotency-Key was used for a different request in the last 24 hours.",
            "Idempotency-Key",
        )


def complete(
    record: IdempotencyRecord, fingerprint: str, status: int, headers: dict[str, str], body: str
) -> None:
    """Store the response to replay and keep the record for 24 hours from its creation."""
    record = db.session.merge(record)
    record.state = IdempotencyState.COMPLETED.value
    record.fingerprint = fingerprint
    record.response_status = status
    record.response_headers = {k: v for k, v in headers.items() if k in REPLAYED_HEADERS}
    record.response_body = body
    record.expires_at = record.created_at + RETENTION
    db.session.flush()  # the caller commits it with the request's own changes


def release(record: IdempotencyRecord) -> None:
    """The request failed: forget the claim so the client may retry with the same key."""
    db.session.rollback()
    db.session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.id == record.id))
    db.session.commit()  # the release stands though the request failed


def purge_expired() -> int:
    """Delete records past their expiry; returns how many went."""
    result = db.session.execute(
        delete(IdempotencyRecord).where(IdempotencyRecord.expires_at <= clock.now())
    )
    return result.rowcount or 0
