"""Operator commands for mail accounts: `flask mailaccounts list --tenant SLUG` shows each
account's last poll and error, `flask mailaccounts poll ID --tenant SLUG` polls one now,
here, without a worker (one batch, as the job does)."""

from __future__ import annotations

import click

import clock
from cli.boundary import CommandError, CommandGroup
from jobs.mailaccounts import poll_account
from services.accounts import tenants
from services.core import transaction
from services.mailaccounts import accounts

mailaccounts_cli = CommandGroup("mailaccounts", help="Mail accounts polled for documents.")


def _tenant_id(slug: str) -> str:
    tenant = tenants.get_tenant(slug)
    if tenant is None:
        raise CommandError(f"no tenant {slug!r}")
    return tenant.id


@mailaccounts_cli.command("list")
@click.option("--tenant", "slug", required=True, help="The tenant's slug.")
def list_command(slug: str) -> None:
    """One line per account: id, user at host, enabled, last poll, last error."""
    rows, _more = accounts.list_accounts(_tenant_id(slug), 1000, None)
    for account in rows:
        polled = clock.rfc3339(account.last_polled_at) if account.last_polled_at else "never"
        state = "enabled" if account.enabled else "disabled"
        error = f" {account.last_error_code}: {account.last_error}" if account.last_error else ""
        click.echo(f"{account.id} {account.username}@{account.imap_host} {state} {polled}{error}")


@mailaccounts_cli.command("poll")
@click.argument("account_id")
@click.option("--tenant", "slug", required=True, help="The tenant's slug.")
def poll_command(account_id: str, slug: str) -> None:
    """Poll one account now (one batch); prints what was taken, or the error."""
    tenant_id = _tenant_id(slug)
    accounts.get_account(tenant_id, account_id)  # 404 as one line for another tenant's id
    transaction.commit()  # each message below is the poll's own unit of work
    done = poll_account(tenant_id, account_id)
    if done is None:
        raise CommandError("the account is gone")
    if "error" in done:
        raise CommandError(f"poll failed: {done['error']} (see `flask mailaccounts list`)")
    more = " (more left for the next run)" if done["more"] else ""
    click.echo(f"{done['messages']} messages, {done['documents']} documents{more}")


COMMANDS = (mailaccounts_cli,)
