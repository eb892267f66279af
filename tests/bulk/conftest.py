"""Bulk fixtures: the tenant's documents (stored through the documents service, no extraction
queued, so that the queue holds only bulk jobs), asking for a bulk edit through the API, and
reading what the edits left behind (tags, events, audit entries)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from extensions import db
from models import AuditEntry, Document, Event


@pytest.fixture
def make_documents(store_document):
    def make(tenant, count: int, **fields) -> list[str]:
        return [
            store_document(tenant, f"doc {n}".encode(), f"d{n}.txt", schedule=False, **fields)
            for n in range(count)
        ]

    return make


@pytest.fixture
def bulk(client, headers):
    """POST /documents/bulk with `body` (and `headers`, else the tenant's all-scopes key)."""

    def post(body: dict, with_headers: dict | None = None, **extra: str):
        return client.post(
            "/api/v1/documents/bulk", json=body, headers={**(with_headers or headers), **extra}
        )

    return post


@pytest.fixture
def job_of(client, headers):
    def get(job_id: str, with_headers: dict | None = None):
        return client.get(f"/api/v1/jobs/{job_id}", headers=with_headers or headers)

    return get


@pytest.fixture
def recorded(app):
    """What a tenant's documents carry now: tags and status by id, event types by document,
    and bulk audit entries (action, target, actor) in order."""

    class Recorded:
        def documents(self, ids: list[str]) -> dict[str, tuple[list[str], str]]:
            with app.app_context():
                rows = db.session.scalars(select(Document).where(Document.id.in_(ids)))
                return {d.id: (d.tag_names, d.status) for d in rows}

        def events(self, tenant_id: str) -> list[tuple[str, str]]:
            with app.app_context():
                rows = db.session.scalars(
                    select(Event).where(Event.tenant_id == tenant_id).order_by(Event.id)
                )
                return [(e.type, (e.data.get("document") or {}).get("id")) for e in rows]

        def audit(self, tenant_id: str, action: str) -> list[tuple[str, str, str]]:
            with app.app_context():
                rows = db.session.scalars(
                    select(AuditEntry)
                    .where(AuditEntry.tenant_id == tenant_id, AuditEntry.action == action)
                    .order_by(AuditEntry.seq)
                )
                return [(e.target_id, e.actor_id, e.details.get("jobId")) for e in rows]

    return Recorded()
