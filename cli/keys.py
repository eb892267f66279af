"""Operator commands for API keys: `flask keys create|rotate|revoke|list|flush-cache`, and
`flask seed-demo`, the quick start's tenant, admin and key."""

from __future__ import annotations

import secrets

import click

import clock
from cli.boundary import CommandGroup, command
from models import SCOPES, ApiKey, Plan, Role
from services.accounts import tenants, users
from services.core.actors import Actor
from services.keys import api_keys, key_cache

keys_cli = CommandGroup("keys", help="Create, rotate, revoke and list API keys.")


@keys_cli.command("create")
@click.argument("slug")
@click.option("--name", required=True)
@click.option(
    "--scopes", required=True, help="Comma-separated, e.g. documents:read,documents:write"
)
@click.option("--allow-ip", "allow_ips", multiple=True, help="CIDR; repeat for several.")
@click.option("--quota", type=int, default=None, help="This key's own hourly quota.")
def keys_create(slug: str, name: str, scopes: str, allow_ips: tuple[str, ...], quota: int | None):
    tenant = tenants.require_tenant(slug)
    scope_list = [s.strip() for s in scopes.split(",") if s.strip()]
    key, secret = api_keys.create_key(
        tenant, name, scope_list, Actor.cli(), allowed_ips=list(allow_ips), hourly_quota=quota
    )
    click.echo(key.id)
    click.echo(secret)


@keys_cli.command("rotate")
@click.argument("slug")
@click.argument("key_id")
def keys_rotate(slug: str, key_id: str) -> None:
    tenant = tenants.require_tenant(slug)
    successor, secret = api_keys.rotate_key(ApiKey.get_for_tenant(key_id, tenant.id), Actor.cli())
    click.echo(successor.id)
    click.echo(secret)


@keys_cli.command("revoke")
@click.argument("slug")
@click.argument("key_id")
def keys_revoke(slug: str, key_id: str) -> None:
    tenant = tenants.require_tenant(slug)
    api_keys.revoke_key(ApiKey.get_for_tenant(key_id, tenant.id), Actor.cli())
    click.echo(f"revoked {key_id}")


@keys_cli.command("list")
@click.argument("slug")
def keys_list(slug: str) -> None:
    tenant = tenants.require_tenant(slug)
    for key in api_keys.list_keys(tenant.id):
        used = clock.rfc3339(key.last_used_at) or "never"
        flags = " rotation-due" if key.rotation_due else ""
        click.echo(
            f"{key.id}\t{key.status}{flags}\t{key.name}\t{','.join(key.scopes)}\tlast used {used}"
        )


@keys_cli.command("flush-cache")
def keys_flush_cache() -> None:
    """Make every process read every API key from the database again (after changing keys
    or tenants with SQL by hand; changes made through the app or this CLI need no flush)."""
    key_cache.flush()
    click.echo("key cache flushed: every process re-reads keys from the database")


DEMO_TENANT = "demo"
DEMO_ADMIN = "admin@demo.example.com"
DEMO_KEY_NAME = "quick start"


@command("seed-demo")
def seed_demo() -> None:
    """A demo tenant, admin and key for the quick start; re-running issues fresh secrets
    (a new password, and a new secret for the same quick-start key)."""
    actor = Actor.cli()
    tenant = tenants.get_tenant(DEMO_TENANT) or tenants.create_tenant(
        DEMO_TENANT, Plan.BUSINESS.value, actor, name="Demo Workspace"
    )
    password = secrets.token_urlsafe(12)
    admin = users.find_user(tenant.id, DEMO_ADMIN)
    if admin is None:
        users.create_user(tenant, DEMO_ADMIN, Role.ADMIN.value, actor, password=password)
    else:
        users.set_password(admin, password, actor)
    # One quick-start key, given a new secret on every run (the old one stops working):
    # a new key per `make run` would leave a revoked row behind each time.
    key = next(
        (k for k in api_keys.list_keys(tenant.id) if k.name == DEMO_KEY_NAME and k.is_active),
        None,
    )
    if key is None:
        key, secret = api_keys.create_key(tenant, DEMO_KEY_NAME, list(SCOPES), actor)
    else:
        secret = api_keys.reissue_secret(key, actor)
    click.echo(f"tenant:   {tenant.id}")
    click.echo(f"login:    {DEMO_ADMIN}")
    click.echo(f"password: {password}")
    click.echo(f"key id:   {key.id}")
    click.echo(f"api key:  {secret}")


COMMANDS = (keys_cli, seed_demo)
