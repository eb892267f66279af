"""Operator commands for tenants and people: `flask tenants create|list|set-limits`,
`flask users create|set-password`, `flask support create`."""

from __future__ import annotations

import secrets
import sys

import click

from cli.boundary import CommandGroup, tenants_cli
from errors import DomainError
from models import Plan, Role
from services.accounts import tenants, users
from services.core.actors import Actor

users_cli = CommandGroup("users", help="Create tenant users.")
support_cli = CommandGroup("support", help="Create operator support staff.")


def _password_or_generated(password: str | None) -> tuple[str, bool]:
    if password:
        return password, False
    if sys.stdin.isatty():
        return click.prompt("Password", hide_input=True, confirmation_prompt=True), False
    return secrets.token_urlsafe(15), True


@tenants_cli.command("create")
@click.argument("slug")
@click.option("--plan", required=True, type=click.Choice([p.value for p in Plan]))
@click.option("--name", default=None)
@click.option("--domain", default=None, help="A verified custom domain for this tenant.")
def tenants_create(slug: str, plan: str, name: str | None, domain: str | None) -> None:
    tenant = tenants.create_tenant(slug, plan, Actor.cli(), name=name, domain=domain)
    click.echo(tenant.id)


@tenants_cli.command("list")
def tenants_list() -> None:
    for tenant in tenants.list_tenants():
        hourly, burst = tenant.limits
        click.echo(f"{tenant.id}\t{tenant.plan}\t{hourly}/h\tburst {burst}\t{tenant.name}")


@tenants_cli.command("set-limits")
@click.argument("slug")
@click.option("--hourly", type=int, default=None, help="Requests per sliding hour.")
@click.option("--burst", type=int, default=None, help="Most requests in any 60 seconds.")
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
def support_create(email: str, password: str | None) -> None:
    password, generated = _password_or_generated(password)
    staff = users.create_support(email, password=password)
    click.echo(staff.id)
    if generated:
        click.echo(f"password: {password}")


COMMANDS = (users_cli, support_cli)
