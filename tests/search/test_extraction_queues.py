"""OCR on its own queue, behind the default one; and what the document record says about the
text (textError, textTruncated), through the in-process worker and the API."""

from __future__ import annotations

import io

from flask import Flask
from rq import SimpleWorker

from extensions import db, redis_store
from models import Document, DocumentText
from services.core import queue
from services.search import extraction_runs
from tests.fixture_files import needs_tesseract, png_bytes, render_gray
from tests.helpers import auth_headers
from tests.support import InProcessWorker, run_jobs, stored_document


def scan() -> bytes:
    return png_bytes(*render_gray("HELLO WORLD"))


def run_default_queue_only(app: Flask) -> None:
    """A worker that listens to "default" alone: the text stage runs, OCR stays queued."""
    InProcessWorker.flask_app = app
    with app.app_context():
        worker: SimpleWorker = InProcessWorker([queue.queue()], connection=redis_store.client)
        worker.work(burst=True, with_scheduler=False)


def state(app: Flask, document_id: str) -> tuple[Document, DocumentText]:
    with app.app_context():
        document = db.session.get(Document, document_id)
        row = db.session.get(DocumentText, document_id)
        db.session.expunge_all()
        return document, row


def test_worker_listens_to_default_before_ocr():
    assert queue.QUEUE_NAMES == ("default", "ocr")


@needs_tesseract
def test_an_image_goes_from_the_text_stage_to_the_ocr_queue(app, tenant):
    document_id = stored_document(app, tenant.id, scan(), "scan.png")

    run_default_queue_only(app)

    document, row = state(app, document_id)
    assert document.text_status == "pending"
    with app.app_context():
        waiting = queue.queue("ocr").get_jobs()
        assert [(job.func_name, job.args) for job in waiting] == [
            (extraction_runs.OCR_JOB, (tenant.id, document_id, 1))
        ]
        assert row.job_id == waiting[0].id  # the recovery sweep sees the work as alive

    run_jobs(app)

    document, row = state(app, document_id)
    assert document.text_status == "done"
    assert "HELLO WORLD" in row.text.upper()
    assert row.attempts == 2  # the text stage, then OCR


@needs_tesseract
def test_text_uploads_pass_the_ocr_queue(app, create_tenant):
    heavy, light = create_tenant("scans-inc"), create_tenant("notes-inc")
    scans = [stored_document(app, heavy.id, scan(), f"scan-{n}.png") for n in range(3)]
    run_default_queue_only(app)  # the three wait for OCR
    note = stored_document(app, light.id, b"meeting notes", "notes.txt")

    run_jobs(app)

    note_done = state(app, note)[1].finished_at
    scans_done = [state(app, document_id)[1].finished_at for document_id in scans]
    assert all(note_done < finished for finished in scans_done)


@needs_tesseract
def test_reindex_inline_reads_images_without_a_queue(app, tenant):
    document_id = stored_document(app, tenant.id, scan(), "scan.png", schedule=False)

    result = app.test_cli_runner().invoke(args=["documents", "reindex", "--all", "--inline"])

    assert result.exit_code == 0, result.output
    document, row = state(app, document_id)
    assert document.text_status == "done"
    assert "HELLO WORLD" in row.text.upper()
    with app.app_context():
        assert queue.queue("ocr").count == 0


def test_document_record_says_the_text_was_cut(make_app, tenant, api_key):
    small = make_app(DMS_EXTRACT_MAX_CHARS=10)
    document_id = stored_document(small, tenant.id, b"far more than ten characters", "t.txt")
    run_jobs(small)

    client, headers = small.test_client(), auth_headers(api_key[1], tenant.id)
    data = client.get(f"/api/v1/documents/{document_id}", headers=headers).get_json()["data"]

    assert (data["textStatus"], data["textTruncated"], data["textError"]) == ("done", True, None)


def test_document_record_says_why_there_is_no_text(app, client, headers, tenant):
    document_id = stored_document(app, tenant.id, b"%PDF-1.4\n" + b"\x00garbage" * 50, "bad.pdf")
    run_jobs(app)

    data = client.get(f"/api/v1/documents/{document_id}", headers=headers).get_json()["data"]
    assert data["textStatus"] == "failed"
    assert data["textError"]
    assert data["textTruncated"] is False

    # New content is extracted afresh: the old reason goes with the old text.
    response = client.post(
        f"/api/v1/documents/{document_id}/versions",
        data={"file": (io.BytesIO(b"readable now"), "good.txt")},
        headers=headers,
    )
    assert response.status_code == 201, response.get_json()
    data = client.get(f"/api/v1/documents/{document_id}", headers=headers).get_json()["data"]
    assert (data["textStatus"], data["textError"], data["textTruncated"]) == (
        "pending",
        None,
        False,
    )
