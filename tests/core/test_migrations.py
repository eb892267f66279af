"""The migration history: one head, models and migrations agree, and it runs down and up."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import inspect
from sqlalchemy.engine import make_url


def test_one_linear_history(app):
    from alembic.script import ScriptDirectory
    from flask_migrate import Config

    with app.app_context():
        directory = app.extensions["migrate"].directory
        config = Config(f"{directory}/alembic.ini")
        config.set_main_option("script_location", directory)
        heads = ScriptDirectory.from_config(config).get_heads()
    assert len(heads) == 1, f"several heads: {heads}; chain the newest revision"


def test_models_match_the_migrations(app):
    """`flask db check`: autogenerate finds nothing the revisions do not already create."""
    from flask_migrate import check

    with app.app_context():
        check()  # exits non-zero (SystemExit) when models and migrations disagree


@pytest.fixture
def scratch_url(database_url, tmp_path):
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'scratch.sqlite3'}"
        return
    import psycopg

    url = make_url(database_url)
    name = f"dms_scratch_{uuid.uuid4().hex[:8]}"
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name).render_as_string(False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_downgrade_to_nothing_and_up_again(make_app, scratch_url):
    from flask_migrate import downgrade, upgrade

    from extensions import db

    app = make_app(SQLALCHEMY_DATABASE_URI=scratch_url)
    with app.app_context():
        upgrade()
        tables = set(inspect(db.engine).get_table_names())
        assert {"tenants", "api_keys", "audit_entries", "documents"} <= tables
        downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
        upgrade()
        assert set(inspect(db.engine).get_table_names()) == tables
        db.engine.dispose()


def test_0029_fills_the_ids_of_the_rows_already_indexed(make_app, scratch_url):
    """SQLite: an index written before migration 0029 gets its document_search_ids rows."""
    if not scratch_url.startswith("sqlite"):
        pytest.skip("document_search_ids is SQLite's")
    from flask_migrate import upgrade
    from sqlalchemy import text

    from extensions import db

    app = make_app(SQLALCHEMY_DATABASE_URI=scratch_url)
    with app.app_context():
        upgrade(revision="0028")
        db.session.execute(
            text(
                "INSERT INTO document_search (rowid, document_id, tenant_id, title, keywords,"
                " body) VALUES (7, 'doc_a', 'acme', 'Title', '', 'body')"
            )
        )
        db.session.commit()
        upgrade()
        ids = db.session.execute(
            text("SELECT fts_rowid, document_id, tenant_id, written FROM document_search_ids")
        ).all()
        assert [tuple(r) for r in ids] == [(7, "doc_a", "acme", 0)]  # written: 0 until 0031
        db.engine.dispose()


def test_0031_numbers_writes_and_its_downgrade_keeps_the_ids(make_app, scratch_url):
    """SQLite: after migration 0031 every write of a document_search_ids row is numbered, by
    any code (the trigger: an INSERT naming only the columns of 0029, as older code writes);
    its downgrade drops the lists, the trigger and the column, and keeps the rows."""
    if not scratch_url.startswith("sqlite"):
        pytest.skip("document_search_ids is SQLite's")
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect, text

    from extensions import db

    app = make_app(SQLALCHEMY_DATABASE_URI=scratch_url)
    older = (
        "INSERT OR REPLACE INTO document_search_ids (fts_rowid, document_id, tenant_id)"
        " VALUES (:rowid, :doc, 'acme')"
    )
    with app.app_context():
        upgrade()
        for rowid, doc in [(7, "doc_a"), (8, "doc_b"), (7, "doc_a")]:
            db.session.execute(text(older), {"rowid": rowid, "doc": doc})
        db.session.commit()
        written = "SELECT fts_rowid, written FROM document_search_ids ORDER BY fts_rowid"
        assert [tuple(r) for r in db.session.execute(text(written))] == [(7, 3), (8, 2)]
        downgrade(revision="0030")
        tables = set(inspect(db.engine).get_table_names())
        assert not {"document_search_common", "document_search_common_terms"} & tables
        assert "document_search_vocab" not in tables
        columns = [c["name"] for c in inspect(db.engine).get_columns("document_search_ids")]
        assert columns == ["fts_rowid", "document_id", "tenant_id"]
        assert db.session.scalar(text("SELECT count(*) FROM document_search_ids")) == 2
        upgrade()
        db.engine.dispose()


def test_0032_keeps_the_rows_already_indexed_and_adds_the_notes_column(make_app, scratch_url):
    """SQLite: FTS5 cannot add a column, so 0032 copies the index into a table with `notes`
    under the same rowids (the common words' lists name them) and makes its vocabulary view
    and usermerge option again; its downgrade copies the rows back."""
    if not scratch_url.startswith("sqlite"):
        pytest.skip("document_search is SQLite's")
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import text

    from extensions import db

    def found(word: str) -> list[tuple]:
        return [
            tuple(r)
            for r in db.session.execute(
                text(
                    "SELECT rowid, document_id FROM document_search"
                    " WHERE document_search MATCH :word"
                ),
                {"word": word},
            )
        ]

    app = make_app(SQLALCHEMY_DATABASE_URI=scratch_url)
    with app.app_context():
        upgrade(revision="0031")
        db.session.execute(
            text(
                "INSERT INTO document_search (rowid, document_id, tenant_id, title, keywords,"
                " body) VALUES (7, 'doc_a', 'acme', 'Title', 'tag', 'zebra body')"
            )
        )
        db.session.commit()
        upgrade(revision="0032")
        assert found("zebra") == [(7, "doc_a")]
        columns = db.session.execute(text("SELECT * FROM document_search")).keys()
        assert list(columns)[-1] == "notes"
        merge = "SELECT v FROM document_search_config WHERE k = 'usermerge'"
        assert db.session.scalar(text(merge)) == 2
        vocab = "SELECT count(*) FROM document_search_vocab WHERE term = 'zebra'"
        assert db.session.scalar(text(vocab)) == 1
        db.session.commit()
        downgrade(revision="0031")
        assert found("zebra") == [(7, "doc_a")]
        columns = db.session.execute(text("SELECT * FROM document_search")).keys()
        assert "notes" not in list(columns)
        db.engine.dispose()
