"""Operator commands for documents' trash, blobs and folders: `flask documents purge`,
`flask documents import`, `flask storage migrate`."""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path

import click
from tqdm import tqdm

from cli.boundary import CommandError, CommandGroup, documents_cli
from services.accounts import tenants
from services.documents import folder_import, folder_watch, migration, purge, sniffing

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


@documents_cli.command("import")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--tenant", "slug", default=None, help="The tenant the documents are for.")
@click.option(
    "--tenant-per-folder",
    is_flag=True,
    help="FOLDER holds one folder per tenant, named by its slug (FOLDER/<slug>/…).",
)
@click.option("--tags", default="", help="Tags for every imported document: a,b.")
@click.option("--recursive", is_flag=True, help="Import from subfolders too.")
@click.option("--watch", is_flag=True, help="Keep importing files as they arrive.")
@click.option(
    "--after",
    "after_text",
    default="keep",
    show_default=True,
    help="What happens to a file once stored: keep, move:DIR or delete.",
)
@click.option(
    "--settle",
    default=2.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="With --watch: seconds a file's size and time must stay the same before it is read.",
)
@click.option(
    "--rescan",
    default=300.0,
    show_default=True,
    type=click.FloatRange(min=1),
    help="With --watch: seconds between full re-scans (besides inotify's events).",
)
def import_command(
    folder: Path,
    slug: str | None,
    tenant_per_folder: bool,
    tags: str,
    recursive: bool,
    watch: bool,
    after_text: str,
    settle: float,
    rescan: float,
) -> None:
    """Import FOLDER's files as documents, each through the upload path; files whose bytes
    the tenant already stores are skipped, so a run can be stopped and run again. Exits 1
    when a file was refused (each is listed with its reason)."""
    if (slug is None) == (not tenant_per_folder):
        raise CommandError("give --tenant SLUG or --tenant-per-folder")
    root = folder.expanduser().resolve()
    if not watch and not root.is_dir():
        raise CommandError(f"{folder}: not a folder")
    if slug is not None:
        tenants.require_tenant(slug)
    tag_list = folder_import.parse_tags(tags)
    after = folder_import.After.parse(after_text, root)
    sniffing.keep_one_handle()  # this process sniffs every file, one at a time
    if watch:
        _watch(root, slug, tag_list, after, recursive, settle, rescan)
        return
    shown: dict = {}
    router = _router(root, slug, tag_list, after, recursive, shown)
    paths = router.scan()
    started = time.monotonic()
    with tqdm(total=len(paths), desc="import", unit="file", file=sys.stderr, disable=None) as bar:
        moved = [0]

        def progress(files: int, size: int, *_: str | None) -> None:
            moved[0] += size
            rate = moved[0] / max(time.monotonic() - started, 1e-6) / 1e6
            bar.set_postfix_str(f"{moved[0] / 1e6:.1f} MB, {rate:.1f} MB/s", refresh=False)
            bar.update(files)

        shown["progress"] = progress
        for path in paths:
            folder_run = router.route(path)
            if folder_run is not None:
                folder_run.add(path)
            else:
                bar.update(1)
        router.flush()
    _summary(router)


def _router(root, slug, tags, after, recursive, shown: dict) -> folder_watch.Router:
    """The imports by tenant; `shown["progress"]` (when set) hears of each file handled."""
    reported: set[str] = set()

    def progress(files: int, size: int) -> None:
        if "progress" in shown:
            shown["progress"](files, size)

    def make_import(name: str | None, folder: Path) -> folder_import.FolderImport | None:
        tenant_slug = slug if name is None else name
        if tenants.get_tenant(tenant_slug) is None:
            if tenant_slug not in reported:  # once, not for each of its files
                reported.add(tenant_slug)
                click.echo(f"skipping {folder}: no tenant {tenant_slug!r}", err=True)
            return None
        return folder_import.FolderImport(
            tenant_slug,
            folder,
            tags=tags,
            after=after if name is None else after.for_tenant(name),
            progress=progress,
            on_file=shown.get("on_file"),
        )

    return folder_watch.Router(root, make_import, recursive=recursive, per_tenant=slug is None)


def _summary(router: folder_watch.Router, *, fail_on_refusal: bool = True) -> None:
    imported = skipped = 0
    refused = []
    for name, folder_run in router.imports.items():
        if folder_run is None:
            continue
        report = folder_run.report
        imported += report.imported
        skipped += report.skipped
        prefix = f"{name}/" if name else ""
        refused += [(prefix + r.path, r.reason) for r in report.refused]
    for path, reason in refused:
        click.echo(f"refused {path}: {reason}", err=True)
    click.echo(f"imported {imported}, skipped {skipped} (already stored), refused {len(refused)}")
    if refused and fail_on_refusal:
        sys.exit(1)


def _watch(root, slug, tags, after, recursive, settle, rescan) -> None:
    """Watch until SIGTERM or SIGINT; each file is logged as it is handled."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())

    def on_file(outcome: str, relative: str, reason: str | None) -> None:
        click.echo(f"{outcome} {relative}" + (f": {reason}" if reason else ""), err=True)

    router = _router(root, slug, tags, after, recursive, {"on_file": on_file})
    watcher = folder_watch.Watcher(router, settle=settle, rescan_every=rescan, stop=stop)
    click.echo(f"watching {root}", err=True)
    watcher.run()
    _summary(router, fail_on_refusal=False)


COMMANDS = (storage_cli,)
