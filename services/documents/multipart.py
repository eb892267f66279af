"""Owns reading a multipart/form-data upload as a stream: small fields into memory (bounded),
the file part handed over as a file-like object that pulls from the request body on demand,
so a 1 GiB upload never sits in memory or in a second temporary file.

Also fingerprints the upload (every part's name, file name and bytes) for idempotency."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.sansio.multipart import (
    Data,
    Epilogue,
    Field,
    File,
    MultipartDecoder,
    NeedData,
)

from errors import DomainError, FieldError, validation_failed

READ_SIZE = 64 * 1024
MAX_FIELD_BYTES = 64 * 1024  # title, tags and metadata are small
MAX_PARTS = 100
HEAD_BYTES = 64 * 1024  # kept for content sniffing


class MalformedUpload(DomainError):
    def __init__(self, message: str) -> None:
        super().__init__(400, "INVALID_PARAMETER", message, "body")


@dataclass
class UploadedFile:
    """The file part, consumed by whoever stores it (`handle_file` in `read_upload`)."""

    filename: str
    stream: BinaryIO


@dataclass
class ParsedUpload:
    fields: dict[str, list[str]] = field(default_factory=dict)
    file_result: object = None
    file_seen: bool = False
    filename: str | None = None
    head: bytes = b""
    fingerprint: str = ""


class _FilePart:
    """read(n) over one part's data, pulling multipart events as needed."""

    def __init__(self, events: Iterator[object], digest, head_size: int) -> None:
        self._events = events
        self._digest = digest
        self._buffer = bytearray()
        self._done = False
        self.head = bytearray()
        self._head_size = head_size

    def read(self, size: int = -1) -> bytes:
        while not self._done and (size < 0 or len(self._buffer) < size):
            event = next(self._events)
            if not isinstance(event, Data):
                raise MalformedUpload("The multipart body is malformed.")
            self._take(event.data)
            if not event.more_data:
                self._done = True
        if size < 0 or size >= len(self._buffer):
            out = bytes(self._buffer)
            self._buffer.clear()
        else:
            out = bytes(self._buffer[:size])
            del self._buffer[:size]
        return out

    def _take(self, data: bytes) -> None:
        self._digest.update(data)
        if len(self.head) < self._head_size:
            self.head.extend(data[: self._head_size - len(self.head)])
        self._buffer.extend(data)

    def drain(self) -> None:
        while not self._done:
            self.read(READ_SIZE)
            self._buffer.clear()


def boundary_of(mimetype: str, options: dict[str, str]) -> bytes:
    """The multipart boundary, or 415 when the body is not multipart/form-data."""
    if mimetype != "multipart/form-data":
        raise DomainError(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            "Upload with Content-Type multipart/form-data (a 'file' part).",
        )
    boundary = options.get("boundary", "")
    if not boundary or len(boundary) > 200:
        raise MalformedUpload("The multipart boundary is missing or invalid.")
    return boundary.encode("latin-1")


def read_upload(
    stream: BinaryIO,
    boundary: bytes,
    handle_file: Callable[[UploadedFile], object] | None,
    *,
    file_field: str = "file",
) -> ParsedUpload:
    """Parse the whole body; the part named `file_field` goes to `handle_file` (or is only
    hashed, when None: replays of an idempotent upload). Only one file part is accepted."""
    parsed = ParsedUpload()
    fingerprint = hashlib.sha256()
    events = _events(stream, boundary)
    for event in events:
        if isinstance(event, Epilogue):
            break
        if not isinstance(event, Field | File):
            continue
        name = event.name or ""
        _hash_part(fingerprint, b"F" if isinstance(event, File) else b"f", name)
        if isinstance(event, File):
            if name != file_field or parsed.file_seen:
                raise validation_failed(
                    [FieldError("VALIDATION_ERROR", f"Unexpected file part {name!r}.", name)]
                )
            parsed.file_seen = True
            parsed.filename = event.filename or ""
            _hash_part(fingerprint, b"n", parsed.filename)
            content = hashlib.sha256()
            part = _FilePart(events, content, HEAD_BYTES)
            if handle_file is not None:
                parsed.file_result = handle_file(UploadedFile(parsed.filename, part))  # type: ignore[arg-type]
            part.drain()
            parsed.head = bytes(part.head)
            _hash_part(fingerprint, b"c", content.hexdigest())
        else:
            value = _read_field(events, name)
            parsed.fields.setdefault(name, []).append(value)
            _hash_part(fingerprint, b"v", value)
    parsed.fingerprint = fingerprint.hexdigest()
    return parsed


def _hash_part(digest, kind: bytes, value: str) -> None:
    data = value.encode("utf-8", "surrogateescape")
    digest.update(kind + len(data).to_bytes(8, "big") + data)


def _read_field(events: Iterator[object], name: str) -> str:
    chunks = bytearray()
    for event in events:
        if not isinstance(event, Data):
            raise MalformedUpload("The multipart body is malformed.")
        chunks.extend(event.data)
        if len(chunks) > MAX_FIELD_BYTES:
            raise DomainError(
                413, "PAYLOAD_TOO_LARGE", f"Form field {name!r} is over {MAX_FIELD_BYTES} bytes."
            )
        if not event.more_data:
            break
    try:
        return chunks.decode("utf-8")
    except UnicodeDecodeError:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", "Form fields must be UTF-8 text.", name)]
        ) from None


def _events(stream: BinaryIO, boundary: bytes) -> Iterator[object]:
    decoder = MultipartDecoder(boundary, max_form_memory_size=None, max_parts=MAX_PARTS)
    ended = False
    while True:
        try:
            event = decoder.next_event()
        except RequestEntityTooLarge:
            raise DomainError(413, "PAYLOAD_TOO_LARGE", "Too many form parts.") from None
        except ValueError:
            raise MalformedUpload("The multipart body is malformed or truncated.") from None
        if isinstance(event, NeedData):
            if ended:
                raise MalformedUpload("The multipart body is truncated.")
            chunk = stream.read(READ_SIZE)
            if chunk:
                decoder.receive_data(chunk)
            else:
                ended = True
                decoder.receive_data(None)
            continue
        yield event
        if isinstance(event, Epilogue):
            return
