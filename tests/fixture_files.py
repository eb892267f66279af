"""Test files generated from code (PNG, TIFF, PDF with a text layer or a scanned page, DOCX,
DOCX bombs), and which OCR tools this machine has: nothing binary is checked in. Shared by the
extraction, extraction-job and search tests."""

from __future__ import annotations

import io
import shutil
import struct
import zipfile
import zlib
from pathlib import Path

import docx
import pytest

HAS_TESSERACT = shutil.which("tesseract") is not None
HAS_PDFTOPPM = shutil.which("pdftoppm") is not None
needs_tesseract = pytest.mark.skipif(not HAS_TESSERACT, reason="tesseract is not on PATH")

# A 5x7 bitmap font, enough for Tesseract to read "HELLO WORLD" without an imaging library.
FONT = {
    "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "W": ["10001", "10001", "10001", "10101", "10101", "10101", "01010"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "D": ["11100", "10010", "10001", "10001", "10001", "10010", "11100"],
    " ": ["00000"] * 7,
}


def render_gray(text: str, scale: int = 4, margin: int = 30) -> tuple[int, int, list[bytes]]:
    """Black text on white as rows of 8-bit grey pixels."""
    width = len(text) * 6 * scale - scale + 2 * margin
    height = 7 * scale + 2 * margin
    rows = []
    for y in range(height):
        row = bytearray(b"\xff" * width)
        glyph_row = (y - margin) // scale
        if 0 <= y - margin < 7 * scale:
            for index, char in enumerate(text):
                for glyph_col, bit in enumerate(FONT[char][glyph_row]):
                    if bit == "1":
                        x = margin + (index * 6 + glyph_col) * scale
                        row[x : x + scale] = b"\x00" * scale
        rows.append(bytes(row))
    return width, height, rows


def png_bytes(width: int, height: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def tiff_bytes(width: int, height: int, rows: list[bytes]) -> bytes:
    """Uncompressed little-endian greyscale TIFF, one strip."""
    pixels = b"".join(rows)
    entries = [
        (256, 4, width),  # ImageWidth, LONG
        (257, 4, height),  # ImageLength
        (258, 3, 8),  # BitsPerSample, SHORT
        (259, 3, 1),  # Compression: none
        (262, 3, 1),  # Photometric: BlackIsZero
        (273, 4, 8),  # StripOffsets: pixels right after the header
        (277, 3, 1),  # SamplesPerPixel
        (278, 4, height),  # RowsPerStrip
        (279, 4, len(pixels)),  # StripByteCounts
    ]
    ifd = struct.pack("<H", len(entries))
    for tag, kind, value in entries:
        packed = struct.pack("<HI", value, 0)[:4] if kind == 3 else struct.pack("<I", value)
        ifd += struct.pack("<HHI", tag, kind, 1) + packed
    ifd += struct.pack("<I", 0)
    return b"II*\x00" + struct.pack("<I", 8 + len(pixels)) + pixels + ifd


def pdf_bytes(objects: list[bytes]) -> bytes:
    """A PDF whose object N (1-based) is objects[N-1]; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref_at,
    )
    return bytes(out)


def stream_object(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n%s\nendstream" % (len(data), extra, data)


def text_pdf(pages: list[list[str]]) -> bytes:
    """One page per entry, each line drawn in Helvetica: a real text layer."""
    objects: list[bytes] = [b"", b"", b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for lines in pages:
        page_number = len(objects) + 1
        kids.append(b"%d 0 R" % page_number)
        shown = b" T* ".join(
            b"(%s) Tj" % line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode()
            for line in lines
        )
        content = b"BT /F1 14 Tf 18 TL 72 720 Td " + shown + b" ET"
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (page_number + 1)
        )
        objects.append(stream_object(content))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(pages))
    return pdf_bytes(objects)


def scanned_pdf(text: str) -> bytes:
    """A one-page PDF holding only a picture of `text`: no text layer."""
    width, height, rows = render_gray(text, scale=3)
    pixels = zlib.compress(b"".join(rows))
    image = stream_object(
        pixels,
        b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Filter /FlateDecode" % (width, height),
    )
    # Drawn at 150 dpi on the page, so a 300 dpi render doubles the pixels.
    w_pt, h_pt = width * 72 // 150, height * 72 // 150
    content = b"q %d 0 0 %d 36 36 cm /Im1 Do Q" % (w_pt, h_pt)
    return pdf_bytes(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] "
            b"/Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>"
            % (w_pt + 72, h_pt + 72),
            image,
            stream_object(content),
        ]
    )


def make_docx(path: Path) -> Path:
    document = docx.Document()
    document.add_heading("Contract Summary", level=1)
    document.add_paragraph("Parties agree to the terms below.")
    table = document.add_table(rows=3, cols=2)
    table.cell(0, 0).text = "Item"
    table.cell(0, 1).text = "Price"
    table.cell(1, 0).text = "Widget"
    table.cell(1, 1).text = "42 EUR"
    merged = table.cell(2, 0).merge(table.cell(2, 1))
    merged.text = "Total spans both columns"
    nested = table.cell(1, 1).add_table(rows=1, cols=1)
    nested.cell(0, 0).text = "nested note"
    document.add_paragraph("Signed in Zürich.")
    document.save(str(path))
    return path


WORD_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
)
_PACKAGE_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="word/document.xml" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/officeDocument"/></Relationships>'
)


def docx_package(body: bytes | list[bytes], *, repeat: int = 1, prolog: bytes = b"") -> bytes:
    """A minimal DOCX whose word/document.xml body is `body` written `repeat` times
    (streamed into the archive, so a 480 MB document.xml never sits in memory)."""
    chunks = body if isinstance(body, list) else [body]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", _CONTENT_TYPES)
        archive.writestr("_rels/.rels", _PACKAGE_RELS)
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            member.write(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' + prolog)
            member.write(b'<w:document xmlns:w="%s"><w:body>' % WORD_NS.encode())
            for _ in range(repeat):
                for chunk in chunks:
                    member.write(chunk)
            member.write(b"</w:body></w:document>")
    return buffer.getvalue()


BOMB_PARAGRAPH = b"<w:p><w:r><w:t>bomb</w:t></w:r></w:p>"


def docx_bomb(paragraphs: int) -> bytes:
    """The probe's DOCX bomb: `paragraphs` times one short paragraph, about 343:1 deflated
    (1,000,000 -> 108 KB, 3,000,000 -> 324 KB, 6,000,000 -> 647 KB, 13,000,000 -> 1.4 MB)."""
    batch = 10_000
    assert paragraphs % batch == 0
    return docx_package(BOMB_PARAGRAPH * batch, repeat=paragraphs // batch)
