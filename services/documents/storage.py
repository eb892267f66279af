"""Owns where document bytes live: content-addressed, tenant-scoped blobs behind an interface."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Protocol

DEFAULT_CHUNK_SIZE = 1 << 20

# fullmatch, not `$`: `$` also matches before a trailing newline.
_TENANT_ID = re.compile(r"[a-z0-9][a-z0-9-]{1,62}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


class BlobTooLarge(Exception):
    """The stream carried more than the allowed number of bytes."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(f"blob exceeds {max_bytes} bytes")
        self.max_bytes = max_bytes


@dataclass(frozen=True)
class StoredBlob:
    sha256: str
    size: int
    # The upload's own copy, kept until its transaction ends (see LocalBlobStore.release);
    # not part of what the blob is.
    guard: str | None = field(default=None, compare=False)


class BlobStore(Protocol):
    def save(
        self,
        tenant_id: str,
        stream: BinaryIO,
        max_bytes: int,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
    ) -> StoredBlob: ...

    def open(self, tenant_id: str, sha256: str) -> BinaryIO: ...

    def exists(self, tenant_id: str, sha256: str) -> bool: ...

    def delete(self, tenant_id: str, sha256: str) -> None: ...

    def delete_unless(self, tenant_id: str, sha256: str, in_use: Callable[[], bool]) -> bool: ...

    def release(self, tenant_id: str, blob: StoredBlob, *, committed: bool) -> None: ...

    def sweep_temporary(self, older_than_seconds: float) -> int: ...

    def iter_blobs(self, older_than_seconds: float) -> Iterator[tuple[str, str]]: ...

    def size(self, tenant_id: str, sha256: str) -> int: ...


def validate_tenant_id(tenant_id: str) -> str:
    if not isinstance(tenant_id, str) or not _TENANT_ID.fullmatch(tenant_id):
        raise ValueError("invalid tenant id")
    return tenant_id


def validate_sha256(sha256: str) -> str:
    if not isinstance(sha256, str):
        raise ValueError("invalid sha256")
    # Accept upper case from callers but always build paths from the canonical lower-case form.
    normalized = sha256.lower()
    if not _SHA256.fullmatch(normalized):
        raise ValueError("invalid sha256")
    return normalized


class LocalBlobStore:
    """BlobStore on a local filesystem: `<root>/<tenant_id>/<sha[0:2]>/<sha[2:4]>/<sha>`."""

    # Tenant ids cannot start with ".", so this directory never collides with a tenant's.
    _TMP_DIR = ".tmp"

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def path_for(self, tenant_id: str, sha256: str) -> Path:
        tenant_id = validate_tenant_id(tenant_id)
        sha256 = validate_sha256(sha256)
        return self.root / tenant_id / sha256[0:2] / sha256[2:4] / sha256

    def save(
        self,
        tenant_id: str,
        stream: BinaryIO,
        max_bytes: int,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
    ) -> StoredBlob:
        validate_tenant_id(tenant_id)
        if max_bytes < 0 or chunk_size <= 0:
            raise ValueError("max_bytes must be >= 0 and chunk_size > 0")
        # Same filesystem as the final path, so the rename below is atomic.
        tmp_dir = self.root / self._TMP_DIR
        tmp_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=tmp_dir, prefix=f"{tenant_id}-", suffix=".part")
        tmp_path = Path(tmp_name)
        try:
            digest = hashlib.sha256()
            size = 0
            with os.fdopen(fd, "wb") as out:
                while True:
                    # Ask for at most one byte past the limit so an oversized body is
                    # detected without reading (or buffering) the rest of it.
                    chunk = stream.read(min(chunk_size, max_bytes - size + 1))
                    if not chunk:
                        break
                    if size + len(chunk) > max_bytes:
                        raise BlobTooLarge(max_bytes)
                    digest.update(chunk)
                    out.write(chunk)
                    size += len(chunk)
                out.flush()
                os.fsync(out.fileno())
            sha256 = digest.hexdigest()
            final = self.path_for(tenant_id, sha256)
            final.parent.mkdir(parents=True, exist_ok=True)
            # Publish by hard link and keep the temporary name as the upload's guard copy:
            # if the blob is already there (same bytes), ours stays a guard only.
            _publish(tmp_path, final)
        except BaseException:
            tmp_path.unlink(missing_ok=True)
            raise
        return StoredBlob(sha256=sha256, size=size, guard=str(tmp_path))

    def release(self, tenant_id: str, blob: StoredBlob, *, committed: bool) -> None:
        """End an upload's hold on its blob once its transaction has ended.

        After a commit the blob is put back from the guard copy if a concurrent delete (the
        trash purge, or a failed upload of the same bytes) removed it after `save`: that
        delete checked for references before ours was committed. Then the guard goes."""
        if blob.guard is None:
            return
        guard = Path(blob.guard)
        try:
            if committed:
                final = self.path_for(tenant_id, blob.sha256)
                if not final.exists():
                    final.parent.mkdir(parents=True, exist_ok=True)
                    _publish(guard, final)
        finally:
            guard.unlink(missing_ok=True)

    def delete_unless(self, tenant_id: str, sha256: str, in_use: Callable[[], bool]) -> bool:
        """Delete the blob unless `in_use()` (committed rows still name it); True if deleted.

        The blob is first moved aside and `in_use` asked again: a row committed meanwhile
        brings it back. An upload that commits after that second look restores the blob from
        its own guard copy (`release`), so no interleaving loses a referenced blob."""
        if in_use():
            return False
        final = self.path_for(tenant_id, sha256)
        tmp_dir = self.root / self._TMP_DIR
        tmp_dir.mkdir(parents=True, exist_ok=True)
        aside = tmp_dir / f"{tenant_id}-{sha256}-{uuid.uuid4().hex}.deleting"
        try:
            os.rename(final, aside)
        except FileNotFoundError:
            return True  # already gone (a retried job)
        if in_use():
            os.replace(aside, final)  # a concurrent upload's copy, if any, has the same bytes
            return False
        aside.unlink(missing_ok=True)
        return True

    def sweep_temporary(self, older_than_seconds: float) -> int:
        """Remove temporary files left by crashed uploads and deletes; returns how many."""
        tmp_dir = self.root / self._TMP_DIR
        if not tmp_dir.is_dir():
            return 0
        cutoff = time.time() - older_than_seconds
        removed = 0
        for entry in tmp_dir.iterdir():
            with contextlib.suppress(FileNotFoundError):
                if entry.is_file() and entry.stat().st_mtime < cutoff:
                    entry.unlink()
                    removed += 1
        return removed

    def iter_blobs(self, older_than_seconds: float) -> Iterator[tuple[str, str]]:
        """(tenant id, sha256) of every stored blob last written before the cutoff."""
        cutoff = time.time() - older_than_seconds
        for tenant_dir in sorted(self.root.iterdir()):
            if not tenant_dir.is_dir() or not _TENANT_ID.fullmatch(tenant_dir.name):
                continue
            for path in sorted(tenant_dir.glob("??/??/*")):
                with contextlib.suppress(FileNotFoundError):
                    if _SHA256.fullmatch(path.name) and path.stat().st_mtime < cutoff:
                        yield tenant_dir.name, path.name

    def open(self, tenant_id: str, sha256: str) -> BinaryIO:
        """Open the blob for reading; raises FileNotFoundError when it is absent."""
        return self.path_for(tenant_id, sha256).open("rb")

    def exists(self, tenant_id: str, sha256: str) -> bool:
        return self.path_for(tenant_id, sha256).is_file()

    def delete(self, tenant_id: str, sha256: str) -> None:
        """Remove the blob; deleting an absent blob is not an error (retried jobs)."""
        self.path_for(tenant_id, sha256).unlink(missing_ok=True)

    def size(self, tenant_id: str, sha256: str) -> int:
        """Size in bytes; raises FileNotFoundError when the blob is absent."""
        return self.path_for(tenant_id, sha256).stat().st_size


@contextlib.contextmanager
def local_path(store: BlobStore, tenant_id: str, sha256: str) -> Iterator[Path]:
    """A filesystem path to the blob, for programs that read files (extraction, thumbnails):
    the file itself on local disk, else a temporary copy that is gone after the block."""
    if isinstance(store, LocalBlobStore):
        path = store.path_for(tenant_id, sha256)
        if not path.is_file():
            raise FileNotFoundError(path)
        yield path
        return
    with store.open(tenant_id, sha256) as source, tempfile.NamedTemporaryFile() as copy:
        shutil.copyfileobj(source, copy, 1 << 20)
        copy.flush()
        yield Path(copy.name)


def _publish(source: Path, final: Path) -> None:
    """Make `final` a name for `source`'s bytes, keeping `source`; nothing if `final` exists
    (same content). A hard link where the filesystem has them, else an atomic copy."""
    try:
        os.link(source, final)
    except FileExistsError:
        return
    except OSError:  # no hard links here (some network or FUSE filesystems)
        partial = final.with_name(f"{final.name}.{uuid.uuid4().hex}.copy")
        try:
            shutil.copyfile(source, partial)
            os.replace(partial, final)  # an identical concurrent copy may win: same bytes
        finally:
            partial.unlink(missing_ok=True)
    _fsync_dir(final.parent)


def _fsync_dir(path: Path) -> None:
    # Makes the rename itself durable; not every platform/filesystem allows opening a directory.
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def iter_range(fh: BinaryIO, start: int, end: int, chunk_size: int = 64 * 1024) -> Iterator[bytes]:
    """Yield bytes `start..end` of `fh`, both inclusive as in an HTTP Range header.

    Stops early at end of file. Does not close `fh`: the caller owns it.
    """
    # Validate here, not inside the generator, so a bad range fails before a response starts.
    if start < 0 or end < start or chunk_size <= 0:
        raise ValueError("invalid range")
    return _iter_range(fh, start, end, chunk_size)


def _iter_range(fh: BinaryIO, start: int, end: int, chunk_size: int) -> Iterator[bytes]:
    fh.seek(start)
    remaining = end - start + 1
    while remaining > 0:
        chunk = fh.read(min(chunk_size, remaining))
        if not chunk:
            break
        remaining -= len(chunk)
        yield chunk
