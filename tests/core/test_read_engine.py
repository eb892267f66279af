"""services/core/read_engine.py: on PostgreSQL the documents list runs on an engine of its
own, in autocommit, where psycopg prepares its statement (DMS_DB_PREPARED_READS=0: never);
on SQLite it runs in the session."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from services.core import read_engine

LIST = "/api/v1/documents?limit=5"


@pytest.fixture
def postgres(database_url):
    if not database_url.startswith("postgres"):
        pytest.skip("PostgreSQL's prepared statements")


def _prepared_on_read_connection(app) -> list[str]:
    """The statements prepared on the read engine's pooled connection (the one a
    single-threaded client has used all along)."""
    with app.app_context():
        engine = read_engine.engine()
        assert engine.pool.checkedin() == 1  # the only connection, so the one the list used
        with engine.connect() as connection:
            query = text("SELECT statement FROM pg_prepared_statements")
            return list(connection.execute(query).scalars())


@pytest.mark.parametrize("runs", [read_engine.PREPARE_THRESHOLD, read_engine.PREPARE_THRESHOLD + 1])
def test_the_list_is_prepared_once_it_ran_past_the_threshold(
    make_app, postgres, tenant, headers, store_document, runs
):
    store_document(tenant, b"text", title="one")
    app = make_app()
    client = app.test_client()
    for _ in range(runs):
        response = client.get(LIST, headers=headers)
        assert response.status_code == 200
        assert [d["title"] for d in response.get_json()["data"]] == ["one"]
    prepared = _prepared_on_read_connection(app)
    listed = [s for s in prepared if "row_to_json" in s]
    assert len(listed) == (1 if runs > read_engine.PREPARE_THRESHOLD else 0), prepared


def test_with_prepared_reads_off_nothing_is_prepared(
    make_app, postgres, tenant, headers, store_document
):
    store_document(tenant, b"text", title="one")
    app = make_app(DMS_DB_PREPARED_READS=False)
    client = app.test_client()
    for _ in range(read_engine.PREPARE_THRESHOLD + 3):
        assert client.get(LIST, headers=headers).status_code == 200
    assert _prepared_on_read_connection(app) == []


def test_the_read_engine_runs_outside_any_transaction(make_app, postgres):
    app = make_app()
    with app.app_context(), read_engine.engine().connect() as connection:
        assert connection.connection.dbapi_connection.autocommit
        # in autocommit each statement is its own transaction: two report two ids
        first = connection.execute(text("SELECT txid_current()")).scalar_one()
        second = connection.execute(text("SELECT txid_current()")).scalar_one()
        assert second > first


def test_sqlite_has_no_read_engine_and_the_list_reads_in_the_session(
    app, database_url, client, tenant, headers, store_document
):
    if database_url.startswith("postgres"):
        pytest.skip("SQLite")
    store_document(tenant, b"text", title="one")
    with app.app_context():
        assert read_engine.engine() is None
    response = client.get(LIST, headers=headers)
    assert [d["title"] for d in response.get_json()["data"]] == ["one"]
