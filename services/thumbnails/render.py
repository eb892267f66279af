"""Owns drawing one file as a thumbnail: WebP, at most 400 x 560 pixels. A PDF's first page
(poppler's pdftoppm draws it), a picture Pillow reads (JPEG, PNG, GIF, TIFF, WebP, BMP)
scaled, the first lines of a text-like file, and a type icon for the rest or when drawing
fails; Pillow draws the text and the icon and writes every WebP.

A picture over the pixel budget is refused from its header, before anything is decoded
(Pillow's decompression-bomb rule). Whatever runs here inherits the work horse's memory
ceiling and CPU budget (jobs/worker.py; services/search/limits.py); a process limit is the
one failure raised to the caller."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from PIL import (
    BmpImagePlugin,
    ExifTags,
    GifImagePlugin,
    Image,
    ImageDraw,
    ImageFont,
    ImageOps,
    JpegImagePlugin,
    PngImagePlugin,
    PpmImagePlugin,
    TiffImagePlugin,
    WebPImagePlugin,
    features,
)

from services.search import limits

BOX = (400, 560)  # the thumbnail's largest width and height
DEFAULT_MAX_PIXELS = 89_478_485  # Pillow's own MAX_IMAGE_PIXELS (a 9,460 x 9,460 square)
DEFAULT_TIMEOUT = 30.0  # seconds for one pdftoppm run
TEXT_HEAD_BYTES = 16 * 1024  # what a text's first lines are read from
TEXT_TYPES = frozenset(
    {"application/json", "application/xml", "application/javascript", "image/svg+xml"}
)
IMAGE_TYPES = frozenset(
    {
        "image/jpeg",
        "image/png",
        "image/apng",
        "image/gif",
        "image/tiff",
        "image/webp",
        "image/bmp",
        "image/x-ms-bmp",
    }
)
# The only decoders a stored file may reach (a JPEG with several pictures, MPO, comes through
# JPEG's); imported here so that opening a file never loads Pillow's other plugins.
IMAGE_FORMATS = tuple(
    plugin.format
    for plugin in (
        JpegImagePlugin.JpegImageFile,
        PngImagePlugin.PngImageFile,
        GifImagePlugin.GifImageFile,
        TiffImagePlugin.TiffImageFile,
        WebPImagePlugin.WebPImageFile,
        BmpImagePlugin.BmpImageFile,
    )
)
# A large picture is reduced by whole steps (box averages) to at least twice the box, then
# resampled: as Pillow's own thumbnail() does, close to a fair resampling and much faster.
REDUCING_GAP = 2
# Pixels converted at a time, so that no second full-size copy of a picture is ever made.
STRIP_PIXELS = 1 << 20
WEBP_QUALITY = 80
WEBP_METHOD = 2  # of 0 (fastest) to 6: as small as 4 at a box's size, in a quarter of the time
# Drawn pages (text, icons): few flat colours, which lossless WebP keeps sharp in a fraction of
# the lossy bytes (a dense text page: about 10 kB against 67), and encodes in half the time.
DRAWN_KINDS = frozenset({"text", "icon"})
WHITE = (255, 255, 255)
# Types named by their usual extension on the icon when the file name has none.
_LABELS = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "DOCX",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PPTX",
    "application/msword": "DOC",
    "application/zip": "ZIP",
    "application/octet-stream": "FILE",
}


@dataclass(frozen=True)
class Settings:
    max_pixels: int = DEFAULT_MAX_PIXELS
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Settings:
        return cls(
            max_pixels=config.get("DMS_THUMBNAIL_MAX_PIXELS", DEFAULT_MAX_PIXELS),
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
    """A program or codec the drawing needs is missing: pdftoppm (poppler-utils,
    scripts/install-system-packages.sh) for a PDF, Pillow's WebP support for any picture."""


class TooLarge(Exception):
    """The picture declares more pixels than the budget: refused before it is decoded."""


def render(path: Path, content_type: str, filename: str, settings: Settings) -> Thumbnail:
    """The thumbnail of the file at `path`. Never raises but for a process limit
    (limits.PROCESS_LIMIT_ERRORS) and what is Unavailable: whatever the file does wrong ends
    as the type icon with the reason."""
    mime = (content_type or "").partition(";")[0].strip().lower()
    try:
        if mime == "application/pdf":
            return _encode(_first_page(Path(path), settings), "page")
        if mime in IMAGE_TYPES:
            return _encode(_picture(Path(path), settings), "image")
        if mime.startswith("text/") or mime in TEXT_TYPES:
            return _encode(_text(Path(path)), "text")
    except (*limits.PROCESS_LIMIT_ERRORS, Unavailable):
        raise
    except TooLarge as exc:
        return icon(mime, filename, settings, str(exc))
    except Exception as exc:
        return icon(mime, filename, settings, _short_error(exc))
    return icon(mime, filename, settings)


def icon(mime: str, filename: str, settings: Settings, error: str | None = None) -> Thumbnail:
    """The type icon: a sheet with a folded corner and the file's extension (or its type's)
    across it."""
    label = _label(mime, filename)[:6].upper() or "FILE"
    page = Image.new("RGB", BOX, WHITE)
    draw = ImageDraw.Draw(page)
    paper, edge, fold, ink = (247, 247, 250), (140, 148, 166), (217, 222, 230), (64, 77, 102)
    draw.polygon([(60, 60), (260, 60), (340, 140), (340, 520), (60, 520)], paper, edge, 6)
    draw.polygon([(260, 60), (260, 140), (340, 140)], fold, edge, 6)
    size = 72 if len(label) <= 3 else 216 // len(label)
    draw.text((200, 340), label, ink, _font(size), anchor="ms", stroke_width=1, stroke_fill=ink)
    return _encode(page, "icon", error)


def _label(mime: str, filename: str) -> str:
    extension = Path(filename or "").suffix.lstrip(".")
    if extension.isascii() and extension.isalnum() and len(extension) <= 5:
        return extension
    if mime in _LABELS:
        return _LABELS[mime]
    subtype = mime.partition("/")[2]
    return subtype if subtype.isascii() and subtype.isalnum() else "FILE"


@cache
def _font(size: int, name: str | None = None) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The system's font file `name` at `size` pixels, or Pillow's bundled font (no file
    needed) when there is none such."""
    if name is not None:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)


# --- pictures ----------------------------------------------------------------------------------


@contextmanager
def _pixel_rule(max_pixels: int) -> Iterator[None]:
    """Pillow's decompression-bomb rule at `max_pixels`, as an error from the first pixel
    over (Pillow itself only warns up to twice its limit), for what runs inside. The limit is
    Pillow's process-wide setting: a process draws one thumbnail at a time (a work horse, the
    CLI), and the setting is put back after."""
    saved = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = max_pixels
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            yield
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        declared = re.search(r"\((\d+) pixels\)", str(exc))
        count = f"{declared.group(1)} pixels" if declared else "its size"
        raise TooLarge(f"image too large: {count} (at most {max_pixels})") from exc
    finally:
        Image.MAX_IMAGE_PIXELS = saved


def _picture(path: Path, settings: Settings) -> Image.Image:
    """The picture's first frame or page, upright, on white, fitted into the box."""
    with _pixel_rule(settings.max_pixels), Image.open(path, formats=IMAGE_FORMATS) as source:
        orientation = _orientation(source)
        # The box as the picture is stored: a quarter turn swaps its width and height.
        box = BOX[::-1] if orientation in (5, 6, 7, 8) else BOX
        # A JPEG is decoded at 1/2, 1/4 or 1/8 of its size, still at least twice the box.
        source.draft(None, (box[0] * REDUCING_GAP, box[1] * REDUCING_GAP))
        scale = max(source.width / box[0], source.height / box[1])
        picture = _on_white(source, max(1, int(scale / REDUCING_GAP)))
    picture.thumbnail(box, Image.Resampling.LANCZOS)
    if orientation != 1:
        # The small picture carries the file's orientation, for exif_transpose to apply.
        picture.getexif()[ExifTags.Base.Orientation] = orientation
        ImageOps.exif_transpose(picture, in_place=True)
    return picture


def _orientation(source: Image.Image) -> int:
    """The EXIF orientation (1: as stored); a damaged EXIF block turns nothing. (A PNG whose
    EXIF follows its pixels is decoded to find it.)"""
    try:
        orientation = int(source.getexif().get(ExifTags.Base.Orientation, 1))
    except limits.PROCESS_LIMIT_ERRORS:
        raise
    except Exception:
        return 1
    return orientation if 1 <= orientation <= 8 else 1


def _on_white(source: Image.Image, factor: int) -> Image.Image:
    """`source` in RGB, transparency put on white, reduced `factor` times (box averages).
    Made a strip of rows at a time: beside the decoded picture only strips are ever held."""
    width, height = source.size
    rows = max(1, STRIP_PIXELS // (width * factor)) * factor
    levels = _grey_levels(source)
    reduced = Image.new("RGB", (-(-width // factor), -(-height // factor)), WHITE)
    for top in range(0, height, rows):
        strip = _rgb(source.crop((0, top, width, min(top + rows, height))), levels)
        reduced.paste(strip.reduce(factor) if factor > 1 else strip, (0, top // factor))
    return reduced


def _grey_levels(source: Image.Image) -> tuple[float, float] | None:
    """(scale, offset) bringing 16- and 32-bit grey into 8 bits (Pillow's conversion would
    clip them): 16 bits by their range, 32 bits (no range to speak of) by their extremes."""
    if source.mode.startswith("I;16"):
        return 1 / 256, 0.0
    if source.mode not in ("I", "F"):
        return None
    low, high = source.getextrema()
    if high <= low:
        return 1.0, -low
    return 255 / (high - low), -low * 255 / (high - low)


def _rgb(strip: Image.Image, levels: tuple[float, float] | None) -> Image.Image:
    if levels is not None:
        scale, offset = levels
        strip = strip.point(lambda value: value * scale + offset).convert("L")
    if not strip.has_transparency_data:
        return strip.convert("RGB")
    coloured = strip.convert("RGBA")
    page = Image.new("RGB", strip.size, WHITE)
    page.paste(coloured, mask=coloured)
    return page


# --- PDF pages ---------------------------------------------------------------------------------


def _pdftoppm() -> str:
    exe = shutil.which("pdftoppm")
    if exe is None:
        raise Unavailable("pdftoppm (poppler-utils) is not installed")
    return exe


def _first_page(pdf: Path, settings: Settings) -> Image.Image:
    """The first page, its longer side drawn at the box's height, then fitted into the box."""
    limits.check_cpu_budget()
    # The first page only; an absolute path is never taken for an option; PPM on stdout.
    args = [_pdftoppm(), "-f", "1", "-l", "1", "-singlefile", "-scale-to", str(BOX[1])]
    try:
        done = subprocess.run(  # noqa: S603  (our executable and our own paths; no shell)
            [*args, str(pdf.resolve())], capture_output=True, timeout=settings.timeout, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"pdftoppm timed out after {settings.timeout:g}s") from exc
    spent = limits.cpu_budget_exceeded(done.returncode)
    if spent is not None:
        raise spent
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(f"pdftoppm exited {done.returncode}: {detail[-1] if detail else ''}")
    if not done.stdout:
        raise RuntimeError("pdftoppm gave no picture")
    with Image.open(io.BytesIO(done.stdout), formats=(PpmImagePlugin.PpmImageFile.format,)) as ppm:
        if not (0 < ppm.width <= BOX[1] and 0 < ppm.height <= BOX[1]):
            raise RuntimeError(f"pdftoppm drew {ppm.width} x {ppm.height} pixels")
        page = ppm.convert("RGB")
    page.thumbnail(BOX, Image.Resampling.LANCZOS)
    return page


# --- texts -------------------------------------------------------------------------------------

# DejaVu Sans Mono shows Latin, Greek and Cyrillic; poppler-utils brings it along (through
# fontconfig). Pillow's bundled font, the fallback, shows little beyond ASCII.
TEXT_FONT = "DejaVuSansMono.ttf"
TEXT_FONT_SIZE, TEXT_LEADING, TEXT_MARGIN = 10, 13, 16
TEXT_LINES = (BOX[1] - 2 * TEXT_MARGIN) // TEXT_LEADING
TEXT_WIDTH = BOX[0] - 2 * TEXT_MARGIN
# More characters than the narrowest glyphs fit on a line, so that a long line is cut cheaply.
TEXT_COLUMNS = TEXT_WIDTH // 2
INK = (40, 44, 52)


def _text(path: Path) -> Image.Image:
    """The first lines of the file, read as UTF-8 (a byte that is not shows as a replacement
    character), on a white page."""
    with path.open("rb") as fh:
        head = fh.read(TEXT_HEAD_BYTES)
    text = head.decode("utf-8", "replace").removeprefix("\ufeff")
    page = Image.new("RGB", BOX, WHITE)
    draw = ImageDraw.Draw(page)
    font = _font(TEXT_FONT_SIZE, TEXT_FONT)
    for number, line in enumerate(text.splitlines()[:TEXT_LINES]):
        shown = "".join(c if c.isprintable() else " " for c in line.expandtabs(4))
        top = TEXT_MARGIN + number * TEXT_LEADING
        draw.text((TEXT_MARGIN, top), _fitted(shown[:TEXT_COLUMNS], font), INK, font)
    return page


def _fitted(line: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> str:
    """The longest start of `line` that fits the page's width."""
    if font.getlength(line) <= TEXT_WIDTH:
        return line
    # A monospaced font (the usual case) fits a known number of characters: one measure.
    columns = _columns(font)
    if columns and font.getlength(line[:columns]) <= TEXT_WIDTH < font.getlength(
        line[: columns + 1]
    ):
        return line[:columns]
    shortest, longest = 0, len(line)
    while shortest < longest:
        middle = (shortest + longest + 1) // 2
        if font.getlength(line[:middle]) <= TEXT_WIDTH:
            shortest = middle
        else:
            longest = middle - 1
    return line[:shortest]


@cache
def _columns(font: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> int | None:
    """How many characters of `font` fill the page's width when it is monospaced, else None."""
    narrow, wide = font.getlength("i"), font.getlength("M")
    return int(TEXT_WIDTH // wide) if narrow == wide and wide > 0 else None


# --- WebP --------------------------------------------------------------------------------------


def _encode(picture: Image.Image, kind: str, error: str | None = None) -> Thumbnail:
    if not features.check_module("webp"):
        raise Unavailable("Pillow was built without WebP support")
    out = io.BytesIO()
    if kind in DRAWN_KINDS:
        picture.save(out, "WEBP", lossless=True, method=0)
    else:
        picture.save(out, "WEBP", quality=WEBP_QUALITY, method=WEBP_METHOD)
    return Thumbnail(out.getvalue(), picture.width, picture.height, kind, error)


# An absolute path in a message (a blob's, a temporary file's) tells the tenant nothing.
_PATH = re.compile(r"(?<![\w.:/])/[^\s'\"]+")


def _short_error(exc: BaseException, limit: int = 200) -> str:
    message = _PATH.sub("<file>", f"{type(exc).__name__}: {exc}").strip().rstrip(":")
    return message if len(message) <= limit else message[: limit - 1] + "…"
