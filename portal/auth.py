"""Signing in and out of the portal (CONTRACT §8): tenant users and support staff, throttled
per account and per address, every outcome written to the tenant's audit log."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from flask import flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_required, login_user, logout_user

from api.auth import request_client_ip
from extensions import db
from portal import bp
from portal.access import portal_actor, tenant_from_host
from services import audit, login_throttle, tenants, users
from services.actors import Actor

log = logging.getLogger("dms.portal")


def _landing(principal) -> str:
    return url_for("portal.support_tenants" if principal.is_support else "portal.index")


def _safe_next(target: str | None) -> str | None:
    """Only same-site paths: an open redirect after login is a phishing aid."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    parts = urlsplit(target)
    return None if parts.scheme or parts.netloc or "\\" in target else target


@bp.route("/login", methods=["GET", "POST"])
def login():
    host_tenant = tenant_from_host()
    if current_user.is_authenticated and request.method == "GET":
        return redirect(_landing(current_user))
    form = {
        "workspace": host_tenant.id
        if host_tenant
        else (request.headers.get("X-Tenant-Id") or "").strip().lower(),
        "email": "",
        "next": request.args.get("next", ""),
    }
    if request.method == "GET":
        return render_template("portal/auth/login.html", form=form, host_tenant=host_tenant)

    form.update(
        workspace=host_tenant.id
        if host_tenant
        else (request.form.get("workspace") or "").strip().lower(),
        email=(request.form.get("email") or "").strip(),
        next=request.form.get("next", ""),
    )
    password = request.form.get("password") or ""
    ip = request_client_ip()
    error, status = _sign_in(form["workspace"], form["email"], password, ip)
    if error:
        return render_template(
            "portal/auth/login.html", form=form, host_tenant=host_tenant, error=error
        ), status
    flash("Signed in.", "success")
    return redirect(_safe_next(form["next"]) or _landing(current_user))


def _sign_in(workspace: str, email: str, password: str, ip: str) -> tuple[str | None, int]:
    """Authenticate and start the session; (error message, HTTP status) when refused."""
    user_agent = request.headers.get("User-Agent")
    if not email or not password:
        return "Enter your email address and password.", 400
    refusal = login_throttle.refusal(workspace or None, email, ip)
    tenant = tenants.get_tenant(workspace) if workspace else None
    if refusal is not None:
        if tenant is not None:
            _record_failure(tenant.id, email, ip, user_agent, f"throttled ({refusal.scope})")
            db.session.commit()
        return refusal.message, 429
    if workspace:
        principal = users.authenticate_user(tenant, email, password) if tenant else None
    else:
        principal = users.authenticate_support(email, password)
    if principal is None:
        login_throttle.record_failure(workspace or None, email, ip)
        if tenant is not None:
            _record_failure(tenant.id, email, ip, user_agent, "bad credentials")
            db.session.commit()
        else:
            log.info("portal sign-in failed", extra={"workspace": workspace or None, "ip": ip})
        # One message for every cause, so the form does not reveal which accounts exist.
        return "That workspace, email and password do not match an active account.", 401
    login_throttle.clear_account(workspace or None, email)
    session.clear()  # a fresh session at each sign-in defeats session fixation
    login_user(principal)
    if not principal.is_support:
        audit.record(
            principal.tenant_id,
            Actor("user", principal.id, principal.email, ip, user_agent),
            "user.login",
            target_type="user",
            target_id=principal.id,
        )
    else:
        log.info("support staff signed in", extra={"staff": principal.id, "ip": ip})
    db.session.commit()
    return None, 200


def _record_failure(tenant_id: str, email: str, ip: str, user_agent: str | None, reason: str):
    known = users.find_user(tenant_id, email)
    audit.record(
        tenant_id,
        Actor("user", known.id if known else None, email[:254], ip, user_agent),
        "user.login_failed",
        target_type="user",
        target_id=known.id if known else None,
        details={"email": email[:254], "reason": reason, "knownUser": known is not None},
    )


@bp.post("/logout")
@login_required
def logout():
    if not current_user.is_support:
        audit.record(
            current_user.tenant_id,
            portal_actor(),
            "user.logout",
            target_type="user",
            target_id=current_user.id,
        )
        db.session.commit()
    logout_user()
    session.clear()
    flash("Signed out.", "info")
    return redirect(url_for("portal.login"))
