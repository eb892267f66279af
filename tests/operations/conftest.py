"""Fixtures for whole-installation and whole-tenant operations: a second, fresh installation
(its own empty database, created on the server for PostgreSQL, and its own blob directory),
and a populated first one (tenants, users, keys, documents with versions, audit entries)."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy.engine import make_url

from tests.operations.ops_support import Content, Populated, upload


@pytest.fixture
def fresh_install(make_app, database_url, tmp_path):
    """factory() -> an app on a brand-new empty database and blob directory."""
    created: list[str] = []

    def factory(**overrides):
        name = f"fresh_{uuid.uuid4().hex[:10]}"
        if database_url.startswith("sqlite"):
            url = f"sqlite:///{tmp_path / (name + '.sqlite3')}"
        else:
            url = _create_pg_database(database_url, name)
            created.append(name)
        storage = str(tmp_path / name)
        return make_app(SQLALCHEMY_DATABASE_URI=url, DMS_STORAGE_DIR=storage, **overrides)

    yield factory
    for name in created:
        _drop_pg_database(database_url, name)


def _admin(database_url: str) -> str:
    url = make_url(database_url)
    return url.set(drivername="postgresql", database="postgres").render_as_string(False)


def _create_pg_database(database_url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(_admin(database_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_url(database_url).set(database=name).render_as_string(False)


def _drop_pg_database(database_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_admin(database_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def populated(app, client, create_tenant, create_key, create_user):
    """acme and globex, each with a user, a key and two documents (one with two versions);
    both tenants hold the same bytes once (same content address, separate blobs)."""
    result = Populated()
    for slug in ("acme", "globex"):
        tenant = create_tenant(slug)
        create_user(tenant, email=f"admin@{slug}.test")
        _, secret = create_key(tenant)
        result.secrets[slug] = secret
        shared = upload(client, secret, slug, b"the same bytes in both tenants\n", tags="shared")
        result.contents.append(Content(slug, shared["id"], 1, b"the same bytes in both tenants\n"))
        first = f"{slug} report, first draft\n".encode()
        doc = upload(client, secret, slug, first, title=f"{slug} report", tags="report")
        result.contents.append(Content(slug, doc["id"], 1, first))
        second = f"{slug} report, final\n".encode() * 50
        upload(client, secret, slug, second, path=f"/api/v1/documents/{doc['id']}/versions")
        result.contents.append(Content(slug, doc["id"], 2, second))
    return result
