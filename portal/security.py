"""Browser-facing safety for the whole app: security headers and a per-view overridable CSP,
session cookie flags, Flask-Login wiring (one loader for users and support staff), and the
friendly pages for CSRF refusals and sign-in redirects."""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    Flask,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError

from extensions import db, login_manager
from models import SupportStaff, User
from services.accounts import sessions
from services.core import transaction
from tenancy import wants_envelope

DEFAULT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)

STATIC_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


def content_security_policy(policy: str) -> Callable:
    """Give one view its own CSP (e.g. the API reference page needs inline styles).

    A view may also set `g.csp` at run time; a response that already carries the header
    keeps it.
    """

    def decorator(view: Callable) -> Callable:
        view.csp = policy  # type: ignore[attr-defined]
        return view

    return decorator


def allow_form_redirect_to(origin: str | None) -> None:
    """Let this page's forms end at `origin`: browsers apply `form-action` to every redirect
    after a form is sent, so the OAuth consent and sign-in pages, whose forms end with a
    redirect to the app, name that app's (registered) origin."""
    if origin:
        g.csp = f"{_policy_for_request()} {origin}"


def _policy_for_request() -> str:
    if "csp" in g:
        return g.csp
    view = current_app.view_functions.get(request.endpoint or "")
    return getattr(view, "csp", DEFAULT_CSP)


class _SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over HTTPS (or config says).
    A request without the cookie (every API call) gets an empty session without the signing
    serializer Flask would build first, a visible share of a short request."""

    def open_session(self, app: Flask, request):
        if not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app) or request.is_secure)


SESSION_KEY = "portal_session"  # the cookie's field naming its row (services/accounts/sessions)


def _load_principal(principal_id: str):
    """The signed-in person, only while the cookie's session is live on the server: signed
    out, revoked everywhere, password changed or deactivated ends it at the next request."""
    model = {"usr": User, "stf": SupportStaff}.get(principal_id.split("_", 1)[0])
    principal = db.session.get(model, principal_id) if model else None
    if principal is None or not principal.is_active:
        return None
    # The session's last-seen is its own small unit of work, before the view's.
    if not transaction.transactional(sessions.is_live)(session.get(SESSION_KEY), principal.id):
        return None
    return principal


def _unauthorized():
    if request.headers.get("HX-Request"):
        # htmx would swap the login page into a table row; send the browser there instead.
        return "", 401, {"HX-Redirect": url_for("portal.login")}
    flash("Please sign in to continue.", "info")
    return redirect(url_for("portal.login", next=request.full_path.rstrip("?")))


def init_app(app: Flask) -> None:
    app.session_interface = _SessionInterface()
    login_manager.session_protection = "strong"
    login_manager.user_loader(_load_principal)
    login_manager.unauthorized_handler(_unauthorized)

    @app.after_request
    def security_headers(response):
        for name, value in STATIC_HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers.setdefault("Content-Security-Policy", _policy_for_request())
        if request.is_secure:
            response.headers.setdefault(
                "Strict-Transport-Security", "max-age=31536000; includeSubDomains"
            )
        return response

    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError):
        if wants_envelope():
            return error  # the API is CSRF-exempt; keep Flask's own path for anything else
        return (
            render_template(
                "errors/error.html",
                status=400,
                title="This form has expired",
                message="The page was open too long or came from elsewhere. "
                "Go back, reload the page and submit it again.",
            ),
            400,
        )
