"""Rate limits on the wire with Flask-Limiter (spec 8.1, CONTRACT §5): one `Limiter` per app,
whose limits are the windows services/limits/rate_limits.py chooses for the request at hand,
the 429 in our envelope, and our own X-RateLimit-* / RateLimit-* headers.

The request's caller is identified before the limiter runs (api/auth.identify_caller, an
app-level hook registered ahead of this one), so the windows can be the tenant's and the
credential's; requests without an identified caller are counted per client IP, the sign-in
endpoints per IP more tightly. The request is counted in its windows in order, and refused at
the first full one (_Limiter._check_request_limit: Flask-Limiter's storage and strategies,
without its per-request resolution of limits we do not use). Its own headers are off: the
spec wants the hourly quota on every response, 401s and 404s included, which its headers (the
smallest window, none on exempt routes) do not give."""

from __future__ import annotations

import time

from flask import Flask, current_app, g, has_request_context
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter._limits import RuntimeLimit  # what RateLimitExceeded names; public by use
from limits.strategies import MovingWindowRateLimiter, RateLimiter
from prometheus_client import Counter

import tenancy
from api.envelope import error_response
from extensions import redis_store
from services.limits import moving_window, rate_limits, windows


class _Limiter(Limiter):
    """Flask-Limiter, failing open or closed on our terms when Redis is unreachable, and on
    the moving window counting with a read-back (MovingWindowWithState) when it is chosen."""

    def init_app(self, app: Flask) -> None:
        super().init_app(app)
        strategy = super().limiter
        if isinstance(strategy, MovingWindowRateLimiter):
            strategy = moving_window.MovingWindowWithState(self.storage, request_windows)
        self._dms_strategy = strategy

    @property
    def limiter(self) -> RateLimiter:
        return self._dms_strategy

    def _check_request_limit(self, callable_name=None, in_middleware=True) -> None:
        """Count the request in each of its windows (request_windows()), in order, and refuse
        it at the first full one: what Flask-Limiter's own check does with the windows as one
        dynamic default limit, without resolving defaults, decorators, exemptions and meta
        limits on every request (none is used here): 9 % of a list request's CPU."""
        if tenancy.path_class().limits is None:
            return  # paths no window counts (portal, /internal/): skip the limiter's work
        try:
            for window in request_windows():
                if not self.limiter.hit(window.item, *window.identifiers):
                    raise RateLimitExceeded(RuntimeLimit(window.item, lambda: "", window.policy))
        except rate_limits.STORAGE_ERRORS as exc:
            g.rate_limit_degraded = True
            rate_limits.storage_down(request_windows(), exc)  # raises 503 when failing closed


def init_app(app: Flask) -> None:
    """Build this app's limiter on its Redis (call after api.auth.init_app)."""
    app.extensions["dms.rate_limits"] = {
        "metric": Counter(
            "dms_rate_limit_storage_failures",
            "Requests the rate limiter could not count because Redis was unreachable, by "
            "outcome (open: served unlimited, closed: refused with 503)",
            ["mode"],
            registry=app.extensions["dms.metrics"].registry,
        )
    }
    limiter = _Limiter(
        key_func=lambda: "-",  # every window brings its own key
        headers_enabled=False,
        strategy=app.config["DMS_RATE_LIMIT_STRATEGY"],
        storage_uri="redis://",
        storage_options={
            "connection_pool": redis_store.pool_for(app),
            "key_prefix": f"{app.config['REDIS_KEY_PREFIX']}:rl",
            "wrap_exceptions": True,
        },
        swallow_errors=False,
    )
    limiter.init_app(app)
    app.extensions["dms.limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, _too_many_requests)
    app.after_request(rate_limit_headers)


def request_windows() -> list[windows.Window]:
    """The windows this request is counted in, decided once from its path class and caller
    (none outside a request: the limiter's strategy also serves direct calls)."""
    if not has_request_context():
        return []
    if "rate_windows" not in g:
        kind = tenancy.path_class().limits
        if kind is None:
            g.rate_windows = []
        elif kind == "caller" and "credential" in g:
            g.rate_windows = windows.caller_windows(g.tenant, g.credential)
        else:
            g.rate_windows = windows.ip_windows(tenancy.client_ip(), kind == "sign-in")
    return g.rate_windows


def recount(charged: list[windows.Window] | None) -> None:
    """After api.auth identified the caller again (a change outdated what it remembered):
    count the request in its windows now if they are not those it was counted in (a plan,
    quota or key changed). A window in both is then counted twice for this one request."""
    if charged is None or request_windows() == charged:
        return
    for name in ("rate_window_batch", "rate_window_reads", "rate_limit_degraded"):
        g.pop(name, None)
    current_app.extensions["dms.limiter"]._check_request_limit()


def _verdict() -> windows.Verdict:
    """The state of the windows charged (or, for requests charged nothing, the client IP's)."""
    charged = request_windows()
    if g.get("rate_limit_degraded"):
        return rate_limits.unknown(charged)
    return rate_limits.peek(charged or windows.ip_windows(tenancy.client_ip()))


def _too_many_requests(_error: RateLimitExceeded):
    return error_response(rate_limits.rate_limit_exceeded(_verdict()))


def rate_limit_headers(response):
    if not tenancy.path_class().rate_headers:
        return response
    verdict = _verdict()
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


def limiter() -> Limiter:
    """This app's limiter (tests reach its storage through it)."""
    return current_app.extensions["dms.limiter"]
