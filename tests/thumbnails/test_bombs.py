"""Attacks on the thumbnail job, run by the production worker (a forked work horse under the
extraction's memory ceiling and CPU budget): a 30,000 x 30,000 PNG of a few hundred KiB, a
JPEG declaring 65,000 x 65,000 pixels, a 20,000-page PDF and a damaged PDF each end with a
picture (the type icon and the reason, or the first page) within the budgets, and the worker
lives on; the largest picture the pixel rule allows is drawn within them; with the pixel rule
lifted, the memory ceiling still stops a huge image."""

from __future__ import annotations

import time
import warnings

import pytest
from rq.registry import FailedJobRegistry
from sqlalchemy import select

from extensions import db
from jobs.worker import run_worker
from models.thumbnails import DocumentThumbnail
from services.core import queue
from services.thumbnails import render, thumbnails
from tests.support import stored_document
from tests.thumbnails.files import DAMAGED_PDF, bomb_png, jpeg_header, pdf_pages, png


def _store(app, tenant, files: dict[str, bytes]) -> dict[str, str]:
    """Store each file (no extraction queued) and queue only its thumbnail; ids by name."""
    ids = {}
    for name, content in files.items():
        ids[name] = stored_document(app, tenant.id, content, name, schedule=False)
    with app.app_context():
        for document_id in ids.values():
            assert thumbnails.schedule(tenant.id, document_id, 1)
    return ids


def _work_in_limited_horses(app) -> float:
    with app.app_context():
        db.engine.dispose()  # nothing pooled by the test may cross a fork
    started = time.monotonic()
    run_worker(app, burst=True)
    return time.monotonic() - started


def _rows(app, ids: dict[str, str]) -> dict[str, DocumentThumbnail]:
    with app.app_context():
        rows = db.session.scalars(
            select(DocumentThumbnail).where(DocumentThumbnail.document_id.in_(ids.values()))
        ).all()
        by_id = {row.document_id: row for row in rows}
        db.session.expunge_all()
        assert not FailedJobRegistry(queue=queue.queue(), connection=queue.redis_store.client)
        return {name: by_id[document_id] for name, document_id in ids.items()}


def test_bombs_and_huge_files_end_with_a_picture_within_the_budgets(make_app, tenant):
    app = make_app(DMS_EXTRACT_MEMORY_MB=512, DMS_EXTRACT_CPU_SECONDS=60)
    files = {
        "bomb.png": bomb_png(),
        "huge.jpg": jpeg_header(65_000, 65_000),
        "many-pages.pdf": pdf_pages(20_000),
        "damaged.pdf": DAMAGED_PDF,
        # 89,472,680 pixels, half transparent: decoded, 341 MiB beside the strips drawn from it.
        "largest.png": png(9460, 9458, b"\x20\x60\xc0\x80", colour=6),
    }
    assert len(files["bomb.png"]) < 1_000_000
    ids = _store(app, tenant, files)

    took = _work_in_limited_horses(app)

    rows = _rows(app, ids)
    assert took < 30
    assert rows["bomb.png"].kind == "icon"
    assert rows["bomb.png"].error == "image too large: 900000000 pixels (at most 89478485)"
    assert rows["huge.jpg"].kind == "icon"
    assert rows["huge.jpg"].error == "image too large: 4225000000 pixels (at most 89478485)"
    assert (rows["many-pages.pdf"].kind, rows["many-pages.pdf"].error) == ("page", None)
    assert (rows["many-pages.pdf"].width, rows["many-pages.pdf"].height) == (396, 560)
    assert rows["damaged.pdf"].kind == "icon"
    assert "pdftoppm" in rows["damaged.pdf"].error
    largest = rows["largest.png"]
    assert (largest.kind, largest.width, largest.height, largest.error) == ("image", 400, 400, None)
    assert all(row.status == "ready" and row.image for row in rows.values())


def test_past_the_pixel_rule_the_memory_ceiling_stops_a_huge_image(make_app, tenant):
    """15,000 x 15,000 pixels of real data (2.5 times the pixel rule, 1.4 MB on disk) need
    860 MiB decoded: the memory ceiling of the work horse stops Pillow first."""
    app = make_app(
        DMS_THUMBNAIL_MAX_PIXELS=10**12, DMS_EXTRACT_MEMORY_MB=512, DMS_EXTRACT_CPU_SECONDS=60
    )
    ids = _store(app, tenant, {"huge.png": png(15_000, 15_000, b"\x00\x00\x00")})

    took = _work_in_limited_horses(app)

    row = _rows(app, ids)["huge.png"]
    assert took < 30
    assert (row.status, row.kind) == ("ready", "icon")
    assert row.error == "limit_exceeded: memory ceiling of 512 MiB"


@pytest.mark.parametrize(
    ("content", "settings", "error"),
    [
        # Between once and twice its limit Pillow only warns: refused all the same.
        (bomb_png(10_000, 10_000), render.Settings(), "100000000 pixels (at most 89478485)"),
        # DMS_THUMBNAIL_MAX_PIXELS is the rule.
        (
            png(1200, 1000),
            render.Settings(max_pixels=1_000_000),
            "1200000 pixels (at most 1000000)",
        ),
    ],
)
def test_the_pixel_rule_refuses_from_the_first_pixel_over(tmp_path, content, settings, error):
    path = tmp_path / "big.png"
    path.write_bytes(content)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # whatever the process does with warnings
        drawn = render.render(path, "image/png", "big.png", settings)
    assert (drawn.kind, drawn.error) == ("icon", f"image too large: {error}")
