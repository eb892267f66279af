"""Operator commands for documents' text and trash: `flask documents reindex|purge`."""

from __future__ import annotations

import sys

import click
from flask.cli import AppGroup
from tqdm import tqdm

from extensions import db
from jobs.extraction import extract_document
from models import Document
from services.core import transaction
from services.documents import purge
from services.search import indexing

documents_cli = AppGroup("documents", help="Re-extract document text and empty the trash.")


@documents_cli.command("reindex")
@click.option("--tenant", "tenant_id", default=None, help="Only this tenant's documents.")
@click.option("--all", "everything", is_flag=True, help="Every document, not only pending ones.")
@click.option("--inline", is_flag=True, help="Extract here, without Redis or a worker.")
def reindex(tenant_id: str | None, everything: bool, inline: bool) -> None:
    """Enqueue text extraction for every document whose text is pending (or every one).

    The periodic sweep for uploads whose job never reached Redis; `--all` rebuilds the index
    after a change of extractor or search configuration."""
    if everything:
        stmt = db.select(Document.id)
        if tenant_id:
            stmt = stmt.where(Document.tenant_id == tenant_id)
        ids = list(db.session.scalars(stmt.order_by(Document.id)))
    else:
        ids = [doc_id for _, doc_id, _ in indexing.pending_documents(tenant_id)]
    done = 0
    for doc_id in tqdm(ids, desc="reindex", unit="doc", file=sys.stderr, disable=None):
        document = db.session.get(Document, doc_id)
        if document is None:
            continue
        if inline:
            indexing.mark_pending(document)
            transaction.commit()
            extract_document(document.tenant_id, document.id, document.current_version)
        elif not indexing.schedule_extraction(document):
            click.echo("error: Redis is unreachable; start it or use --inline", err=True)
            sys.exit(1)
        db.session.expunge_all()  # keeps memory flat over a million documents
        done += 1
    click.echo(f"{'extracted' if inline else 'enqueued'} {done} documents")


@documents_cli.command("purge")
def purge_command() -> None:
    """Remove documents trashed longer ago than DMS_TRASH_RETENTION_DAYS, with their blobs."""
    report = purge.purge_trash()
    click.echo(
        f"purged {report.documents} documents; "
        f"{report.blobs_deleted} blobs deleted, {report.blobs_kept} kept (still in use)"
    )
