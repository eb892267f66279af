"""rq-dashboard, the job queues' web dashboard, mounted on the internal tier at
/internal/queues/: behind the same operator guard as the rest of /internal/* (loopback, or the
operator token), and its buttons (requeue, delete, empty) refused when posted from another
origin, since loopback callers need no credential a browser would withhold."""

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit

import rq_dashboard
from flask import Flask, request
from redis.exceptions import RedisError
from rq_dashboard.web import setup_rq_connection

import embedded_redis
from api.internal import operator_only
from errors import DomainError
from extensions import redis_store

URL_PREFIX = "/internal/queues"
# Dashboard endpoints that change the queues although GET reaches them.
_GET_ACTIONS = {"rq_dashboard.requeue_all"}
# Its pages use inline scripts and styles; operator-only, so they are allowed here alone.
_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"
)


def init_app(app: Flask) -> None:
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
