"""Files built for the thumbnail tests, small on disk whatever they declare: PNGs (a
decompression bomb among them), JPEG headers, a PDF of many pages, a damaged PDF; and a
WebP's size and pixels read back through libwebp's decoder."""

from __future__ import annotations

import ctypes
import struct
import zlib

from services.thumbnails import webp


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, pixel: bytes = b"\x20\x60\xc0", colour: int = 2) -> bytes:
    """A PNG of one colour (`pixel`: 1, 2, 3 or 4 bytes for colour types 0, 4, 2, 6), its
    data compressed row by row, so 30,000 x 30,000 pixels take a few hundred KiB."""
    squeeze = zlib.compressobj(9)
    row = b"\x00" + pixel * width
    data = b"".join(squeeze.compress(row) for _ in range(height)) + squeeze.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
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


def webp_pixels(image: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGB pixels) of a WebP, decoded by libwebp."""
    lib = webp._library()
    lib.WebPDecodeRGB.restype = ctypes.POINTER(ctypes.c_uint8)
    size = ctypes.POINTER(ctypes.c_int)
    lib.WebPDecodeRGB.argtypes = [ctypes.c_char_p, ctypes.c_size_t, size, size]
    width, height = ctypes.c_int(), ctypes.c_int()
    out = lib.WebPDecodeRGB(image, len(image), ctypes.byref(width), ctypes.byref(height))
    assert out, "not a WebP libwebp can decode"
    try:
        return width.value, height.value, ctypes.string_at(out, width.value * height.value * 3)
    finally:
        lib.WebPFree(out)
