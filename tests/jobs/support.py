"""Helpers shared by the job and search tests: store a document like an upload does (blob,
document row, version row, extraction scheduled) and run the RQ worker in burst mode."""

from __future__ import annotations

import io

from flask import Flask
from rq import SimpleWorker

import jobs
from extensions import db, redis_store
from models import Document, DocumentTag, DocumentVersion
from services.blobs import blob_store
from services.extraction import sniff_content_type


class InProcessWorker(jobs.AppWorker, SimpleWorker):
    """The app's worker without the fork, so a test sees its jobs' failures and coverage."""


def run_jobs(app: Flask) -> None:
    InProcessWorker.flask_app = app
    with app.app_context():
        worker = InProcessWorker(
            [jobs.queue(n) for n in jobs.QUEUE_NAMES], connection=redis_store.client
        )
        worker.work(burst=True, with_scheduler=False)


def stored_document(
    app: Flask,
    tenant_id: str,
    content: bytes,
    filename: str = "file.txt",
    *,
    title: str | None = None,
    tags: list[str] | None = None,
    meta: dict[str, str] | None = None,
    schedule: bool = True,
) -> str:
    from jobs.extraction import schedule_extraction

    with app.app_context():
        blob = blob_store().save(tenant_id, io.BytesIO(content), max_bytes=len(content) + 1)
        content_type = sniff_content_type(content, filename)
        document = Document(
            tenant_id=tenant_id,
            title=title or filename,
            filename=filename,
            content_type=content_type,
            size=blob.size,
            sha256=blob.sha256,
            meta=meta or {},
            current_version=1,
        )
        document.tags = [DocumentTag(tag=t, tenant_id=tenant_id) for t in tags or []]
        db.session.add(document)
        db.session.flush()
        db.session.add(
            DocumentVersion(
                tenant_id=tenant_id,
                document_id=document.id,
                number=1,
                filename=filename,
                content_type=content_type,
                size=blob.size,
                sha256=blob.sha256,
            )
        )
        db.session.commit()
        blob_store().release(tenant_id, blob, committed=True)  # as an upload's commit does
        if schedule:
            schedule_extraction(document)
        return document.id
