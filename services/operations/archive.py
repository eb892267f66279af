"""The tenant archive (docs/tenant-archive.md): what travels, how values are written, and
reading an archive safely (known member names only, every checksum verified, sizes bounded).

A zip of:
    manifest.json             format, version, tenant, tables, audit summary, every checksum
    tables/<table>.jsonl      one JSON object per row, columns by name
    audit/entries.jsonl       the tenant's audit chain as it was sealed at the source
    blobs/<sha256>            each blob's bytes once
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zipfile
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

from sqlalchemy import Column, LargeBinary, Table, TypeDecorator

from errors import DomainError
from services.operations.tenant_tables import tenant_tables

FORMAT = "dms-tenant-archive"
VERSION = 1
MANIFEST = "manifest.json"
AUDIT_FILE = "audit/entries.jsonl"
_CHUNK = 1 << 20
_MEMBER = re.compile(r"tables/[a-z][a-z0-9_]{0,62}\.jsonl|audit/entries\.jsonl|blobs/[0-9a-f]{64}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_MAX_MANIFEST_BYTES = 64 << 20

# Tenant tables that do not travel, and why (the rest travel whole, tables added later too).
NOT_EXPORTED: dict[str, str] = {
    "audit_entries": f"travels as {AUDIT_FILE}, imported as an archived chain",
    "api_keys": "credentials: issue new keys (travel only with --with-secrets)",
    "oauth_clients": "registered apps with secrets and redirect URIs of the source's hosts",
    "oauth_codes": "short-lived credentials",
    "oauth_tokens": "refresh-token families: people sign in again",
    "oauth_consents": "consents to the source's OAuth apps, which do not travel",
    "passkeys": "bound to the source's relying party id (its domain)",
    "portal_sessions": "sign-in sessions",
    "push_subscriptions": "device tokens registered with the source",
    "push_deliveries": "delivery log of the source's push subscriptions",
    "webhook_endpoints": "secrets encrypted with the source's SECRET_KEY: register them again",
    "webhook_deliveries": "delivery log of the source's endpoints",
    "webhook_attempts": "delivery log of the source's endpoints",
    "events": "the outbox: already delivered, or replayed by the source",
    "idempotency_records": "replays of requests made to the source",
    "deprecation_usages": "per-credential usage of deprecated calls at the source",
    "share_links": "bearer links to the source's address (tokens kept only hashed): share again",
    "document_thumbnails": "drawn again from the content: `flask documents thumbnails`",
    "jobs": "the progress of work done at the source; what it changed travels with the documents",
    "tag_classifiers": "learned again from the documents' tags by the periodic training",
    "invitations": "single-use links to the source's address (tokens only hashed): invite again",
    "mfa_totp": "secrets sealed with the source's SECRET_KEY: people set up TOTP again",
    "mfa_recovery_codes": "belong to the TOTP set-ups, which do not travel",
    "mfa_challenges": "five-minute sign-in tokens",
    "mail_accounts": "passwords sealed with the source's SECRET_KEY: add the accounts again",
    "mail_messages": "the record of the source's mail accounts, which do not travel",
}
# The tenant row's bookkeeping of its live chain: not exported (the chain travels as an
# archived one) and, on import, what a new tenant's chain starts from.
FRESH_CHAIN = {
    "audit_seq": 0,
    "audit_keyed_since": 1,
    "audit_head_seal": None,
    "audit_head_key": None,
}
# Travel only with --with-secrets (hashes, never plaintext: nothing here holds any).
SECRET_TABLES = {"api_keys"}
# Columns emptied unless --with-secrets: people set a password (or sign in another way).
SECRET_COLUMNS: dict[str, set[str]] = {"users": {"password_hash"}}


def invalid(message: str) -> DomainError:
    return DomainError(400, "INVALID_PARAMETER", f"archive: {message}")


def travelling_tables(with_secrets: bool) -> list[Table]:
    """The tenant's tables that an archive carries, parents first."""
    return [
        t
        for t in tenant_tables()
        if t.name not in NOT_EXPORTED or (with_secrets and t.name in SECRET_TABLES)
    ]


def table_member(name: str) -> str:
    return f"tables/{name}.jsonl"


def encode(value):
    """A column value as JSON: times as ISO 8601, bytes as {"$b64": ...}."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        return {"$b64": base64.b64encode(bytes(value)).decode()}
    if hasattr(value, "tolist"):  # vectors (numpy arrays) as lists
        return value.tolist()
    return value


def decode(column: Column, value):
    """The inverse of `encode` for this column's type."""
    if value is None:
        return None
    if isinstance(value, dict) and set(value) == {"$b64"}:
        if not isinstance(column.type, LargeBinary):
            raise invalid(f"{column.table.name}.{column.name} is not binary")
        return base64.b64decode(value["$b64"])
    kind = column.type
    if isinstance(kind, TypeDecorator):
        kind = kind.impl_instance
    try:
        python_type = kind.python_type
    except NotImplementedError:
        return value
    try:
        if python_type is datetime and isinstance(value, str):
            return datetime.fromisoformat(value)
        if python_type is date and isinstance(value, str):
            return date.fromisoformat(value)
    except ValueError as error:
        raise invalid(f"{column.table.name}.{column.name}: {error}") from error
    return value


class ArchiveReader:
    """A tenant archive opened for import: members are only ever read by the names the
    manifest lists (checked against a fixed pattern), never extracted to disk."""

    def __init__(self, path: Path) -> None:
        try:
            self.zip = zipfile.ZipFile(path)
        except (OSError, zipfile.BadZipFile) as error:
            raise invalid(f"{path} is not a readable zip: {error}") from error
        self.infos = {info.filename: info for info in self.zip.infolist()}
        strange = sorted(n for n in self.infos if n != MANIFEST and not _MEMBER.fullmatch(n))
        if strange:
            raise invalid(f"unexpected member {strange[0]!r} (only the documented names)")
        self.manifest = self._manifest()

    def close(self) -> None:
        self.zip.close()

    def _manifest(self) -> dict:
        info = self.infos.get(MANIFEST)
        if info is None or info.file_size > _MAX_MANIFEST_BYTES:
            raise invalid(f"no {MANIFEST} (or an oversized one)")
        try:
            manifest = json.loads(self.zip.read(MANIFEST))
        except (ValueError, zipfile.BadZipFile) as error:
            raise invalid(f"{MANIFEST} is unreadable: {error}") from error
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise invalid(f"not a {FORMAT}")
        if manifest.get("version") != VERSION:
            raise invalid(f"format version {manifest.get('version')!r} is not {VERSION}")
        files = manifest.get("files")
        if not isinstance(files, dict) or not isinstance(manifest.get("tenant"), dict):
            raise invalid(f"{MANIFEST} lacks its files or tenant")
        for name, entry in files.items():
            if not _MEMBER.fullmatch(str(name)):
                raise invalid(f"{MANIFEST} names an unexpected member {name!r}")
            if not isinstance(entry, dict) or not _SHA256.fullmatch(str(entry.get("sha256"))):
                raise invalid(f"{MANIFEST} has no checksum for {name!r}")
            if not isinstance(entry.get("size"), int) or entry["size"] < 0:
                raise invalid(f"{MANIFEST} has no size for {name!r}")
        return manifest

    def verify(self, progress) -> None:
        """Every listed member present, of its size, with its sha256; nothing unlisted."""
        files = self.manifest["files"]
        unlisted = sorted(set(self.infos) - set(files) - {MANIFEST})
        if unlisted:
            raise invalid(f"member {unlisted[0]!r} is not in the manifest")
        for name in progress(sorted(files), "verify", len(files)):
            digest = hashlib.sha256()
            for chunk in self.chunks(name):
                digest.update(chunk)
            if digest.hexdigest() != files[name]["sha256"]:
                raise invalid(f"{name} does not match its checksum")

    def chunks(self, name: str) -> Iterator[bytes]:
        """The member's bytes, refusing more than the manifest's size (a zip bomb stops at
        the declared size, whatever the zip's own header claims)."""
        if name not in self.infos:
            raise invalid(f"{name} is missing")
        limit = self.manifest["files"][name]["size"]
        read = 0
        try:
            with self.zip.open(name) as member:
                while chunk := member.read(_CHUNK):
                    read += len(chunk)
                    if read > limit:
                        raise invalid(f"{name} is larger than the manifest says")
                    yield chunk
        except (zipfile.BadZipFile, OSError) as error:
            raise invalid(f"{name} is damaged: {error}") from error
        if read != limit:
            raise invalid(f"{name} is smaller than the manifest says")

    def open(self, name: str):
        return self.zip.open(name)

    def rows(self, name: str) -> Iterator[dict]:
        with self.zip.open(name) as member:
            for number, line in enumerate(member, 1):
                try:
                    row = json.loads(line)
                except ValueError as error:
                    raise invalid(f"{name} line {number} is not JSON") from error
                if not isinstance(row, dict):
                    raise invalid(f"{name} line {number} is not an object")
                yield row
