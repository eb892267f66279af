"""Text extraction (services/search/extraction.py): each supported format and OCR. Budgets and
refusals are in test_extraction_budgets.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from services.documents.sniffing import DOCX
from services.search.extraction import ExtractionResult, extract_text
from services.search.limits import Budgets
from services.search.plain_text import decode_text
from tests.fixture_files import (
    HAS_PDFTOPPM,
    HAS_TESSERACT,
    make_docx,
    needs_tesseract,
    png_bytes,
    render_gray,
    scanned_pdf,
    text_pdf,
    tiff_bytes,
)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def lines_of(result: ExtractionResult) -> list[str]:
    assert result.status == "done", result
    return result.text.splitlines()


# --- plain text and encodings ------------------------------------------------------------------


def test_utf8_text(tmp_path: Path) -> None:
    text = "Grüße aus Köln — naïve café ✓\nsecond line\n"
    result = extract_text(write(tmp_path, "a.txt", text.encode("utf-8")), "text/plain")

    assert result == ExtractionResult("done", text=text)


def test_utf8_bom_is_removed(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.txt", b"\xef\xbb\xbfHello \xc3\xa9t\xc3\xa9")

    assert extract_text(path, "text/plain").text == "Hello été"


def test_cp1252_text(tmp_path: Path) -> None:
    # Curly quotes, en dash and euro sign all live in cp1252's 0x80-0x9F block.
    text = "Café \u201cquoted\u201d \u2013 costs €5"
    path = write(tmp_path, "win.txt", text.encode("cp1252"))

    assert extract_text(path, "text/plain").text == text


def test_latin1_is_the_last_resort() -> None:
    # 0x81 is undefined in cp1252, so only latin-1 can decode this.
    assert decode_text(b"caf\xe9 \x81") == "caf\xe9 \x81"


def test_utf16_with_bom() -> None:
    assert decode_text("Hallo Welt ✓".encode("utf-16")) == "Hallo Welt ✓"


def test_content_type_parameters_are_ignored(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", b"plain words")

    assert extract_text(path, "Text/Plain; charset=utf-8").text == "plain words"


def test_text_is_capped_at_max_chars(tmp_path: Path) -> None:
    path = write(tmp_path, "long.txt", b"abcdefghij" * 1000)

    result = extract_text(path, "text/plain", Budgets(max_chars=25))

    assert result.status == "done"
    assert result.text == "abcdefghij" * 2 + "abcde"
    assert result.truncated is True


def test_capped_read_does_not_split_multibyte_characters(tmp_path: Path) -> None:
    # Only a prefix of the file is read; a character cut in half must not push the decoder
    # into the cp1252 fallback (which would turn each "€" into three wrong characters).
    path = write(tmp_path, "euro.txt", ("€" * 1000).encode("utf-8"))

    result = extract_text(path, "text/plain", Budgets(max_chars=10))

    assert result.text == "€" * 10
    assert result.truncated is True


def test_nul_characters_are_removed(tmp_path: Path) -> None:
    path = write(tmp_path, "nul.txt", b"before\x00after")

    assert extract_text(path, "text/plain").text == "beforeafter"


# --- markdown, csv, html -----------------------------------------------------------------------


MARKDOWN = """# Quarterly *Report*

Revenue grew **12%** in [Q3](https://example.com/q3).

- first item
- second `code` item

| Region | Sales |
|--------|-------|
| North  | 100   |

![Chart of sales](chart.png)

```python
print("hi")
```

<div>raw <b>html</b> block</div>
"""


def test_markdown_is_stripped_to_text(tmp_path: Path) -> None:
    result = extract_text(write(tmp_path, "r.md", MARKDOWN.encode()), "text/markdown")

    assert lines_of(result) == [
        "Quarterly Report",
        "Revenue grew 12% in Q3.",
        "first item",
        "second code item",
        "Region Sales",
        "North 100",
        "Chart of sales",
        'print("hi")',
        "raw html block",
    ]
    for markup in ("**", "https://example.com", "chart.png", "#", "|", "<b>", "```"):
        assert markup not in result.text


def test_csv_cells_joined_by_spaces(tmp_path: Path) -> None:
    data = b'name,city,note\nAda,"London, UK",first\nBob,Paris,\n'

    result = extract_text(write(tmp_path, "p.csv", data), "text/csv")

    assert lines_of(result) == ["name city note", "Ada London, UK first", "Bob Paris"]


def test_semicolon_csv_in_cp1252(tmp_path: Path) -> None:
    data = "Stadt;Straße\nMünchen;Hauptstraße 1\n".encode("cp1252")

    result = extract_text(write(tmp_path, "de.csv", data), "text/csv")

    assert lines_of(result) == ["Stadt Straße", "München Hauptstraße 1"]


def test_html_drops_script_style_and_comments(tmp_path: Path) -> None:
    html = b"""<!doctype html>
<html><head><title>Invoice 7</title>
<style>body { color: red }</style>
<script>var secret = "do not index";</script></head>
<body><h1>Invoice</h1><p>Amount: <b>99</b> &amp; tax</p><p>Due<br>tomorrow</p>
<!-- internal comment -->
<noscript>enable js</noscript>
<ul><li>one</li><li>two</li></ul></body></html>"""

    result = extract_text(write(tmp_path, "i.html", html), "text/html")

    assert lines_of(result) == [
        "Invoice 7",
        "Invoice",
        "Amount: 99 & tax",
        "Due",
        "tomorrow",
        "one",
        "two",
    ]
    for hidden in ("color: red", "do not index", "internal comment", "enable js"):
        assert hidden not in result.text


# --- pdf, docx ---------------------------------------------------------------------------------


def test_pdf_text_layer(tmp_path: Path) -> None:
    data = text_pdf([["Hello PDF world", "Second line (with parens)"], ["Page two text"]])

    result = extract_text(write(tmp_path, "t.pdf", data), "application/pdf")

    assert result.status == "done", result
    assert "Hello PDF world" in result.text
    assert "Second line (with parens)" in result.text
    assert "Page two text" in result.text
    assert result.text.index("Hello PDF world") < result.text.index("Page two text")


def test_corrupt_pdf_fails_without_raising(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catal" + b"\x00\xff" * 50)

    result = extract_text(path, "application/pdf")

    assert result.status == "failed"
    assert result.text == ""
    assert result.error and len(result.error) <= 200


def test_truncated_pdf_fails_without_raising(tmp_path: Path) -> None:
    data = text_pdf([["complete"]])
    path = write(tmp_path, "cut.pdf", data[: len(data) // 3])

    result = extract_text(path, "application/pdf")

    assert result.status == "failed"
    assert result.error


def test_docx_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "c.docx")

    result = extract_text(path, DOCX)

    assert lines_of(result) == [
        "Contract Summary",
        "Parties agree to the terms below.",
        "Item Price",
        "Widget 42 EUR nested note",
        "Total spans both columns",
        "Signed in Zürich.",
    ]


def test_corrupt_docx_fails_without_raising(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.docx", b"PK\x03\x04 this is not really a zip file")

    result = extract_text(path, DOCX)

    assert result.status == "failed"
    assert result.error


def test_missing_file_fails_without_raising(tmp_path: Path) -> None:
    result = extract_text(tmp_path / "gone.txt", "text/plain")

    assert result.status == "failed"
    assert "FileNotFoundError" in (result.error or "")


# --- unsupported -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type", ["application/octet-stream", "application/zip", "image/gif", ""]
)
def test_unsupported_binary(tmp_path: Path, content_type: str) -> None:
    path = write(tmp_path, "blob.bin", bytes(range(256)) * 10)

    result = extract_text(path, content_type)

    assert result.status == "unsupported"
    assert result.text == ""
    assert result.error


def test_image_without_tesseract_is_unsupported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name, *args, **kwargs: None)
    path = write(tmp_path, "scan.png", png_bytes(*render_gray("HELLO")))

    result = extract_text(path, "image/png")

    assert result.status == "unsupported"
    assert "tesseract" in (result.error or "")


def test_scanned_pdf_without_ocr_tools_is_unsupported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name, *args, **kwargs: None)
    path = write(tmp_path, "scan.pdf", scanned_pdf("HELLO WORLD"))

    result = extract_text(path, "application/pdf")

    assert result.status == "unsupported"
    assert "tesseract" in (result.error or "")


@needs_tesseract
def test_scanned_pdf_without_pdftoppm_is_unsupported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_which = shutil.which
    monkeypatch.setattr(
        shutil, "which", lambda name, *a, **k: None if name == "pdftoppm" else real_which(name)
    )
    path = write(tmp_path, "scan.pdf", scanned_pdf("HELLO WORLD"))

    result = extract_text(path, "application/pdf")

    assert result.status == "unsupported"
    assert "pdftoppm" in (result.error or "")


# --- OCR (real Tesseract) ----------------------------------------------------------------------


@needs_tesseract
@pytest.mark.parametrize(
    ("name", "content_type", "encode"),
    [("scan.png", "image/png", png_bytes), ("scan.tiff", "image/tiff", tiff_bytes)],
)
def test_ocr_reads_text_from_image(
    tmp_path: Path, name: str, content_type: str, encode: object
) -> None:
    path = write(tmp_path, name, encode(*render_gray("HELLO WORLD")))  # type: ignore[operator]

    result = extract_text(path, content_type)

    assert result.status == "done", result
    assert "HELLO WORLD" in result.text.upper()


@needs_tesseract
def test_ocr_of_garbage_image_fails_without_raising(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)

    result = extract_text(path, "image/png")

    assert result.status == "failed"
    assert "tesseract" in (result.error or "")


@needs_tesseract
def test_scanned_pdf_pages_are_rendered_and_ocred(tmp_path: Path, fake_pdftoppm: Path) -> None:
    pdf = text_pdf([[], []])  # two pages, no text layer

    result = extract_text(write(tmp_path, "scan.pdf", pdf), "application/pdf")

    assert result.status == "done", result
    assert result.text.upper().count("HELLO WORLD") == 2
    calls = fake_pdftoppm.read_text().splitlines()
    assert len(calls) == 2
    assert "-f 1 -l 1" in calls[0] and "-f 2 -l 2" in calls[1]
    assert "-r 300" in calls[0]


@pytest.mark.skipif(
    not (HAS_TESSERACT and HAS_PDFTOPPM), reason="needs both tesseract and pdftoppm on PATH"
)
def test_ocr_of_real_scanned_pdf(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.pdf", scanned_pdf("HELLO WORLD"))

    result = extract_text(path, "application/pdf")

    assert result.status == "done", result
    assert "HELLO WORLD" in result.text.upper()
