"""Operator commands for OAuth apps: `flask oauth-clients create|list`."""

from __future__ import annotations

import click

from cli.boundary import CommandGroup
from models import SCOPES
from services.accounts import tenants
from services.core.actors import Actor
from services.oauth import clients as oauth_clients

oauth_cli = CommandGroup("oauth-clients", help="Register the OAuth apps people sign in to.")


@oauth_cli.command("create")
@click.argument("slug")
@click.option("--name", required=True)
@click.option("--redirect-uri", "redirect_uris", multiple=True, required=True,
              help="An exact redirect URI; repeat for several.")  # fmt: skip
@click.option("--scopes", default=None, help="Comma-separated; default: every scope.")
@click.option("--confidential", is_flag=True, help="A server that keeps a client secret.")
def oauth_clients_create(
    slug: str, name: str, redirect_uris: tuple[str, ...], scopes: str | None, confidential: bool
) -> None:
    """Register an OAuth app. The last line is the client id, followed by the client secret
    (shown once) when the app is confidential."""
    tenant = tenants.require_tenant(slug)
    scope_list = [s.strip() for s in scopes.split(",") if s.strip()] if scopes else list(SCOPES)
    client, secret = oauth_clients.create_client(
        tenant, name, list(redirect_uris), scope_list, Actor.cli(), confidential=confidential
    )
    click.echo(f"{client.id} {secret}" if secret else client.id)


@oauth_cli.command("list")
@click.argument("slug")
def oauth_clients_list(slug: str) -> None:
    tenant = tenants.require_tenant(slug)
    for client in oauth_clients.list_clients(tenant.id):
        kind = "confidential" if client.confidential else "public"
        click.echo(f"{client.id}\t{kind}\t{client.name}\t{' '.join(client.redirect_uris)}")


COMMANDS = (oauth_cli,)
