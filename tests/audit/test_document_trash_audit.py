"""Trashing, restoring and purging a document are audited (through the API, so the portal and
bulk edits, which call the same service, are too), and the audit page shows them with labels,
whole ids and the actor, action and target filters."""

from __future__ import annotations

import io
from datetime import timedelta

from sqlalchemy import select

import clock
from extensions import db
from models import AuditEntry, Document
from services.audit import audit_log
from services.core.actors import Actor
from tests.helpers import auth_headers, sign_in


def _upload(client, headers, title="Contract.pdf") -> str:
    response = client.post(
        "/api/v1/documents",
        data={"file": (io.BytesIO(b"the contract text\n"), "contract.txt"), "title": title},
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def test_trash_and_restore_through_the_api_write_audit_entries(
    app, client, headers, tenant, api_key
):
    key, _ = api_key
    document_id = _upload(client, headers)

    assert client.delete(f"/api/v1/documents/{document_id}", headers=headers).status_code == 200
    restored = client.patch(
        f"/api/v1/documents/{document_id}", json={"status": "active"}, headers=headers
    )
    assert restored.status_code == 200, restored.get_json()

    with app.app_context():
        rows = db.session.execute(
            select(AuditEntry.action, AuditEntry.actor_id, AuditEntry.details)
            .where(AuditEntry.target_id == document_id)
            .order_by(AuditEntry.seq)
        ).all()
    assert [r.action for r in rows] == ["document.trashed", "document.restored"]
    assert all(r.actor_id == key.id for r in rows)
    assert rows[0].details["title"] == "Contract.pdf"
    assert rows[1].details["deletedAt"].endswith("Z")


def test_trashing_twice_writes_one_entry_and_another_tenant_gets_404(
    app, client, headers, tenant, other_tenant, create_key
):
    document_id = _upload(client, headers)
    client.delete(f"/api/v1/documents/{document_id}", headers=headers)
    client.delete(f"/api/v1/documents/{document_id}", headers=headers)
    _, other_secret = create_key(other_tenant)
    other = auth_headers(other_secret, other_tenant.id)
    assert client.delete(f"/api/v1/documents/{document_id}", headers=other).status_code == 404
    with app.app_context():
        actions = list(
            db.session.scalars(select(AuditEntry.action).where(AuditEntry.target_id == document_id))
        )
        assert actions == ["document.trashed"]
        assert not db.session.scalars(
            select(AuditEntry).where(
                AuditEntry.tenant_id == other_tenant.id, AuditEntry.target_id == document_id
            )
        ).first()


def test_archiving_and_unarchiving_is_not_a_restore(app, client, headers):
    document_id = _upload(client, headers)
    for status in ("archived", "active"):
        answer = client.patch(
            f"/api/v1/documents/{document_id}", json={"status": status}, headers=headers
        )
        assert answer.status_code == 200
    with app.app_context():
        actions = set(
            db.session.scalars(select(AuditEntry.action).where(AuditEntry.target_id == document_id))
        )
    assert not actions & {"document.trashed", "document.restored"}


def test_purge_is_audited_and_the_page_labels_all_three(app, client, headers, tenant, admin_client):
    document_id = _upload(client, headers)
    client.delete(f"/api/v1/documents/{document_id}", headers=headers)
    client.patch(f"/api/v1/documents/{document_id}", json={"status": "active"}, headers=headers)
    client.delete(f"/api/v1/documents/{document_id}", headers=headers)
    with app.app_context():
        document = db.session.get(Document, document_id)
        document.deleted_at = clock.now() - timedelta(days=40)
        db.session.commit()
    assert app.test_cli_runner().invoke(args=["documents", "purge"]).exit_code == 0

    page = admin_client.get(f"/audit?target={document_id}").get_data(as_text=True)
    for label in (
        "Document moved to the trash",
        "Document restored from the trash",
        "Document purged from the trash",
    ):
        assert label in page
    # The id is shown whole, in one monospace cell with a copy button.
    assert f'<code class="id-text">{document_id}</code>' in page
    assert f'data-copy-text="{document_id}"' in page
    # The target filter narrows to this document only.
    assert page.count("document.trashed</div>") == 2
    assert "api_key.created</div>" not in page


def test_filters_by_target_kind_and_details_fold_instead_of_cutting_off(app, admin_client, tenant):
    long_value = "x" * 400
    with app.app_context():
        audit_log.record(
            tenant.id,
            Actor("system", None, "robot"),
            "robot.wide",
            target_type="widget",
            target_id="wdg_0123456789abcdefghijklmnop",
            details={"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "long": long_value},
        )
        audit_log.record(tenant.id, Actor("system", None, "robot"), "robot.other")
        db.session.commit()
    page = admin_client.get("/audit?target=widget").get_data(as_text=True)
    assert "robot.wide</div>" in page and "robot.other</div>" not in page
    assert "All 6 details" in page
    assert '<details class="detail-long">' in page and long_value in page
    assert '<code class="id-text">wdg_0123456789abcdefghijklmnop</code>' in page
    by_actor_and_action = admin_client.get("/audit?actor=robot&action=robot.other").get_data(
        as_text=True
    )
    assert "robot.other</div>" in by_actor_and_action
    assert "robot.wide</div>" not in by_actor_and_action


def test_support_view_shows_the_trash_entries_with_labels(
    app, client, headers, tenant, support_staff
):
    document_id = _upload(client, headers)
    client.delete(f"/api/v1/documents/{document_id}", headers=headers)
    staff_client = app.test_client()
    sign_in(staff_client, None, "help@operator.example")
    page = staff_client.get(f"/support/tenants/{tenant.id}/audit?target={document_id}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Document moved to the trash" in text
    assert f'<code class="id-text">{document_id}</code>' in text
