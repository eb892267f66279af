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


def test_0032_seals_the_head_of_every_chain_as_it_stands(make_app, scratch_url):
    """Chains written before migration 0032 (wholly unkeyed, unkeyed then keyed, keyed from
    the start) verify after it, each keyed from where its keys began; and then a chain
    re-sealed without a key, or cut at the end with its counter, no longer does."""
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from flask_migrate import downgrade, upgrade
    from sqlalchemy import text

    from extensions import db
    from services.audit import audit_log
    from services.core.actors import Actor

    app = make_app(SQLALCHEMY_DATABASE_URI=scratch_url)
    key_id = next(iter(app.config["DMS_AUDIT_KEYS"]))
    chains = {"legacy": [None] * 3, "mixed": [None, None, key_id, key_id], "keyed": [key_id] * 2}
    with app.app_context():
        upgrade(revision="0031")
        for slug, keys in chains.items():
            db.session.execute(
                text(
                    "INSERT INTO tenants (id, name, plan, audit_seq, created_at)"
                    " VALUES (:t, :t, 'free', :n, :now)"
                ),
                {"t": slug, "n": len(keys), "now": datetime.now(UTC)},
            )
            prev = audit_log.GENESIS_HASH
            for seq, key in enumerate(keys, 1):
                entry = SimpleNamespace(
                    tenant_id=slug, seq=seq, actor_type="system", actor_id=None,
                    actor_label="system", action="test.event", target_type=None,
                    target_id=None, ip=None, user_agent=None, details={"n": seq},
                    created_at=datetime(2026, 1, 1, tzinfo=UTC), prev_hash=prev, key_id=key,
                )  # fmt: skip
                prev = audit_log.entry_hash(entry)
                db.session.execute(
                    text(
                        "INSERT INTO audit_entries (id, tenant_id, seq, actor_type, actor_label,"
                        " action, details, created_at, prev_hash, hash, key_id) VALUES (:id,"
                        " :t, :seq, 'system', 'system', 'test.event', :details, :at, :prev,"
                        " :hash, :key)"
                    ),
                    {"id": f"aud_{slug}_{seq}", "t": slug, "seq": seq, "at": entry.created_at,
                     "details": f'{{"n": {seq}}}', "prev": entry.prev_hash, "hash": prev,
                     "key": key},
                )  # fmt: skip
        db.session.commit()
        upgrade()
        since = dict(db.session.execute(text("SELECT id, audit_keyed_since FROM tenants")).all())
        assert since == {"legacy": 4, "mixed": 3, "keyed": 1}
        for slug in chains:
            assert audit_log.verify_chain(slug).ok, slug
            audit_log.record(slug, Actor.system(), "after.upgrade")
            db.session.commit()
            assert audit_log.verify_chain(slug).ok, slug

        db.session.execute(text("DELETE FROM audit_entries WHERE tenant_id = 'keyed' AND seq = 3"))
        db.session.execute(text("UPDATE tenants SET audit_seq = 2 WHERE id = 'keyed'"))
        db.session.execute(text("UPDATE audit_entries SET key_id = NULL WHERE tenant_id = 'mixed'"))
        db.session.commit()
        assert "head seal does not match" in audit_log.verify_chain("keyed").reason
        assert "keyed from #3" in audit_log.verify_chain("mixed").reason
        # Its downgrade drops the columns and nothing else (no copy of `tenants` cascading).
        entries = "SELECT count(*) FROM audit_entries"
        before = db.session.scalar(text(entries))
        db.session.remove()
        downgrade(revision="0031")
        assert db.session.scalar(text(entries)) == before > 0
        db.session.remove()
        db.engine.dispose()


def test_0034_keeps_the_rows_already_indexed_and_adds_the_notes_column(make_app, scratch_url):
    """SQLite: FTS5 cannot add a column, so 0034 copies the index into a table with `notes`
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
        upgrade(revision="0033")
        db.session.execute(
            text(
                "INSERT INTO document_search (rowid, document_id, tenant_id, title, keywords,"
                " body) VALUES (7, 'doc_a', 'acme', 'Title', 'tag', 'zebra body')"
            )
        )
        db.session.commit()
        upgrade(revision="0034")
        assert found("zebra") == [(7, "doc_a")]
        columns = db.session.execute(text("SELECT * FROM document_search")).keys()
        assert list(columns)[-1] == "notes"
        merge = "SELECT v FROM document_search_config WHERE k = 'usermerge'"
        assert db.session.scalar(text(merge)) == 2
        vocab = "SELECT count(*) FROM document_search_vocab WHERE term = 'zebra'"
        assert db.session.scalar(text(vocab)) == 1
        db.session.commit()
        downgrade(revision="0033")
        assert found("zebra") == [(7, "doc_a")]
        columns = db.session.execute(text("SELECT * FROM document_search")).keys()
        assert "notes" not in list(columns)
        db.engine.dispose()


def test_0037_gives_existing_documents_their_source(make_app, scratch_url):
    """Rows from before `source` came through the API, or a form whose submission wrote its
    ids into their metadata; the downgrade drops the column."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import insert, select, text

    from extensions import db

    app = make_app(SQLALCHEMY_DATABASE_URI=scratch_url)
    with app.app_context():
        upgrade(revision="0036")
        tenants, documents = db.metadata.tables["tenants"], db.metadata.tables["documents"]
        db.session.execute(insert(tenants).values(id="acme", name="Acme"))
        common = {"tenant_id": "acme", "filename": "f", "content_type": "text/plain", "size": 1}
        db.session.execute(
            insert(documents),
            [
                {**common, "id": "doc_a", "title": "a", "sha256": "a" * 64, "metadata": {}},
                {
                    **common, "id": "doc_f", "title": "f", "sha256": "f" * 64,
                    "metadata": {"formId": "frm_1", "submissionId": "sub_1", "formField": "r"},
                },
            ],
        )  # fmt: skip
        db.session.commit()
        upgrade(revision="0037")
        rows = db.session.execute(select(documents.c.id, documents.c.source)).all()
        assert dict(rows) == {
            "doc_a": {"type": "api"},
            "doc_f": {"type": "form", "formId": "frm_1", "submissionId": "sub_1"},
        }
        db.session.commit()
        downgrade(revision="0036")
        columns = db.session.execute(text("SELECT * FROM documents")).keys()
        assert "source" not in list(columns)
        db.engine.dispose()
