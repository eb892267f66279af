"""Operator commands for the audit log: `flask audit verify|anchor` (docs/operations.md,
"Checking the audit log"). A chain that does not verify exits 2; any other failure exits 1."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import click

from cli.boundary import CommandGroup
from errors import DomainError
from services.accounts import tenants
from services.audit import anchors, audit_log, imported

audit_cli = CommandGroup("audit", help="Check the audit log and anchor its head.")


@audit_cli.command("verify")
@click.argument("slug")
@click.option(
    "--anchor",
    "anchor_pairs",
    multiple=True,
    metavar="SEQ:HASH",
    help="An entry that must still exist with this hash; repeat for several.",
)
@click.option(
    "--anchor-file",
    type=click.Path(dir_okay=False),
    help="Lines written by `audit anchor`; this tenant's lines are checked.",
)
def audit_verify(slug: str, anchor_pairs: tuple[str, ...], anchor_file: str | None) -> None:
    """Walk the tenant's audit chain: exit 0 when it verifies, 2 when it is broken."""
    tenant = tenants.require_tenant(slug)
    file_text = None
    if anchor_file:
        with _anchor_file_errors():
            file_text = Path(anchor_file).read_text()
    pinned = anchors.collect(tenant.id, anchor_pairs, file_text)
    report = audit_log.verify_chain(tenant.id, pinned)
    if not report.ok:
        _exit_broken(report)
    archived = imported.verify_imported(tenant.id)
    if not archived.ok:
        click.echo(f"BROKEN imported chain: {archived.reason}", err=True)
        sys.exit(2)
    matched = f", {len(pinned)} anchors matched" if pinned else ""
    brought = (
        f"; {archived.checked} imported entries linked to {archived.imports} imports"
        if archived.imports
        else ""
    )
    click.echo(f"ok: {report.checked} entries verified{matched}{brought}")


@audit_cli.command("anchor")
@click.argument("slug")
@click.option(
    "--output",
    type=click.Path(dir_okay=False),
    help="Append the line to this file instead of printing it.",
)
def audit_anchor(slug: str, output: str | None) -> None:
    """Print the chain's head as `SLUG SEQ HASH CREATED_AT`, to keep outside the database;
    a chain that does not verify is not anchored (exit 2)."""
    tenant = tenants.require_tenant(slug)
    # Head first, so the walk below covers it even if entries are written meanwhile.
    head = anchors.head(tenant.id)
    report = audit_log.verify_chain(tenant.id)
    if not report.ok:
        _exit_broken(report)
    if head is None:
        raise DomainError(409, "CONFLICT", f"Tenant {slug!r} has no audit entries to anchor.")
    if output:
        with _anchor_file_errors(), open(output, "a") as file:
            file.write(head.line() + "\n")
    else:
        click.echo(head.line())


def _exit_broken(report: audit_log.ChainReport) -> NoReturn:
    click.echo(f"BROKEN at entry #{report.broken_seq}: {report.reason}", err=True)
    sys.exit(2)


@contextmanager
def _anchor_file_errors() -> Iterator[None]:
    """An unreadable or unwritable anchor file names itself in its one line (exit 1)."""
    try:
        yield
    except OSError as error:
        raise DomainError(400, "INVALID_PARAMETER", f"anchor file: {error}") from error


COMMANDS = (audit_cli,)
