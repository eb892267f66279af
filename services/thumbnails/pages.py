"""One-page PDFs written by hand for poppler to draw: the first lines of a text, a type icon,
or an image whose compressed bytes are carried as they are (a JPEG as DCTDecode, a PNG's
IDAT data as FlateDecode with PNG predictors), so poppler does every decoding and we never
hold the pixels. Text uses the standard Courier and Helvetica fonts (WinAnsiEncoding: what
it cannot show becomes "?")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

# The thumbnail's box, in pixels; a page is drawn at 72 dpi, one point a pixel.
BOX_WIDTH, BOX_HEIGHT = 400, 560
TEXT_FONT_SIZE, TEXT_LEADING, TEXT_MARGIN = 9, 11, 16
TEXT_COLUMNS = int((BOX_WIDTH - 2 * TEXT_MARGIN) / (0.6 * TEXT_FONT_SIZE))  # Courier: 0.6 em
TEXT_LINES = int((BOX_HEIGHT - 2 * TEXT_MARGIN) / TEXT_LEADING)


@dataclass(frozen=True)
class Stream:
    """A stream object: its dictionary's entries (without /Length) and its bytes, given as
    parts read from `source` (offset, length) or as bytes."""

    entries: bytes
    parts: tuple[bytes | tuple[int, int], ...]

    @property
    def length(self) -> int:
        return sum(len(p) if isinstance(p, bytes) else p[1] for p in self.parts)


Object = bytes | Stream


def write_pdf(target: Path, objects: list[Object], source: BinaryIO | None = None) -> None:
    """Write `objects` (object 1 is the catalog) with their cross-reference table."""
    with target.open("wb") as out:
        out.write(b"%PDF-1.5\n")
        offsets = []
        for number, obj in enumerate(objects, 1):
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n" % number)
            if isinstance(obj, Stream):
                out.write(b"<< %s /Length %d >>\nstream\n" % (obj.entries, obj.length))
                _copy_parts(out, obj.parts, source)
                out.write(b"\nendstream")
            else:
                out.write(obj)
            out.write(b"\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
        out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1))
        out.write(b"startxref\n%d\n%%%%EOF\n" % xref)


def _copy_parts(out: BinaryIO, parts: Iterable, source: BinaryIO | None) -> None:
    for part in parts:
        if isinstance(part, bytes):
            out.write(part)
            continue
        assert source is not None
        offset, remaining = part
        source.seek(offset)
        while remaining > 0:
            chunk = source.read(min(remaining, 1 << 20))
            if not chunk:
                raise ValueError("the file is shorter than its headers say")
            out.write(chunk)
            remaining -= len(chunk)


def page(width: float, height: float, content: bytes, resources: bytes, rotate: int = 0):
    """The catalog, the page tree, the page and its content: objects 1-4 (resources follow)."""
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.3f %.3f] /Rotate %d"
        b" /Contents 4 0 R /Resources %s >>" % (width, height, rotate, resources),
        Stream(b"", (content,)),
    ]


def pdf_string(text: str) -> bytes:
    """A PDF literal string in WinAnsiEncoding, escaped."""
    raw = text.encode("cp1252", "replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


_FONTS = (
    b"<< /Font << /F1 5 0 R /F2 6 0 R >> >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
)


def text_page(text: str) -> list[Object]:
    """The first lines of `text` on a page the size of the box, as a monospaced listing."""
    lines = []
    for line in text.splitlines()[:TEXT_LINES]:
        shown = "".join(c if c.isprintable() else " " for c in line.expandtabs(4))
        lines.append(pdf_string(shown[:TEXT_COLUMNS]))
    top = BOX_HEIGHT - TEXT_MARGIN - TEXT_FONT_SIZE
    content = b"BT /F1 %d Tf %d TL %d %d Td " % (TEXT_FONT_SIZE, TEXT_LEADING, TEXT_MARGIN, top)
    content += b" T* ".join(line + b" Tj" for line in lines) + b" ET"
    return [*page(BOX_WIDTH, BOX_HEIGHT, content, _FONTS[0]), *_FONTS[1:]]


def icon_page(label: str) -> list[Object]:
    """A sheet with a folded corner and the type's short name across it."""
    label = label[:6].upper() or "FILE"
    size = 72 if len(label) <= 3 else int(216 / len(label))
    width = 0.61 * size * len(label)  # Helvetica-Bold capitals: about 0.61 em wide
    x = (BOX_WIDTH - width) / 2
    sheet = (
        b"0.97 0.97 0.98 rg 0.55 0.58 0.65 RG 6 w"
        b" 60 40 m 340 40 l 340 420 l 260 500 l 60 500 l h B"
        b" 0.85 0.87 0.9 rg 260 500 m 260 420 l 340 420 l h B"
    )
    text = b" 0.25 0.3 0.4 rg BT /F2 %d Tf %.1f 220 Td %s Tj ET" % (size, x, pdf_string(label))
    return [*page(BOX_WIDTH, BOX_HEIGHT, sheet + text, _FONTS[0]), *_FONTS[1:]]


def image_page(image: Stream, width: float, height: float, rotate: int = 0) -> list[Object]:
    """One image filling a page of `width` x `height` points (object 5; an image dictionary
    may refer to object 6, its colour function, which follows)."""
    content = b"q %.3f 0 0 %.3f 0 0 cm /Im Do Q" % (width, height)
    resources = b"<< /XObject << /Im 5 0 R >> >>"
    return [*page(width, height, content, resources, rotate), image]
