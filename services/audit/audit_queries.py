"""Reading a tenant's audit log for people: filters, keyset pages and a streamed CSV export."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, time, timedelta

from redis.exceptions import RedisError
from sqlalchemy import Select, func, or_, select

import clock
from extensions import db, redis_store
from models import AuditEntry, Tenant
from services.audit import audit_log

PAGE_SIZE = 50
CSV_COLUMNS = (
    "seq",
    "createdAt",
    "actorType",
    "actorId",
    "actorLabel",
    "action",
    "targetType",
    "targetId",
    "ip",
    "details",
    "hash",
)


@dataclass(frozen=True)
class AuditFilter:
    """What a reader asked for; every field optional, dates inclusive (UTC days)."""

    actor: str = ""
    action: str = ""
    key: str = ""
    target: str = ""
    date_from: date | None = None
    date_to: date | None = None

    @property
    def active(self) -> bool:
        return any(asdict(self).values())

    def as_params(self) -> dict[str, str]:
        """The query-string form (for links, the CSV export and cursor binding)."""
        out = {"actor": self.actor, "action": self.action, "key": self.key, "target": self.target}
        out["from"] = self.date_from.isoformat() if self.date_from else ""
        out["to"] = self.date_to.isoformat() if self.date_to else ""
        return {k: v for k, v in out.items() if v}


def parse_filter(args) -> tuple[AuditFilter, dict[str, str]]:
    """An AuditFilter from request args, plus an error message per bad field."""
    errors: dict[str, str] = {}
    dates: dict[str, date | None] = {}
    for name in ("from", "to"):
        raw = (args.get(name) or "").strip()
        try:
            dates[name] = date.fromisoformat(raw) if raw else None
        except ValueError:
            dates[name] = None
            errors[name] = f"{raw!r} is not a date (YYYY-MM-DD)."
    if dates["from"] and dates["to"] and dates["from"] > dates["to"]:
        errors["to"] = "The end date is before the start date."
    return (
        AuditFilter(
            actor=(args.get("actor") or "").strip()[:254],
            action=(args.get("action") or "").strip()[:60],
            key=(args.get("key") or "").strip()[:60],
            target=(args.get("target") or "").strip()[:80],
            date_from=dates["from"],
            date_to=dates["to"],
        ),
        errors,
    )


def _filtered(tenant_id: str, flt: AuditFilter) -> Select:
    stmt = AuditEntry.query_for_tenant(tenant_id)
    if flt.actor:
        pattern = f"%{flt.actor.lower()}%"
        stmt = stmt.where(
            or_(
                func.lower(AuditEntry.actor_label).like(pattern),
                AuditEntry.actor_id == flt.actor,
            )
        )
    if flt.action:
        stmt = stmt.where(AuditEntry.action == flt.action)
    if flt.key:
        stmt = stmt.where(AuditEntry.target_type == "api_key", AuditEntry.target_id == flt.key)
    if flt.target:
        # An id (`doc_…`, `usr_…`) names one target; a bare word names a kind (`document`).
        stmt = stmt.where(
            or_(AuditEntry.target_id == flt.target, AuditEntry.target_type == flt.target)
        )
    if flt.date_from:
        stmt = stmt.where(AuditEntry.created_at >= _day_start(flt.date_from))
    if flt.date_to:
        stmt = stmt.where(AuditEntry.created_at < _day_start(flt.date_to) + timedelta(days=1))
    return stmt


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def page(
    tenant_id: str, flt: AuditFilter, before_seq: int | None, limit: int = PAGE_SIZE
) -> tuple[list[AuditEntry], int | None]:
    """Newest first; returns the entries and the seq to continue before, or None at the end.

    Keyset on the chain position (unique per tenant), never OFFSET.
    """
    stmt = _filtered(tenant_id, flt)
    if before_seq is not None:
        stmt = stmt.where(AuditEntry.seq < before_seq)
    rows = list(db.session.scalars(stmt.order_by(AuditEntry.seq.desc()).limit(limit + 1)))
    more = len(rows) > limit
    rows = rows[:limit]
    return rows, (rows[-1].seq if more and rows else None)


def latest(tenant_id: str, limit: int = 8) -> list[AuditEntry]:
    return page(tenant_id, AuditFilter(), None, limit)[0]


def key_history(tenant_id: str, key_id: str, limit: int = 100) -> list[AuditEntry]:
    return page(tenant_id, AuditFilter(key=key_id), None, limit)[0]


def known_actions(tenant_id: str) -> list[str]:
    """The actions this tenant's log contains, for the filter's choices."""
    stmt = (
        select(AuditEntry.action)
        .where(AuditEntry.tenant_id == tenant_id)
        .distinct()
        .order_by(AuditEntry.action)
    )
    return list(db.session.scalars(stmt))


def csv_rows(tenant_id: str, flt: AuditFilter, batch: int = 500) -> Iterator[str]:
    """The filtered log as CSV text, one chunk per batch, oldest first; streams any size."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    yield _drain(buffer)
    after = 0
    while True:
        stmt = _filtered(tenant_id, flt).where(AuditEntry.seq > after)
        rows = list(db.session.scalars(stmt.order_by(AuditEntry.seq).limit(batch)))
        for entry in rows:
            writer.writerow(
                [
                    entry.seq,
                    clock.rfc3339(entry.created_at),
                    entry.actor_type,
                    entry.actor_id or "",
                    _csv_safe(entry.actor_label or ""),
                    entry.action,
                    entry.target_type or "",
                    entry.target_id or "",
                    entry.ip or "",
                    _csv_safe(json.dumps(entry.details, sort_keys=True)),
                    entry.hash,
                ]
            )
        if rows:
            yield _drain(buffer)
        if len(rows) < batch:
            return
        after = rows[-1].seq
        db.session.expunge_all()  # keep memory flat on long exports


def _drain(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text


def _csv_safe(value: str) -> str:
    """Defuse spreadsheet formulas (CSV injection): a leading = + - @ becomes text."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


CHAIN_CHECK_TTL = 60  # seconds a verification result is reused for the same chain length


def chain_status(tenant_id: str) -> audit_log.ChainReport:
    """Whether the tenant's hash chain verifies. A full walk costs about 0.5 s per 10,000
    entries, so the result is reused for a minute while the chain has not grown; a new entry
    or an expired result triggers a fresh walk."""
    head = db.session.execute(
        select(AuditEntry.seq, AuditEntry.hash)
        .where(AuditEntry.tenant_id == tenant_id)
        .order_by(AuditEntry.seq.desc())
        .limit(1)
    ).first()
    # Keyed by the chain's head and the tenant's counter and head seal, so a grown (or
    # recreated) chain is walked afresh, and so is one cut back to a head that was cached as
    # ok: the counter and the seal still remember the entries that are gone.
    counter, seal = db.session.execute(
        select(Tenant.audit_seq, Tenant.audit_head_seal).where(Tenant.id == tenant_id)
    ).first() or (None, None)
    head_id = f"{head.seq}-{head.hash}-{counter}-{seal}" if head else f"empty-{counter}-{seal}"
    cache_key = redis_store.key("audit-chain", tenant_id, head_id)
    try:
        cached = redis_store.client.get(cache_key)
    except RedisError:
        cached = None
    if cached is not None:
        return audit_log.ChainReport(**json.loads(cached))
    report = audit_log.verify_chain(tenant_id)
    with contextlib.suppress(RedisError):
        redis_store.client.set(cache_key, json.dumps(asdict(report)), ex=CHAIN_CHECK_TTL)
    return report
