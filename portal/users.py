"""The Users page: admins add people, change their role and deactivate or reactivate them."""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, redirect, render_template, request, url_for

from errors import DomainError
from extensions import db
from models import Role, User
from portal.access import ADMIN, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.keys import field_errors
from services.accounts import users
from services.core.transaction import transactional

ROLE_HELP = {
    "admin": "Everything in this portal: keys, users, audit log.",
    "auditor": "Read-only: API keys and the audit log.",
    "member": "Uses the API through OAuth apps and approves workflows; no portal admin.",
}


def _people(tenant_id: str) -> list[User]:
    return list(
        db.session.scalars(
            User.query_for_tenant(tenant_id).order_by(User.is_active_user.desc(), User.email)
        )
    )


def _render(form: dict, errors: dict, status: int = 200):
    tenant = portal_tenant()
    return render_template(
        "portal/users/index.html",
        tenant=tenant,
        people=_people(tenant.id),
        roles=[r.value for r in Role],
        role_help=ROLE_HELP,
        form=form,
        errors=errors,
    ), status


@bp.get("/users")
@roles_required(*ADMIN)
def users_page():
    return _render({"email": "", "name": "", "role": "member"}, {})


@bp.post("/users")
@roles_required(*ADMIN)
@transactional
def create_user():
    form = {
        "email": request.form.get("email", "").strip(),
        "name": request.form.get("name", "").strip(),
        "role": request.form.get("role", ""),
    }
    password = request.form.get("password") or ""
    if not password:
        return _render(form, {"password": ["Set a first password; they can change it."]}, 422)
    try:
        user = users.create_user(
            portal_tenant(),
            form["email"],
            form["role"],
            portal_actor(),
            password=password,
            name=form["name"] or None,
        )
    except DomainError as error:
        db.session.rollback()
        return _render(form, field_errors(error), 422)
    flash(f"Added {user.email} as {user.role}.", "success")
    return redirect(url_for("portal.users_page"))


def _load(user_id: str) -> User:
    return User.get_for_tenant(user_id, portal_tenant().id)


def _done(user: User, message: str):
    if is_htmx():
        return render_template("portal/users/_row.html", person=user, roles=[r.value for r in Role])
    flash(message, "success")
    return redirect(url_for("portal.users_page"))


@bp.post("/users/<user_id>/role")
@roles_required(*ADMIN)
@transactional
def change_role(user_id: str):
    user = _load(user_id)
    role = request.form.get("role", "")

    def change() -> None:
        if role != user.role:
            users.change_role(user, role, portal_actor())

    return _change_person(user, change, lambda: f"{user.email} is now {user.role}.")


@bp.post("/users/<user_id>/active")
@roles_required(*ADMIN)
@transactional
def set_active(user_id: str):
    user = _load(user_id)
    active = request.form.get("active") == "1"

    def change() -> None:
        if active != user.is_active_user:
            users.set_active(user, active, portal_actor())

    state = "active again" if active else "deactivated"
    return _change_person(user, change, lambda: f"{user.email} is {state}.")


@bp.post("/users/<user_id>/sessions/revoke")
@roles_required(*ADMIN)
@transactional
def sign_out_everywhere(user_id: str):
    user = _load(user_id)
    ended = users.sign_out_everywhere(user, portal_actor())
    return _done(user, f"Ended {ended} open session{'s' if ended != 1 else ''} of {user.email}.")


def _change_person(user: User, change: Callable[[], None], message: Callable[[], str]):
    """Apply one admin change to someone's account; a refusal comes back as a flash."""
    try:
        change()
    except DomainError as error:
        db.session.rollback()
        flash(error.message, "error")
        return redirect(url_for("portal.users_page"))
    return _done(user, message())
