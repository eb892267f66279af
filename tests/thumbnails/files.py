"""Files built for the thumbnail tests, small on disk whatever they declare: PNGs (a
decompression bomb among them), JPEG headers, a PDF of many pages, a damaged PDF; pictures
Pillow writes (GIF, TIFF, WebP, BMP, a JPEG turned by its EXIF orientation); and a WebP's size
and pixels read back."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import ExifTags, Image


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


# Adam7's passes: (first column, first row, column step, row step).
_ADAM7 = (
    (0, 0, 8, 8),
    (4, 0, 8, 8),
    (0, 4, 4, 8),
    (2, 0, 4, 4),
    (0, 2, 2, 4),
    (1, 0, 2, 2),
    (0, 1, 1, 2),
)


def png(
    width: int,
    height: int,
    pixel: bytes = b"\x20\x60\xc0",
    colour: int = 2,
    *,
    interlaced: bool = False,
) -> bytes:
    """A PNG of one colour (`pixel`: 1, 2, 3 or 4 bytes for colour types 0, 4, 2, 6), its
    data compressed row by row, so 30,000 x 30,000 pixels take a few hundred KiB;
    `interlaced`: its rows in Adam7's seven passes."""
    squeeze = zlib.compressobj(9)
    passes = _ADAM7 if interlaced else ((0, 0, 1, 1),)
    data = b""
    for x0, y0, dx, dy in passes:
        columns, rows = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if columns > 0:
            row = b"\x00" + pixel * columns
            data += b"".join(squeeze.compress(row) for _ in range(max(rows, 0)))
    data += squeeze.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, int(interlaced))
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", data)
        + _chunk(b"IEND", b"")
    )


def bomb_png(width: int = 30_000, height: int = 30_000) -> bytes:
    """A header declaring `width` x `height` and a little data: the pixel count alone must
    refuse it, before anything is inflated."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(b"\x00" * 100_000, 9)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", data)
        + _chunk(b"IEND", b"")
    )


def jpeg_header(width: int, height: int) -> bytes:
    """A JPEG's start, a baseline frame header declaring the size, and nothing to decode."""
    frame = struct.pack(">BHHB", 8, height, width, 3) + b"\x01\x11\x00\x02\x11\x00\x03\x11\x00"
    return b"\xff\xd8\xff\xc0" + struct.pack(">H", len(frame) + 2) + frame + b"\xff\xd9"


def pdf_pages(count: int, width: int = 595, height: int = 842) -> bytes:
    """A valid PDF of `count` empty pages sharing one content stream."""
    kids = b" ".join(b"%d 0 R" % (n + 4) for n in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count),
        b"<< /Length 0 >>\nstream\n\nendstream",
    ]
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents 3 0 R >>"
    objects += [page % (width, height)] * count
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


DAMAGED_PDF = (
    b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R >>\nendobj\ntrailer\n<<>>\n%%EOF\n"
)


def picture(format: str, *frames: Image.Image, **options) -> bytes:
    """`frames` written by Pillow as one file of `format` (several: a GIF's frames, a TIFF's
    pages)."""
    out = io.BytesIO()
    frames[0].save(out, format, save_all=len(frames) > 1, append_images=frames[1:], **options)
    return out.getvalue()


def turned_jpeg(width: int, height: int, orientation: int) -> bytes:
    """A JPEG stored `width` x `height`, its left half red and its right half blue, whose EXIF
    orientation asks for it to be turned when shown."""
    stored = Image.new("RGB", (width, height), (220, 20, 20))
    stored.paste((20, 20, 220), (width // 2, 0, width, height))
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = orientation
    return picture("JPEG", stored, exif=exif, quality=95)


def webp_pixels(image: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGB pixels) of a WebP, decoded by Pillow."""
    with Image.open(io.BytesIO(image), formats=("WEBP",)) as decoded:
        rgb = decoded.convert("RGB")
    return rgb.width, rgb.height, rgb.tobytes()


def pixel(pixels: bytes, width: int, x: int, y: int) -> tuple[int, int, int]:
    """The RGB colour at (x, y) of `pixels`, rows of `width` packed."""
    at = 3 * (y * width + x)
    return pixels[at], pixels[at + 1], pixels[at + 2]
