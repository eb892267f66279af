"""One HTTP POST of a webhook, with urllib3 (the maintained transport under requests): the
connection goes to the address the SSRF guard checked, while Host, TLS SNI and the
certificate check use the URL's name. Redirects are never followed; the whole exchange has
10 seconds; only the first KiB of the answer is read. A batch of attempts shares keep-alive
connections (`Pools`), kept per checked address: a connection is only ever reused for the
address the guard checked for that attempt."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import urllib3
from urllib3.exceptions import HTTPError

from services.webhooks.addresses import Target

TIMEOUT_SECONDS = 10.0
EXCERPT_BYTES = 1024
USER_AGENT = "dms-webhooks/1"


@dataclass
class Outcome:
    status_code: int | None
    latency_ms: int
    error: str | None = None
    excerpt: str | None = None
    retry_after: float | None = None  # seconds, from a 429 or 503

    @property
    def succeeded(self) -> bool:
        return self.error is None and self.status_code is not None and 200 <= self.status_code < 300


def _pool(target: Target, maxsize: int) -> urllib3.HTTPConnectionPool:
    common = {
        "timeout": urllib3.Timeout(total=TIMEOUT_SECONDS),
        "retries": False,
        "maxsize": maxsize,
    }
    if target.scheme == "https":
        return urllib3.HTTPSConnectionPool(
            target.address,
            target.port,
            server_hostname=target.host,
            assert_hostname=target.host,
            cert_reqs="CERT_REQUIRED",
            **common,
        )
    return urllib3.HTTPConnectionPool(target.address, target.port, **common)


class Pools:
    """Keep-alive connections for the attempts of one batch, a pool per checked address
    (scheme, address, port and name: a connection made for one name never carries
    another's request). Thread-safe; `close()` ends them all."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self._pools: dict[tuple[str, str, int, str], urllib3.HTTPConnectionPool] = {}
        self._lock = threading.Lock()

    def get(self, target: Target) -> urllib3.HTTPConnectionPool:
        key = (target.scheme, target.address, target.port, target.host)
        with self._lock:
            pool = self._pools.get(key)
            if pool is None:
                pool = self._pools[key] = _pool(target, self.per_address)
            return pool

    def close(self) -> None:
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.close()


def post(
    target: Target, headers: dict[str, str], body: bytes, pools: Pools | None = None
) -> Outcome:
    """POST `body` to `target`, over a kept-alive connection of `pools` if given (else a
    connection of its own); never raises for what the network or the receiver does."""
    pool = pools.get(target) if pools is not None else _pool(target, 1)
    request_headers = {
        "Host": target.host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **headers,
    }
    started = time.monotonic()
    try:
        response = pool.urlopen(
            "POST",
            target.target,
            body=body,
            headers=request_headers,
            redirect=False,
            retries=False,
            assert_same_host=False,
            preload_content=False,
        )
        try:
            excerpt = response.read(EXCERPT_BYTES, decode_content=False)
            if not (response.length_remaining == 0 or response.closed):
                # An answer longer than we read: the connection cannot carry another request.
                response.close()
        finally:
            response.release_conn()
    except HTTPError as exc:
        return Outcome(None, _ms_since(started), error=_describe(exc))
    finally:
        if pools is None:
            pool.close()
    latency = _ms_since(started)
    outcome = Outcome(
        response.status, latency, excerpt=excerpt.decode("utf-8", errors="replace") or None
    )
    if latency > TIMEOUT_SECONDS * 1000:
        outcome.error = f"answered after {latency} ms (more than {TIMEOUT_SECONDS:.0f} s)"
    elif 300 <= response.status < 400:
        outcome.error = f"redirect ({response.status}) not followed"
    elif not 200 <= response.status < 300:
        outcome.error = f"HTTP {response.status}"
    if response.status in (429, 503):
        outcome.retry_after = retry_after_seconds(response.headers.get("Retry-After"))
    return outcome


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Retry-After as seconds from now: delta-seconds or an HTTP date (RFC 9110 10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _ms_since(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _describe(exc: HTTPError) -> str:
    reason = getattr(exc, "reason", None) or exc
    return f"{type(exc).__name__}: {reason}"[:500]
