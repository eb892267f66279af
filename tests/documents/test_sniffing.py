"""Deciding a stored file's type from its bytes (services/documents/sniffing.py)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from services.documents.sniffing import DOCX, sniff_content_type
from services.search.extraction import extract_text
from tests.fixture_files import make_docx, png_bytes, render_gray, text_pdf


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_sniff_docx_from_path_and_bytes(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "c.docx")

    assert sniff_content_type(path) == DOCX
    assert sniff_content_type(str(path)) == DOCX
    assert sniff_content_type(path.read_bytes()) == DOCX
    assert sniff_content_type(bytearray(path.read_bytes())) == DOCX


def test_sniff_docx_that_libmagic_calls_zip(tmp_path: Path) -> None:
    # Some writers put other members before [Content_Types].xml; libmagic then gives up.
    source = make_docx(tmp_path / "c.docx")
    buffer = io.BytesIO()
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(buffer, "w") as dst:
        dst.writestr("customXml/padding.bin", b"x" * 70_000)
        for name in src.namelist():
            dst.writestr(name, src.read(name))
    path = write(tmp_path, "reordered.docx", buffer.getvalue())

    assert sniff_content_type(path) == DOCX
    assert extract_text(path, DOCX).text.startswith("Contract Summary")


def test_sniff_other_zip_is_not_docx(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr(
            "[Content_Types].xml",
            '<Types><Override PartName="/xl/workbook.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
        )
        zf.writestr("xl/workbook.xml", "<workbook/>")

    assert sniff_content_type(buffer.getvalue(), filename_hint="evil.docx") != DOCX


def test_sniff_common_types(tmp_path: Path) -> None:
    assert sniff_content_type(text_pdf([["x"]])) == "application/pdf"
    assert sniff_content_type(png_bytes(*render_gray("HELLO"))) == "image/png"
    assert sniff_content_type(b"<!doctype html><html><body><p>x</p></body></html>") == ("text/html")
    assert sniff_content_type(write(tmp_path, "a.txt", b"just some words\n")) == "text/plain"


def test_filename_hint_refines_only_plain_text() -> None:
    text = b"just some words\nand another line\n"

    assert sniff_content_type(text) == "text/plain"
    assert sniff_content_type(text, filename_hint="README.md") == "text/markdown"
    assert sniff_content_type(text, filename_hint="notes.MARKDOWN") == "text/markdown"
    assert sniff_content_type(text, filename_hint="data.csv") == "text/csv"
    assert sniff_content_type(text, filename_hint="report.pdf") == "text/plain"


def test_filename_hint_never_upgrades_binary() -> None:
    png = png_bytes(*render_gray("HELLO"))
    binary = b"\x7fELF\x02\x01\x01" + bytes(range(256))

    assert sniff_content_type(png, filename_hint="notes.md") == "image/png"
    assert sniff_content_type(binary, filename_hint="data.csv") not in ("text/csv", "text/plain")
    assert sniff_content_type(binary, filename_hint="contract.docx") != DOCX
