"""Signing in and out of the portal (CONTRACT §8): tenant users and support staff. The
throttle and the audit of every outcome are services/accounts/sign_in.py's."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from flask import flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_required, login_user, logout_user

import tenancy
from portal.access import portal_actor
from portal.blueprint import bp
from portal.security import SESSION_KEY, allow_form_redirect_to
from services.accounts import sessions, sign_in
from services.core.transaction import transactional
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
        return render_template("portal/auth/login.html", form=form, host_tenant=host_tenant)

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
    )
    if outcome.error:
        allow_form_redirect_to(_app_origin(_safe_next(form["next"]) or ""))
        return render_template(
            "portal/auth/login.html", form=form, host_tenant=host_tenant, error=outcome.error
        ), outcome.status
    portal_session = sessions.start(
        outcome.principal, client_ip(), request.headers.get("User-Agent")
    )
    session.clear()  # a fresh session at each sign-in defeats session fixation
    session[SESSION_KEY] = portal_session.id
    login_user(outcome.principal)
    flash("Signed in.", "success")
    return redirect(_safe_next(form["next"]) or _landing(current_user))


@bp.post("/logout")
@login_required
@transactional
def logout():
    sign_in.sign_out(current_user, session.get(SESSION_KEY), portal_actor())
    logout_user()
    session.clear()
    flash("Signed out.", "info")
    return redirect(url_for("portal.login"))
