"""Operator commands for documents' text, trash and blobs: `flask documents
reindex|passages|purge|merge-index`, `flask storage migrate`."""

from __future__ import annotations

import sys

import click
from flask.cli import AppGroup
from tqdm import tqdm

from extensions import db
from jobs.search import extract_document
from models import Document
from services.core import transaction
from services.documents import migration, purge
from services.search import common_words, index_merge, indexing, passages

documents_cli = AppGroup("documents", help="Re-extract document text and empty the trash.")
storage_cli = AppGroup("storage", help="Move the blobs between the local and the S3 store.")


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


@documents_cli.command("passages")
@click.option("--tenant", "tenant_id", default=None, help="Only this tenant's documents.")
def passages_command(tenant_id: str | None) -> None:
    """Split every stored text into passages again (after the upgrade that added them)."""
    total = db.session.scalar(db.select(db.func.count()).select_from(Document)) or 0
    done = 0
    with tqdm(total=total, desc="passages", unit="doc", file=sys.stderr, disable=None) as bar:
        for count in passages.rebuild(tenant_id):
            done += count
            bar.update(count)
    click.echo(f"split {done} documents into passages")


@documents_cli.command("purge")
def purge_command() -> None:
    """Remove documents trashed longer ago than DMS_TRASH_RETENTION_DAYS, with their blobs."""
    report = purge.purge_trash()
    click.echo(
        f"purged {report.documents} documents; "
        f"{report.blobs_deleted} blobs deleted, {report.blobs_kept} kept (still in use)"
    )


@documents_cli.command("merge-index")
def merge_index_command() -> None:
    """SQLite: merge the full-text index into one segment now (search's daily job does it);
    searches and uploads go on meanwhile. PostgreSQL: nothing to merge."""
    before = index_merge.segments()
    with tqdm(desc="merge-index", unit="step", file=sys.stderr, disable=None) as bar:
        steps = index_merge.merge(progress=lambda _done: bar.update(1))
    if steps:
        after = index_merge.segments()
        click.echo(f"merged the search index in {steps} steps ({before} segments → {after})")
    else:
        click.echo("nothing to merge")


@documents_cli.command("list-common-words")
def list_common_words_command() -> None:
    """SQLite: list each common word's best matches now (search's daily job does it after the
    merge), so searches for it rank those and the rows written since; searches and
    uploads go on meanwhile. PostgreSQL: nothing to list."""
    with tqdm(desc="list-common-words", unit="term", file=sys.stderr, disable=None) as bar:
        done = common_words.refresh(progress=lambda n: bar.update(n - bar.n))
    click.echo(f"listed {done.listed} common words; dropped {done.dropped} no longer common")


@storage_cli.command("migrate")
@click.option("--to", "to", required=True, type=click.Choice(migration.KINDS))
def storage_migrate(to: str) -> None:
    """Copy every blob the database names from the other store into the TO store, checking
    each sha256; re-run it to resume after an interruption (what arrived is checked and
    skipped). Both stores come from the settings (DMS_STORAGE_DIR, DMS_S3_*); switch
    DMS_STORAGE afterwards, then run it once more for uploads made meanwhile."""

    def bar(items, total):
        return tqdm(items, desc=f"to {to}", total=total, file=sys.stderr, disable=None, unit="blob")

    report = migration.migrate(to, progress=bar)
    for name in report.missing:
        click.echo(f"missing at the source: {name}", err=True)
    for name in report.corrupt:
        click.echo(f"not copied, its bytes do not match its sha256: {name}", err=True)
    click.echo(
        f"copied {report.copied} blobs ({report.bytes_copied} bytes), "
        f"{report.already_there} already there and verified, {len(report.missing)} missing, "
        f"{len(report.corrupt)} corrupt"
    )
    if not report.ok:
        sys.exit(1)
