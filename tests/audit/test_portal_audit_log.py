"""The audit log page (filters, cursor pages, CSV export, chain status), the support console's
audited reads, and the dashboard that summarises both."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from sqlalchemy import func

import clock
from extensions import db
from models import AuditEntry
from services.audit import audit_log
from services.core.actors import Actor
from tests.helpers import audit_actions, auth_headers, sign_in


def _fill(app, tenant_id: str, count: int, action: str = "test.event", label: str = "robot"):
    with app.app_context():
        for n in range(count):
            audit_log.record(tenant_id, Actor("system", None, label), action, details={"n": n})
        db.session.commit()


def _forget_cached_chain_checks(app):
    from extensions import redis_store

    with app.app_context():
        for key in redis_store.client.scan_iter(match=redis_store.key("audit-chain") + "*"):
            redis_store.client.delete(key)


def test_log_is_paginated_by_cursor_newest_first(app, admin_client, tenant):
    _fill(app, tenant.id, 120)
    first = admin_client.get("/audit").get_data(as_text=True)
    assert first.count('<td class="mono small" data-label="#">') == 50
    assert "Older entries" in first
    next_url = first.split('rel="next"')[0].rsplit('href="', 1)[1].split('"')[0]
    assert "cursor=" in next_url
    second = admin_client.get(next_url.replace("&amp;", "&")).get_data(as_text=True)
    assert "Older entries" in second and "Newest entries" in second


def test_filters_by_action_actor_key_and_dates(app, admin_client, tenant, api_key):
    key, _ = api_key
    _fill(app, tenant.id, 3, action="robot.beep", label="beeper")
    by_action = admin_client.get("/audit?action=robot.beep").get_data(as_text=True)
    assert by_action.count("robot.beep</div>") == 3
    assert "api_key.created</div>" not in by_action
    by_actor = admin_client.get("/audit?actor=BEEP").get_data(as_text=True)
    assert by_actor.count("robot.beep</div>") == 3
    by_key = admin_client.get(f"/audit?key={key.id}").get_data(as_text=True)
    assert "api_key.created</div>" in by_key and "robot.beep</div>" not in by_key
    tomorrow = (clock.now() + timedelta(days=1)).date().isoformat()
    future = admin_client.get(f"/audit?from={tomorrow}").get_data(as_text=True)
    assert "No entries match these filters" in future
    bad = admin_client.get("/audit?from=yesterday").get_data(as_text=True)
    assert "is not a date" in bad


def test_a_cursor_from_other_filters_is_not_reused(app, admin_client, tenant):
    _fill(app, tenant.id, 60)
    first = admin_client.get("/audit?action=test.event").get_data(as_text=True)
    cursor = first.split("cursor=")[1].split('"')[0]
    response = admin_client.get(f"/audit?cursor={cursor}")
    assert response.status_code == 200
    assert "no longer matches" in response.get_data(as_text=True)


def test_csv_export_streams_the_filtered_set(app, admin_client, tenant):
    _fill(app, tenant.id, 1200, action="bulk.event")
    _fill(app, tenant.id, 2, action="=cmd|' /C calc'!A0")
    response = admin_client.get("/audit/export.csv?action=bulk.event", buffered=False)
    assert response.is_streamed
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    response.close()
    assert rows[0][0] == "seq" and len(rows) == 1 + 1200
    assert {row[5] for row in rows[1:]} == {"bulk.event"}


def test_chain_status_is_shown_and_a_tampered_entry_is_reported(app, admin_client, tenant):
    _fill(app, tenant.id, 3)
    assert 'data-chain="ok"' in admin_client.get("/audit").get_data(as_text=True)
    with app.app_context():
        entry = db.session.query(AuditEntry).filter_by(tenant_id=tenant.id, seq=2).one()
        entry.details = {"n": 999}
        db.session.commit()
    # A result is reused for a minute while the chain has not grown...
    assert 'data-chain="ok"' in admin_client.get("/audit").get_data(as_text=True)
    _fill(app, tenant.id, 1)  # ...and any new entry makes the next view walk it again
    html = admin_client.get("/audit").get_data(as_text=True)
    assert 'data-chain="broken"' in html and "entry #2" in html
    _forget_cached_chain_checks(app)
    assert 'data-chain="broken"' in admin_client.get("/audit").get_data(as_text=True)


def test_chain_status_reports_entries_deleted_from_the_end(app, admin_client, tenant):
    _fill(app, tenant.id, 3)
    with app.app_context():
        last = db.session.query(func.max(AuditEntry.seq)).filter_by(tenant_id=tenant.id).scalar()
        db.session.query(AuditEntry).filter(
            AuditEntry.tenant_id == tenant.id, AuditEntry.seq >= last - 1
        ).delete()
        db.session.commit()
    html = admin_client.get("/audit").get_data(as_text=True)
    assert 'data-chain="broken"' in html
    assert f"entries {last - 1}..{last} are missing at the end" in html


def test_a_cached_ok_is_not_reused_after_the_tail_is_cut_back_to_it(app, tenant):
    """The result is cached by chain head; cutting the newest entry off brings back an older
    head that was cached as ok a moment ago, but the tenant's counter says more exist."""
    from services.audit import audit_queries

    _fill(app, tenant.id, 3)
    with app.app_context():
        assert audit_queries.chain_status(tenant.id).ok  # cached for this head
    _fill(app, tenant.id, 1)
    with app.app_context():
        assert audit_queries.chain_status(tenant.id).ok
        last = db.session.query(func.max(AuditEntry.seq)).filter_by(tenant_id=tenant.id).scalar()
        db.session.query(AuditEntry).filter_by(tenant_id=tenant.id, seq=last).delete()
        db.session.commit()
        report = audit_queries.chain_status(tenant.id)
    assert not report.ok


def test_support_reads_any_tenants_log_and_each_read_is_audited(
    app, client, support_staff, tenant, other_tenant
):
    sign_in(client, None, "help@operator.example")
    tenants_page = client.get("/support").get_data(as_text=True)
    assert tenant.id in tenants_page and other_tenant.id in tenants_page
    for _ in range(2):
        page = client.get(f"/support/tenants/{tenant.id}/audit")
        assert page.status_code == 200
        assert "Read-only support view" in page.get_data(as_text=True)
        assert "support.audit_viewed</div>" in page.get_data(as_text=True)  # their own visit
    assert audit_actions(app, tenant.id).count("support.audit_viewed") == 2
    assert "support.audit_viewed" not in audit_actions(app, other_tenant.id)
    assert client.get("/support/tenants/nope/audit").status_code == 404
    with app.app_context():
        entry = db.session.query(AuditEntry).filter_by(action="support.audit_viewed").first()
        assert entry.actor_type == "support" and entry.actor_label == "help@operator.example"


def test_dashboard_shows_usage_against_the_quota_and_keys_due(
    app, admin_client, tenant, create_key
):
    key, secret = create_key(tenant, name="ingest", hourly_quota=10)
    for _ in range(4):
        admin_client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))
    with app.app_context():
        from models import ApiKey

        old = db.session.get(ApiKey, key.id)
        old.created_at = clock.now() - timedelta(days=91)
        db.session.commit()
    html = admin_client.get("/").get_data(as_text=True)
    assert "4 of 10,000" in html  # the tenant's business quota
    assert "4 of 10" in html  # the key's own quota
    assert "Due for rotation" in html and "ingest" in html
    assert '<rect class="chart-bar' in html
    assert "API key created" in html


def test_dashboard_meters_keys_without_a_quota_from_the_usage_counters(
    admin_client, tenant, create_key
):
    _first, first_secret = create_key(tenant, name="first")
    _second, second_secret = create_key(tenant, name="second")
    for secret, calls in ((first_secret, 3), (second_secret, 2)):
        for _ in range(calls):
            admin_client.get("/api/v1/documents", headers=auth_headers(secret, tenant.id))

    html = admin_client.get("/").get_data(as_text=True)

    assert "5 of 10,000" in html  # the tenant, from its window
    assert "3 of 10,000" in html and "2 of 10,000" in html  # each key, from its counters


def test_dashboard_without_keys_says_what_to_do_next(admin_client):
    html = admin_client.get("/").get_data(as_text=True)
    assert "No active keys" in html and "Create API key" in html


def test_every_audited_action_has_a_label_on_the_audit_page():
    """The audit page shows people a label per action: a new action needs one."""
    import ast
    from pathlib import Path

    from portal.layout import ACTION_LABELS

    recorded = set()
    for path in Path(__file__).resolve().parents[2].joinpath("services").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "record"
                and len(node.args) >= 3
                and isinstance(node.args[2], ast.Constant)
            ):
                recorded.add(node.args[2].value)
    assert len(recorded) > 20  # the scan finds the calls
    assert recorded - set(ACTION_LABELS) == set()
