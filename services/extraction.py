"""Owns turning a stored document's bytes into plain text for indexing, and sniffing its type."""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

DEFAULT_MAX_CHARS = 2_000_000
DEFAULT_OCR_TIMEOUT = 120.0  # seconds per tesseract/pdftoppm call
OCR_DPI = 300  # what Tesseract is tuned for

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_DOCX_MAIN_PART = (
    b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
)
OCR_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/tiff"})
# python-docx loads every part into memory; declared sizes are enforced by zipfile on read.
MAX_DOCX_UNCOMPRESSED = 512 * 1024 * 1024

Status = Literal["done", "unsupported", "failed"]


@dataclass(frozen=True)
class ExtractionResult:
    status: Status
    text: str = ""
    error: str | None = None
    truncated: bool = False


class _Unsupported(Exception):
    """Raised inside an extractor when the input is valid but cannot be turned into text here."""


def extract_text(
    path: Path,
    content_type: str,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    ocr_timeout: float = DEFAULT_OCR_TIMEOUT,
) -> ExtractionResult:
    """Extract plain text from the file at `path`; never raises.

    `content_type` should come from `sniff_content_type`, not from the client.
    """
    mime = (content_type or "").partition(";")[0].strip().lower()
    extractor = _EXTRACTORS.get(mime)
    if extractor is None:
        return ExtractionResult("unsupported", error=f"no extractor for {mime or 'empty type'}")
    try:
        text = extractor(Path(path), max_chars, ocr_timeout)
    except _Unsupported as exc:
        return ExtractionResult("unsupported", error=str(exc))
    except Exception as exc:
        return ExtractionResult("failed", error=_short_error(exc))
    # PostgreSQL text columns reject NUL, and some PDFs produce it.
    text = text.replace("\x00", "")
    truncated = len(text) > max_chars
    return ExtractionResult("done", text=text[:max_chars], truncated=truncated)


def _short_error(exc: BaseException, limit: int = 200) -> str:
    message = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
    return message if len(message) <= limit else message[: limit - 1] + "…"


# --- plain text --------------------------------------------------------------------------------


def _read_text(path: Path, max_chars: int) -> str:
    # Every supported encoding needs at most 4 bytes per character, so this bounds memory
    # without cutting text that would have fit under max_chars.
    limit = max_chars * 4 + 4
    with path.open("rb") as fh:
        data = fh.read(limit + 1)
    truncated = len(data) > limit
    return decode_text(data[:limit], final=not truncated)


def decode_text(data: bytes, *, final: bool = True) -> str:
    """Decode bytes: a BOM's encoding, else UTF-8, else cp1252, else latin-1.

    With final=False a multi-byte sequence cut at the end of `data` is dropped, not an error.
    """
    if data.startswith(codecs.BOM_UTF8):
        candidates = ["utf-8-sig"]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        candidates = ["utf-16"]
    else:
        candidates = []
    # latin-1 maps every byte, so the chain always ends in a result.
    candidates += ["utf-8", "cp1252", "latin-1"]
    for encoding in candidates:
        try:
            return codecs.getincrementaldecoder(encoding)().decode(data, final=final)
        except UnicodeDecodeError:
            continue
    raise AssertionError("unreachable: latin-1 decodes any bytes")


def _normalize_lines(lines: Iterable[str]) -> str:
    cleaned = (re.sub(r"[ \t\r\f\v\xa0]+", " ", line).strip() for line in lines)
    return "\n".join(line for line in cleaned if line)


# --- markdown, csv, html -----------------------------------------------------------------------


def _markdown_to_text(source: str) -> str:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    parts: list[str] = []
    for token in md.parse(source):
        if token.type == "inline":
            for child in token.children or []:
                if child.type in ("text", "code_inline"):
                    parts.append(child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    parts.append("\n")
                elif child.type == "image":
                    # The alt text is the image's words; the URL is not.
                    parts.append(child.content)
        elif token.type in ("fence", "code_block"):
            parts.append(token.content + "\n")
        elif token.type == "html_block":
            parts.append(_html_to_text(token.content) + "\n")
        elif token.type in ("th_close", "td_close"):
            parts.append(" ")
        elif token.nesting == -1 and token.block:
            parts.append("\n")
    return _normalize_lines("".join(parts).splitlines())


def _csv_to_text(source: str) -> str:
    sample = source[: 64 * 1024]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = csv.reader(io.StringIO(source, newline=""), dialect)
        return _normalize_lines(" ".join(cell for cell in row if cell.strip()) for row in rows)
    except csv.Error:
        # Malformed CSV (or a field over the csv module's size limit) is still useful as text.
        return _normalize_lines(source.splitlines())


_HTML_DROP = ("script", "style", "noscript", "template")
_HTML_BLOCKS = (
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "figcaption",
    "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
    "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "title", "tr", "ul",
)  # fmt: skip


def _html_to_text(source: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(source, "html.parser")
    for tag in soup.find_all(_HTML_DROP):
        tag.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    # Block boundaries become line breaks so "<p>a</p><p>b</p>" does not read as "ab".
    for tag in soup.find_all(_HTML_BLOCKS):
        tag.insert_before("\n")
        tag.insert_after("\n")
    return _normalize_lines(soup.get_text().splitlines())


# --- pdf, docx ---------------------------------------------------------------------------------


def _pdf_to_text(path: Path, max_chars: int, ocr_timeout: float) -> str:
    from pypdf import PdfReader

    reader = PdfReader(path)
    if reader.is_encrypted and not reader.decrypt(""):
        raise _Unsupported("PDF is encrypted with a password")
    pages: list[str] = []
    total = 0
    for page in reader.pages:
        page_text = page.extract_text() or ""
        pages.append(page_text)
        total += len(page_text)
        if total > max_chars:
            break
    text = "\n\n".join(p.strip() for p in pages)
    if text.strip():
        return text
    return _ocr_pdf(path, len(reader.pages), max_chars, ocr_timeout)


def _docx_to_text(path: Path) -> str:
    import docx

    with zipfile.ZipFile(path) as zf:
        if sum(info.file_size for info in zf.infolist()) > MAX_DOCX_UNCOMPRESSED:
            raise ValueError("DOCX expands beyond the allowed size")
    document = docx.Document(str(path))
    lines: list[str] = []
    _docx_blocks(document.iter_inner_content(), lines)
    return _normalize_lines(lines)


def _docx_blocks(blocks: Iterable[object], lines: list[str]) -> None:
    from docx.table import Table

    for block in blocks:
        if isinstance(block, Table):
            for row in block.rows:
                seen: set[int] = set()
                cells: list[str] = []
                for cell in row.cells:
                    # A merged cell is returned once per grid column it spans.
                    if id(cell._tc) in seen:
                        continue
                    seen.add(id(cell._tc))
                    cell_lines: list[str] = []
                    _docx_blocks(cell.iter_inner_content(), cell_lines)
                    cells.append(" ".join(cell_lines))
                lines.append(" ".join(c for c in cells if c))
        else:
            lines.append(getattr(block, "text", ""))


# --- OCR ---------------------------------------------------------------------------------------


def _tesseract() -> str:
    # Looked up per call so installing Tesseract needs no restart, and tests can simulate both.
    exe = shutil.which("tesseract")
    if exe is None:
        raise _Unsupported("OCR unavailable: tesseract is not installed")
    return exe


def _run(args: list[str], timeout: float) -> bytes:
    # Tesseract's OpenMP threads fight each other when several workers OCR at once.
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        # Arguments are an absolute executable path and our own file paths; no shell.
        done = subprocess.run(  # noqa: S603
            args, capture_output=True, timeout=timeout, check=False, env=env
        )
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"{Path(args[0]).name} timed out after {timeout:g}s") from exc
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(
            f"{Path(args[0]).name} exited {done.returncode}: {detail[-1] if detail else ''}"
        )
    return done.stdout


def _ocr_image(path: Path, timeout: float) -> str:
    exe = _tesseract()
    # An absolute path can never be mistaken for a command-line option.
    out = _run([exe, str(path.resolve()), "stdout"], timeout)
    return _normalize_lines(out.decode("utf-8", "replace").splitlines())


def _ocr_pdf(path: Path, page_count: int, max_chars: int, timeout: float) -> str:
    tesseract = _tesseract()
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        raise _Unsupported("PDF has no text layer and pdftoppm is not installed for OCR")
    pages: list[str] = []
    total = 0
    with tempfile.TemporaryDirectory(prefix="ocr-") as tmp:
        # One page at a time bounds disk use and lets the char cap stop the work early.
        for number in range(1, page_count + 1):
            prefix = Path(tmp) / f"page-{number}"
            args = [pdftoppm, "-r", str(OCR_DPI), "-gray", "-png", "-singlefile"]
            args += ["-f", str(number), "-l", str(number), str(path.resolve()), str(prefix)]
            _run(args, timeout)
            image = prefix.with_suffix(".png")
            out = _run([tesseract, str(image), "stdout"], timeout)
            image.unlink(missing_ok=True)
            page_text = _normalize_lines(out.decode("utf-8", "replace").splitlines())
            pages.append(page_text)
            total += len(page_text)
            if total > max_chars:
                break
    return "\n\n".join(pages)


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


def _libmagic():
    """A fresh libmagic handle, closed (and its database unmapped) when dropped.

    Opening one costs about 0.3 ms: the compiled database is mapped, not parsed. Keeping one
    per process would keep those 8 MiB of mapped pages in every web worker's RSS after its
    first upload, for a call made once per upload."""
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


_EXTRACTORS: dict[str, Callable[[Path, int, float], str]] = {
    "text/plain": lambda path, max_chars, _: _read_text(path, max_chars),
    "text/markdown": lambda path, max_chars, _: _markdown_to_text(_read_text(path, max_chars)),
    "text/csv": lambda path, max_chars, _: _csv_to_text(_read_text(path, max_chars)),
    "text/html": lambda path, max_chars, _: _html_to_text(_read_text(path, max_chars)),
    "application/pdf": _pdf_to_text,
    DOCX: lambda path, _, __: _docx_to_text(path),
    **{mime: lambda path, _, timeout: _ocr_image(path, timeout) for mime in OCR_IMAGE_TYPES},
}
# Images count as supported even without Tesseract: that is decided per call.
SUPPORTED_TYPES = frozenset(_EXTRACTORS)
