"""Owns deciding what a stored file is: its MIME type, from its bytes (libmagic, through
python-magic; the system library libmagic1 must be installed), never from the client."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_DOCX_MAIN_PART = (
    b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
)

# --- sniffing ----------------------------------------------------------------------------------

_ZIP_TYPES = frozenset(
    {"application/zip", "application/x-zip-compressed", "application/octet-stream"}
)
_TEXT_HINTS = {".md": "text/markdown", ".markdown": "text/markdown", ".csv": "text/csv"}


def sniff_content_type(
    path_or_bytes: Path | str | bytes | bytearray | memoryview, filename_hint: str | None = None
) -> str:
    """MIME type of a file (path) or of its leading bytes, decided by content.

    The client's file name may only turn text/plain into text/markdown or text/csv: those
    cannot be told apart by bytes. It never changes any other type, so a renamed executable
    or archive is not promoted to a type we would parse as something else.
    """
    if isinstance(path_or_bytes, bytes | bytearray | memoryview):
        data: bytes | None = bytes(path_or_bytes)
        mime = _libmagic().from_buffer(data)
    else:
        data = None
        mime = _libmagic().from_file(str(path_or_bytes))
    mime = (mime or "application/octet-stream").lower()

    # libmagic reports DOCX as zip, octet-stream or DOCX depending on its version and the
    # member order; for the first two the package's own [Content_Types].xml decides.
    if mime in _ZIP_TYPES and _is_docx(data if data is not None else Path(path_or_bytes)):
        return DOCX

    if mime == "text/plain" and filename_hint:
        return _TEXT_HINTS.get(Path(filename_hint).suffix.lower(), mime)
    return mime


# libmagic reads up to this much of a file into memory (its own default is 7 MiB since 5.4x).
# Every signature we act on is in the first few KiB; DOCX is decided from the ZIP directory.
SNIFF_BYTES_MAX = 1 << 20


_kept: list = []  # the one handle of a process that keeps one (keep_one_handle)


def keep_one_handle() -> None:
    """For a process that sniffs file after file (the folder import): one libmagic handle
    for all of them, rather than one per file, whose mapped database each first sniff faults
    in again (1.5 ms a file). A handle is not shared between threads: such a process sniffs
    in one."""
    if not _kept:
        _kept.append(_libmagic())


def _libmagic():
    """The kept handle, or a fresh one, closed (and its database unmapped) when dropped.

    Keeping one in every process would keep those 8 MiB of mapped pages in each web worker's
    RSS after its first upload, for a call made once per upload."""
    if _kept:
        return _kept[0]
    import magic

    handle = magic.Magic(mime=True)
    handle.setparam(magic.MAGIC_PARAM_BYTES_MAX, SNIFF_BYTES_MAX)
    return handle


def _is_docx(source: bytes | Path) -> bool:
    archive = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        with zipfile.ZipFile(archive) as zf, zf.open("[Content_Types].xml") as fh:
            return _DOCX_MAIN_PART in fh.read(1 << 20)
    except Exception:
        # Hostile or damaged archives raise all sorts (zlib, EOF, NotImplemented); none is DOCX.
        return False
