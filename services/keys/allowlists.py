"""IP allowlists of API keys: parsing them (IPv4 and IPv6 CIDRs) and checking an address."""

from __future__ import annotations

import ipaddress

from errors import FieldError


def parse_allowlist(lines: list[str] | str) -> tuple[list[str], list[FieldError]]:
    """Normalise CIDRs (one per line or a list); return (cidrs, errors per bad line)."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    cidrs: list[str] = []
    errors: list[FieldError] = []
    for number, raw in enumerate(lines, start=1):
        entry = raw.strip()
        if not entry:
            continue
        try:
            network = ipaddress.ip_network(entry, strict=False)
        except ValueError:
            errors.append(
                FieldError(
                    "VALIDATION_ERROR",
                    f"Line {number}: {entry!r} is not an IPv4 or IPv6 address or CIDR range.",
                    "allowedIps",
                )
            )
            continue
        if str(network) not in cidrs:
            cidrs.append(str(network))
    return cidrs, errors


def ip_allowed(ip: str, cidrs: list[str]) -> bool:
    """True when there is no allowlist or the address falls inside one of its ranges."""
    if not cidrs:
        return True
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    for cidr in cidrs:
        network = ipaddress.ip_network(cidr, strict=False)
        if address.version == network.version and address in network:
            return True
    return False
