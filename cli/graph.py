"""Operator command for the knowledge graph: `flask graph rescan SLUG` finds every entity in
every text of a tenant again (after a bulk import of entities, or when Redis lost jobs)."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from cli.boundary import CommandError, CommandGroup
from extensions import db
from models import DocumentText, Tenant
from services.core import transaction
from services.graph import mentions

graph_cli = CommandGroup("graph", help="Keep the knowledge graph's mentions in step.")


@graph_cli.command("rescan")
@click.argument("slug")
def rescan(slug: str) -> None:
    """Rescan every document of tenant SLUG for its entities, a batch per transaction."""
    if db.session.get(Tenant, slug) is None:
        raise CommandError(f"no tenant {slug!r}")
    ids = list(
        db.session.scalars(
            db.select(DocumentText.document_id)
            .where(DocumentText.tenant_id == slug)
            .order_by(DocumentText.document_id)
        )
    )
    with tqdm(total=len(ids), desc="rescan", unit="doc", file=sys.stderr, disable=None) as bar:
        for start in range(0, len(ids), mentions.BATCH):
            batch = ids[start : start + mentions.BATCH]
            transaction.transactional(mentions.scan_documents)(slug, batch)
            db.session.expunge_all()
            bar.update(len(batch))
    click.echo(f"rescanned {len(ids)} documents")


COMMANDS = (graph_cli,)
