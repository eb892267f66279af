"""Owns drawing one file as a thumbnail: WebP, at most 400 x 560 pixels. A PDF's first page,
a JPEG or PNG scaled, the first lines of a text-like file, and a type icon for the rest or
when drawing fails. poppler's pdftoppm draws everything, one page, under a timeout (our own
pages for texts, icons and images: services/thumbnails/pages.py); libwebp encodes
(services/thumbnails/webp.py).

A program run here inherits the work horse's memory ceiling and CPU budget (jobs/worker.py;
services/search/limits.py); a process limit is the one failure raised to the caller."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.search import limits
from services.thumbnails import images, pages, webp

DEFAULT_TIMEOUT = 30.0  # seconds for one pdftoppm run
TEXT_HEAD_BYTES = 16 * 1024  # what a text's first lines are read from
TEXT_TYPES = frozenset(
    {"application/json", "application/xml", "application/javascript", "image/svg+xml"}
)
# Types named by their usual extension on the icon when the file name has none.
_LABELS = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "DOCX",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PPTX",
    "application/msword": "DOC",
    "application/zip": "ZIP",
    "application/octet-stream": "FILE",
}
_PPM = re.compile(rb"P6\s+(\d+)\s+(\d+)\s+255\s")


@dataclass(frozen=True)
class Settings:
    max_pixels: int = images.DEFAULT_MAX_PIXELS
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Settings:
        return cls(
            max_pixels=config.get("DMS_THUMBNAIL_MAX_PIXELS", images.DEFAULT_MAX_PIXELS),
            timeout=config.get("DMS_THUMBNAIL_TIMEOUT", DEFAULT_TIMEOUT),
        )


@dataclass(frozen=True)
class Thumbnail:
    image: bytes  # WebP
    width: int
    height: int
    kind: str  # page, image, text or icon
    error: str | None = None  # why a type icon stands in for the content


class Unavailable(RuntimeError):
    """poppler is not installed: nothing can be drawn (scripts/install-system-packages.sh)."""


def render(path: Path, content_type: str, filename: str, settings: Settings) -> Thumbnail:
    """The thumbnail of the file at `path`. Never raises but for a process limit
    (limits.PROCESS_LIMIT_ERRORS) and a missing poppler or libwebp: whatever the file does
    wrong ends as the type icon with the reason."""
    mime = (content_type or "").partition(";")[0].strip().lower()
    try:
        if mime == "application/pdf":
            return _encode(_draw(Path(path), settings, scale_to=True), "page")
        if mime in ("image/jpeg", "image/png"):
            return _image(Path(path), mime, settings)
        if mime.startswith("text/") or mime in TEXT_TYPES:
            return _text(Path(path), settings)
    except (*limits.PROCESS_LIMIT_ERRORS, Unavailable, webp.EncoderMissing):
        raise
    except images.Unusable as exc:
        return icon(mime, filename, settings, str(exc))
    except Exception as exc:
        return icon(mime, filename, settings, _short_error(exc))
    return icon(mime, filename, settings)


def icon(mime: str, filename: str, settings: Settings, error: str | None = None) -> Thumbnail:
    """The type icon: a sheet with the file's extension (or its type's) across it."""
    with tempfile.TemporaryDirectory(prefix="thumb-") as tmp:
        target = Path(tmp) / "icon.pdf"
        pages.write_pdf(target, pages.icon_page(_label(mime, filename)))
        drawn = _draw(target, settings, scale_to=False)
    return _encode(drawn, "icon", error)


def _label(mime: str, filename: str) -> str:
    extension = Path(filename or "").suffix.lstrip(".")
    if extension.isascii() and extension.isalnum() and len(extension) <= 5:
        return extension
    if mime in _LABELS:
        return _LABELS[mime]
    subtype = mime.partition("/")[2]
    return subtype if subtype.isascii() and subtype.isalnum() else "FILE"


def _image(path: Path, mime: str, settings: Settings) -> Thumbnail:
    with path.open("rb") as fh:
        if mime == "image/png":
            picture = images.png(fh, settings.max_pixels)
        else:
            picture = images.jpeg(fh, path.stat().st_size, settings.max_pixels)
        shown_w, shown_h = picture.width, picture.height
        if picture.rotate in (90, 270):
            shown_w, shown_h = shown_h, shown_w
        scale = min(pages.BOX_WIDTH / shown_w, pages.BOX_HEIGHT / shown_h, 1.0)
        # Whole points, at least one: drawn at 72 dpi they are the thumbnail's pixels.
        width = max(1, int(picture.width * scale))
        height = max(1, int(picture.height * scale))
        objects = pages.image_page(picture.image, width, height, picture.rotate)
        with tempfile.TemporaryDirectory(prefix="thumb-") as tmp:
            target = Path(tmp) / "image.pdf"
            pages.write_pdf(target, [*objects, *picture.extra], source=fh)
            drawn = _draw(target, settings, scale_to=False)
    return _encode(drawn, "image")


def _text(path: Path, settings: Settings) -> Thumbnail:
    with path.open("rb") as fh:
        head = fh.read(TEXT_HEAD_BYTES)
    text = head.decode("utf-8", "replace").removeprefix("\ufeff")
    with tempfile.TemporaryDirectory(prefix="thumb-") as tmp:
        target = Path(tmp) / "text.pdf"
        pages.write_pdf(target, pages.text_page(text))
        drawn = _draw(target, settings, scale_to=False)
    return _encode(drawn, "text")


def _pdftoppm() -> str:
    exe = shutil.which("pdftoppm")
    if exe is None:
        raise Unavailable("pdftoppm (poppler-utils) is not installed")
    return exe


def _draw(pdf: Path, settings: Settings, *, scale_to: bool) -> tuple[int, int, bytes]:
    """(width, height, RGB pixels) of the first page. `scale_to`: fit any page into the box
    (a landscape page is drawn again to the box's width); else at 72 dpi, a point a pixel."""
    if not scale_to:
        drawn = _pdftoppm_run(pdf, ["-r", "72"], settings)
    else:
        drawn = _pdftoppm_run(pdf, ["-scale-to", str(pages.BOX_HEIGHT)], settings)
        if drawn[0] > pages.BOX_WIDTH:
            drawn = _pdftoppm_run(pdf, ["-scale-to", str(pages.BOX_WIDTH)], settings)
    width, height, _ = drawn
    if not (0 < width <= pages.BOX_WIDTH and 0 < height <= pages.BOX_HEIGHT):
        raise RuntimeError(f"pdftoppm drew {width} x {height} pixels")
    return drawn


def _pdftoppm_run(pdf: Path, size: list[str], settings: Settings) -> tuple[int, int, bytes]:
    limits.check_cpu_budget()
    # The first page only; an absolute path is never taken for an option; output on stdout.
    args = [_pdftoppm(), "-f", "1", "-l", "1", "-singlefile", *size, str(pdf.resolve())]
    try:
        done = subprocess.run(  # noqa: S603  (our executable and our own paths; no shell)
            args, capture_output=True, timeout=settings.timeout, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"pdftoppm timed out after {settings.timeout:g}s") from exc
    spent = limits.cpu_budget_exceeded(done.returncode)
    if spent is not None:
        raise spent
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(f"pdftoppm exited {done.returncode}: {detail[-1] if detail else ''}")
    match = _PPM.match(done.stdout)
    if match is None:
        raise RuntimeError("pdftoppm gave no picture")
    width, height = int(match.group(1)), int(match.group(2))
    pixels = done.stdout[match.end() :]
    if len(pixels) != width * height * 3 or width * height > 4 * pages.BOX_WIDTH * pages.BOX_HEIGHT:
        raise RuntimeError(f"pdftoppm gave {width} x {height} pixels in {len(pixels)} bytes")
    return width, height, pixels


def _encode(drawn: tuple[int, int, bytes], kind: str, error: str | None = None) -> Thumbnail:
    width, height, pixels = drawn
    return Thumbnail(webp.encode_rgb(pixels, width, height), width, height, kind, error)


# An absolute path in a message (a blob's, a temporary file's) tells the tenant nothing.
_PATH = re.compile(r"(?<![\w.:/])/[^\s'\"]+")


def _short_error(exc: BaseException, limit: int = 200) -> str:
    message = _PATH.sub("<file>", f"{type(exc).__name__}: {exc}").strip().rstrip(":")
    return message if len(message) <= limit else message[: limit - 1] + "…"
