"""A whole installation's backup (docs/operations.md): the database at one moment and every
blob its rows name, copied out through the blob store's interface (so local disk and S3 back
up alike), with a manifest of sha256 checksums; and restoring it into an empty installation.

Layout of a backup directory:
    manifest.json                    format, version, dialect, revision, every file's sha256
    database.sqlite3 | database.pgdump
    blobs/<tenant id>/<sha256>       each blob's bytes (its name is its checksum)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import clock
from errors import DomainError
from extensions import db
from services.documents.blobs import blob_store
from services.documents.storage import validate_sha256, validate_tenant_id
from services.keys import key_cache
from services.operations import databases

FORMAT = "dms-backup"
VERSION = 1
MANIFEST = "manifest.json"
_CHUNK = 1 << 20
_SHA256 = re.compile(r"[0-9a-f]{64}")
_SAFE_PATH = re.compile(r"(database\.(sqlite3|pgdump)|blobs/[a-z0-9][a-z0-9-]{1,62}/[0-9a-f]{64})")

# progress(iterable, label, total) -> the same items (the CLI draws a bar; services don't).
Progress = Callable[[Iterable, str, int], Iterable]


def no_progress(items: Iterable, label: str, total: int) -> Iterable:
    return items


def invalid(message: str) -> DomainError:
    return DomainError(400, "INVALID_PARAMETER", message)


def create(target: Path, progress: Progress = no_progress) -> dict:
    """Back the installation up into `target` (absent or an empty directory); the manifest
    is written last, so a directory without one is an unfinished backup."""
    target = Path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise invalid(f"{target} is not an empty directory.")
    target.mkdir(parents=True, exist_ok=True)
    engine = db.engine
    dump_name = databases.dump_file(engine)
    refs, revision = databases.dump(engine, target / dump_name)
    files = {dump_name: _file_entry(target / dump_name)}
    missing = []
    store = blob_store()
    for tenant_id, sha256 in progress(refs, "blobs", len(refs)):
        relative = f"blobs/{tenant_id}/{sha256}"
        try:
            with store.open(tenant_id, sha256) as source:
                files[relative] = _copy_out(source, target / relative, sha256)
        except FileNotFoundError:
            # Purged since the snapshot, or lost before it: said in the manifest and by the CLI.
            missing.append(relative)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "createdAt": clock.rfc3339(clock.now()),
        "database": {"dialect": databases.dialect(engine), "file": dump_name,
                     "revision": revision},
        "files": files,
        "missingBlobs": missing,
    }  # fmt: skip
    partial = target / f"{MANIFEST}.part"
    partial.write_text(json.dumps(manifest, indent=2, sort_keys=True))
    os.replace(partial, target / MANIFEST)
    return manifest


def _copy_out(source, path: Path, sha256: str) -> dict:
    path.parent.mkdir(parents=True, exist_ok=True)
    digest, size = hashlib.sha256(), 0
    with path.open("wb") as out:
        while chunk := source.read(_CHUNK):
            digest.update(chunk)
            out.write(chunk)
            size += len(chunk)
    if digest.hexdigest() != sha256:
        raise DomainError(
            500, "INTERNAL_ERROR", f"stored blob {path.name} does not match its checksum"
        )
    return {"sha256": sha256, "size": size}


def _file_entry(path: Path) -> dict:
    digest, size = hashlib.sha256(), 0
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return {"sha256": digest.hexdigest(), "size": size}


def read_manifest(source: Path) -> dict:
    """The manifest, checked for shape: known format and version, safe relative file names."""
    path = Path(source) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError as error:
        raise invalid(f"{source} has no {MANIFEST}: not a backup, or an unfinished one.") from error
    except (OSError, ValueError) as error:
        raise invalid(f"{MANIFEST} is unreadable: {error}") from error
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise invalid(f"{MANIFEST} is not a {FORMAT} manifest.")
    if manifest.get("version") != VERSION:
        raise invalid(f"Backup format version {manifest.get('version')!r} is not {VERSION}.")
    files = manifest.get("files")
    database = manifest.get("database")
    if not isinstance(files, dict) or not isinstance(database, dict):
        raise invalid(f"{MANIFEST} lacks its files or database.")
    for name, entry in files.items():
        if not isinstance(name, str) or not _SAFE_PATH.fullmatch(name):
            raise invalid(f"{MANIFEST} names an unexpected file {name!r}.")
        if not isinstance(entry, dict) or not re.fullmatch(
            r"[0-9a-f]{64}", str(entry.get("sha256"))
        ):
            raise invalid(f"{MANIFEST} has no checksum for {name!r}.")
    if database.get("file") not in files:
        raise invalid(f"{MANIFEST} does not list the database file.")
    return manifest


def verify(source: Path, progress: Progress = no_progress) -> dict:
    """Every file of the manifest present with its sha256; returns the manifest."""
    manifest = read_manifest(source)
    files = manifest["files"]
    for name in progress(sorted(files), "verify", len(files)):
        path = Path(source) / name
        if not path.is_file():
            raise invalid(f"{name} is missing from the backup.")
        if _file_entry(path)["sha256"] != files[name]["sha256"]:
            raise invalid(f"{name} does not match its checksum in {MANIFEST}.")
    return manifest


def restore(source: Path, *, force: bool = False, progress: Progress = no_progress) -> dict:
    """Restore a backup into this installation, which must have no tenant unless `force`.

    Order, so an interruption can be resumed by running it again: verify everything first
    (nothing is touched by a bad backup), then the blobs (idempotent, content addressed; no row
    names them yet), then the database in one transaction (all or nothing)."""
    source = Path(source)
    engine = db.engine
    db.session.remove()
    if not force and not databases.is_empty(engine):
        raise DomainError(
            409, "CONFLICT", "This installation has tenants: restore only into an empty one "
            "(a fresh database), or pass --force to replace everything.",
        )  # fmt: skip
    manifest = verify(source, progress)
    if manifest["database"].get("dialect") != databases.dialect(engine):
        raise invalid(
            f"The backup is of a {manifest['database'].get('dialect')} database; this "
            f"installation runs {databases.dialect(engine)}."
        )
    blobs = sorted(name for name in manifest["files"] if name.startswith("blobs/"))
    store = blob_store()
    for name in progress(blobs, "blobs", len(blobs)):
        _, tenant_id, sha256 = name.split("/")
        _restore_blob(store, source / name, validate_tenant_id(tenant_id), validate_sha256(sha256))
    databases.load(engine, source / manifest["database"]["file"])
    key_cache.flush()  # every process forgets keys and users it read before
    return manifest


def _restore_blob(store, path: Path, tenant_id: str, sha256: str) -> None:
    if store.exists(tenant_id, sha256):
        return
    with path.open("rb") as fh:
        stored = store.save(tenant_id, fh, max_bytes=path.stat().st_size)
    store.release(tenant_id, stored, committed=True)
    if stored.sha256 != sha256:  # changed since verify: never leave it under another name
        raise invalid(f"blobs/{tenant_id}/{sha256} changed while it was restored.")
