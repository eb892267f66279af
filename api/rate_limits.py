"""Rate limits on the wire: per-IP limits for callers without a credential, the sign-in
endpoints' tighter ones, and the X-RateLimit-* / RateLimit-* headers on every API response.

Callers with a credential are limited by `limit_caller`, which api/auth.py calls once the
tenant and credential are resolved."""

from __future__ import annotations

import time

from flask import Flask, current_app, g, request
from prometheus_client import Counter

from api.auth import request_client_ip
from errors import DomainError
from extensions import rate_limit_store
from services import rate_limits

# Responses on these paths carry the headers; portal pages and static files are not limited.
API_SURFACE = ("/api/", "/oauth/", "/.well-known/", "/internal/")
# Credential-issuing endpoints: limited per IP more tightly, whatever the outcome.
SIGN_IN_PATHS = ("/api/v1/login", "/api/v1/auth/", "/oauth/token", "/oauth/revoke")


def init_app(app: Flask) -> None:
    rate_limit_store.init_app(app)
    app.extensions["dms.rate_limits"]["metric"] = Counter(
        "dms_rate_limit_storage_failures",
        "Requests the rate limiter could not count because Redis was unreachable, by outcome "
        "(open: served unlimited, closed: refused with 503)",
        ["mode"],
        registry=app.extensions["dms.metrics"].registry,
    )
    app.before_request(limit_without_credential)
    app.after_request(rate_limit_headers)


def limit_without_credential() -> None:
    """Per-IP windows for requests no tenant will be charged for: sign-in endpoints, public
    API views and paths that match no route. Authenticated views are left to auth."""
    path = request.path
    if not path.startswith(API_SURFACE) or path.startswith("/internal/"):
        return
    if path.startswith(SIGN_IN_PATHS):
        rate_limits.enforce(rate_limits.ip_windows(request_client_ip(), sign_in=True))
        return
    view = current_app.view_functions.get(request.endpoint or "")
    if view is not None and _authenticates() and not getattr(view, "api_public", False):
        return
    rate_limits.enforce(rate_limits.ip_windows(request_client_ip()))


def _authenticates() -> bool:
    """Whether this request's blueprint runs the API's authentication (which then limits)."""
    from api.auth import authenticate_request

    hooks = current_app.before_request_funcs
    return any(authenticate_request in hooks.get(name, ()) for name in request.blueprints)


def limit_caller(tenant, credential) -> None:
    """Charge the resolved tenant and credential (raises the 429)."""
    if "rate_limit" in g:  # a sign-in path already charged the IP; one charge per request
        return
    rate_limits.enforce(rate_limits.caller_windows(tenant, credential))


def limit_refused_caller(error: DomainError) -> None:
    """A request whose credential or tenant was refused counts against its IP, so guessing
    keys is throttled; once the IP is over its budget the 429 replaces the refusal."""
    if "rate_limit" in g:
        return
    rate_limits.enforce(rate_limits.ip_windows(request_client_ip()))


def rate_limit_headers(response):
    if not request.path.startswith(API_SURFACE):
        return response
    verdict = g.get("rate_limit")
    if verdict is None:
        verdict = rate_limits.peek(rate_limits.ip_windows(request_client_ip()))
    headers = response.headers
    headers["X-RateLimit-Limit"] = str(verdict.hourly_quota)
    headers["X-RateLimit-Remaining"] = str(verdict.remaining)
    headers["X-RateLimit-Reset"] = str(verdict.reset_at)
    # draft-ietf-httpapi-ratelimit-headers: one item per policy, the tightest window of each.
    policies, now_left = [], []
    for policy in ("hour", "burst"):
        states = [s for s in verdict.states if s.window.policy == policy]
        if not states:
            continue
        tightest = min(states, key=lambda s: (s.remaining, -s.reset_at))
        quota = min(s.window.amount for s in states)
        policies.append(f'"{policy}";q={quota};w={tightest.window.seconds}')
        wait = max(0, int(tightest.reset_at - time.time()))
        now_left.append(f'"{policy}";r={max(0, tightest.remaining)};t={wait}')
    headers["RateLimit-Policy"] = ", ".join(policies)
    headers["RateLimit"] = ", ".join(now_left)
    return response
