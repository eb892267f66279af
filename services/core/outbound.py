"""Calling someone else's URL (a webhook endpoint, a browser's Web Push endpoint, and what
else a tenant or a person may name: a mail server, a shared link): the URL rules checked when
such a URL is saved, the SSRF guard run before every connection, which resolves the host once
and hands back the address it checked, and an HTTP POST with urllib3 that connects to exactly
that address (no second lookup: DNS rebinding) while Host, TLS SNI and the certificate check
use the URL's name.

The POST follows no redirect, has 10 seconds for the whole exchange and reads only the first
KiB of the answer. A batch of requests shares keep-alive connections (`Pools`), kept per
checked address: a connection is only ever reused for the address the guard checked for that
request. What a request says about its sender (User-Agent, Content-Type) is the caller's: each
capability names its own, with its own settings for private addresses (`allow_private`)."""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import urllib3
from urllib3.exceptions import HTTPError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_URL_LENGTH = 2000
# Cloud instance-metadata services (AWS, GCP and Azure, AWS IPv6, ECS tasks, Alibaba, Oracle).
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "fd00:ec2::254",
        "169.254.170.2",
        "100.100.100.200",
        "192.0.0.192",
    )
)
_LOCAL_NAMES = ("localhost", "localhost.localdomain")


class AddressRefused(Exception):
    """The URL may not be called; the message says why (the caller records it on its attempt)."""


class NotResolved(AddressRefused):
    """The URL's host name does not resolve (a kind of refusal that names DNS as the cause)."""


@dataclass(frozen=True)
class Target:
    """A URL with the one address the request will connect to."""

    scheme: str
    host: str  # the name, for Host and TLS SNI / certificate checks
    port: int
    address: str  # the checked IP address
    target: str  # path and query

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"


def url_problem(url: str, *, allow_http: bool, allow_private: bool) -> str | None:
    """Why `url` cannot be an endpoint's URL, or None. Names are resolved only when a
    request is attempted (an address can change after the URL is saved)."""
    if len(url) > MAX_URL_LENGTH:
        return f"at most {MAX_URL_LENGTH} characters."
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "not a valid URL."
    if parts.scheme not in ("https", "http"):
        return "must be an https:// URL."
    if parts.scheme == "http" and not allow_http:
        return "must use https (plain http is not allowed on this service)."
    if not parts.hostname:
        return "has no host."
    if parts.username is not None or parts.password is not None:
        return "must not carry credentials; authenticate with the signature instead."
    if parts.fragment:
        return "must not have a fragment."
    if port == 0:
        return "has an invalid port."
    if allow_private:
        return None
    host = parts.hostname.rstrip(".").lower()
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return "must not point at this machine."
    literal = _literal(host)
    if literal is not None:
        reason = refusal_reason(literal)
        if reason:
            return f"points at {reason} address."
    return None


def refusal_reason(address: IPAddress) -> str | None:
    """Why a request must not connect to `address` (an article and a kind), or None."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is not None:
            return refusal_reason(embedded)
        if address.teredo is not None:
            return refusal_reason(address.teredo[1])
    if address in METADATA_ADDRESSES:
        return "a cloud metadata"
    for attribute, kind in (
        ("is_loopback", "a loopback"),
        ("is_unspecified", "an unspecified"),
        ("is_link_local", "a link-local"),
        ("is_multicast", "a multicast"),
        ("is_private", "a private"),
        ("is_reserved", "a reserved"),
    ):
        if getattr(address, attribute):
            return kind
    if not address.is_global:
        return "a non-public"
    return None


def resolve(url: str, *, allow_private: bool) -> Target:
    """The SSRF guard: resolve the URL's host once, refuse it if any of its addresses is
    refused (unless `allow_private`), and return the first address to connect to."""
    parts = urlsplit(url)
    scheme = parts.scheme
    host = (parts.hostname or "").rstrip(".")
    port = parts.port or (443 if scheme == "https" else 80)
    literal = _literal(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise NotResolved(f"could not resolve {host}: {exc}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(i[4][0]) for i in infos))
        if not addresses:
            raise NotResolved(f"{host} has no address")
    if not allow_private:
        for address in addresses:
            reason = refusal_reason(address)
            if reason:
                raise AddressRefused(f"refused: {host} resolves to {reason} address ({address})")
    target = parts.path or "/"
    if parts.query:
        target = f"{target}?{parts.query}"
    return Target(scheme, host, port, str(addresses[0]), target)


# What inet_aton may read as an IPv4 address: digits, hex digits, `x` and dots. Anything else
# is a name (inet_aton itself also takes "1.2.3.4 anything", which no URL host should be).
_IPV4_CHARACTERS = re.compile(r"[0-9a-fA-FxX.]+")


def _literal(host: str) -> IPAddress | None:
    """The address `host` spells, as the resolver reads it, or None for a name. IPv4 in the
    forms inet_aton accepts counts (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`):
    getaddrinfo turns them into addresses without asking DNS, so they are addresses here too."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    if not _IPV4_CHARACTERS.fullmatch(host):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


# --- the request, to the checked address -----------------------------------------------------

TIMEOUT_SECONDS = 10.0
EXCERPT_BYTES = 1024


@dataclass
class Outcome:
    """What came of one POST: the status (None when no answer came), and why it failed."""

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
    """Keep-alive connections for the requests of one batch, a pool per checked address
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
    """POST `body` to `target` with `headers` (the caller's Content-Type and User-Agent among
    them; Host comes from the target), over a kept-alive connection of `pools` if given (else
    a connection of its own); never raises for what the network or the receiver does."""
    pool = pools.get(target) if pools is not None else _pool(target, 1)
    request_headers = {"Host": target.host_header, **headers}
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
