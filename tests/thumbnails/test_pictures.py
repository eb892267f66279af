"""What each kind of picture looks like once drawn: every format Pillow reads here (a GIF's
first frame, a TIFF's first page, WebP, BMP, interlaced and palette PNGs, 16-bit grey, CMYK
JPEG) is the image itself, transparency shows on white, an EXIF orientation turns a photo
upright, and a text's first lines are ink on a white page."""

from __future__ import annotations

import pytest
from PIL import Image
from sqlalchemy import select

from extensions import db
from models.thumbnails import DocumentThumbnail
from tests.thumbnails.files import picture, pixel, png, turned_jpeg, webp_pixels

RED, GREEN, BLUE, WHITE = (220, 20, 20), (20, 160, 20), (20, 20, 220), (255, 255, 255)


def _drawn(app, thumbnail, document_id: str) -> tuple[str, int, int, bytes]:
    """(kind, width, height, RGB pixels) of the document's thumbnail."""
    response = thumbnail(document_id)
    assert response.status_code == 200, response.get_json()
    with app.app_context():
        kind = db.session.scalar(
            select(DocumentThumbnail.kind).where(DocumentThumbnail.document_id == document_id)
        )
    return kind, *webp_pixels(response.data)


def _near(colour: tuple[int, int, int], expected: tuple[int, int, int], slack: int = 40) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour, expected, strict=True))


def _gif() -> bytes:
    first, second = Image.new("RGB", (200, 100), RED), Image.new("RGB", (200, 100), BLUE)
    return picture("GIF", first, second, duration=100, loop=0)


def _tiff() -> bytes:
    return picture("TIFF", Image.new("RGB", (300, 150), GREEN), Image.new("RGB", (50, 50), BLUE))


def _palette_png() -> bytes:
    """Index 0 transparent black (the left half), index 1 opaque red (the right half)."""
    image = Image.new("P", (80, 40), 0)
    image.putpalette([0, 0, 0, *RED])
    image.paste(1, (40, 0, 80, 40))
    return picture("PNG", image, transparency=0)


def _cmyk_jpeg() -> bytes:
    return picture("JPEG", Image.new("CMYK", (120, 60), (0, 230, 230, 30)), quality=95)


@pytest.mark.parametrize(
    ("content", "filename", "size", "left", "right"),
    [
        (_gif(), "moving.gif", (200, 100), RED, RED),  # the first frame
        (_tiff(), "scan.tiff", (300, 150), GREEN, GREEN),  # the first page
        (
            picture("WEBP", Image.new("RGB", (800, 1000), BLUE)),
            "photo.webp",
            (400, 500),
            BLUE,
            BLUE,
        ),
        (picture("BMP", Image.new("RGB", (64, 48), GREEN)), "old.bmp", (64, 48), GREEN, GREEN),
        (png(90, 70, b"\xdc\x14\x14", interlaced=True), "interlaced.png", (90, 70), RED, RED),
        (_palette_png(), "palette.png", (80, 40), WHITE, RED),
        (png(60, 60, b"\x00\x00\x00\x80", colour=6), "shade.png", (60, 60), (127,) * 3, (127,) * 3),
        (
            picture("PNG", Image.new("I;16", (50, 50), 32768)),
            "deep.png",
            (50, 50),
            (128,) * 3,
            (128,) * 3,
        ),
        (_cmyk_jpeg(), "print.jpg", (120, 60), RED, RED),  # not inverted
    ],
)
def test_each_picture_pillow_reads_is_drawn(
    app, upload, thumbnail, work, content, filename, size, left, right
):
    document = upload(content, filename)
    work()
    kind, width, height, pixels = _drawn(app, thumbnail, document["id"])
    assert (kind, (width, height)) == ("image", size)
    middle = height // 2
    assert _near(pixel(pixels, width, width // 4, middle), left)
    assert _near(pixel(pixels, width, 3 * width // 4, middle), right)


@pytest.mark.parametrize(
    ("orientation", "size", "first", "last"),
    [
        (1, (300, 100), RED, BLUE),  # as stored: red left, blue right
        (3, (300, 100), BLUE, RED),  # turned half a turn
        (6, (100, 300), RED, BLUE),  # a quarter clockwise: the stored left on top
        (8, (100, 300), BLUE, RED),  # a quarter anticlockwise: the stored left below
    ],
)
def test_an_exif_orientation_turns_the_photo_upright(
    app, upload, thumbnail, work, orientation, size, first, last
):
    document = upload(turned_jpeg(300, 100, orientation), "camera.jpg")
    work()
    kind, width, height, pixels = _drawn(app, thumbnail, document["id"])
    assert (kind, (width, height)) == ("image", size)
    if width > height:  # first and last: left and right
        ends = pixel(pixels, width, 10, 50), pixel(pixels, width, 290, 50)
    else:  # top and bottom
        ends = pixel(pixels, width, 50, 10), pixel(pixels, width, 50, 290)
    assert _near(ends[0], first) and _near(ends[1], last)


def test_a_texts_first_lines_are_ink_on_a_white_page(app, upload, thumbnail, work):
    document = upload(b"The first line of the notes\nand the second\n", "notes.txt")
    work()
    kind, width, height, pixels = _drawn(app, thumbnail, document["id"])
    assert (kind, (width, height)) == ("text", (400, 560))
    rows = [pixels[3 * width * y : 3 * width * (y + 1)] for y in range(height)]
    assert min(min(row) for row in rows[:50]) < 100  # the two lines: dark ink
    assert all(min(row) > 240 for row in rows[80:])  # the rest of the page: white


def test_a_drawn_page_is_lossless_and_a_long_line_is_cut_at_the_page_edge(
    app, upload, thumbnail, work
):
    document = upload(("x" * 500 + "\n").encode(), "wide.txt")
    work()
    response = thumbnail(document["id"])
    assert response.data[12:16] == b"VP8L"  # lossless WebP: sharp flat colours, few bytes
    kind, width, _, pixels = _drawn(app, thumbnail, document["id"])
    assert kind == "text"
    line = [min(min(pixel(pixels, width, x, y)) for y in range(14, 28)) for x in range(width)]
    inked = [x for x, darkest in enumerate(line) if darkest < 100]
    assert inked[0] >= 14 and inked[-1] <= width - 14  # within the margins, both sides
    assert inked[-1] > width - 40  # and the line runs on to the right margin
