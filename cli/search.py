"""Operator commands for the full-text index: `flask documents reindex|passages|merge-index|
list-common-words`."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from cli.boundary import CommandError, documents_cli
from extensions import db
from jobs.search import extract_document
from models import Document
from services.core import transaction
from services.search import common_words, extraction_runs, index_merge, indexing, passages


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
        ids = [doc_id for _, doc_id, _ in extraction_runs.pending_documents(tenant_id)]
    done = 0
    for doc_id in tqdm(ids, desc="reindex", unit="doc", file=sys.stderr, disable=None):
        document = db.session.get(Document, doc_id)
        if document is None:
            continue
        if inline:
            indexing.mark_pending(document)
            transaction.commit()  # the extraction below is a job's own unit of work
            extract_document(document.tenant_id, document.id, document.current_version)
        elif not extraction_runs.schedule_extraction(document):
            raise CommandError("Redis is unreachable; start it or use --inline")
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


COMMANDS = ()
