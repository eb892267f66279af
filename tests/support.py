"""Helpers shared by the document, job and search tests: a document created through the
documents service (as an upload makes it), and the RQ worker run in burst mode."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from rq import SimpleWorker
from sqlalchemy import event, text

from extensions import db, redis_store
from jobs.worker import AppWorker
from services.core import queue, transaction
from services.core.actors import Actor
from services.documents import documents, uploads
from services.search import fts5_rows


class InProcessWorker(SimpleWorker, AppWorker):
    """The app's worker without the fork, so a test sees its jobs' failures and coverage
    (SimpleWorker first: its execute_job, not the forking one of rq's Worker, must win)."""


def run_jobs(app: Flask) -> None:
    InProcessWorker.flask_app = app
    with app.app_context():
        worker = InProcessWorker(
            [queue.queue(n) for n in queue.QUEUE_NAMES], connection=redis_store.client
        )
        worker.work(burst=True, with_scheduler=False)


def stored_document(
    app: Flask,
    tenant_id: str,
    content: bytes,
    filename: str = "file.txt",
    *,
    title: str | None = None,
    tags: list[str] | None = None,
    meta: dict[str, str] | None = None,
    schedule: bool = True,
) -> str:
    """A document created by the documents service from `content`; its extraction is queued
    unless `schedule` is False (then its text stays pending and the queue empty)."""
    with app.app_context():
        with uploads.receive_file(tenant_id, io.BytesIO(content), filename) as received:
            document = documents.create_document(
                received, Actor.system("tests"), title=title, tags=tags or [], metadata=meta or {}
            )
        transaction.commit()
        if not schedule:
            queue.queue().empty()
        return document.id


def empty_tables(db) -> None:
    """Delete every row of the app's tables (TRUNCATE on PostgreSQL) and SQLite's FTS5 index,
    which is not in the metadata: its global statistics would leak between tests and change
    bm25 scores. The caller commits."""
    tables = list(reversed(db.metadata.sorted_tables))
    if db.engine.dialect.name == "postgresql":
        names = ", ".join(f'"{t.name}"' for t in tables)
        db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    else:
        for table in tables:
            db.session.execute(table.delete())
        fts5_rows.delete_all()


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements `app` runs inside the block."""
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)
