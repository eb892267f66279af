"""Operator command for semantic vectors: `flask documents embed` (docs/semantic.md)."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from cli.boundary import CommandError, documents_cli
from extensions import db
from jobs.semantic import embed_document
from models.semantic import EmbeddingStatus
from services.semantic import embedders, embedding


@documents_cli.command("embed")
@click.option("--tenant", "tenant_id", default=None, help="Only this tenant's documents.")
@click.option(
    "--all", "everything", is_flag=True, help="Every document, not only those not embedded."
)
@click.option("--inline", is_flag=True, help="Embed here, without Redis or a worker.")
def embed_command(tenant_id: str | None, everything: bool, inline: bool) -> None:
    """Compute semantic vectors for the documents that lack them with the configured model
    (never embedded, failed, or embedded by another model); `--all` re-embeds every one."""
    if not embedding.enabled():
        raise CommandError("embeddings are off (DMS_EMBEDDINGS=none)")
    try:
        targets = embedding.to_embed(tenant_id, everything=everything)
    except embedders.EmbeddingError as exc:
        raise CommandError(str(exc)) from exc
    failed = done = 0
    for tenant, document_id in tqdm(
        targets, desc="embed", unit="doc", file=sys.stderr, disable=None
    ):
        if inline:
            status = embed_document(tenant, document_id)
            failed += status == EmbeddingStatus.FAILED.value
        elif not embedding.schedule(tenant, document_id):
            raise CommandError("Redis is unreachable; start it or use --inline")
        db.session.expunge_all()
        done += 1
    if inline:
        click.echo(f"embedded {done - failed} documents, {failed} failed")
    else:
        click.echo(f"enqueued {done} documents")


COMMANDS = ()
