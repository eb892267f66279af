"""Owns OCR: images and the pages of scanned PDFs read by Tesseract (pages rendered by
poppler's pdftoppm), one program run at a time, within the OCR page budget and the work
horse's CPU budget (services/search/limits.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from services.search import limits
from services.search.limits import Budgets
from services.search.plain_text import normalize_lines

OCR_DPI = 300  # what Tesseract is tuned for
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/tiff"})


class OcrUnavailable(Exception):
    """A program OCR needs is not installed: the document is unsupported, not failed."""


def tesseract() -> str:
    # Looked up per call so installing Tesseract needs no restart, and tests can simulate both.
    exe = shutil.which("tesseract")
    if exe is None:
        raise OcrUnavailable("OCR unavailable: tesseract is not installed")
    return exe


def pdftoppm() -> str:
    exe = shutil.which("pdftoppm")
    if exe is None:
        raise OcrUnavailable("PDF has no text layer and pdftoppm is not installed for OCR")
    return exe


def require_tools(content_type: str) -> None:
    """Raise OcrUnavailable now rather than queue OCR that cannot run."""
    tesseract()
    if content_type == "application/pdf":
        pdftoppm()


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
    # The program inherits the horse's CPU limit; the kernel stopping it there is our limit.
    spent = limits.cpu_budget_exceeded(done.returncode)
    if spent is not None:
        raise spent
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(
            f"{Path(args[0]).name} exited {done.returncode}: {detail[-1] if detail else ''}"
        )
    return done.stdout


def ocr_image(path: Path, budgets: Budgets) -> tuple[str, bool]:
    exe = tesseract()
    # An absolute path can never be mistaken for a command-line option.
    out = _run([exe, str(path.resolve()), "stdout"], budgets.ocr_timeout)
    text = normalize_lines(out.decode("utf-8", "replace").splitlines())
    return text, len(text) > budgets.max_chars


def ocr_pdf(path: Path, page_count: int, budgets: Budgets) -> tuple[str, bool]:
    """(text, cut by a budget) of the first `DMS_OCR_MAX_PAGES` pages, rendered one by one."""
    exe, render = tesseract(), pdftoppm()
    pages: list[str] = []
    total = 0
    cut = page_count > budgets.ocr_max_pages
    with tempfile.TemporaryDirectory(prefix="ocr-") as tmp:
        # One page at a time bounds disk use and lets the budgets stop the work early.
        for number in range(1, min(page_count, budgets.ocr_max_pages) + 1):
            limits.check_cpu_budget()
            prefix = Path(tmp) / f"page-{number}"
            args = [render, "-r", str(OCR_DPI), "-gray", "-png", "-singlefile"]
            args += ["-f", str(number), "-l", str(number), str(path.resolve()), str(prefix)]
            _run(args, budgets.ocr_timeout)
            image = prefix.with_suffix(".png")
            out = _run([exe, str(image), "stdout"], budgets.ocr_timeout)
            image.unlink(missing_ok=True)
            page_text = normalize_lines(out.decode("utf-8", "replace").splitlines())
            pages.append(page_text)
            total += len(page_text)
            if total > budgets.max_chars:
                cut = True
                break
    return "\n\n".join(pages), cut
