"""Fixtures for job tests: documents stored through the blob store, and a real RQ worker
(burst mode, in this process) on the test Redis."""

from __future__ import annotations

import pytest

from tests.jobs.support import run_jobs, stored_document


@pytest.fixture
def store_document(app):
    def factory(tenant, content: bytes, filename: str = "file.txt", **fields) -> str:
        return stored_document(app, tenant.id, content, filename, **fields)

    return factory


@pytest.fixture
def work(app):
    """Run every queued job to completion, as `flask worker --burst` would."""
    with app.app_context():
        import jobs

        for name in jobs.QUEUE_NAMES:
            jobs.queue(name).empty()  # jobs left over by earlier tests

    def runner() -> None:
        run_jobs(app)

    return runner
