"""Operator commands (`flask --app app ...`), CONTRACT §8. Plain, scriptable output;
errors exit non-zero with one line on stderr. Each command calls the same services as the
API and the portal."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
from functools import wraps

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext

import clock
from errors import DomainError
from extensions import db
from models import SCOPES, ApiKey, Plan, Role
from services import api_keys, audit, key_cache, tenants, users
from services.actors import Actor


def _command(fn: Callable) -> Callable:
    """Commit on success; turn a DomainError into one line on stderr and exit status 1."""

    @wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            result = fn(*args, **kwargs)
            db.session.commit()
            return result
        except DomainError as error:
            db.session.rollback()
            details = "; ".join(e.message for e in error.errors)
            click.echo(f"error: {details}", err=True)
            sys.exit(1)

    return wrapper


def _password_or_generated(password: str | None) -> tuple[str, bool]:
    if password:
        return password, False
    if sys.stdin.isatty():
        return click.prompt("Password", hide_input=True, confirmation_prompt=True), False
    return secrets.token_urlsafe(15), True


tenants_cli = AppGroup("tenants", help="Create and inspect tenants.")
users_cli = AppGroup("users", help="Create tenant users.")
support_cli = AppGroup("support", help="Create operator support staff.")
keys_cli = AppGroup("keys", help="Create, rotate, revoke and list API keys.")
audit_cli = AppGroup("audit", help="Check the audit log.")


@tenants_cli.command("create")
@click.argument("slug")
@click.option("--plan", required=True, type=click.Choice([p.value for p in Plan]))
@click.option("--name", default=None)
@click.option("--domain", default=None, help="A verified custom domain for this tenant.")
@_command
def tenants_create(slug: str, plan: str, name: str | None, domain: str | None) -> None:
    tenant = tenants.create_tenant(slug, plan, Actor.cli(), name=name, domain=domain)
    click.echo(tenant.id)


@tenants_cli.command("list")
@_command
def tenants_list() -> None:
    for tenant in tenants.list_tenants():
        hourly, burst = tenant.limits
        click.echo(f"{tenant.id}\t{tenant.plan}\t{hourly}/h\tburst {burst}\t{tenant.name}")


@tenants_cli.command("set-limits")
@click.argument("slug")
@click.option("--hourly", type=int, default=None, help="Requests per sliding hour.")
@click.option("--burst", type=int, default=None, help="Most requests in any 60 seconds.")
@_command
def tenants_set_limits(slug: str, hourly: int | None, burst: int | None) -> None:
    tenant = tenants.require_tenant(slug)
    tenants.set_limits(tenant, Actor.cli(), hourly=hourly, burst=burst)
    click.echo(f"{tenant.id}\t{tenant.limits[0]}/h\tburst {tenant.limits[1]}")


@users_cli.command("create")
@click.argument("slug")
@click.argument("email")
@click.option("--role", required=True, type=click.Choice([r.value for r in Role]))
@click.option("--password", default=None)
@click.option("--name", default=None)
@_command
def users_create(slug: str, email: str, role: str, password: str | None, name: str | None):
    tenant = tenants.require_tenant(slug)
    password, generated = _password_or_generated(password)
    user = users.create_user(tenant, email, role, Actor.cli(), password=password, name=name)
    click.echo(user.id)
    if generated:
        click.echo(f"password: {password}")


@support_cli.command("create")
@click.argument("email")
@click.option("--password", default=None)
@_command
def support_create(email: str, password: str | None) -> None:
    password, generated = _password_or_generated(password)
    staff = users.create_support(email, password=password)
    click.echo(staff.id)
    if generated:
        click.echo(f"password: {password}")


@keys_cli.command("create")
@click.argument("slug")
@click.option("--name", required=True)
@click.option(
    "--scopes", required=True, help="Comma-separated, e.g. documents:read,documents:write"
)
@click.option("--allow-ip", "allow_ips", multiple=True, help="CIDR; repeat for several.")
@click.option("--quota", type=int, default=None, help="This key's own hourly quota.")
@_command
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
@_command
def keys_rotate(slug: str, key_id: str) -> None:
    tenant = tenants.require_tenant(slug)
    successor, secret = api_keys.rotate_key(ApiKey.get_for_tenant(key_id, tenant.id), Actor.cli())
    click.echo(successor.id)
    click.echo(secret)


@keys_cli.command("revoke")
@click.argument("slug")
@click.argument("key_id")
@_command
def keys_revoke(slug: str, key_id: str) -> None:
    tenant = tenants.require_tenant(slug)
    api_keys.revoke_key(ApiKey.get_for_tenant(key_id, tenant.id), Actor.cli())
    click.echo(f"revoked {key_id}")


@keys_cli.command("list")
@click.argument("slug")
@_command
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


@audit_cli.command("verify")
@click.argument("slug")
@_command
def audit_verify(slug: str) -> None:
    tenant = tenants.require_tenant(slug)
    report = audit.verify_chain(tenant.id)
    if report.ok:
        click.echo(f"ok: {report.checked} entries verified")
        return
    click.echo(f"BROKEN at entry #{report.broken_seq}: {report.reason}", err=True)
    sys.exit(2)


DEMO_TENANT = "demo"
DEMO_ADMIN = "admin@demo.example.com"
DEMO_KEY_NAME = "quick start"


@click.command("seed-demo")
@with_appcontext
@_command
def seed_demo() -> None:
    """A demo tenant, admin and key for the quick start; re-running issues fresh secrets."""
    actor = Actor.cli()
    tenant = tenants.get_tenant(DEMO_TENANT) or tenants.create_tenant(
        DEMO_TENANT, Plan.BUSINESS.value, actor, name="Demo Workspace"
    )
    password = secrets.token_urlsafe(12)
    admin = users.find_user(tenant.id, DEMO_ADMIN)
    if admin is None:
        users.create_user(tenant, DEMO_ADMIN, Role.ADMIN.value, actor, password=password)
    else:
        from services.passwords import hash_password

        admin.password_hash = hash_password(password)
    for key in api_keys.list_keys(tenant.id):
        if key.name == DEMO_KEY_NAME and key.is_active:
            api_keys.revoke_key(key, actor)
    key, secret = api_keys.create_key(tenant, DEMO_KEY_NAME, list(SCOPES), actor)
    click.echo(f"tenant:   {tenant.id}")
    click.echo(f"login:    {DEMO_ADMIN}")
    click.echo(f"password: {password}")
    click.echo(f"key id:   {key.id}")
    click.echo(f"api key:  {secret}")


@click.command("worker")
@with_appcontext
@click.option("--burst", is_flag=True, help="Stop when the queues are empty.")
def worker(burst: bool) -> None:
    """Run the job worker (RQ, with its scheduler) for the app's queues."""
    from jobs import run_worker

    run_worker(current_app._get_current_object(), burst=burst)  # type: ignore[attr-defined]


def register_commands(app: Flask) -> None:
    for group in (tenants_cli, users_cli, support_cli, keys_cli, audit_cli):
        app.cli.add_command(group)
    app.cli.add_command(seed_demo)
    app.cli.add_command(worker)
    from cli_documents import documents_cli

    app.cli.add_command(documents_cli)
