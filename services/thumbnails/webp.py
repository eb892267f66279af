"""WebP encoding of raw RGB pixels through libwebp's simple encoding API (the system library
poppler-utils already brings along), loaded once per process on first use."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache

QUALITY = 80.0


class EncoderMissing(RuntimeError):
    """libwebp is not installed: no thumbnail can be encoded (it comes with poppler-utils,
    scripts/install-system-packages.sh)."""


@cache
def _library() -> ctypes.CDLL:
    name = ctypes.util.find_library("webp") or "libwebp.so.7"
    try:
        lib = ctypes.CDLL(name)
    except OSError as exc:
        raise EncoderMissing(f"libwebp is not installed: {exc}") from exc
    out = ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8))
    lib.WebPEncodeRGB.argtypes = [
        ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_float, out,
    ]  # fmt: skip
    lib.WebPEncodeRGB.restype = ctypes.c_size_t
    lib.WebPFree.argtypes = [ctypes.c_void_p]
    lib.WebPFree.restype = None
    return lib


def encode_rgb(pixels: bytes, width: int, height: int, quality: float = QUALITY) -> bytes:
    """Lossy WebP of `width` x `height` RGB pixels (3 bytes each, rows packed)."""
    if width <= 0 or height <= 0 or len(pixels) != width * height * 3:
        raise ValueError("pixels do not match the size")
    lib = _library()
    output = ctypes.POINTER(ctypes.c_uint8)()
    size = lib.WebPEncodeRGB(pixels, width, height, width * 3, quality, ctypes.byref(output))
    if size == 0:
        raise RuntimeError("libwebp could not encode the picture")
    try:
        return ctypes.string_at(output, size)
    finally:
        lib.WebPFree(output)
