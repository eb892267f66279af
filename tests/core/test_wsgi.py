"""The web workers' entry point builds the app without the operator commands, and without
the S3 client's libraries where the blobs are on local disk (services/documents/s3_storage.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def test_the_flask_command_still_has_migrations_and_operator_commands(app):
    runner = app.test_cli_runner()

    for group in ("db", "keys", "tenants", "audit"):
        result = runner.invoke(args=[group, "--help"])
        assert result.exit_code == 0, (group, result.output)
