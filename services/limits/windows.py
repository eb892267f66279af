"""Which rate windows a request is counted in (spec 8.1, CONTRACT §5), as data: a `Window` is
one budget of requests in any N seconds for one tenant, credential or client address; the
state of each window, and the verdict the headers and the 429 are made of."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import cached_property

from flask import current_app
from limits import RateLimitItemPerSecond


class _Window(RateLimitItemPerSecond):
    """A window keyed by who it counts, not by its size: a plan change keeps the history."""

    def key_for(self, *identifiers: bytes | str | int | float) -> str:
        return "/".join(str(i) for i in identifiers)


@dataclass(frozen=True)
class Window:
    """One budget: `amount` requests in any `seconds`, counted for `scope`:`ident`."""

    policy: str  # "hour" | "burst"
    scope: str  # "credential" | "tenant" | "ip" | "sign-in"
    ident: str
    amount: int
    seconds: int

    @cached_property
    def item(self) -> _Window:
        return _Window(max(self.amount, 1), self.seconds)

    @property
    def identifiers(self) -> tuple[str, str, str]:
        return (self.scope, self.ident, self.policy)


@dataclass
class WindowState:
    window: Window
    remaining: int
    reset_at: float  # when the remainder next grows


@dataclass
class Verdict:
    """What the limiter decided for this request, and what the headers say about it."""

    hourly_quota: int
    states: list[WindowState]
    breached: Window | None = None
    degraded: bool = False  # Redis was unreachable; nothing was counted

    @property
    def remaining(self) -> int:
        return max(0, min(s.remaining for s in self.states))

    @property
    def reset_at(self) -> int:
        return math.ceil(self._binding_reset())

    def _binding_reset(self) -> float:
        # With two windows at the same (smallest) remainder, it grows once both have.
        low = min(s.remaining for s in self.states)
        return max(s.reset_at for s in self.states if s.remaining == low)

    def retry_after(self) -> int:
        return max(1, math.ceil(self._binding_reset() - time.time()))


def caller_windows(tenant, credential) -> list[Window]:
    """Credential first, burst before hour, so a refusal by a small window charges nothing
    wider. A key's own quota applies below the tenant's, never above it.

    A credential window as large as the tenant's is left out: the tenant's window counts
    every request the credential's would (and those of its other credentials), so it always
    fills first and the credential's could never decide anything. Keys without a quota of
    their own therefore cost two Redis windows per request, not four."""
    hourly, burst = tenant.limits
    own = hourly
    if credential.key is not None and credential.key.hourly_quota:
        own = min(hourly, credential.key.hourly_quota)
    hour_s, burst_s = window_seconds()
    windows = []
    if own < burst:
        windows.append(Window("burst", "credential", credential.id, own, burst_s))
    if own < hourly:
        windows.append(Window("hour", "credential", credential.id, own, hour_s))
    return [
        *windows,
        Window("burst", "tenant", tenant.id, burst, burst_s),
        Window("hour", "tenant", tenant.id, hourly, hour_s),
    ]


def ip_windows(ip: str, sign_in: bool = False) -> list[Window]:
    config = current_app.config
    hour_s, burst_s = window_seconds()
    if sign_in:
        scope, hourly, burst = "sign-in", "SIGN_IN_HOURLY", "SIGN_IN_BURST"
    else:
        scope, hourly, burst = "ip", "IP_HOURLY", "IP_BURST"
    return [
        Window("burst", scope, ip, config[f"DMS_RATE_LIMIT_{burst}"], burst_s),
        Window("hour", scope, ip, config[f"DMS_RATE_LIMIT_{hourly}"], hour_s),
    ]


def window_seconds() -> tuple[int, int]:
    config = current_app.config
    return config["DMS_RATE_LIMIT_HOUR_SECONDS"], config["DMS_RATE_LIMIT_BURST_SECONDS"]


def hourly_quota(windows: list[Window]) -> int:
    hourly = [w.amount for w in windows if w.policy == "hour"]
    return min(hourly or [w.amount for w in windows])
