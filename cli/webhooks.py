"""Operator command for webhooks: `flask webhooks reconcile` (what the minutely job does)."""

from __future__ import annotations

import click

from cli.boundary import CommandGroup
from jobs.webhooks import deliver
from services.core import transaction
from services.webhooks import reconciler

webhooks_cli = CommandGroup("webhooks", help="Webhook deliveries.")


@webhooks_cli.command("reconcile")
@click.option("--inline", is_flag=True, help="Attempt the due deliveries here, without a worker.")
def reconcile_command(inline: bool) -> None:
    """Enqueue every due delivery whose job is missing (Redis flushed, a worker killed, a
    crash between commit and enqueue); prints how many."""
    if not inline:
        click.echo(f"{reconciler.reconcile()} enqueued")
        return
    due = [d.id for d in reconciler.lost_deliveries()]
    transaction.commit()  # each attempt below is a job's own unit of work
    outcomes = [deliver(delivery_id) for delivery_id in due]
    click.echo(f"{len(due)} attempted, {outcomes.count('succeeded')} succeeded")


COMMANDS = (webhooks_cli,)
