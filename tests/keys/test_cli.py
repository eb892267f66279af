"""`flask keys create|list|rotate|revoke` and `flask seed-demo`: keys that work on the API."""

from __future__ import annotations

from tests.helpers import auth_headers


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


def test_another_tenants_key_is_not_found(cli):
    cli("tenants", "create", "acme", "--plan", "free")
    cli("tenants", "create", "globex", "--plan", "free")
    key_id = cli("keys", "create", "globex", "--name", "x", "--scopes", "documents:read")
    key_id = key_id.output.splitlines()[0]
    result = cli("keys", "revoke", "acme", key_id)
    assert result.exit_code == 1 and "not found" in result.output


def test_seed_demo_prints_a_working_key_and_can_run_twice(cli, client):
    first = cli("seed-demo")
    assert first.exit_code == 0, first.output
    fields = dict(line.split(":", 1) for line in first.output.splitlines())
    secret = fields["api key"].strip()
    assert client.get("/api/v1/documents", headers=auth_headers(secret, "demo")).status_code == 200
    second = cli("seed-demo")
    assert second.exit_code == 0
    # The earlier quick-start secret stops working: only the newest printed one works.
    assert client.get("/api/v1/documents", headers=auth_headers(secret, "demo")).status_code == 401
    again = dict(line.split(":", 1) for line in second.output.splitlines())
    assert (
        client.get(
            "/api/v1/documents", headers=auth_headers(again["api key"].strip(), "demo")
        ).status_code
        == 200
    )


def test_seed_demo_reuses_its_one_quick_start_key(cli, app):
    """Every `make run` seeds again: the same key gets a new secret, so no revoked rows pile
    up and the key id stays the one the first run printed."""
    from extensions import db
    from models import ApiKey

    ids = set()
    for _ in range(3):
        result = cli("seed-demo")
        assert result.exit_code == 0, result.output
        ids.add(dict(line.split(":", 1) for line in result.output.splitlines())["key id"].strip())
    with app.app_context():
        rows = db.session.scalars(db.select(ApiKey).where(ApiKey.tenant_id == "demo")).all()
    assert len(ids) == 1 and [row.id for row in rows] == list(ids)
    assert rows[0].revoked_at is None
