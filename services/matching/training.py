"""Training a tenant's tag classifier from the tags people gave its documents: the active
documents with at least one tag, streamed from the database a batch at a time (keyset on
the id, so memory stays one batch whatever the tenant's size), fed to
services/matching/classifier.py for EPOCHS passes, the result stored as the tenant's one
TagClassifier row. A periodic job retrains a tenant when enough changed (`due`)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from datetime import timedelta

from sqlalchemy import exists, func, select

import clock
from extensions import db
from models.accounts import Tenant
from models.base import in_tenant
from models.documents import Document, DocumentStatus, DocumentTag
from models.matching import TagClassifier
from models.search import DocumentText
from services.core import lazy, queue
from services.matching import classifier, predictions

tqdm = lazy.module("tqdm")  # the progress bar of a training run (the CLI, the job)

BATCH = 1000
MIN_DOCUMENTS = 10  # tagged documents before a first model
MIN_TAG_DOCUMENTS = 3  # a tag is learned once this many documents have it
MAX_TAGS = 100  # the most used tags are learned, the rest not
# A model is retrained once this many documents changed since (created, edited, tagged):
# RETRAIN_MIN_CHANGES, or RETRAIN_SHARE of the documents it learned from if that is more.
RETRAIN_MIN_CHANGES = 20
RETRAIN_SHARE = 0.05
TRAIN_JOB = "jobs.matching.train"
TRAIN_TIMEOUT = 3 * 3600


def _waiting_key(tenant_id: str) -> str:
    return f"matching-train-{tenant_id}"


def enqueue(tenant_id: str) -> str | None:
    """Enqueue a training of the tenant's classifier unless one is waiting already (many
    asks, one training); the job's id, None when one was waiting."""
    return queue.enqueue_unless_waiting(
        _waiting_key(tenant_id), TRAIN_JOB, tenant_id,
        waiting_for=timedelta(hours=2), job_timeout=TRAIN_TIMEOUT,
    )  # fmt: skip


def started(tenant_id: str) -> None:
    """Called by the training job as it starts: a change after this asks for a new one."""
    queue.taken(_waiting_key(tenant_id))


def _training_set(tenant_id: str):
    # in_tenant: SQLite finds each document's tags by the primary key, not by walking the
    # tenant's index of tags for every document.
    tagged = exists().where(
        DocumentTag.document_id == Document.id, in_tenant(DocumentTag, tenant_id)
    )
    return (
        in_tenant(Document, tenant_id),
        Document.status == DocumentStatus.ACTIVE.value,
        tagged,
    )


def _tags(tenant_id: str) -> list[str]:
    """The tags to learn: the MAX_TAGS most used of active documents (MIN_TAG_DOCUMENTS+)."""
    count = func.count()
    rows = db.session.execute(
        select(DocumentTag.tag, count)
        .join(Document, Document.id == DocumentTag.document_id)
        .where(
            DocumentTag.tenant_id == tenant_id,
            Document.tenant_id == tenant_id,
            Document.status == DocumentStatus.ACTIVE.value,
        )
        .group_by(DocumentTag.tag)
        .having(count >= MIN_TAG_DOCUMENTS)
        .order_by(count.desc(), DocumentTag.tag)
        .limit(MAX_TAGS)
    )
    return [tag for tag, _ in rows]


def _batches(tenant_id: str) -> Iterator[tuple[list[str], list[list[str]]]]:
    """(texts, tags of each) of the training set, BATCH documents at a time."""
    after = ""
    while True:
        rows = db.session.execute(
            select(Document.id, Document.title, DocumentText.text)
            .outerjoin(DocumentText, DocumentText.document_id == Document.id)
            .where(*_training_set(tenant_id), Document.id > after)
            .order_by(Document.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        ids = [r.id for r in rows]
        tags: dict[str, list[str]] = {i: [] for i in ids}
        for document_id, tag in db.session.execute(
            select(DocumentTag.document_id, DocumentTag.tag).where(
                DocumentTag.document_id.in_(ids), in_tenant(DocumentTag, tenant_id)
            )
        ):
            tags[document_id].append(tag)
        yield (
            [classifier.text_of(r.title or "", r.text or "") for r in rows],
            [tags[i] for i in ids],
        )
        after = ids[-1]


def train(tenant_id: str, *, progress: bool = False) -> TagClassifier | None:
    """Fit the tenant's classifier and store it (replacing the one it had); None when there
    is too little to learn from (fewer than MIN_DOCUMENTS tagged documents, or no tag on
    MIN_TAG_DOCUMENTS of them). `progress` draws a bar on stderr."""
    started = time.monotonic()
    total, until = db.session.execute(
        select(func.count(), func.max(Document.updated_at)).where(*_training_set(tenant_id))
    ).one()
    tags = _tags(tenant_id)
    if total < MIN_DOCUMENTS or not tags:
        return None
    trainer = classifier.Trainer(tags)
    with tqdm.tqdm(
        total=total * classifier.EPOCHS, unit="doc", disable=not progress, file=sys.stderr,
        desc=f"training {tenant_id}", mininterval=1.0,
    ) as bar:  # fmt: skip
        for _ in range(classifier.EPOCHS):
            for texts, tag_lists in _batches(tenant_id):
                trainer.learn(texts, tag_lists)
                bar.update(len(texts))
    row = db.session.scalar(select(TagClassifier).where(TagClassifier.tenant_id == tenant_id))
    if row is None:
        row = TagClassifier(tenant_id=tenant_id)
        db.session.add(row)
    row.tags = tags
    row.model = trainer.dump()
    row.documents = total
    row.trained_until = until
    row.trained_at = clock.now()
    row.seconds = round(time.monotonic() - started, 3)
    db.session.flush()
    predictions.forget(tenant_id)
    return row


def due(tenant_id: str) -> bool:
    """Whether the tenant's classifier should be (re)trained: none yet and MIN_DOCUMENTS
    tagged documents, or enough documents changed since its training."""
    row = db.session.execute(
        select(TagClassifier.trained_until, TagClassifier.documents).where(
            TagClassifier.tenant_id == tenant_id
        )
    ).first()
    if row is None or row.trained_until is None:
        found = db.session.scalar(
            select(func.count()).select_from(
                select(Document.id).where(*_training_set(tenant_id)).limit(MIN_DOCUMENTS).subquery()
            )
        )
        return found >= MIN_DOCUMENTS
    needed = max(RETRAIN_MIN_CHANGES, int(row.documents * RETRAIN_SHARE))
    changed = db.session.scalar(
        select(func.count()).select_from(
            select(Document.id)
            .where(Document.tenant_id == tenant_id, Document.updated_at > row.trained_until)
            .limit(needed)
            .subquery()
        )
    )
    return changed >= needed


def tenants_due() -> list[str]:
    """Every tenant whose classifier is due (the periodic job's check)."""
    return [t for t in db.session.scalars(select(Tenant.id).order_by(Tenant.id)) if due(t)]
