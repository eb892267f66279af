"""Accounts in the portal: signing in and out (CONTRACT §8) for tenant users and support staff,
with the throttle and the audit of every outcome in services/accounts/sign_in.py; the
Users page, where admins add and invite people, change their role and deactivate or
reactivate them; and the public page of an invitation's link, which sets a password (the
passkey path is portal/passkeys.py's) and signs the person in."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from flask import flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_required, login_user, logout_user

import tenancy
from errors import DomainError
from extensions import db
from models import Role, Tenant, User
from portal.access import ADMIN, is_htmx, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.layout import NO_STORE, field_errors
from portal.security import SESSION_KEY, allow_form_redirect_to
from services.accounts import invitations, sessions, sign_in, users
from services.core import smtp
from services.core.actors import Actor
from services.core.transaction import transactional
from services.mfa import challenges, policy
from services.oauth import clients
from tenancy import client_ip


def _landing(principal) -> str:
    return url_for("portal.support_tenants" if principal.is_support else "portal.index")


def _app_origin(next_path: str) -> str | None:
    """When signing in continues an OAuth authorization whose consent is remembered, the
    form's redirects end at the app: the origin of its registered redirect URI, or None."""
    parts = urlsplit(next_path)
    if parts.path != url_for("portal.oauth_authorize"):
        return None
    query = parse_qs(parts.query)
    return clients.redirect_origin(
        query.get("client_id", [None])[0], query.get("redirect_uri", [None])[0]
    )


def _safe_next(target: str | None) -> str | None:
    """Only same-site paths: an open redirect after login is a phishing aid."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    parts = urlsplit(target)
    return None if parts.scheme or parts.netloc or "\\" in target else target


@bp.route("/login", methods=["GET", "POST"])
@transactional  # failures are audited too: the commit stands whatever the outcome
def login():
    host_tenant = tenancy.host_tenant()
    if current_user.is_authenticated and request.method == "GET":
        return redirect(_landing(current_user))
    form = {
        "workspace": host_tenant.id
        if host_tenant
        else (request.args.get("workspace") or request.headers.get("X-Tenant-Id") or "")
        .strip()
        .lower()[:63],
        "email": "",
        "next": request.args.get("next", ""),
    }
    allow_form_redirect_to(_app_origin(_safe_next(form["next"]) or ""))
    if request.method == "GET":
        return render_template("portal/accounts/login.html", form=form, host_tenant=host_tenant)

    form.update(
        workspace=host_tenant.id
        if host_tenant
        else (request.form.get("workspace") or "").strip().lower(),
        email=(request.form.get("email") or "").strip(),
        next=request.form.get("next", ""),
    )
    outcome = sign_in.sign_in(
        form["workspace"] or None,
        form["email"],
        request.form.get("password") or "",
        client_ip(),
        request.headers.get("User-Agent"),
        second_step=challenges.required,
    )
    if outcome.error:
        allow_form_redirect_to(_app_origin(_safe_next(form["next"]) or ""))
        return render_template(
            "portal/accounts/login.html", form=form, host_tenant=host_tenant, error=outcome.error
        ), outcome.status
    principal, next_path = outcome.principal, _safe_next(form["next"])
    if outcome.second_step:
        token = challenges.issue(principal)
        session.clear()
        session[MFA_PENDING] = {
            "token": token,
            "tenant": principal.tenant_id,
            "next": next_path or "",
        }
        return redirect(url_for("portal.login_mfa"))
    return begin_session(principal, next_path, "Signed in.")


MFA_PENDING = "mfa_pending"  # the password step's mfaToken, until the code is entered
MFA_SETUP_REQUIRED = "mfa_setup_required"  # the tenant requires a factor the person lacks


def begin_session(principal, next_path: str | None, message: str):
    """Start the portal session of a person fully signed in; a person whose tenant requires
    a second factor they do not have is marked, and sent to set one up (portal/mfa.py)."""
    portal_session = sessions.start(principal, client_ip(), request.headers.get("User-Agent"))
    session.clear()  # a fresh session at each sign-in defeats session fixation
    session[SESSION_KEY] = portal_session.id
    login_user(principal)
    flash(message, "success")
    if not principal.is_support and policy.must_set_up(principal):
        session[MFA_SETUP_REQUIRED] = True
        return redirect(url_for("portal.mfa_page"))
    return redirect(next_path or _landing(principal))


@bp.post("/logout")
@login_required
@transactional
def logout():
    sign_in.sign_out(current_user, session.get(SESSION_KEY), portal_actor())
    logout_user()
    session.clear()
    flash("Signed out.", "info")
    return redirect(url_for("portal.login"))


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


def _render(form: dict, errors: dict, status: int = 200, **extra):
    tenant = portal_tenant()
    return render_template(
        "portal/accounts/users.html",
        tenant=tenant,
        people=_people(tenant.id),
        invitations=_invitations(tenant.id),
        invitation_state=invitations.state_of,
        roles=[r.value for r in Role],
        role_help=ROLE_HELP,
        form=form,
        errors=errors,
        **extra,
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
        return render_template(
            "portal/accounts/_user_row.html", person=user, roles=[r.value for r in Role]
        )
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


# --- invitations: the admins' list on the Users page, and the public accept page -------------


def _invitations(tenant_id: str):
    rows, _ = invitations.list_invitations(tenant_id, 50, None)
    return rows


def _accept_link(token: str) -> str:
    return url_for("portal.accept_invitation", token=token, _external=True)


@bp.post("/users/invitations")
@roles_required(*ADMIN)
@transactional
def invite_person():
    form = {"invite_email": request.form.get("email", "").strip(),
            "invite_role": request.form.get("role", "member")}  # fmt: skip
    try:
        invitation, url = invitations.create_invitation(
            portal_tenant(), form["invite_email"], form["invite_role"], portal_actor(),
            _accept_link,
        )  # fmt: skip
    except DomainError as error:
        db.session.rollback()
        return _render({"email": "", "name": "", "role": "member", **form},
                       {f"invite_{k}": v for k, v in field_errors(error).items()}, 422)  # fmt: skip
    if smtp.configured():
        flash(f"Invited {invitation.email}: the link is on its way by e-mail.", "success")
        return redirect(url_for("portal.users_page"))
    # No SMTP: the link is shown this once, for the admin to pass on.
    page, _ = _render({"email": "", "name": "", "role": "member"}, {},
                      invited=invitation, accept_url=url)  # fmt: skip
    return page, 201, NO_STORE


@bp.post("/users/invitations/<invitation_id>/revoke")
@roles_required(*ADMIN)
@transactional
def revoke_invitation(invitation_id: str):
    invitation = invitations.get_invitation(portal_tenant().id, invitation_id)
    try:
        invitations.revoke(invitation, portal_actor())
    except DomainError as error:
        flash(error.message, "error")
    else:
        flash(f"Withdrew the invitation of {invitation.email}.", "success")
    return redirect(url_for("portal.users_page"))


def _gone(reason: str):
    return render_template("portal/accounts/invitation_gone.html", reason=reason), 410, NO_STORE


def open_invitation(token: str):
    """The pending invitation of the link, or the page that says why not (404, 410)."""
    host = tenancy.host_tenant()
    try:
        return invitations.open_invitation(token, host.id if host else None), None
    except invitations.Gone as gone:
        return None, _gone(gone.reason)
    except DomainError:
        return None, _gone("This invitation link is not valid. Check that you copied all of it.")


@bp.route("/invite/<token>", methods=["GET", "POST"])
@transactional
def accept_invitation(token: str):
    invitation, refusal = open_invitation(token)
    if refusal is not None:
        return refusal
    tenant = db.session.get(Tenant, invitation.tenant_id)
    context = {"invitation": invitation, "tenant": tenant, "token": token, "errors": {},
               "name": request.form.get("name", "").strip()}  # fmt: skip
    if request.method == "GET":
        return render_template("portal/accounts/accept.html", **context), 200, NO_STORE
    password = request.form.get("password") or ""
    if not password or password != (request.form.get("confirm") or ""):
        message = "The two passwords differ." if password else "Choose a password."
        context["errors"] = {"confirm" if password else "password": [message]}
        return render_template("portal/accounts/accept.html", **context), 422, NO_STORE
    try:
        user = invitations.accept(invitation, _visitor(), password=password,
                                  name=context["name"])  # fmt: skip
    except invitations.Gone as gone:
        db.session.rollback()
        return _gone(gone.reason)
    except DomainError as error:
        db.session.rollback()
        context["errors"] = field_errors(error)
        return render_template("portal/accounts/accept.html", **context), 422, NO_STORE
    return begin_session(user, None, f"Welcome to {tenant.name}.")


def _visitor() -> Actor:
    return Actor("public", None, "invitation link", client_ip(),
                 (request.headers.get("User-Agent") or "")[:300] or None)  # fmt: skip
