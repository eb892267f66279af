"""Mentions: which entities each document's extracted text names, kept in step by jobs
(jobs/graph.py) when a text changes and when an entity's names change, and read back as an
entity's documents and a document's entities (docs/graph.md)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy import delete, func, select, update

from extensions import db
from models import Document, DocumentStatus, DocumentText, Entity, EntityMention, EntityName
from models.base import in_tenant
from services.core import queue, transaction
from services.core.paging import keyset_page
from services.graph.matcher import Matcher
from services.search import phrases

log = logging.getLogger(__name__)

SCAN_JOB = "jobs.graph.scan_documents"
NAMES_JOB = "jobs.graph.names_changed"
BATCH = 200  # documents per unit of work (and per job)


def tenant_matcher(tenant_id: str) -> Matcher:
    """The automaton of every name of the tenant, built afresh for each batch of documents:
    a batch is the unit of work, and building is cheap beside reading the texts, so no cache
    can go stale."""
    rows = db.session.execute(
        select(EntityName.entity_id, EntityName.key).where(EntityName.tenant_id == tenant_id)
    )
    return Matcher((r.entity_id, r.key) for r in rows)


def scan_documents(tenant_id: str, document_ids: Sequence[str]) -> int:
    """Find the tenant's entities in each document's text and replace its mentions; the
    mention counts of every entity gained or lost follow. How many documents were read."""
    matcher = tenant_matcher(tenant_id)
    touched: set[str] = set()
    texts = db.session.execute(
        select(DocumentText.document_id, DocumentText.text).where(
            DocumentText.tenant_id == tenant_id, DocumentText.document_id.in_(list(document_ids))
        )
    ).all()
    present = {doc_id for doc_id, _ in texts}
    gone = [i for i in document_ids if i not in present]  # no text (yet): no mentions
    for doc_id, text in [*texts, *((i, "") for i in gone)]:
        touched.update(_replace(tenant_id, doc_id, matcher.find(text or "")))
    recount(touched)
    return len(texts)


def _replace(tenant_id: str, document_id: str, found: dict) -> set[str]:
    before = set(
        db.session.scalars(
            select(EntityMention.entity_id).where(
                EntityMention.document_id == document_id, in_tenant(EntityMention, tenant_id)
            )
        )
    )
    db.session.execute(delete(EntityMention).where(EntityMention.document_id == document_id))
    if found and Document.find_for_tenant(document_id, tenant_id) is not None:
        db.session.add_all(
            EntityMention(
                tenant_id=tenant_id,
                entity_id=entity_id,
                document_id=document_id,
                count=hit.count,
                positions=hit.positions,
            )
            for entity_id, hit in found.items()
        )
    db.session.flush()
    return before | set(found)


def recount(entity_ids: Iterable[str]) -> None:
    ids = list(entity_ids)
    if not ids:
        return
    counted = (
        select(func.count())
        .where(EntityMention.entity_id == Entity.id)
        .correlate(Entity)
        .scalar_subquery()
    )
    db.session.execute(
        update(Entity)
        .where(Entity.id.in_(ids))
        .values(mention_count=counted)
        .execution_options(synchronize_session=False)
    )
    db.session.expire_all()


def candidates_for_names(tenant_id: str, entity_id: str, keys: Sequence[str]) -> list[str]:
    """The documents whose mentions a change of an entity's names can alter: those that
    mention it now (an old name may be gone, and with it an overlap that hid another entity)
    and those the text index finds a new name in. Never a full rescan."""
    mentioning = set(
        db.session.scalars(
            select(EntityMention.document_id).where(
                EntityMention.entity_id == entity_id, in_tenant(EntityMention, tenant_id)
            )
        )
    )
    return sorted(mentioning | phrases.documents_with_any(tenant_id, keys))


def schedule_names_changed(entity: Entity, keys: Sequence[str]) -> None:
    """After the commit, rescan the documents a change of `entity`'s names may affect."""
    tenant_id, entity_id, keys = entity.tenant_id, entity.id, list(keys)
    transaction.after_commit(lambda: _enqueue(NAMES_JOB, tenant_id, entity_id, keys))


def schedule_scan(tenant_id: str, document_ids: Sequence[str]) -> None:
    """After the commit, rescan these documents (a job per batch)."""
    ids = list(document_ids)
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        transaction.after_commit(lambda batch=batch: _enqueue(SCAN_JOB, tenant_id, batch))


def schedule_scan_of(tenant_id: str, document_id: str) -> None:
    """After the commit, rescan this document, in one job with the other documents of the
    same unit of work (and tenant)."""
    transaction.after_commit_collect(
        f"graph.scan.{tenant_id}", document_id, lambda ids: schedule_scan_now(tenant_id, ids)
    )


def schedule_scan_now(tenant_id: str, document_ids: Sequence[str]) -> None:
    """Enqueue the rescan of these committed documents (a job per BATCH)."""
    ids = list(document_ids)
    for start in range(0, len(ids), BATCH):
        _enqueue(SCAN_JOB, tenant_id, ids[start : start + BATCH])


def _enqueue(job: str, *args: Any) -> None:
    try:
        queue.enqueue(job, *args)
    except RedisError as exc:  # `flask graph rescan` repairs what a lost job left stale
        log.warning("could not enqueue a mention job", extra={"job": job, "error": str(exc)})


def mentioning_documents(entity: Entity) -> list[str]:
    return list(
        db.session.scalars(
            select(EntityMention.document_id).where(
                EntityMention.entity_id == entity.id, in_tenant(EntityMention, entity.tenant_id)
            )
        )
    )


def list_documents(
    entity: Entity, limit: int, after: Sequence[Any] | None
) -> tuple[list[tuple[EntityMention, Document]], bool]:
    """The documents (not in the trash) that mention `entity`, newest first."""
    stmt = (
        select(EntityMention)
        .join(Document, Document.id == EntityMention.document_id)
        .where(
            EntityMention.tenant_id == entity.tenant_id,
            EntityMention.entity_id == entity.id,
            Document.status != DocumentStatus.DELETED.value,
        )
    )
    rows, more = keyset_page(stmt, [(EntityMention.document_id, True)], limit, after)
    documents = Document.get_many_for_tenant([r.document_id for r in rows], entity.tenant_id)
    return [(r, documents[r.document_id]) for r in rows], more


def entities_of(tenant_id: str, document_ids: Sequence[str]) -> dict[str, list[dict]]:
    """{document id: [{id, type, name, count}]} for a page of documents, in one query."""
    if not document_ids:
        return {}
    rows = db.session.execute(
        select(EntityMention.document_id, Entity.id, Entity.type, Entity.name, EntityMention.count)
        .join(Entity, Entity.id == EntityMention.entity_id)
        .where(
            EntityMention.tenant_id == tenant_id,
            EntityMention.document_id.in_(list(document_ids)),
        )
        .order_by(EntityMention.document_id, EntityMention.count.desc(), Entity.name)
    )
    found: dict[str, list[dict]] = {}
    for doc_id, entity_id, type_, name, count in rows:
        found.setdefault(doc_id, []).append(
            {"id": entity_id, "type": type_, "name": name, "count": count}
        )
    return found
