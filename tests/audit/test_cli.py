"""`flask audit verify` on a chain edited behind the app's back: exit status 2."""

from __future__ import annotations

from sqlalchemy import text

from extensions import db


def test_audit_verify_reports_a_broken_chain(cli, app):
    cli("tenants", "create", "acme", "--plan", "free")
    cli("users", "create", "acme", "a@acme.example", "--role", "member", "--password", "x" * 12)
    with app.app_context():
        db.session.execute(text("UPDATE audit_entries SET action = 'forged' WHERE seq = 2"))
        db.session.commit()
    result = cli("audit", "verify", "acme")
    assert result.exit_code == 2
    assert "BROKEN at entry #2" in result.output
