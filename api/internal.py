"""The internal tier (/internal/*): health and metrics for operators, never for customers.

Reachable from loopback, or anywhere with the operator token; a customer credential is
refused even from loopback."""

from __future__ import annotations

import hmac

from flask import Blueprint, Response, current_app, request
from sqlalchemy import text

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
