"""Operator command for thumbnails: `flask documents thumbnails` makes the missing ones (the
upgrade path for documents stored before thumbnails were made, and the catch-up after jobs
were lost)."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from cli.boundary import CommandError, documents_cli
from extensions import db
from jobs.thumbnails import make_thumbnail
from services.thumbnails import backfill, thumbnails


@documents_cli.command("thumbnails")
@click.option("--tenant", "tenant_id", default=None, help="Only this tenant's documents.")
@click.option("--inline", is_flag=True, help="Draw here, without Redis or a worker.")
def thumbnails_command(tenant_id: str | None, inline: bool) -> None:
    """Make the thumbnail of every document that has none for its current version: enqueue
    the jobs (or draw each here with --inline), with a progress bar."""
    total = backfill.count_missing(tenant_id)
    done, after = 0, ""
    with tqdm(total=total, desc="thumbnails", unit="doc", file=sys.stderr, disable=None) as bar:
        while batch := backfill.missing(tenant_id, after):
            db.session.rollback()  # each job is its own unit of work; hold no snapshot
            for doc_tenant, document_id, version in batch:
                if inline:
                    make_thumbnail(doc_tenant, document_id, version)
                elif not thumbnails.schedule(doc_tenant, document_id, version):
                    raise CommandError("Redis is unreachable; start it or use --inline")
                done += 1
                bar.update(1)
            after = batch[-1][1]
            db.session.expunge_all()  # keeps memory flat over a million documents
    click.echo(f"{'made' if inline else 'enqueued'} {done} thumbnails")


COMMANDS = ()
