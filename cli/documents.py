"""Operator commands for documents' trash and blobs: `flask documents purge`,
`flask storage migrate`."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from cli.boundary import CommandGroup, documents_cli
from services.documents import migration, purge

storage_cli = CommandGroup("storage", help="Move the blobs between the local and the S3 store.")


@documents_cli.command("purge")
def purge_command() -> None:
    """Remove documents trashed longer ago than DMS_TRASH_RETENTION_DAYS, with their blobs."""
    report = purge.purge_trash()
    click.echo(
        f"purged {report.documents} documents; "
        f"{report.blobs_deleted} blobs deleted, {report.blobs_kept} kept (still in use)"
    )


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


COMMANDS = (storage_cli,)
