"""Operator commands for analytics: `flask analytics rebuild SLUG | roll-up`."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from cli.boundary import CommandGroup
from services.analytics import rebuild, requests

analytics_cli = CommandGroup("analytics", help="Recompute and roll up the analytics aggregates.")


@analytics_cli.command("rebuild")
@click.argument("tenant_id")
def rebuild_command(tenant_id: str) -> None:
    """Recount TENANT_ID's aggregates from its documents, versions, workflow instances and
    webhook deliveries (what no record holds any more is kept), in one transaction."""
    total = rebuild.records_to_read(tenant_id)
    with tqdm(total=total, desc="rebuild", unit="row", file=sys.stderr, disable=None) as bar:
        report = rebuild.rebuild(tenant_id, progress=bar.update)
    figures = report.as_dict()
    click.echo("rebuilt " + ", ".join(f"{n} {name}" for name, n in figures.items()))


@analytics_cli.command("roll-up")
def roll_up_command() -> None:
    """Copy the last 7 days of API request counts from Redis into the database (analytics'
    daily job does it too, jobs/analytics.py)."""
    click.echo(f"rolled up {requests.roll_up()} hourly counters")


COMMANDS = (analytics_cli,)
