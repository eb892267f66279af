"""Where a webhook may be sent: the URL rules checked when an endpoint is saved, and the SSRF
guard run before every attempt, which resolves the host once and hands back the address it
checked so that the request connects to exactly that one (no second lookup: DNS rebinding)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

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
    """The URL may not be called; the message says why (it is recorded on the attempt)."""


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
    delivery is attempted (an address can change after the endpoint is saved)."""
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
    """Why a delivery must not connect to `address` (an article and a kind), or None."""
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
            raise AddressRefused(f"could not resolve {host}: {exc}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(i[4][0]) for i in infos))
        if not addresses:
            raise AddressRefused(f"{host} has no address")
    if not allow_private:
        for address in addresses:
            reason = refusal_reason(address)
            if reason:
                raise AddressRefused(f"refused: {host} resolves to {reason} address ({address})")
    target = parts.path or "/"
    if parts.query:
        target = f"{target}?{parts.query}"
    return Target(scheme, host, port, str(addresses[0]), target)


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
