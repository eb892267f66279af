"""The one registry of deprecated API items (spec 9), what it implies on the wire
(Deprecation, Sunset and Link headers; 410 after the sunset), and the record of who still
uses each item, with the api.deprecation_notice event at most once per tenant, item and day."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from email.utils import format_datetime

from sqlalchemy import select

import clock
from errors import DomainError
from extensions import db
from models.base import new_id
from models.lifecycle import DeprecationNotice, DeprecationUsage
from services.core import events, upserts

GUIDE_PATH = "/docs/migrations/"


@dataclass(frozen=True)
class Deprecation:
    """A deprecated method + path (+ request variant), its dates and where to go instead."""

    id: str
    method: str  # an HTTP method, or "*" for every method
    path: str
    deprecated_at: date
    sunset: date
    replacement: str  # a path on this service, shown in the message and the Link
    summary: str
    content_type: str | None = None  # only requests sent with this media type
    subpaths: bool = False  # the path and everything below it

    @property
    def label(self) -> str:
        variant = f" ({self.content_type} body)" if self.content_type else ""
        method = "" if self.method == "*" else f"{self.method} "
        return f"{method}{self.path}{'/…' if self.subpaths else ''}{variant}"

    @property
    def guide(self) -> str:
        return GUIDE_PATH + self.id

    def matches(self, method: str, path: str, mimetype: str | None) -> bool:
        if self.method not in ("*", method):
            return False
        path = path.rstrip("/") or "/"
        if not (path == self.path or (self.subpaths and path.startswith(self.path + "/"))):
            return False
        return self.content_type is None or mimetype == self.content_type

    def sunset_at(self) -> datetime:
        return datetime.combine(self.sunset, time(0, 0), tzinfo=UTC)

    def is_sunset(self, now: datetime | None = None) -> bool:
        return (now or clock.now()) >= self.sunset_at()

    def days_left(self, now: datetime | None = None) -> int:
        return (self.sunset - (now or clock.now()).date()).days


REGISTRY: list[Deprecation] = [
    Deprecation(
        id="entities",
        method="*",
        path="/api/v1/entities",
        subpaths=True,
        deprecated_at=date(2026, 4, 3),
        sunset=date(2026, 10, 1),
        replacement="/api/v1/knowledge-graph/entities",
        summary="The flat entities API moved into the knowledge graph (v2.3).",
    ),
    Deprecation(
        id="login-form",
        method="POST",
        path="/api/v1/login",
        content_type="application/x-www-form-urlencoded",
        deprecated_at=date(2026, 1, 15),
        sunset=date(2027, 1, 1),
        replacement="/api/v1/login",
        summary="Sign in with a JSON body {email, password} instead of a form-encoded one (v2.0).",
    ),
]

# Spec 9, newest first: what the portal and the reference page show as the API changelog.
CHANGELOG: list[tuple[str, str, list[str]]] = [
    (
        "2026-05-01",
        "v2.4",
        [
            "Added POST /api/v1/copilot/conversations (Business and higher plans).",
            "Added currentApprovers on workflow instance responses.",
            "Search responses include aiSignalsUsed.",
            "Webhook retries changed from 6 attempts over 12 hours to 8 attempts over 48 hours.",
        ],
    ),
    (
        "2026-04-03",
        "v2.3",
        [
            "Added /api/v1/knowledge-graph/*.",
            "Deprecated /api/v1/entities (sunset 2026-10-01) in favour of "
            "/api/v1/knowledge-graph/entities.",
        ],
    ),
    (
        "2026-03-04",
        "v2.2",
        ["Added /api/v1/forms/*.", "File uploads accept the Idempotency-Key header."],
    ),
    (
        "2026-02-12",
        "v2.1",
        [
            "Added the Platform and DeviceToken parameters on the push subscription endpoint.",
            "The notification delivery payload includes pushChannel.",
        ],
    ),
    (
        "2026-01-15",
        "v2.0",
        [
            "Major version bump.",
            "Added /api/v1/auth/passkeys/*.",
            "Deprecated the form-encoded /api/v1/login variant (sunset 2027-01-01).",
            "Tenant resolution priority documented in the API reference.",
        ],
    ),
]


def find(item_id: str) -> Deprecation | None:
    return next((d for d in REGISTRY if d.id == item_id), None)


def match(method: str, path: str, mimetype: str | None) -> Deprecation | None:
    return next((d for d in REGISTRY if d.matches(method, path, mimetype)), None)


def headers(item: Deprecation, base_url: str) -> dict[str, str]:
    """RFC 9745 Deprecation, RFC 8594 Sunset, and the Link relations both define."""
    base = base_url.rstrip("/")
    deprecated = datetime.combine(item.deprecated_at, time(0, 0), tzinfo=UTC)
    return {
        "Deprecation": f"@{int(deprecated.timestamp())}",
        "Sunset": format_datetime(item.sunset_at(), usegmt=True),
        "Link": (
            f'<{base}{item.replacement}>; rel="successor-version", '
            f'<{base}{item.guide}>; rel="deprecation"; type="text/html"'
        ),
    }


def sunset_error(item: Deprecation) -> DomainError:
    return DomainError(
        410,
        "ENDPOINT_SUNSET",
        f"{item.label} was retired on {item.sunset.isoformat()}. "
        f"Use {item.replacement} instead; migration guide: {item.guide}",
    )


def record_use(
    tenant_id: str, item: Deprecation, credential_id: str, kind: str, label: str
) -> bool:
    """Count one use (atomic upsert) and emit the day's notice for this tenant and item if
    none was sent yet. Flushes in the caller's transaction; True when a notice was emitted."""
    now = clock.now()
    usage = DeprecationUsage.__table__
    db.session.execute(
        upserts.insert(usage)
        .values(
            id=new_id("dpu"),
            tenant_id=tenant_id,
            item=item.id,
            credential_id=credential_id,
            credential_kind=kind,
            credential_label=label[:320],
            first_used_at=now,
            last_used_at=now,
            count=1,
        )
        .on_conflict_do_update(
            index_elements=["tenant_id", "item", "credential_id"],
            set_={"count": usage.c.count + 1, "last_used_at": now, "credential_label": label},
        )
    )
    notice_id = new_id("dpn")
    claimed = db.session.execute(
        upserts.insert(DeprecationNotice.__table__)
        .values(id=notice_id, tenant_id=tenant_id, item=item.id, day=now.date(), created_at=now)
        .on_conflict_do_nothing(index_elements=["tenant_id", "item", "day"])
        .returning(DeprecationNotice.__table__.c.id)
    ).scalar()
    if claimed is None:  # today's notice for this tenant and item was already sent
        return False
    event = events.emit(
        tenant_id,
        "api.deprecation_notice",
        {
            "item": item.id,
            "endpoint": item.label,
            "credential": {"id": credential_id, "type": kind, "name": label},
            "deprecatedAt": item.deprecated_at.isoformat(),
            "sunset": item.sunset.isoformat(),
            "replacement": item.replacement,
            "migrationGuide": item.guide,
        },
    )
    db.session.execute(
        DeprecationNotice.__table__.update()
        .where(DeprecationNotice.__table__.c.id == notice_id)
        .values(event_id=event.id)
    )
    return True


@dataclass
class UsageRow:
    item: Deprecation
    credential_id: str
    credential_kind: str
    credential_label: str
    count: int
    first_used_at: datetime
    last_used_at: datetime


def usage_for_tenant(tenant_id: str) -> list[UsageRow]:
    """What this tenant has called that is deprecated, most recently used first."""
    rows = db.session.scalars(
        select(DeprecationUsage)
        .where(DeprecationUsage.tenant_id == tenant_id)
        .order_by(DeprecationUsage.last_used_at.desc())
    )
    out = []
    for row in rows:
        item = find(row.item)
        if item is None:  # an item dropped from the registry is no longer reported
            continue
        out.append(
            UsageRow(
                item,
                row.credential_id,
                row.credential_kind,
                row.credential_label,
                row.count,
                row.first_used_at,
                row.last_used_at,
            )
        )
    return out
