"""Helpers shared by the document, job and search tests: a document created through the
documents service (as an upload makes it), and the RQ worker run in burst mode."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from typing import TypeVar

from flask import Flask
from rq import SimpleWorker
from sqlalchemy import event, text

from extensions import db, redis_store
from jobs.worker import AppWorker
from services.core import queue, transaction
from services.core.actors import Actor
from services.documents import documents, uploads
from services.search import fts5_rows

T = TypeVar("T")


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
                received,
                Actor.system("tests"),
                title=title,
                tags=tags or [],
                metadata=meta or {},
                source={"type": "api"},
            )
        transaction.commit()
        if not schedule:
            queue.queue().empty()
        return document.id


def new_tenant(app: Flask, slug: str, plan: str = "business", **kwargs):
    """A tenant created by the accounts service, detached from the session."""
    from services.accounts import tenants

    with app.app_context():
        tenant = tenants.create_tenant(slug, plan, Actor.system("tests"), **kwargs)
        db.session.commit()
        db.session.refresh(tenant)
        db.session.expunge(tenant)
        return tenant


def index_documents(app: Flask, tenant_id: str, *specs: dict) -> list[str]:
    """Store documents ({"text", "title", "tags", "meta", "filename"}) and index them (a real
    RQ worker runs their extraction); their ids."""
    ids = []
    for spec in specs:
        spec = dict(spec)
        body = spec.pop("text", "").encode()
        filename = spec.pop("filename", "doc.txt")
        ids.append(stored_document(app, tenant_id, body, filename, **spec))
    run_jobs(app)
    return ids


def clean_state(app: Flask) -> None:
    """Empty the tables and Redis after a test (the root conftest's `_clean_state`)."""
    from services.keys import key_cache
    from services.limits import usage

    with app.app_context():
        empty_tables(db)
        db.session.commit()
        usage.flush()  # before the clearing below, or the flusher thread writes it later
        _clear_redis()
        key_cache.flush()  # the truncation went behind the ORM's back


def _clear_redis() -> None:
    """The one place Redis is emptied between tests: tenants, keys and users are re-created
    under the same ids, so their rate windows, usage counters, sign-in failures and queued
    jobs must not survive them."""
    client = redis_store.client
    keys = list(client.scan_iter(match=redis_store.key("*"), count=1000))
    for start in range(0, len(keys), 1000):  # one round trip per thousand keys
        client.delete(*keys[start : start + 1000])


def built_once(app: Flask, build: Callable[[], T]) -> tuple[DatabaseCopy, T]:
    """For a module-scoped fixture: run `build` on empty tables, keep a copy of the database it
    leaves (each test that uses it restores it) and what it returned, and empty the tables and
    Redis again for the test about to start. The caller closes the copy."""
    try:
        value = build()
        copy = DatabaseCopy(app)
    finally:
        clean_state(app)
    return copy, value


def empty_tables(db) -> None:
    """Delete every row of the app's tables (and restart their identity sequences on
    PostgreSQL) and SQLite's FTS5 index, which is not in the metadata: its global statistics
    would leak between tests and change bm25 scores. The caller commits.

    Every test starts from empty tables, so one query finds the tables a test left rows in
    (whoever wrote them: this process, a forked worker, a server in a subprocess, a trigger)
    and only those are emptied; on PostgreSQL also the tables whose identity sequence moved
    (rows inserted and deleted again leave a used sequence behind)."""
    probe = _probe(db)
    used = set(db.session.execute(text(probe.sql)).scalars())
    if not used:
        return
    tables = [t for t in probe.tables if t.name in used or probe.sequences.get(t.name) in used]
    for table in tables:  # children before parents; a DELETE waits on no reader's lock
        db.session.execute(table.delete())
    if probe.postgresql:
        for table in tables:
            if table.name in probe.sequences:
                db.session.execute(text(f'ALTER SEQUENCE "{probe.sequences[table.name]}" RESTART'))
        return
    if used & _FTS5_TABLES:
        fts5_rows.delete_all()


# SQLite's FTS5 index and its common-word lists, emptied together by fts5_rows.
_FTS5_TABLES = {
    "document_search", "document_search_ids", "document_search_common",
    "document_search_common_terms",
}  # fmt: skip


@dataclass(frozen=True)
class _Probe:
    sql: str  # the names of the tables holding rows (and of the sequences that moved)
    tables: list  # every table of the metadata, children before parents
    sequences: dict[str, str]  # table -> its identity sequence (PostgreSQL)
    postgresql: bool


_probes: dict[str, _Probe] = {}


def _probe(db) -> _Probe:
    url = db.engine.url.render_as_string(hide_password=False)
    if url not in _probes:
        _probes[url] = _build_probe(db)
    return _probes[url]


def _build_probe(db) -> _Probe:
    tables = list(reversed(db.metadata.sorted_tables))
    postgresql = db.engine.dialect.name == "postgresql"
    names = [t.name for t in tables]
    if not postgresql:
        names += sorted(_FTS5_TABLES)
    # The names are the metadata's and the catalog's, never input.
    checks = [f"SELECT '{n}' WHERE EXISTS (SELECT 1 FROM \"{n}\")" for n in names]  # noqa: S608
    sequences: dict[str, str] = {}
    if postgresql:
        owned = db.session.execute(
            text(
                "SELECT t.relname, s.relname FROM pg_class s"
                " JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')"
                " JOIN pg_class t ON t.oid = d.refobjid"
                " WHERE s.relkind = 'S' AND t.relnamespace = 'public'::regnamespace"
            )
        ).all()
        sequences = {table: sequence for table, sequence in owned if table in names}
        if sequences:
            listed = ", ".join(f"'{s}'" for s in sequences.values())
            moved = (
                "SELECT sequencename::text FROM pg_sequences WHERE schemaname = 'public'"
                " AND last_value IS NOT NULL AND sequencename IN ({})"
            )
            checks.append(moved.format(listed))
    return _Probe(" UNION ALL ".join(checks), tables, sequences, postgresql)


class DatabaseCopy:
    """A copy of the app's SQLite database in memory, taken and put back with SQLite's backup
    API (every table, the FTS5 index's own, its counters and the schema): a module's tests
    start from one state that is expensive to build (an indexed corpus), built once, and each
    test gets it back as built whatever the test before it changed. Another connection's
    cached pages and FTS5 structure are read again after a restore, as after any commit."""

    def __init__(self, app: Flask) -> None:
        with app.app_context():
            url = db.engine.url
        assert url.get_backend_name() == "sqlite", url
        self.path = url.database
        self.copy = sqlite3.connect(":memory:", check_same_thread=False)
        with closing(sqlite3.connect(self.path)) as source:
            source.backup(self.copy)

    def restore(self) -> None:
        with closing(sqlite3.connect(self.path, timeout=15)) as target:
            self.copy.backup(target)

    def close(self) -> None:
        self.copy.close()


def without_fsync(conn, name: str) -> None:
    """A PostgreSQL test database whose commits do not wait for the WAL to reach the disk
    (durable up to a crash of the server, which no test survives anyway)."""
    conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')


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
