"""Operator CLI (CONTRACT §8): plain scriptable output, one-line errors, non-zero exits."""

from __future__ import annotations

import pytest

from tests.helpers import auth_headers


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()

    def run(*args: str):
        return runner.invoke(args=list(args))

    return run


def test_tenant_user_key_round_trip(cli, client):
    assert (
        cli("tenants", "create", "acme", "--plan", "starter", "--name", "Acme").output == "acme\n"
    )
    result = cli("users", "create", "acme", "Admin@Acme.example", "--role", "admin")
    assert result.exit_code == 0
    user_id, password_line = result.output.splitlines()
    assert user_id.startswith("usr_") and password_line.startswith("password: ")

    result = cli("keys", "create", "acme", "--name", "ci", "--scopes", "documents:read")
    assert result.exit_code == 0
    key_id, secret = result.output.splitlines()[-2:]
    assert key_id.startswith("key_") and secret.startswith("dms_")
    assert client.get("/api/v1/documents", headers=auth_headers(secret, "acme")).status_code == 200

    listing = cli("keys", "list", "acme").output
    assert key_id in listing and "active" in listing and secret not in listing

    result = cli("keys", "rotate", "acme", key_id)
    new_id, new_secret = result.output.splitlines()[-2:]
    assert new_id.startswith("key_") and new_id != key_id
    assert client.get("/api/v1/documents", headers=auth_headers(secret, "acme")).status_code == 200

    assert cli("keys", "revoke", "acme", key_id).exit_code == 0
    revoked = client.get("/api/v1/documents", headers=auth_headers(secret, "acme"))
    assert revoked.status_code == 401
    fresh = client.get("/api/v1/documents", headers=auth_headers(new_secret, "acme"))
    assert fresh.status_code == 200

    assert cli("audit", "verify", "acme").output.startswith("ok: ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("tenants", "create", "Bad Slug!", "--plan", "free"), "Tenant id must be"),
        (("users", "create", "nope", "a@b.example", "--role", "admin"), "No tenant 'nope'"),
        (("keys", "create", "acme", "--name", "x", "--scopes", "documents:nuke"), "Unknown scope"),
        (
            (
                "keys",
                "create",
                "acme",
                "--name",
                "x",
                "--scopes",
                "documents:read",
                "--allow-ip",
                "10.0.0.0/33",
            ),
            "not an IPv4 or IPv6",
        ),
        (("keys", "revoke", "acme", "key_doesnotexist"), "API key not found"),
    ],
)
def test_errors_are_one_line_and_non_zero(cli, args, message):
    cli("tenants", "create", "acme", "--plan", "free")
    result = cli(*args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_another_tenants_key_is_not_found(cli):
    cli("tenants", "create", "acme", "--plan", "free")
    cli("tenants", "create", "globex", "--plan", "free")
    key_id = cli("keys", "create", "globex", "--name", "x", "--scopes", "documents:read")
    key_id = key_id.output.splitlines()[0]
    result = cli("keys", "revoke", "acme", key_id)
    assert result.exit_code == 1 and "not found" in result.output


def test_set_limits_and_support(cli):
    cli("tenants", "create", "big", "--plan", "enterprise")
    result = cli("tenants", "set-limits", "big", "--hourly", "50000", "--burst", "2000")
    assert result.output.strip() == "big\t50000/h\tburst 2000"
    result = cli("support", "create", "help@operator.example", "--password", "a-long-password")
    assert result.exit_code == 0 and result.output.startswith("stf_")
    assert cli("support", "create", "help@operator.example", "--password", "x" * 12).exit_code == 1


def test_seed_demo_prints_a_working_key_and_can_run_twice(cli, client):
    first = cli("seed-demo")
    assert first.exit_code == 0, first.output
    fields = dict(line.split(":", 1) for line in first.output.splitlines())
    secret = fields["api key"].strip()
    assert client.get("/api/v1/documents", headers=auth_headers(secret, "demo")).status_code == 200
    second = cli("seed-demo")
    assert second.exit_code == 0
    # The earlier quick-start key is revoked: only the newest printed key works.
    assert client.get("/api/v1/documents", headers=auth_headers(secret, "demo")).status_code == 401


def test_audit_verify_reports_a_broken_chain(cli, app):
    from sqlalchemy import text

    from extensions import db

    cli("tenants", "create", "acme", "--plan", "free")
    cli("users", "create", "acme", "a@acme.example", "--role", "member", "--password", "x" * 12)
    with app.app_context():
        db.session.execute(text("UPDATE audit_entries SET action = 'forged' WHERE seq = 2"))
        db.session.commit()
    result = cli("audit", "verify", "acme")
    assert result.exit_code == 2
    assert "BROKEN at entry #2" in result.output


def test_worker_command_runs_the_queues_and_stops_when_empty(app):
    result = app.test_cli_runner().invoke(args=["worker", "--burst"])
    assert result.exit_code == 0, result.output
