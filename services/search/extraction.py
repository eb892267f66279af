"""Owns turning a stored document's bytes into plain text for indexing (the type comes from
services/documents/sniffing.py, decided at upload), within the budgets of
services/search/limits.py. The formats live beside it: plain_text.py (text, Markdown, CSV,
HTML), docx_text.py, ocr.py; the PDF text layer is here.

Two stages, so that OCR can run on its own queue: `extract_text(..., ocr=False)` answers
`needs_ocr` for an image or a PDF without a text layer, and `ocr_text` does the OCR."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from services.documents.sniffing import DOCX
from services.search import limits, ocr, plain_text
from services.search.docx_text import docx_text
from services.search.limits import Budgets, LimitExceeded

if TYPE_CHECKING:
    from pypdf import PdfReader

Status = Literal["done", "unsupported", "failed", "needs_ocr"]


@dataclass(frozen=True)
class ExtractionResult:
    status: Status
    text: str = ""
    error: str | None = None
    truncated: bool = False  # a budget cut the text (or the pages read)


class _Unsupported(Exception):
    """Raised inside an extractor when the input is valid but cannot be turned into text here."""


class _NeedsOcr(Exception):
    """Raised by the text stage when only OCR can read the document."""


# (text, cut by a budget) from a file; the `bool` says whether OCR may run in this call.
Extractor = Callable[[Path, Budgets, bool], tuple[str, bool]]


def extract_text(
    path: Path, content_type: str, budgets: Budgets | None = None, *, ocr: bool = True
) -> ExtractionResult:
    """Extract plain text from the file at `path`; never raises.

    `content_type` should come from `sniff_content_type`, not from the client. With
    `ocr=False`, a document only OCR can read answers status `needs_ocr` (when the OCR
    programs are installed), for `ocr_text` to finish elsewhere."""
    mime = _mime(content_type)
    extractor = _EXTRACTORS.get(mime)
    if extractor is None:
        return ExtractionResult("unsupported", error=f"no extractor for {mime or 'empty type'}")
    budgets = budgets or Budgets()
    return _outcome(lambda: extractor(Path(path), budgets, ocr), budgets)


def ocr_text(path: Path, content_type: str, budgets: Budgets | None = None) -> ExtractionResult:
    """The OCR stage: an image, or a PDF's pages rendered and read; never raises."""
    mime = _mime(content_type)
    budgets = budgets or Budgets()
    if mime in ocr.IMAGE_TYPES:
        return _outcome(lambda: ocr.ocr_image(Path(path), budgets), budgets)
    if mime == "application/pdf":
        return _outcome(lambda: ocr.ocr_pdf(Path(path), _pdf_page_count(path), budgets), budgets)
    return ExtractionResult("unsupported", error=f"no OCR for {mime or 'empty type'}")


def _mime(content_type: str) -> str:
    return (content_type or "").partition(";")[0].strip().lower()


def _outcome(work: Callable[[], tuple[str, bool]], budgets: Budgets) -> ExtractionResult:
    try:
        text, cut = work()
    except _NeedsOcr:
        return ExtractionResult("needs_ocr")
    except (_Unsupported, ocr.OcrUnavailable) as exc:
        return ExtractionResult("unsupported", error=str(exc))
    except LimitExceeded as exc:
        return ExtractionResult("failed", error=str(exc))
    except limits.PROCESS_LIMIT_ERRORS as exc:
        limits.stand_down()
        return ExtractionResult("failed", error=limits.reason(exc))
    except Exception as exc:
        return ExtractionResult("failed", error=_short_error(exc))
    # PostgreSQL text columns reject NUL, and some PDFs produce it.
    text = text.replace("\x00", "")
    truncated = cut or len(text) > budgets.max_chars
    return ExtractionResult("done", text=text[: budgets.max_chars], truncated=truncated)


# An absolute path in a message (a blob's, a temporary file's) tells the tenant nothing.
_PATH = re.compile(r"(?<![\w.:/])/[^\s'\"]+")


def _short_error(exc: BaseException, limit: int = 200) -> str:
    message = _PATH.sub("<file>", f"{type(exc).__name__}: {exc}").strip().rstrip(":")
    return message if len(message) <= limit else message[: limit - 1] + "…"


# --- pdf ---------------------------------------------------------------------------------------


def _pdf_to_text(path: Path, budgets: Budgets, may_ocr: bool) -> tuple[str, bool]:
    reader = _open_pdf(path)
    page_count = len(reader.pages)
    pages: list[str] = []
    total = 0
    cut = page_count > budgets.max_pages
    for number in range(min(page_count, budgets.max_pages)):
        page_text = (reader.pages[number].extract_text() or "").strip()
        pages.append(page_text)
        total += len(page_text)
        if total > budgets.max_chars:
            cut = True
            break
    text = "\n\n".join(pages)
    if text.strip():
        return text, cut
    return _ocr_or_hand_off(path, "application/pdf", may_ocr, budgets, page_count)


def _open_pdf(path: Path) -> PdfReader:
    from pypdf import PdfReader

    reader = PdfReader(path)
    if reader.is_encrypted and not reader.decrypt(""):
        raise _Unsupported("PDF is encrypted with a password")
    return reader


def _pdf_page_count(path: Path) -> int:
    return len(_open_pdf(Path(path)).pages)


def _ocr_or_hand_off(
    path: Path, mime: str, may_ocr: bool, budgets: Budgets, page_count: int = 1
) -> tuple[str, bool]:
    ocr.require_tools(mime)  # unsupported now, rather than OCR queued that cannot run
    if not may_ocr:
        raise _NeedsOcr
    if mime == "application/pdf":
        return ocr.ocr_pdf(path, page_count, budgets)
    return ocr.ocr_image(path, budgets)


def _text_format(convert: Callable[[str], str]) -> Extractor:
    def extract(path: Path, budgets: Budgets, _: bool) -> tuple[str, bool]:
        return convert(plain_text.read_text(path, budgets.max_chars)), False

    return extract


_EXTRACTORS: dict[str, Extractor] = {
    "text/plain": _text_format(lambda text: text),
    "text/markdown": _text_format(plain_text.markdown_to_text),
    "text/csv": _text_format(plain_text.csv_to_text),
    "text/html": _text_format(plain_text.html_to_text),
    "application/pdf": _pdf_to_text,
    DOCX: lambda path, budgets, _: docx_text(path, budgets),
    **{
        mime: lambda path, budgets, may_ocr, mime=mime: _ocr_or_hand_off(
            path, mime, may_ocr, budgets
        )
        for mime in ocr.IMAGE_TYPES
    },
}
# Images count as supported even without Tesseract: that is decided per call.
SUPPORTED_TYPES = frozenset(_EXTRACTORS)
