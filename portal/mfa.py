"""Second factors in the portal: the "Two-factor sign-in" page, where a person sets up TOTP
from a QR code (drawn here as inline SVG, no request leaves the page), sees the recovery codes
once and turns TOTP off; the code step of the sign-in after a right password; the admins'
`requireMfa` setting; and the gate that keeps a person whose tenant requires a second factor
on the set-up pages until they have one (TOTP or a passkey)."""

from __future__ import annotations

import segno
from flask import flash, redirect, render_template, request, session, url_for
from flask_login import current_user

import tenancy
from errors import DomainError
from extensions import db
from models import User
from portal.access import ADMIN, TENANT_ROLES, is_htmx, portal_actor, portal_tenant, roles_required
from portal.accounts import (
    MFA_PENDING,
    MFA_SETUP_REQUIRED,
    _app_origin,
    begin_session,
)
from portal.blueprint import bp
from portal.layout import NO_STORE, field_errors
from portal.security import allow_form_redirect_to
from services.core.transaction import transactional
from services.mfa import challenges, policy, totp

# What a person who must set up a second factor may still open.
SET_UP_ENDPOINTS = frozenset(
    {
        "portal.mfa_page",
        "portal.start_totp_page",
        "portal.confirm_totp_page",
        "portal.passkeys_page",
        "portal.passkey_registration_options",
        "portal.passkey_registration_verify",
        "portal.logout",
        "portal.login",
        "portal.login_mfa",
        "portal.notifications_bell",  # polled by every page: a redirect would reload the form
    }
)


@bp.before_request
def second_factor_first():
    """Hold a person marked at sign-in on the set-up pages until they have a second factor."""
    if not session.get(MFA_SETUP_REQUIRED) or request.endpoint in SET_UP_ENDPOINTS:
        return None
    if not current_user.is_authenticated or current_user.is_support:
        return None
    if not policy.must_set_up(_me()):
        session.pop(MFA_SETUP_REQUIRED, None)
        return None
    if is_htmx():
        return "", 403, {"HX-Redirect": url_for("portal.mfa_page")}
    flash("Your workspace requires a second factor: set one up to continue.", "info")
    return redirect(url_for("portal.mfa_page"))


def _me() -> User:
    return User.get_for_tenant(current_user.id, current_user.tenant_id)


def qr_svg(uri: str) -> str:
    """The otpauth URI as an inline SVG QR code (segno; markup only, no image request)."""
    return segno.make(uri, error="m").svg_inline(scale=5, border=4)


def _page(status: int = 200, **context):
    user = _me()
    return (
        render_template(
            "portal/mfa/index.html",
            status=policy.status(user),
            required=policy.require_mfa(user.tenant_id),
            must_set_up=policy.must_set_up(user),
            **context,
        ),
        status,
        NO_STORE,
    )


def _setup_context(user: User) -> dict:
    secret = totp.pending_secret(user)
    if secret is None:
        return {}
    uri = totp.otpauth_uri(user, secret)
    return {"secret": secret, "otpauth_uri": uri, "qr": qr_svg(uri)}


@bp.get("/mfa")
@roles_required(*TENANT_ROLES)
def mfa_page():
    return _page(**_setup_context(_me()))


@bp.post("/mfa/totp/start")
@roles_required(*TENANT_ROLES)
@transactional
def start_totp_page():
    try:
        totp.start(_me())
    except DomainError as error:
        flash(error.message, "error")
    return redirect(url_for("portal.mfa_page", _anchor="totp-setup"))


@bp.post("/mfa/totp/confirm")
@roles_required(*TENANT_ROLES)
@transactional
def confirm_totp_page():
    user = _me()
    try:
        codes = totp.confirm(user, request.form.get("code", ""), portal_actor())
    except DomainError as error:
        db.session.rollback()
        return _page(422, errors=field_errors(error), **_setup_context(_me()))
    session.pop(MFA_SETUP_REQUIRED, None)
    flash("Two-factor sign-in is on.", "success")
    return _page(recovery_codes=codes)


@bp.post("/mfa/totp/disable")
@roles_required(*TENANT_ROLES)
@transactional
def disable_totp_page():
    try:
        totp.disable(_me(), request.form.get("code", ""), portal_actor())
    except DomainError as error:
        db.session.rollback()
        return _page(422, disable_errors=field_errors(error))
    flash("Two-factor sign-in is off.", "success")
    return redirect(url_for("portal.mfa_page"))


@bp.post("/users/<user_id>/mfa/reset")
@roles_required(*ADMIN)
@transactional
def reset_person_mfa(user_id: str):
    """Turn someone's TOTP off without a code: a lost phone with lost recovery codes."""
    person = User.get_for_tenant(user_id, portal_tenant().id)
    if person.id == current_user.id:
        flash("Turn your own two-factor sign-in off on the Two-factor sign-in page.", "error")
    elif totp.reset(person, portal_actor()):
        flash(f"Two-factor sign-in of {person.email} is off: they sign in with the password "
              "and may set it up again.", "success")  # fmt: skip
    else:
        flash(f"{person.email} has no two-factor sign-in to reset.", "info")
    return redirect(url_for("portal.users_page"))


@bp.get("/mfa/settings")
@roles_required(*ADMIN)
def mfa_settings_page():
    return render_template(
        "portal/mfa/settings.html", required=policy.require_mfa(portal_tenant().id)
    )


@bp.post("/mfa/settings")
@roles_required(*ADMIN)
@transactional
def update_mfa_settings_page():
    required = request.form.get("require_mfa") == "on"
    policy.set_require_mfa(portal_tenant().id, required, portal_actor())
    flash(
        "A second factor is required: people without one set it up at their next sign-in."
        if required
        else "A second factor is no longer required.",
        "success",
    )
    return redirect(url_for("portal.mfa_settings_page"))


# --- the code step of the sign-in ------------------------------------------------------------


@bp.route("/login/mfa", methods=["GET", "POST"])
@transactional  # wrong codes are counted and audited: the commit stands whatever the outcome
def login_mfa():
    pending = session.get(MFA_PENDING)
    if not isinstance(pending, dict) or not pending.get("token"):
        flash("Sign in with your password first.", "info")
        return redirect(url_for("portal.login"))
    allow_form_redirect_to(_app_origin(pending.get("next") or ""))
    use_recovery = request.values.get("method") == "recovery"
    if request.method == "GET":
        return render_template("portal/mfa/login.html", use_recovery=use_recovery)
    outcome = challenges.redeem(
        pending.get("tenant") or "",
        pending["token"],
        None if use_recovery else request.form.get("code", ""),
        request.form.get("code", "") if use_recovery else None,
        tenancy.client_ip(),
        request.headers.get("User-Agent"),
    )
    if outcome.refusal is not None:
        if outcome.refusal.code == "INVALID_TOKEN":
            session.pop(MFA_PENDING, None)
            flash(outcome.refusal.message, "error")
            return redirect(url_for("portal.login"))
        return (
            render_template(
                "portal/mfa/login.html", use_recovery=use_recovery, error=outcome.refusal.message
            ),
            outcome.refusal.status,
            outcome.refusal.headers,
        )
    return begin_session(outcome.user, pending.get("next") or None, "Signed in.")
