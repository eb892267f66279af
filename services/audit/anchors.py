"""Anchors: a tenant's chain head written down outside the database, to check the chain against."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select

import clock
from errors import conflict, invalid_parameter
from extensions import db
from models import AuditEntry

_SEQ = re.compile(r"[1-9][0-9]{0,9}")
_HASH = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Anchor:
    tenant_id: str
    seq: int
    hash: str
    created_at: str

    def line(self) -> str:
        """`SLUG SEQ HASH CREATED_AT`, the one line an operator keeps elsewhere."""
        return f"{self.tenant_id} {self.seq} {self.hash} {self.created_at}"


def head(tenant_id: str) -> Anchor | None:
    """The newest entry of the tenant's chain, as an anchor (None for an empty chain)."""
    entry = db.session.scalars(
        select(AuditEntry)
        .where(AuditEntry.tenant_id == tenant_id)
        .order_by(AuditEntry.seq.desc())
        .limit(1)
    ).first()
    if entry is None:
        return None
    return Anchor(tenant_id, entry.seq, entry.hash, clock.rfc3339(entry.created_at) or "-")


def collect(tenant_id: str, pairs: Iterable[str], file_text: str | None = None) -> dict[int, str]:
    """seq -> hash from `SEQ:HASH` options and an anchor file's lines for this tenant (lines of
    other tenants are skipped, so one file can hold every tenant's anchors)."""
    found: list[tuple[int, str]] = [_pair(pair) for pair in pairs]
    if file_text is not None:
        in_file = [_line(line, n) for n, line in enumerate(file_text.splitlines(), 1)]
        mine = [(a.seq, a.hash) for a in in_file if a is not None and a.tenant_id == tenant_id]
        if not mine:
            raise invalid_parameter(f"The anchor file has no line for {tenant_id!r}.")
        found += mine
    anchors: dict[int, str] = {}
    for seq, hash_ in found:
        if anchors.setdefault(seq, hash_) != hash_:
            # Both cannot be true: the chain was rewritten between them, or restored from backup.
            raise conflict(f"The anchors disagree about entry #{seq}.")
    return anchors


def _pair(text: str) -> tuple[int, str]:
    seq, _, hash_ = text.strip().partition(":")
    return _checked(seq, hash_, f"--anchor {text!r} is not SEQ:HASH")


def _line(text: str, number: int) -> Anchor | None:
    if not text.strip() or text.lstrip().startswith("#"):
        return None
    fields = text.split()
    if len(fields) != 4:
        raise invalid_parameter(f"Anchor file line {number} is not SLUG SEQ HASH CREATED_AT.")
    seq, hash_ = _checked(fields[1], fields[2], f"Anchor file line {number} is malformed")
    return Anchor(fields[0], seq, hash_, fields[3])


def _checked(seq: str, hash_: str, message: str) -> tuple[int, str]:
    if not _SEQ.fullmatch(seq) or not _HASH.fullmatch(hash_):
        raise invalid_parameter(f"{message} (SEQ a positive integer, HASH 64 hex digits).")
    return int(seq), hash_
