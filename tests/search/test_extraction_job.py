"""The extraction job end to end: every text format through a real RQ worker, the job's
record in the database, stale versions, missing blobs, and the reindex sweep."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from extensions import db
from models import Document, DocumentText
from tests.fixture_files import (
    HAS_PDFTOPPM,
    HAS_TESSERACT,
    make_docx,
    png_bytes,
    render_gray,
    scanned_pdf,
    text_pdf,
)


def _docx_bytes(tmp_path: Path) -> bytes:
    return make_docx(tmp_path / "contract.docx").read_bytes()


def _text_of(app, document_id: str) -> tuple[str, DocumentText]:
    with app.app_context():
        document = db.session.get(Document, document_id)
        row = db.session.get(DocumentText, document_id)
        db.session.expunge_all()
        return document.text_status, row


FORMATS = [
    ("notes.txt", lambda _: b"Quarterly revenue grew in the northern region.\n", "northern"),
    ("readme.md", lambda _: b"# Onboarding\n\nAsk **Priya** about `badges`.\n", "Priya"),
    ("ledger.csv", lambda _: b"item,amount\nstapler,12\nlamp,40\n", "stapler 12"),
    (
        "page.html",
        lambda _: b"<html><head><script>var x=1</script></head><body><p>Harbour</p></body></html>",
        "Harbour",
    ),
    ("report.pdf", lambda _: text_pdf([["Invoice 7781 for consulting"]]), "Invoice 7781"),
    ("contract.docx", _docx_bytes, "Contract Summary"),
]


@pytest.mark.parametrize(("filename", "build", "expected"), FORMATS, ids=[f[0] for f in FORMATS])
def test_each_text_format_is_extracted_by_the_worker(
    app, tenant, store_document, work, tmp_path, filename, build, expected
):
    document_id = store_document(tenant, build(tmp_path), filename)
    assert _text_of(app, document_id)[0] == "pending"

    work()

    status, row = _text_of(app, document_id)
    assert status == "done"
    assert expected in row.text
    assert "var x" not in row.text
    assert row.attempts == 1
    assert row.version_number == 1
    assert row.finished_at is not None
    assert row.job_id


@pytest.mark.skipif(not HAS_TESSERACT, reason="tesseract is not installed")
def test_image_is_read_with_ocr(app, tenant, store_document, work):
    width, height, rows = render_gray("HELLO WORLD")
    document_id = store_document(tenant, png_bytes(width, height, rows), "scan.png")
    work()
    status, row = _text_of(app, document_id)
    assert status == "done"
    assert "HELLO" in row.text.upper()


@pytest.mark.skipif(not (HAS_TESSERACT and HAS_PDFTOPPM), reason="needs tesseract and pdftoppm")
def test_scanned_pdf_is_read_with_ocr(app, tenant, store_document, work):
    document_id = store_document(tenant, scanned_pdf("HELLO WORLD"), "scan.pdf")
    work()
    status, row = _text_of(app, document_id)
    assert status == "done"
    assert "WORLD" in row.text.upper()


def test_binary_content_is_unsupported(app, tenant, store_document, work):
    document_id = store_document(tenant, b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 8, "a.bin")
    work()
    status, row = _text_of(app, document_id)
    assert status == "unsupported"
    assert row.text == ""
    assert row.error


def test_corrupt_pdf_fails_and_says_why(app, tenant, store_document, work):
    document_id = store_document(tenant, b"%PDF-1.4\n" + b"\x00garbage" * 50, "broken.pdf")
    work()
    status, row = _text_of(app, document_id)
    assert status == "failed"
    assert row.error


def test_missing_blob_fails_without_crashing_the_worker(app, tenant, store_document, work):
    from services.documents.blobs import blob_store

    document_id = store_document(tenant, b"soon gone", "gone.txt")
    with app.app_context():
        document = db.session.get(Document, document_id)
        blob_store().delete(tenant.id, document.sha256)
    work()
    status, row = _text_of(app, document_id)
    assert status == "failed"
    assert "missing" in row.error


def test_job_for_a_superseded_version_does_nothing(app, tenant, store_document, work):
    document_id = store_document(tenant, b"first words", "v.txt")
    with app.app_context():
        document = db.session.get(Document, document_id)
        document.current_version = 2  # a newer upload landed before the worker ran
        db.session.commit()
    work()
    status, row = _text_of(app, document_id)
    assert status == "pending"
    assert row.attempts == 0


def test_upload_survives_redis_outage_and_reindex_catches_up(app, make_app, tenant, work):
    from tests.support import stored_document

    offline = make_app(REDIS_URL="redis://127.0.0.1:1/0")
    document_id = stored_document(offline, tenant.id, b"written while redis slept", "r.txt")
    status, row = _text_of(app, document_id)
    assert status == "pending"
    assert row.job_id is None

    result = app.test_cli_runner().invoke(args=["documents", "reindex"])
    assert result.exit_code == 0, result.output
    assert "enqueued 1 documents" in result.output
    work()
    status, row = _text_of(app, document_id)
    assert status == "done"
    assert "redis slept" in row.text


def test_reindex_reports_an_unreachable_redis(make_app, tenant, store_document):
    store_document(tenant, b"pending text", "p.txt", schedule=False)
    offline = make_app(REDIS_URL="redis://127.0.0.1:1/0")
    result = offline.test_cli_runner().invoke(args=["documents", "reindex"])
    assert result.exit_code == 1
    assert "Redis is unreachable" in result.output


def test_reindex_inline_extracts_without_a_worker(app, tenant, store_document):
    document_id = store_document(tenant, b"inline extraction works", "i.txt", schedule=False)
    result = app.test_cli_runner().invoke(args=["documents", "reindex", "--all", "--inline"])
    assert result.exit_code == 0, result.output
    status, row = _text_of(app, document_id)
    assert status == "done"
    assert row.text.startswith("inline extraction")


def test_flask_worker_runs_the_job_in_a_forked_work_horse(app, tenant, store_document):
    """The production path (`flask worker`): RQ forks a work horse per job."""
    from jobs.worker import run_worker

    document_id = store_document(tenant, b"forked worker text", "f.txt")
    with app.app_context():
        db.engine.dispose()  # no pooled connection may cross the fork
    run_worker(app, burst=True)
    status, row = _text_of(app, document_id)
    assert status == "done"
    assert row.text == "forked worker text"
    with app.app_context():
        pending = db.session.scalars(select(Document.id).where(Document.text_status == "pending"))
        assert list(pending) == []
