"""The web workers' entry point builds the app without the operator commands, without the S3
client's libraries where the blobs are on local disk (services/documents/s3_storage.py), and
without the libraries of optional capabilities, which load on first use
(services/core/lazy.py)."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

from sqlalchemy import text

from extensions import db, redis_store

ROOT = Path(__file__).resolve().parents[2]


def test_web_workers_do_not_import_what_they_do_not_use(base_config):
    probe = (
        "import sys, wsgi; "
        "heavy = ('alembic', 'flask_migrate', 'mako', 'tqdm', "
        "'boto3', 'botocore.client', 's3transfer'); "
        "print(sorted(m for m in heavy if m in sys.modules)); "
        "print(sorted(wsgi.app.blueprints))"
    )
    env = {
        **os.environ,
        "DATABASE_URL": base_config["SQLALCHEMY_DATABASE_URI"],
        "REDIS_URL": base_config["REDIS_URL"],
        "SECRET_KEY": "test-secret-key-for-the-wsgi-probe",
        "DMS_ENV_FILE": os.devnull,
        "DMS_STORAGE": "local",
    }
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert out.returncode == 0, out.stderr
    imported, blueprints = out.stdout.splitlines()
    assert imported == "[]"
    assert "'api'" in blueprints and "'portal'" in blueprints


# Libraries only optional capabilities or jobs use (passkeys, push providers, S3, thumbnails,
# embeddings, the classifier, IMAP, document parsers): a web worker loads them on first use
# (services/core/lazy.py), so one that never needs them neither holds them nor waits for them.
OPTIONAL_LIBRARIES = (
    "PIL", "sklearn", "numpy", "scipy", "boto3", "botocore", "s3transfer", "webauthn",
    "pywebpush", "py_vapid", "aiohttp", "http_ece", "google.auth", "google.oauth2", "httpx",
    "imap_tools", "pypdf", "docx", "rapidfuzz", "sqlite_vec", "sentence_transformers",
)  # fmt: skip


def test_web_workers_leave_the_optional_libraries_unloaded(base_config):
    probe = (
        f"import sys, wsgi; print(sorted(m for m in {OPTIONAL_LIBRARIES!r} if m in sys.modules))"
    )
    env = {
        **os.environ,
        "DATABASE_URL": base_config["SQLALCHEMY_DATABASE_URI"],
        "REDIS_URL": base_config["REDIS_URL"],
        "SECRET_KEY": "test-secret-key-for-the-wsgi-probe",
        "DMS_ENV_FILE": os.devnull,
        "DMS_STORAGE": "local",
        "DMS_EMBEDDINGS": "none",
    }
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
    )

    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_lazy_module_imports_its_library_on_first_use():
    probe = (
        "import sys; from services.core import lazy; "
        "colorsys = lazy.module('colorsys'); "
        "print('colorsys' in sys.modules, repr(colorsys).endswith('not loaded yet>')); "
        "print(colorsys.rgb_to_hsv(1, 0, 0), 'colorsys' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )

    assert out.stdout.splitlines() == ["False True", "(0.0, 1.0, 1) True"]


def test_the_flask_command_still_has_migrations_and_operator_commands(app):
    runner = app.test_cli_runner()

    for group in ("db", "keys", "tenants", "audit"):
        result = runner.invoke(args=[group, "--help"])
        assert result.exit_code == 0, (group, result.output)


def _gunicorn_settings(monkeypatch, **env: str) -> dict:
    for name in ("WEB_CONCURRENCY", "DMS_WEB_MEMORY_SHARE", "DMS_WORKER_MEMORY_MB"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_web_workers_one_per_core_unless_memory_is_short(monkeypatch):
    settings = _gunicorn_settings(monkeypatch)
    count = settings["worker_count"]
    GiB = 1024 * settings["MiB"]

    assert count(2, 1 * GiB, 0.25, 64 * settings["MiB"]) == 2  # 4 fit, 2 cores
    assert count(8, 1 * GiB, 0.25, 64 * settings["MiB"]) == 4  # 8 cores, memory for 4
    assert count(4, 128 * settings["MiB"], 0.25, 64 * settings["MiB"]) == 1  # at least one
    assert count(3, 0, 0.25, 64 * settings["MiB"]) == 3  # memory unknown: the cores
    assert settings["workers"] == count(
        os.cpu_count() or 1, settings["memory_bytes"](), 0.25, 64 * settings["MiB"]
    )
    assert settings["preload_app"] is True


def test_web_concurrency_overrides_the_formula(monkeypatch):
    assert _gunicorn_settings(monkeypatch, WEB_CONCURRENCY="7")["workers"] == 7
    tight = _gunicorn_settings(monkeypatch, DMS_WEB_MEMORY_SHARE="0.0000001")
    assert tight["workers"] == 1


def test_a_forked_worker_opens_its_own_connections(make_app):
    """What gunicorn's post_fork runs under preload_app (App.after_fork): the child forgets
    the pooled database and Redis connections of its parent, without closing them, and
    both go on working."""
    app = make_app()
    with app.app_context():
        db.session.execute(text("SELECT 1"))
        db.session.remove()
        redis_store.client.ping()
        engine = db.engine
    pool = redis_store.pool_for(app)
    assert engine.pool.checkedin() >= 1 and pool._available_connections

    child = os.fork()
    if child == 0:  # pragma: no cover (the child reports through its exit code)
        code = 1
        try:
            app.after_fork()
            clean = engine.pool.checkedin() == 0 and not pool._available_connections
            with app.app_context():
                db.session.execute(text("SELECT 1"))
                db.session.remove()
                redis_store.client.ping()
            code = 0 if clean else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)

    assert os.waitstatus_to_exitcode(status) == 0
    with app.app_context():  # the parent's connections survived the child
        assert db.session.execute(text("SELECT 1")).scalar() == 1
        db.session.remove()
        assert redis_store.client.ping()
