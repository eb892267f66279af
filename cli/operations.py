"""Operator commands for whole installations and whole tenants (docs/operations.md):
`flask backup create|restore`, `flask tenants export|import|delete`."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import click
from tqdm import tqdm

from cli.boundary import CommandError, CommandGroup, tenants_cli
from services.operations import backup, tenant_delete, tenant_export, tenant_import

backup_cli = CommandGroup("backup", help="Back up the whole installation and restore it.")


def bar(items: Iterable, label: str, total: int) -> Iterable:
    """A progress bar on stderr when it is a terminal (scripts get plain output)."""
    return tqdm(items, desc=label, total=total, file=sys.stderr, disable=None, unit="file")


@backup_cli.command("create")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def backup_create(directory: Path) -> None:
    """Write a consistent backup (database + referenced blobs + manifest) into DIRECTORY,
    which must be absent or empty. Keep DMS_AUDIT_KEYS and SECRET_KEY beside it, apart."""
    manifest = backup.create(directory, progress=bar)
    for name in manifest["missingBlobs"]:
        click.echo(f"warning: {name} was not in the blob store (purged or lost)", err=True)
    blobs = sum(1 for name in manifest["files"] if name.startswith("blobs/"))
    click.echo(f"backup written to {directory}: database, {blobs} blobs")


@backup_cli.command("restore")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Restore over an installation that has tenants.")
def backup_restore(directory: Path, force: bool) -> None:
    """Verify every checksum of the backup in DIRECTORY, then restore it into this
    installation (which must be empty unless --force). Run `flask db upgrade` after."""
    manifest = backup.restore(directory, force=force, progress=bar)
    blobs = sum(1 for name in manifest["files"] if name.startswith("blobs/"))
    click.echo(f"restored {manifest['database']['dialect']} database and {blobs} blobs")


@tenants_cli.command("delete")
@click.argument("slug")
@click.option("--yes", is_flag=True, help="Confirm: this deletes the tenant for good.")
def tenants_delete(slug: str, yes: bool) -> None:
    """Delete the tenant SLUG and everything it owns: every row, every blob, its Redis keys.
    Recorded in the operator log (operator_records), not in the tenant's audit log."""
    if not yes:
        raise CommandError(
            f"deleting {slug!r} removes all its data for good; "
            "export it first (`tenants export`), then run again with --yes"
        )
    report = tenant_delete.delete_tenant(slug, progress=bar)
    rows = sum(report.rows.values())
    click.echo(
        f"deleted tenant {slug}: {rows} rows, {report.blobs} blobs, "
        f"{report.redis_keys} Redis keys; operator record {report.record_id}"
    )


@tenants_cli.command("export")
@click.argument("slug")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--with-secrets",
    is_flag=True,
    help="Also carry API key hashes and password hashes (docs/tenant-archive.md).",
)
def tenants_export(slug: str, file: Path, with_secrets: bool) -> None:
    """Write tenant SLUG (documents with every version and blob, metadata, tags, entities,
    forms, workflows, audit log, ...) to FILE, a zip documented in docs/tenant-archive.md.
    Prints the archive's sha256 last: give it to `tenants import --sha256`."""
    if file.exists():
        raise CommandError(f"{file} exists; choose a new file name")
    manifest, sha256 = tenant_export.export_tenant(
        slug, file, with_secrets=with_secrets, progress=bar
    )
    rows = sum(t["rows"] for t in manifest["tables"].values())
    blobs = sum(1 for name in manifest["files"] if name.startswith("blobs/"))
    audit = manifest["audit"]["entries"]
    click.echo(f"exported {slug} to {file}: {rows} rows, {blobs} blobs, {audit} audit entries")
    click.echo(f"sha256 {sha256}")


@tenants_cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--slug", default=None, help="Import under this slug (default: the archive's).")
@click.option("--sha256", "expected", default=None, help="Refuse unless the file has this sha256.")
def tenants_import(file: Path, slug: str | None, expected: str | None) -> None:
    """Load a tenant archive written by `tenants export` into this installation, under its
    own slug or --slug. Refuses a slug that exists and an archive imported here before."""
    report = tenant_import.import_tenant(file, slug=slug, expected_sha256=expected, progress=bar)
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    rows = sum(report.rows.values())
    click.echo(
        f"imported {report.tenant_id}: {rows} rows, {report.blobs} blobs, "
        f"{report.audit_entries} archived audit entries"
    )


COMMANDS = (backup_cli,)
