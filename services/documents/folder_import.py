"""Importing a folder's files as a tenant's documents (`flask documents import`): each file goes
through the upload path (uploads.receive_file, then create_document: the same limits,
sniffing, extraction, events), with `source: {"type": "folder", "path": <relative path>}`.

A file whose bytes the tenant already stores (same SHA-256 in any version of its documents)
is skipped, so a run stopped anywhere (even by SIGKILL) is simply run again: the batches it
committed are skipped, the one it was writing was rolled back with its blob. What happens to
a file afterwards (`--after keep|move:DIR|delete`) happens only once its batch has committed."""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from flask import current_app
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models.documents import DocumentVersion, SourceType
from services.audit import audit_log
from services.core import transaction
from services.core.actors import Actor
from services.documents import uploads
from services.documents.documents import create_document
from services.documents.wire import MAX_TAGS, Tag

# A batch commits after this many files or bytes: one commit (and one audit entry) for many
# documents, while a kill loses at most one batch's work, which the next run redoes.
BATCH_FILES = 50
BATCH_BYTES = 64 * 1024 * 1024

# Names a scanner, a browser or an office program writes while a file is not finished yet.
_TEMPORARY_SUFFIXES = (".part", ".tmp", ".crdownload", ".partial", ".download", "~")


def is_ignored(name: str) -> bool:
    """Hidden files (dotfiles), office lock files (`~$…`) and files still being written under
    a temporary name are never imported (the finished file arrives under its own name)."""
    lowered = name.lower()
    return name.startswith((".", "~$")) or lowered.endswith(_TEMPORARY_SUFFIXES)


def parse_tags(text: str | None) -> list[str]:
    """`--tags a,b` read as an upload's tags are (the same length and count limits)."""
    raw = [t for t in (text or "").split(",") if t.strip()]
    try:
        tags = TypeAdapter(list[Tag]).validate_python(raw)
    except ValidationError as exc:
        message = "; ".join(e["msg"] for e in exc.errors())
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", f"tags: {message}", "tags")]
        ) from None
    tags = list(dict.fromkeys(tags))
    if len(tags) > MAX_TAGS:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", f"tags: at most {MAX_TAGS} tags.", "tags")]
        )
    return tags


# --- what happens to a file once it is stored ----------------------------------------------


@dataclass(frozen=True)
class After:
    """`keep` (leave it), `move` (into `target`, under its relative path) or `delete`."""

    action: str = "keep"
    target: Path | None = None

    @classmethod
    def parse(cls, text: str, root: Path) -> After:
        if text in ("keep", "delete"):
            return cls(text)
        if text.startswith("move:") and text[5:].strip():
            target = Path(text[5:].strip()).expanduser().resolve()
            if target == root or root in target.parents:
                raise validation_failed(
                    [
                        FieldError(
                            "VALIDATION_ERROR",
                            "after: the move target must lie outside the imported folder.",
                            "after",
                        )
                    ]
                )
            return cls("move", target)
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", "after: keep, move:DIR or delete.", "after")]
        )

    def for_tenant(self, slug: str) -> After:
        """With one folder per tenant, each tenant's files move into a folder of its own."""
        return After(self.action, self.target / slug) if self.target is not None else self

    def apply(self, path: Path, relative: str) -> None:
        """Move or delete a file whose content is committed; one that is gone already is
        fine (a re-run after a kill between the commit and this)."""
        try:
            if self.action == "delete":
                path.unlink()
            elif self.action == "move":
                assert self.target is not None
                destination = _free_name(self.target / relative)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(path, destination)
        except FileNotFoundError:
            pass


def _readable(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by Python as surrogates, which no
    database column takes) become U+FFFD, and control characters a visible `?`, so that a
    name shown on the operator's terminal cannot move its cursor."""
    text = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return "".join("?" if ord(c) < 32 or ord(c) == 127 else c for c in text)


def _free_name(path: Path) -> Path:
    """`path`, or `name (2).ext` and so on when something is there already."""
    candidate, n = path, 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem} ({n}){path.suffix}")
    return candidate


# --- finding the files ---------------------------------------------------------------------


def scan(root: Path, recursive: bool) -> Iterator[Path]:
    """The folder's candidate files in name order, without following symbolic links to
    directories, skipping hidden and temporary names (and hidden directories)."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except FileNotFoundError:
        return
    for entry in entries:
        if is_ignored(entry.name):
            continue
        if entry.is_dir(follow_symlinks=False):
            if recursive:
                yield from scan(Path(entry.path), recursive)
        else:
            yield Path(entry.path)


# --- importing -----------------------------------------------------------------------------


@dataclass
class Refusal:
    path: str
    reason: str


@dataclass
class Report:
    imported: int = 0
    skipped: int = 0
    refused: list[Refusal] = field(default_factory=list)
    bytes: int = 0


@dataclass
class _Done:
    path: Path
    relative: str
    document_id: str | None  # None: skipped, its bytes were stored already


class _Refused(Exception):
    pass


class FolderImport:
    """One tenant's import from one folder, a batch per commit. `progress(files, bytes)` is
    told of each file handled."""

    def __init__(
        self,
        tenant_id: str,
        root: Path,
        *,
        tags: list[str] | None = None,
        after: After | None = None,
        actor: Actor | None = None,
        progress: Callable[[int, int], None] | None = None,
        on_file: Callable[[str, str, str | None], None] | None = None,
        batch_files: int = BATCH_FILES,
    ) -> None:
        self.tenant_id = tenant_id
        self.root = root
        self.tags = list(tags or [])
        self.after = after or After()
        self.actor = actor or Actor.cli()
        self.progress = progress
        self.on_file = on_file
        self.batch_files = batch_files
        self.report = Report()
        self._batch: list[_Done] = []
        self._batch_bytes = 0
        self._batch_hashes: set[str] = set()

    def run(self, paths: Iterable[Path]) -> Report:
        for path in paths:
            self.add(path)
        self.flush()
        return self.report

    def add(self, path: Path) -> None:
        """Import one file into the open batch; commit when the batch is full."""
        relative = _readable(path.relative_to(self.root).as_posix())
        size = 0
        # One read of the webhook endpoints for the batch's events, not one per document.
        transaction.memoize_until_commit()
        try:
            done, size = self._import(path, relative)
        except _Refused as refusal:
            self._refuse(relative, str(refusal))
        else:
            self._batch.append(done)
            self._batch_bytes += size
        if self.progress is not None:
            self.progress(1, size)
        if len(self._batch) >= self.batch_files or self._batch_bytes >= BATCH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Commit the open batch, then count it and apply `--after` to its files."""
        batch, self._batch, self._batch_bytes = self._batch, [], 0
        self._batch_hashes = set()
        created = [d.document_id for d in batch if d.document_id is not None]
        if created:
            audit_log.record(
                self.tenant_id,
                self.actor,
                "document.folder_imported",
                details={"folder": str(self.root)[:1000], "documents": created},
            )
        transaction.commit()  # a batch at a time: a kill keeps the batches already done
        for done in batch:
            if done.document_id is None:
                self.report.skipped += 1
            else:
                self.report.imported += 1
            self.after.apply(done.path, done.relative)
            if self.on_file is not None:
                outcome = "skipped" if done.document_id is None else "imported"
                self.on_file(outcome, done.relative, None)
        db.session.expunge_all()  # a watcher runs for months: hold no rows between batches

    def _refuse(self, relative: str, reason: str) -> None:
        self.report.refused.append(Refusal(relative, reason))
        if self.on_file is not None:
            self.on_file("refused", relative, reason)

    def _import(self, path: Path, relative: str) -> tuple[_Done, int]:
        max_bytes = current_app.config["DMS_MAX_UPLOAD_BYTES"]
        try:
            # O_NOFOLLOW: a symbolic link planted in the folder never reads outside it;
            # O_NONBLOCK: a named pipe does not hang the import (it is refused below).
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            raise _Refused("gone before it was read") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise _Refused("a symbolic link (links are not followed)") from None
            raise _Refused(f"cannot be read: {exc.strerror}") from None
        with os.fdopen(fd, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise _Refused("not a regular file")
            os.set_blocking(fd, True)
            if info.st_size == 0:
                raise _Refused("empty")
            if info.st_size > max_bytes:
                raise _Refused(f"larger than the upload limit of {max_bytes} bytes")
            self._rolled_back = False
            transaction.after_rollback(self._note_rollback)
            try:
                with uploads.receive_file(self.tenant_id, stream, _readable(path.name)) as received:
                    size = received.blob.size
                    if self._stored(received.blob.sha256):
                        return _Done(path, relative, None), size
                    self._batch_hashes.add(received.blob.sha256)
                    document = create_document(
                        received,
                        self.actor,
                        title=None,
                        tags=self.tags,
                        metadata={},
                        source={"type": SourceType.FOLDER.value, "path": relative[:1000]},
                    )
                    return _Done(path, relative, document.id), size
            except DomainError as exc:
                self._redo_batch_if_rolled_back()
                raise _Refused("; ".join(e.message for e in exc.errors)) from None
            except OSError as exc:
                self._redo_batch_if_rolled_back()
                raise _Refused(f"cannot be read: {exc.strerror or exc}") from None

    def _note_rollback(self) -> None:
        self._rolled_back = True

    def _redo_batch_if_rolled_back(self) -> None:
        """A refusal from inside the upload path rolls the whole unit of work back (and the
        blobs with it): the batch's earlier files are imported again, from their files."""
        if not self._rolled_back:
            return
        earlier, self._batch, self._batch_bytes = self._batch, [], 0
        self._batch_hashes = set()
        for done in earlier:
            try:
                again, size = self._import(done.path, done.relative)
            except _Refused as refusal:
                self._refuse(done.relative, str(refusal))
            else:
                self._batch.append(again)
                self._batch_bytes += size

    def _stored(self, sha256: str) -> bool:
        """Whether any version of the tenant's documents has these bytes: the committed ones,
        or this batch's, which are not written yet (they go out together when it commits)."""
        if sha256 in self._batch_hashes:
            return True
        with db.session.no_autoflush:
            found = db.session.scalar(
                select(DocumentVersion.id)
                .where(
                    DocumentVersion.tenant_id == self.tenant_id, DocumentVersion.sha256 == sha256
                )
                .limit(1)
            )
        return found is not None


def tenant_folders(root: Path) -> Iterator[tuple[str, Path]]:
    """`DIR/<tenant-slug>/`: each visible subfolder's name and path."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except FileNotFoundError:
        return
    for entry in entries:
        if not is_ignored(entry.name) and entry.is_dir(follow_symlinks=False):
            yield entry.name, Path(entry.path)
