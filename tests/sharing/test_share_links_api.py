"""The share-links API: create (defaults, bounds, the URL shown once), list, revoke; other
tenants' documents and links are 404; the tenant's switch; only the token's digest is kept;
every change is audited."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

import clock
from tests.helpers import audit_actions, bearer
from tests.sharing.conftest import path_of


def _links(app):
    from extensions import db
    from models import ShareLink

    with app.app_context():
        return db.session.scalars(select(ShareLink)).all()


def test_create_answers_the_link_with_its_url_once(app, client, headers, document_id, tenant):
    clock.freeze(datetime(2026, 11, 21, 10, 0, tzinfo=UTC))
    response = client.post(f"/api/v1/documents/{document_id}/share-links", json={}, headers=headers)

    assert response.status_code == 201
    data = response.get_json()["data"]
    assert data["id"].startswith("shl_") and data["documentId"] == document_id
    assert data["expiresAt"] == "2026-11-28T10:00:00Z"  # 7 days by default
    assert data["version"] is None and data["maxDownloads"] is None
    assert data["hasPassword"] is False and data["downloads"] == 0
    assert data["revokedAt"] is None and data["status"] == "active"
    token = path_of(data).removeprefix("/s/")
    assert data["url"] == f"http://localhost/s/{token}"
    assert len(token) >= 43  # 256 random bits, URL-safe base64

    listed = client.get(f"/api/v1/documents/{document_id}/share-links", headers=headers)
    (row,) = listed.get_json()["data"]
    assert "url" not in row and row["id"] == data["id"]
    assert listed.get_json()["meta"]["pagination"]["limit"] == 50
    (stored,) = _links(app)
    assert stored.token_digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in repr(vars(stored))
    assert audit_actions(app, tenant.id)[-1] == "share_link.created"


def test_password_and_cap_and_pinned_version(app, make_link):
    link = make_link(password="s3cret pass", maxDownloads=3, version=1)

    assert link["hasPassword"] is True and link["maxDownloads"] == 3 and link["version"] == 1
    (stored,) = _links(app)
    assert stored.password_hash.startswith("$argon2") and "s3cret" not in stored.password_hash


def test_bounds_are_422_naming_the_field(client, headers, document_id):
    url = f"/api/v1/documents/{document_id}/share-links"
    now = datetime.now(UTC)
    cases = {
        "expiresAt": {"expiresAt": (now + timedelta(days=366)).isoformat()},
        "version": {"version": 2},
        "maxDownloads": {"maxDownloads": 0},
        "password": {"password": ""},
    }
    for field, body in cases.items():
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == 422, field
        assert response.get_json()["errors"][0]["field"] == field
    past = {"expiresAt": (now - timedelta(minutes=1)).isoformat()}
    assert client.post(url, json=past, headers=headers).status_code == 422
    year = {"expiresAt": (now + timedelta(days=364)).isoformat()}
    assert client.post(url, json=year, headers=headers).status_code == 201


def test_a_trashed_document_is_not_shared(client, headers, document_id):
    client.delete(f"/api/v1/documents/{document_id}", headers=headers)

    response = client.post(f"/api/v1/documents/{document_id}/share-links", json={}, headers=headers)

    assert response.status_code == 409


def test_revoke_is_idempotent_and_audited(app, client, headers, make_link, tenant):
    link = make_link()

    first = client.delete(f"/api/v1/share-links/{link['id']}", headers=headers)
    second = client.delete(f"/api/v1/share-links/{link['id']}", headers=headers)

    assert first.status_code == 200 and first.get_json()["data"]["status"] == "revoked"
    assert second.get_json()["data"]["revokedAt"] == first.get_json()["data"]["revokedAt"]
    assert audit_actions(app, tenant.id).count("share_link.revoked") == 1


def test_another_tenants_documents_and_links_are_404(
    client, other_tenant, create_key, make_link, document_id
):
    from tests.helpers import auth_headers

    link = make_link()
    theirs = auth_headers(create_key(other_tenant)[1], other_tenant.id)

    create = client.post(f"/api/v1/documents/{document_id}/share-links", json={}, headers=theirs)
    listing = client.get(f"/api/v1/documents/{document_id}/share-links", headers=theirs)
    revoke = client.delete(f"/api/v1/share-links/{link['id']}", headers=theirs)

    assert [create.status_code, listing.status_code, revoke.status_code] == [404, 404, 404]
    assert all(r.get_json()["errors"][0]["code"] == "NOT_FOUND" for r in (create, revoke))


def test_scopes(client, tenant, create_key, document_id, make_link):
    from tests.helpers import auth_headers

    reader = auth_headers(create_key(tenant, ["documents:read"])[1], tenant.id)
    link = make_link()

    assert (
        client.get(f"/api/v1/documents/{document_id}/share-links", headers=reader).status_code
        == 200
    )
    create = client.post(f"/api/v1/documents/{document_id}/share-links", json={}, headers=reader)
    assert create.status_code == 403
    assert client.delete(f"/api/v1/share-links/{link['id']}", headers=reader).status_code == 403


def test_turned_off_creating_is_403_and_links_are_410(app, client, headers, make_link, tenant):
    link = make_link()

    off = client.patch(
        "/api/v1/share-link-settings", json={"shareLinksEnabled": False}, headers=headers
    )
    create = client.post(
        f"/api/v1/documents/{link['documentId']}/share-links", json={}, headers=headers
    )

    assert off.status_code == 200 and off.get_json()["data"] == {"shareLinksEnabled": False}
    assert create.status_code == 403
    assert create.get_json()["errors"][0]["code"] == "SHARE_LINKS_DISABLED"
    assert client.get(path_of(link)).status_code == 410
    client.patch("/api/v1/share-link-settings", json={"shareLinksEnabled": True}, headers=headers)
    assert client.get(path_of(link)).status_code == 200
    got = client.get("/api/v1/share-link-settings", headers=headers).get_json()["data"]
    assert got == {"shareLinksEnabled": True}
    actions = audit_actions(app, tenant.id)
    assert "share_links.disabled" in actions and "share_links.enabled" in actions


def test_only_an_admin_person_turns_links_off(app, client, tenant, member, admin):
    body = {"shareLinksEnabled": False}

    refused = client.patch(
        "/api/v1/share-link-settings", json=body, headers=bearer(app, tenant, member)
    )
    allowed = client.patch(
        "/api/v1/share-link-settings", json=body, headers=bearer(app, tenant, admin)
    )

    assert refused.status_code == 403 and allowed.status_code == 200
    assert (
        client.patch(
            "/api/v1/share-link-settings",
            json={"shareLinksEnabled": None},
            headers=bearer(app, tenant, admin),
        ).status_code
        == 422
    )
