"""Receiving an upload: the multipart body's file part streamed into the tenant's blob store,
its type sniffed from the bytes, its name cleaned for display, and the blob discarded again
if nothing ends up using it."""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from typing import BinaryIO

from flask import current_app

from errors import DomainError, FieldError, validation_failed
from extensions import db
from services.core import transaction
from services.documents import multipart, sniffing
from services.documents.blobs import blob_store, delete_if_unused
from services.documents.storage import BlobTooLarge, LocalBlobStore, StoredBlob

MAX_FILENAME_CHARS = 255
_UNSAFE_FILENAME_CHARS = re.compile(r'[\x00-\x1f\x7f"\\/:*?<>|]')


def clean_filename(raw: str | None) -> str:
    """The client's file name reduced to a display name: last path component, no control or
    shell-special characters, NFC, at most 255 characters. It is never used as a path."""
    name = unicodedata.normalize("NFC", raw or "")
    name = PureWindowsPath(PurePosixPath(name).name).name  # drop both kinds of directories
    name = _UNSAFE_FILENAME_CHARS.sub("_", name).strip(" .")
    return name[:MAX_FILENAME_CHARS] or "upload"


# --- receiving uploads -------------------------------------------------------------------------


@dataclass
class ReceivedUpload:
    """A parsed upload whose file is already in the blob store."""

    tenant_id: str
    fields: dict[str, list[str]]
    blob: StoredBlob
    filename: str
    content_type: str
    fingerprint: str


@contextlib.contextmanager
def receive_upload(
    tenant_id: str, stream: BinaryIO, mimetype: str, options: dict[str, str]
) -> Iterator[ReceivedUpload]:
    """Stream the multipart body's `file` part into the blob store, chunk by chunk.

    413 PAYLOAD_TOO_LARGE as soon as the file passes DMS_MAX_UPLOAD_BYTES (the rest is never
    read); 415 when the body is not multipart; 422 when there is no file part, or a second
    one. Whatever fails, during the parse, in the block, or when the unit of work rolls back
    later, the stored blob is removed again unless a committed document uses it."""
    boundary = multipart.boundary_of(mimetype, options)
    saved: list[StoredBlob] = []

    def save(part: multipart.UploadedFile) -> StoredBlob:
        blob = _save(tenant_id, part.stream)
        saved.append(blob)
        return blob

    try:
        parsed = multipart.read_upload(stream, boundary, save)
        if not parsed.file_seen:
            raise validation_failed(
                [FieldError("VALIDATION_ERROR", "Send the content as a 'file' part.", "file")]
            )
        blob: StoredBlob = parsed.file_result  # type: ignore[assignment]
        filename = clean_filename(parsed.filename)
        yield ReceivedUpload(
            tenant_id=tenant_id,
            fields=parsed.fields,
            blob=blob,
            filename=filename,
            content_type=_sniff(tenant_id, blob, parsed.head, filename),
            fingerprint=parsed.fingerprint,
        )
    except BaseException:
        db.session.rollback()
        for blob in saved:
            _discard(tenant_id, blob)
        raise


@contextlib.contextmanager
def receive_file(tenant_id: str, stream: BinaryIO, filename: str) -> Iterator[ReceivedUpload]:
    """A file that did not arrive as a multipart body (an import, a form's file field, a
    test's factory), received with the same limits, sniffing and clean-up as an upload."""
    blob = _save(tenant_id, stream)
    try:
        name = clean_filename(filename)
        with blob_store().open(tenant_id, blob.sha256) as fh:
            head = fh.read(multipart.HEAD_BYTES)
        yield ReceivedUpload(
            tenant_id=tenant_id,
            fields={},
            blob=blob,
            filename=name,
            content_type=_sniff(tenant_id, blob, head, name),
            fingerprint=blob.sha256,
        )
    except BaseException:
        db.session.rollback()
        _discard(tenant_id, blob)
        raise


def _save(tenant_id: str, stream: BinaryIO) -> StoredBlob:
    store = blob_store()
    max_bytes = current_app.config["DMS_MAX_UPLOAD_BYTES"]
    try:
        blob = store.save(tenant_id, stream, max_bytes)
    except BlobTooLarge:
        raise DomainError(
            413, "PAYLOAD_TOO_LARGE", f"Uploads are limited to {max_bytes} bytes.", "file"
        ) from None
    # The upload holds a copy of its blob until its unit of work ends, so a concurrent delete
    # of the same bytes (purge, a failed twin upload) cannot leave it without one; a unit of
    # work that rolls back takes its blob with it.
    transaction.after_commit(lambda: store.release(tenant_id, blob, committed=True))
    transaction.after_rollback(lambda: _discard(tenant_id, blob))
    return blob


def _discard(tenant_id: str, blob: StoredBlob) -> None:
    """Drop an upload's hold on its blob and the blob itself unless a committed row uses it
    (on a connection of its own: safe inside a rollback). Idempotent."""
    blob_store().release(tenant_id, blob, committed=False)
    delete_if_unused(tenant_id, blob.sha256)


def upload_fingerprint(stream: BinaryIO, mimetype: str, options: dict[str, str]) -> str:
    """The fingerprint `receive_upload` would compute, reading the body without storing it."""
    return multipart.read_upload(stream, multipart.boundary_of(mimetype, options), None).fingerprint


def _sniff(tenant_id: str, blob: StoredBlob, head: bytes, filename: str) -> str:
    # By content only; the name may only refine text/plain (sniffing.sniff_content_type).
    # The upload's own guard copy: the shared blob may be mid-delete by someone else.
    if isinstance(blob_store(), LocalBlobStore) and blob.guard is not None:
        return sniffing.sniff_content_type(blob.guard, filename)
    return sniffing.sniff_content_type(head, filename)
