"""The internal tier (/internal/*), for operators and never for customers: health, metrics, and
rq-dashboard (the job queues' web dashboard) at /internal/queues/.

Reachable from loopback, or anywhere with the operator token; a customer credential is
refused even from loopback. The dashboard's buttons (requeue, delete, empty) are refused when
posted from another origin, since loopback callers need no credential a browser would withhold."""

from __future__ import annotations

import contextlib
import hmac
from urllib.parse import urlsplit

import rq_dashboard
from flask import Blueprint, Flask, Response, current_app, request
from redis.exceptions import RedisError
from rq_dashboard.web import setup_rq_connection
from sqlalchemy import text

import embedded_redis
from api.envelope import error_response, ok
from errors import DomainError
from extensions import db, redis_store
from observability import metrics_text
from services.limits import rate_limits
from services.search import search
from services.semantic import embedding
from tenancy import client_ip, is_loopback

bp = Blueprint("internal", __name__, url_prefix="/internal")


@bp.before_request
def operator_only() -> None:
    token = current_app.config["DMS_OPERATOR_TOKEN"]
    header = request.headers.get("Authorization", "")
    presented = header[7:] if header[:7].lower() == "bearer " else None
    if presented is not None:
        if token and hmac.compare_digest(presented.encode(), token.encode()):
            return
        # Any other bearer is a customer credential (or a wrong token): not here.
        raise DomainError(404, "NOT_FOUND", "No such resource.")
    if not is_loopback(client_ip()):
        raise DomainError(404, "NOT_FOUND", "No such resource.")


@bp.get("/health")
def health():
    checks = {
        "database": _check_database(),
        "redis": _check_redis(),
        "rateLimits": rate_limits.storage_health(),
        "semanticSearch": _check_semantic(),
    }
    body = {"status": "ok", "checks": checks, "searchPath": _search_path()}
    failing = [name for name, check in checks.items() if not check["ok"]]
    if not failing:
        return ok(body)
    body["status"] = "failing"
    # The envelope of an error, with the per-check detail an operator needs beside it.
    response = error_response(
        DomainError(503, "SERVICE_UNAVAILABLE", f"Unhealthy: {', '.join(failing)}.")
    )
    response.set_data(current_app.json.dumps({**response.get_json(), "data": body}))
    return response


def _search_path() -> str | None:
    """rum, gin or fts5 (services/search/search.py path()); None if the database is down."""
    try:
        search.forget_path()  # asked afresh: an operator may have added or dropped the index
        return search.path()
    except Exception:  # the database check above reports the failure
        db.session.rollback()
        return None


def _check_database() -> dict:
    try:
        db.session.execute(text("SELECT 1"))
        return {"ok": True}
    except Exception as exc:  # any failure means unhealthy; the reason goes to the operator
        db.session.rollback()
        return {"ok": False, "error": type(exc).__name__}


def _check_semantic() -> dict:
    """Never failing: without embeddings or a vector engine, search is keyword-only."""
    try:
        return embedding.status()
    except Exception as exc:
        db.session.rollback()
        return {"ok": True, "semanticSearch": False, "detail": type(exc).__name__}


def _check_redis() -> dict:
    try:
        redis_store.client.ping()
        return {"ok": True}
    except Exception as exc:
        return {"ok": False, "error": type(exc).__name__}


@bp.get("/metrics")
def metrics():
    return Response(metrics_text(), mimetype="text/plain; version=0.0.4")


URL_PREFIX = "/internal/queues"
# Dashboard endpoints that change the queues although GET reaches them.
_GET_ACTIONS = {"rq_dashboard.requeue_all"}
# Its pages use inline scripts and styles; operator-only, so they are allowed here alone.
_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"
)


def mount(app: Flask) -> None:
    """Mount the internal tier, then rq-dashboard under it."""
    app.register_blueprint(bp)
    url = app.config["REDIS_URL"]
    embedded = url.startswith(embedded_redis.SCHEME)
    if embedded:  # the quick start's private Redis: its socket
        url = embedded_redis.EmbeddedRedis.from_url(url).url()
    app.config.setdefault("RQ_DASHBOARD_REDIS_URL", url)
    setup_rq_connection(app)  # a client only; it connects at the first page
    app.register_blueprint(rq_dashboard.blueprint, url_prefix=URL_PREFIX)

    @app.before_request
    def guard_dashboard() -> None:
        if request.blueprint != rq_dashboard.blueprint.name:
            return
        operator_only()
        if embedded:  # our client starts the private Redis if nothing has yet
            with contextlib.suppress(RedisError):
                redis_store.client.ping()
        changes = (
            request.method not in ("GET", "HEAD", "OPTIONS") or request.endpoint in _GET_ACTIONS
        )
        if changes and not _same_origin():
            raise DomainError(403, "FORBIDDEN", "Queue actions must come from the dashboard.")

    @app.after_request
    def dashboard_policy(response):
        if request.blueprint == rq_dashboard.blueprint.name:
            response.headers["Content-Security-Policy"] = _POLICY
        return response


def _same_origin() -> bool:
    """True when the browser says the request comes from this site, or no browser sent it
    (no Origin and no Sec-Fetch-Site: curl with the operator token). Browsers old enough to
    send neither on a cross-site request predate 2020."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == request.host
