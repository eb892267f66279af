"""Limits of text extraction through the real forking worker (`flask worker`): bounded memory
on DOCX bombs, the memory ceiling and the CPU budget of the work horse, and what the document
record says about them. The budgets of extract_text itself are in test_extraction_budgets.py."""

from __future__ import annotations

import resource
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psutil
import pytest

from extensions import db
from models import Document, DocumentText
from tests.fixture_files import HAS_PDFTOPPM, HAS_TESSERACT, docx_bomb, text_pdf

MiB = 1024 * 1024


class PeakRss:
    """The largest RSS of any child of this process (the work horse), sampled every 20 ms, and
    this process's own RSS when watching starts: a forked horse begins with all of it (shared
    pages count in RSS), so what the extraction took is the difference."""

    def __init__(self) -> None:
        self.peak = 0
        self.base = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            for child in me.children(recursive=True):
                try:
                    if "redis" in child.name():  # the embedded Redis server of the tests
                        continue
                    self.peak = max(self.peak, child.memory_info().rss)
                except psutil.Error:
                    continue  # the horse ended between listing and reading
            time.sleep(0.02)

    @contextmanager
    def watching(self) -> Iterator[PeakRss]:
        self.base = psutil.Process().memory_info().rss
        self._thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            self._thread.join()


def run_forking_worker(app) -> None:
    from jobs.worker import run_worker

    with app.app_context():
        db.engine.dispose()  # no pooled connection may cross the fork
    run_worker(app, burst=True)


def outcome(app, document_id: str) -> tuple[Document, DocumentText]:
    with app.app_context():
        document = db.session.get(Document, document_id)
        row = db.session.get(DocumentText, document_id)
        db.session.expunge_all()
        return document, row


@pytest.mark.parametrize("paragraphs", [1_000_000, 3_000_000, 6_000_000])
def test_docx_bomb_is_extracted_with_bounded_memory(app, tenant, store_document, paragraphs):
    document_id = store_document(tenant, docx_bomb(paragraphs), "bomb.docx")

    with PeakRss().watching() as rss:
        run_forking_worker(app)

    document, row = outcome(app, document_id)
    assert rss.peak > 0, "the work horse was never sampled"
    # The streaming parser keeps the growth flat whatever the paragraph count (a parser that
    # holds the document grows with it: 0.6, 1.9 and 3.8 GiB above the fork for these three).
    grown = rss.peak - rss.base
    assert grown < 384 * MiB, f"peak RSS {rss.peak / MiB:.0f} MiB, {grown / MiB:.0f} above the fork"
    assert document.text_status == "done", row.error
    assert row.text.startswith("bomb\nbomb\n")
    # A million paragraphs are 4,999,999 characters: under the 5,000,000 budget.
    assert document.text_truncated is (paragraphs > 1_000_000)
    assert document.text_error is None


def test_cpu_budget_ends_the_extraction_as_failed_without_a_retry(make_app, tenant):
    from tests.support import stored_document

    limited = make_app(DMS_EXTRACT_CPU_SECONDS=1)
    # Streaming a million paragraphs takes about 3 s of CPU.
    document_id = stored_document(limited, tenant.id, docx_bomb(1_000_000), "slow.docx")
    before = own_limits()

    run_forking_worker(limited)

    assert own_limits() == before, "the limits must stay in the work horse"

    document, row = outcome(limited, document_id)
    assert document.text_status == "failed"
    assert document.text_error == "limit_exceeded: CPU budget of 1 s"
    assert row.error == document.text_error
    assert row.attempts == 1
    assert_not_retried(limited, row.job_id)


def test_memory_ceiling_ends_the_extraction_as_failed_without_a_retry(make_app, tenant):
    from tests.support import stored_document

    limited = make_app(DMS_EXTRACT_MEMORY_MB=64, DMS_EXTRACT_MAX_CHARS=100_000_000)
    # 42 MB of text, read and then decoded whole: more than 64 MiB on top of the horse.
    document_id = stored_document(limited, tenant.id, b"words " * 7_000_000, "big.txt")

    run_forking_worker(limited)

    document, row = outcome(limited, document_id)
    assert document.text_status == "failed", row.error
    assert document.text_error == "limit_exceeded: memory ceiling of 64 MiB"
    assert row.attempts == 1
    assert_not_retried(limited, row.job_id)


def own_limits() -> tuple[object, ...]:
    return (
        resource.getrlimit(resource.RLIMIT_AS),
        resource.getrlimit(resource.RLIMIT_CPU),
        signal.getsignal(signal.SIGXCPU),
    )


def assert_not_retried(app, job_id: str) -> None:
    """The job ended normally: nothing failed, nothing is scheduled to run it again."""
    from rq.job import Job, JobStatus
    from rq.registry import FailedJobRegistry, ScheduledJobRegistry

    from extensions import redis_store
    from services.core import queue

    with app.app_context():
        job = Job.fetch(job_id, connection=redis_store.client)
        assert job.get_status() == JobStatus.FINISHED
        for name in queue.QUEUE_NAMES:
            rq_queue = queue.queue(name)
            assert FailedJobRegistry(queue=rq_queue).get_job_ids() == []
            assert job_id not in ScheduledJobRegistry(queue=rq_queue).get_job_ids()


@pytest.mark.skipif(not (HAS_TESSERACT and HAS_PDFTOPPM), reason="needs tesseract and pdftoppm")
def test_ocr_programs_count_against_the_cpu_budget(make_app, tenant):
    from tests.support import stored_document

    limited = make_app(DMS_EXTRACT_CPU_SECONDS=1)
    # Twenty blank pages: rendering and reading them takes about 15 s, all in pdftoppm and
    # tesseract, which the kernel does not count against the horse.
    document_id = stored_document(limited, tenant.id, text_pdf([[]] * 20), "blank.pdf")

    started = time.monotonic()
    run_forking_worker(limited)

    document, row = outcome(limited, document_id)
    assert document.text_status == "failed"
    assert document.text_error == "limit_exceeded: CPU budget of 1 s"
    assert time.monotonic() - started < 10
    assert_not_retried(limited, row.job_id)


def test_a_limit_hit_outside_the_extractor_is_recorded_not_retried(
    app, tenant, store_document, work, monkeypatch
):
    from services.search import extraction_runs
    from services.search.limits import CpuBudgetExceeded

    def spent(outcomes):
        raise CpuBudgetExceeded(5)  # as SIGXCPU would, while storing the text

    monkeypatch.setattr(extraction_runs, "store_extractions", spent)
    document_id = store_document(tenant, b"some words", "w.txt")

    work()

    document, row = outcome(app, document_id)
    assert (document.text_status, document.text_error) == (
        "failed",
        "limit_exceeded: CPU budget of 5 s",
    )
    assert row.attempts == 1
    assert_not_retried(app, row.job_id)
