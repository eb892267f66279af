"""The budgets of extract_text (services/search/limits.py): characters, DOCX elements, PDF
pages for the text layer and for OCR; DOCX archives refused outright; the hand-off to OCR;
and the streaming DOCX reader's treatment of Word's markup."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from services.documents.sniffing import DOCX
from services.search.extraction import extract_text, ocr_text
from services.search.limits import Budgets
from tests.fixture_files import (
    HAS_PDFTOPPM,
    HAS_TESSERACT,
    docx_bomb,
    docx_package,
    needs_tesseract,
    png_bytes,
    render_gray,
    scanned_pdf,
    text_pdf,
)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def docx_lines(tmp_path: Path, body: bytes) -> list[str]:
    result = extract_text(write(tmp_path, "d.docx", docx_package(body)), DOCX)
    assert result.status == "done", result
    return result.text.splitlines()


# --- DOCX ----------------------------------------------------------------------------------------


def test_docx_is_cut_at_the_character_budget_and_marked(tmp_path: Path) -> None:
    path = write(tmp_path, "bomb.docx", docx_bomb(10_000))

    result = extract_text(path, DOCX, Budgets(max_chars=1000))

    assert result.status == "done"
    assert result.truncated is True
    assert result.text == "\n".join(["bomb"] * 200)  # 999 characters: the next one won't fit


def test_docx_is_cut_at_the_element_budget_and_marked(tmp_path: Path) -> None:
    path = write(tmp_path, "bomb.docx", docx_bomb(10_000))

    result = extract_text(path, DOCX, Budgets(max_elements=300))

    # document and body, then three elements a paragraph: 99 whole paragraphs fit.
    assert (result.status, result.truncated) == ("done", True)
    assert result.text.split("\n") == ["bomb"] * 99


def test_docx_within_its_budgets_is_not_marked(tmp_path: Path) -> None:
    result = extract_text(write(tmp_path, "small.docx", docx_bomb(10_000)), DOCX)

    assert (result.status, result.truncated) == ("done", False)
    assert result.text.count("bomb") == 10_000


def test_docx_whose_document_declares_an_absurd_size_is_refused(tmp_path: Path) -> None:
    # A 1.4 MB file: 481 MB of XML, which python-docx's DOM would need ~8.6 GiB for.
    path = write(tmp_path, "huge.docx", docx_bomb(13_000_000))

    result = extract_text(path, DOCX)

    assert result.status == "failed"
    assert result.error == (
        "limit_exceeded: word/document.xml declares 458 MiB uncompressed (at most 256 MiB)"
    )


def test_docx_whose_document_declares_an_absurd_ratio_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "dense.docx", docx_package(b" " * 1_000_000, repeat=20))

    result = extract_text(path, DOCX)

    assert result.status == "failed"
    assert result.error.startswith("limit_exceeded: word/document.xml declares a compression")


def test_docx_with_a_dtd_is_refused_before_any_entity_expands(tmp_path: Path) -> None:
    laughs = b'<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">' + b"".join(
        b'<!ENTITY %s "%s">' % (bytes([98 + i]), b"&%s;" % bytes([97 + i]) * 10) for i in range(8)
    )
    body = b"<w:p><w:r><w:t>&i;</w:t></w:r></w:p>"
    path = write(tmp_path, "laughs.docx", docx_package(body, prolog=laughs + b"]>"))

    result = extract_text(path, DOCX)

    assert result.status == "failed"
    assert "declares a DTD" in result.error


def test_docx_nested_beyond_any_real_document_is_refused(tmp_path: Path) -> None:
    body = b"<w:tbl><w:tr><w:tc>" * 100 + b"<w:p/>" + b"</w:tc></w:tr></w:tbl>" * 100

    result = extract_text(write(tmp_path, "deep.docx", docx_package(body)), DOCX)

    assert result.status == "failed"
    assert result.error == "limit_exceeded: word/document.xml nests elements deeper than 256"


def test_docx_run_content_becomes_characters(tmp_path: Path) -> None:
    body = (
        b"<w:p><w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t>"
        b'<w:br w:type="page"/><w:t>d</w:t><w:noBreakHyphen/><w:t>e</w:t></w:r></w:p>'
    )

    assert docx_lines(tmp_path, body) == ["a b", "cd-e"]


def test_docx_reads_links_and_insertions_but_not_deletions_tab_stops_or_drawings(
    tmp_path: Path,
) -> None:
    body = (
        b'<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>'
        b"<w:hyperlink><w:r><w:t>linked</w:t></w:r></w:hyperlink>"
        b"<w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>"
        b"<w:ins><w:r><w:t xml:space='preserve'> inserted</w:t></w:r></w:ins>"
        b"<w:r><w:drawing><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p>"
        b"</w:txbxContent></w:drawing></w:r></w:p>"
    )

    assert docx_lines(tmp_path, body) == ["linked inserted"]


def test_docx_vertically_merged_cell_is_read_once(tmp_path: Path) -> None:
    def cell(text: bytes, merge: bytes = b"") -> bytes:
        return b"<w:tc><w:tcPr>%s</w:tcPr><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:tc>" % (
            merge,
            text,
        )

    body = (
        b"<w:tbl><w:tr>"
        + cell(b"Region", b'<w:vMerge w:val="restart"/>')
        + cell(b"north")
        + b"</w:tr><w:tr>"
        + b"<w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc>"
        + cell(b"south")
        + b"</w:tr></w:tbl>"
    )

    assert docx_lines(tmp_path, body) == ["Region north", "south"]


# --- PDF -----------------------------------------------------------------------------------------


def test_pdf_text_layer_stops_at_the_page_budget_and_marks(tmp_path: Path) -> None:
    path = write(tmp_path, "t.pdf", text_pdf([["first page"], ["second page"], ["third page"]]))

    result = extract_text(path, "application/pdf", Budgets(max_pages=2))

    assert (result.status, result.truncated) == ("done", True)
    assert "second page" in result.text
    assert "third page" not in result.text


def test_pdf_text_layer_stops_at_the_character_budget(tmp_path: Path) -> None:
    pages = [[f"page {n} " + "x" * 40] for n in range(1, 6)]
    path = write(tmp_path, "t.pdf", text_pdf(pages))

    result = extract_text(path, "application/pdf", Budgets(max_chars=60))

    assert (result.status, result.truncated) == ("done", True)
    assert len(result.text) == 60
    assert result.text.startswith("page 1 ")


@needs_tesseract
def test_ocr_stops_at_the_ocr_page_budget_and_marks(tmp_path: Path, fake_pdftoppm: Path) -> None:
    path = write(tmp_path, "scan.pdf", text_pdf([[]] * 5))  # five pages, no text layer

    result = extract_text(path, "application/pdf", Budgets(ocr_max_pages=2))

    assert (result.status, result.truncated) == ("done", True)
    assert result.text.upper().count("HELLO WORLD") == 2
    assert len(fake_pdftoppm.read_text().splitlines()) == 2


@needs_tesseract
def test_ocr_within_the_page_budget_is_not_marked(tmp_path: Path, fake_pdftoppm: Path) -> None:
    path = write(tmp_path, "scan.pdf", text_pdf([[]] * 2))

    result = ocr_text(path, "application/pdf", Budgets(ocr_max_pages=2))

    assert (result.status, result.truncated) == ("done", False)
    assert result.text.upper().count("HELLO WORLD") == 2


# --- the hand-off to OCR -------------------------------------------------------------------------


@pytest.mark.skipif(not (HAS_TESSERACT and HAS_PDFTOPPM), reason="needs tesseract and pdftoppm")
def test_text_stage_hands_a_scanned_pdf_to_ocr(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.pdf", scanned_pdf("HELLO WORLD"))

    assert extract_text(path, "application/pdf", ocr=False).status == "needs_ocr"
    assert "WORLD" in ocr_text(path, "application/pdf").text.upper()


@needs_tesseract
def test_text_stage_hands_an_image_to_ocr(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.png", png_bytes(*render_gray("HELLO WORLD")))

    assert extract_text(path, "image/png", ocr=False).status == "needs_ocr"
    assert "HELLO WORLD" in ocr_text(path, "image/png").text.upper()


def test_nothing_is_handed_to_ocr_that_cannot_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name, *args, **kwargs: None)
    path = write(tmp_path, "scan.png", png_bytes(*render_gray("HELLO")))

    result = extract_text(path, "image/png", ocr=False)

    assert result.status == "unsupported"
    assert "tesseract" in result.error


def test_text_with_a_text_layer_is_not_handed_to_ocr(tmp_path: Path) -> None:
    path = write(tmp_path, "t.pdf", text_pdf([["Invoice 7781"]]))

    result = extract_text(path, "application/pdf", ocr=False)

    assert (result.status, result.text) == ("done", "Invoice 7781")


def test_errors_name_no_server_path(tmp_path: Path) -> None:
    result = extract_text(tmp_path / "gone.txt", "text/plain")

    assert result.status == "failed"
    assert str(tmp_path) not in result.error
    assert result.error.startswith("FileNotFoundError: [Errno 2] No such file or directory")
