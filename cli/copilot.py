"""Operator command for the copilot's quota: `flask tenants set-copilot-quota`."""

from __future__ import annotations

import click

from cli.boundary import tenants_cli
from services.accounts import tenants
from services.copilot import quota
from services.core.actors import Actor


@tenants_cli.command("set-copilot-quota")
@click.argument("slug")
@click.argument("messages", type=int, required=False)
def tenants_set_copilot_quota(slug: str, messages: int | None) -> None:
    """An Enterprise tenant's copilot questions per month; without MESSAGES, the plan's."""
    tenant = tenants.require_tenant(slug)
    quota.set_tenant_quota(tenant, Actor.cli(), messages)
    click.echo(f"{tenant.id}\t{quota.monthly_limit(tenant)} copilot questions a month")


COMMANDS = ()
