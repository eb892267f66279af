"""What a JPEG or PNG is, read from its headers alone: its size in pixels (a picture over the
pixel budget is refused before anything is decoded: a decompression bomb declares a huge size
in a tiny file), its colours, its EXIF orientation, and where its compressed data lies, for
services/thumbnails/pages.py to carry into a PDF unchanged."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import BinaryIO

from services.thumbnails.pages import Object, Stream

# Pillow's MAX_IMAGE_PIXELS: about 89 million pixels (a 9,460 x 9,460 square).
DEFAULT_MAX_PIXELS = 89_478_485
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A PNG's chunks before the data, and a JPEG's segments before its frame header, are few.
MAX_HEADER_ITEMS = 10_000


class Unusable(Exception):
    """The picture cannot be drawn here (too large, a variant we do not carry, damaged):
    the message says why, and the thumbnail is the type icon."""


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    image: Stream  # the PDF image object, its data parts read from the file
    extra: tuple[Object, ...] = ()  # objects the image refers to (from object 6 on)
    rotate: int = 0  # clockwise degrees that make it upright (EXIF orientation)


def _check_size(width: int, height: int, max_pixels: int) -> None:
    if width <= 0 or height <= 0:
        raise Unusable("the image declares no size")
    if width * height > max_pixels:
        raise Unusable(f"image too large: {width} x {height} pixels (at most {max_pixels})")


# --- PNG ---------------------------------------------------------------------------------------

# Colour type -> (colours per pixel, the colour space's PDF name).
_PNG_COLOURS = {0: (1, b"/DeviceGray"), 2: (3, b"/DeviceRGB"), 3: (1, None)}
# Transparent pixels are put on white by a tint transform (a PostScript calculator function):
# c' = 1 - a(1 - c) for each colour c and alpha a.
_ON_WHITE = {
    4: (
        b"[/DeviceN [/V /A] /DeviceGray 6 0 R]",
        b"[0 1 0 1]",
        b"[0 1]",
        b"{ exch 1 exch sub 1 index mul 1 exch sub exch pop }",
    ),
    6: (
        b"[/DeviceN [/R /G /B /A] /DeviceRGB 6 0 R]",
        b"[0 1 0 1 0 1 0 1]",
        b"[0 1 0 1 0 1]",
        b"{ 4 1 roll 1 exch sub 3 index mul 1 exch sub 3 1 roll"
        b" 1 exch sub 3 index mul 1 exch sub 3 1 roll"
        b" 1 exch sub 3 index mul 1 exch sub 3 1 roll 4 -1 roll pop }",
    ),
}


def png(fh: BinaryIO, max_pixels: int) -> Picture:
    if fh.read(8) != PNG_SIGNATURE:
        raise Unusable("not a PNG")
    header = _png_chunk(fh)
    if header[0] != b"IHDR" or header[2] != 13:
        raise Unusable("damaged PNG: no header")
    fh.seek(header[1])
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", fh.read(13))
    _check_size(width, height, max_pixels)
    if interlace:
        raise Unusable("interlaced PNG")
    if colour not in (0, 2, 3, 4, 6) or depth not in (1, 2, 4, 8, 16):
        raise Unusable("damaged PNG: unknown colour type or depth")
    fh.seek(header[1] + header[2] + 4)  # past the data and its CRC
    palette, parts = None, []
    for _ in range(MAX_HEADER_ITEMS):
        kind, offset, length = _png_chunk(fh)
        if kind == b"PLTE":
            fh.seek(offset)
            palette = fh.read(min(length, 768))
        elif kind == b"IDAT":
            parts.append((offset, length))
        elif kind == b"IEND":
            break
        fh.seek(offset + length + 4)
    else:
        raise Unusable("PNG with too many chunks")
    if not parts:
        raise Unusable("damaged PNG: no image data")
    if colour in _ON_WHITE:
        space, domain, range_, function = _ON_WHITE[colour]
        colours = 2 if colour == 4 else 4
        extra: tuple[Object, ...] = (
            Stream(b"/FunctionType 4 /Domain %s /Range %s" % (domain, range_), (function,)),
        )
    elif colour == 3:
        if not palette or len(palette) % 3:
            raise Unusable("damaged PNG: no palette")
        colours, extra = 1, ()
        space = b"[/Indexed /DeviceRGB %d <%s>]" % (len(palette) // 3 - 1, palette.hex().encode())
    else:
        colours, space = _PNG_COLOURS[colour]
        extra = ()
    entries = (
        b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s"
        b" /BitsPerComponent %d /Filter /FlateDecode"
        b" /DecodeParms << /Predictor 15 /Colors %d /BitsPerComponent %d /Columns %d >>"
    ) % (width, height, space, depth, colours, depth, width)
    return Picture(width, height, Stream(entries, tuple(parts)), extra)


def _png_chunk(fh: BinaryIO) -> tuple[bytes, int, int]:
    """(type, offset of its data, length of its data) of the chunk at the file's position."""
    head = fh.read(8)
    if len(head) < 8:
        raise Unusable("damaged PNG: cut short")
    length, kind = struct.unpack(">I4s", head)
    return kind, fh.tell(), length


# --- JPEG --------------------------------------------------------------------------------------

# Frame headers: baseline, extended, progressive, lossless, with Huffman or arithmetic coding.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_JPEG_SPACES = {1: b"/DeviceGray", 3: b"/DeviceRGB", 4: b"/DeviceCMYK"}
# EXIF orientation -> clockwise rotation (the mirrored ones are shown unmirrored).
_ROTATIONS = {3: 180, 4: 180, 5: 90, 6: 90, 7: 270, 8: 270}


def jpeg(fh: BinaryIO, size: int, max_pixels: int) -> Picture:
    if fh.read(2) != b"\xff\xd8":
        raise Unusable("not a JPEG")
    rotate, adobe = 0, False
    for _ in range(MAX_HEADER_ITEMS):
        marker = fh.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            raise Unusable("damaged JPEG: no frame header")
        kind = marker[1]
        if kind == 0xFF:  # fill byte
            fh.seek(-1, 1)
            continue
        if 0xD0 <= kind <= 0xD9 or kind == 0x01:  # no length follows
            continue
        (length,) = struct.unpack(">H", fh.read(2))
        if length < 2:
            raise Unusable("damaged JPEG: bad segment")
        body_at = fh.tell()
        if kind in _SOF:
            precision, height, width, components = struct.unpack(">BHHB", fh.read(6))
            break
        if kind == 0xE1:
            rotate = _exif_rotation(fh.read(min(length - 2, 1 << 16))) or rotate
        elif kind == 0xEE:
            adobe = fh.read(5) == b"Adobe"
        fh.seek(body_at + length - 2)
    else:
        raise Unusable("JPEG with too many segments")
    _check_size(width, height, max_pixels)
    space = _JPEG_SPACES.get(components)
    if space is None or precision != 8:
        raise Unusable(f"JPEG with {components} components of {precision} bits")
    # Adobe's CMYK JPEGs store the colours inverted.
    decode = b" /Decode [1 0 1 0 1 0 1 0]" if components == 4 and adobe else b""
    entries = (
        b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s"
        b" /BitsPerComponent 8 /Filter /DCTDecode%s"
    ) % (width, height, space, decode)
    return Picture(width, height, Stream(entries, ((0, size),)), rotate=rotate)


def _exif_rotation(segment: bytes) -> int:
    """The rotation an APP1 segment's EXIF orientation asks for (0 when it says nothing)."""
    if not segment.startswith(b"Exif\x00\x00") or len(segment) < 14:
        return 0
    tiff = segment[6:]
    order = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if order is None:
        return 0
    try:
        (first,) = struct.unpack(order + "I", tiff[4:8])
        (count,) = struct.unpack(order + "H", tiff[first : first + 2])
        for n in range(min(count, 500)):
            at = first + 2 + 12 * n
            tag, _, _ = struct.unpack(order + "HHI", tiff[at : at + 8])
            if tag == 0x0112:
                (value,) = struct.unpack(order + "H", tiff[at + 8 : at + 10])
                return _ROTATIONS.get(value, 0)
    except struct.error:
        return 0
    return 0
