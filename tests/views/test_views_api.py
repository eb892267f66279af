"""The saved views API (CONTRACT §10): save, list, read, change, delete; filters checked with
the documents list's own validation; who sees and changes a view; another tenant's ids;
scopes; audit entries and events."""

from __future__ import annotations

from sqlalchemy import select

from tests.helpers import audit_actions, auth_headers, bearer


def _ok(response, status=200):
    assert response.status_code == status, response.get_json()
    return response.get_json()["data"]


def _error(response, status):
    assert response.status_code == status, response.get_json()
    return response.get_json()["errors"][0]


def test_a_view_is_saved_listed_read_changed_and_deleted(client, headers, save_view):
    view = _ok(
        save_view(
            {
                "name": "Finance",
                "filters": {"tag": "finance,q3", "status": ["active"], "metadata.quarter": "Q3"},
                "sort": "title",
                "columns": ["title", "source", "title", "created"],
            }
        ),
        201,
    )
    assert view["id"].startswith("svw_") and view["shared"] is False
    assert view["filters"] == {
        "status": ["active"],
        "tag": ["finance", "q3"],
        "metadata.quarter": "Q3",
    }
    assert view["sort"] == "title" and view["columns"] == ["title", "source", "created"]
    assert view["owner"]["type"] == "api_key" and view["owner"]["id"].startswith("key_")
    defaults = _ok(save_view({"name": "Everything"}), 201)
    assert defaults["filters"] == {} and defaults["sort"] == "-createdAt"
    assert defaults["columns"] == ["title", "status", "tags", "type", "size", "modified"]

    listed = client.get("/api/v1/saved-views", headers=headers).get_json()
    assert [v["id"] for v in listed["data"]] == [view["id"], defaults["id"]]
    path = f"/api/v1/saved-views/{view['id']}"
    assert _ok(client.get(path, headers=headers)) == view

    changed = _ok(
        client.patch(
            path, json={"name": "Finance Q3", "filters": {"title": "report"}}, headers=headers
        )
    )
    assert changed["name"] == "Finance Q3" and changed["filters"] == {"title": "report"}
    assert changed["sort"] == "title"
    assert _ok(client.delete(path, headers=headers))["id"] == view["id"]
    assert client.get(path, headers=headers).status_code == 404


def test_filters_are_checked_as_the_list_checks_its_query(client, headers, save_view):
    cases = {
        "filters.nope": {"nope": "1"},
        "filters.status": {"status": ["bogus"]},
        "filters.createdAfter": {"createdAfter": "yesterday"},
        "filters.sort": {"sort": "title"},
        "filters.cursor": {"cursor": "x"},
        "filters.title": {"title": ["a", "b"]},
        "filters.tag": {"tag": {"nested": "object"}},
        "filters.source": {"source": "fax"},
        "filters.metadata": {"metadata.bad key": "x"},
    }
    for field, filters in cases.items():
        error = _error(save_view({"name": "bad", "filters": filters}), 422)
        assert error["code"] == "VALIDATION_ERROR" and error["field"] == field, (field, error)
    assert _error(save_view({"name": "bad", "sort": "size"}), 422)["field"] == "sort"
    assert _error(save_view({"name": "bad", "columns": ["colour"]}), 422)["field"] == "columns.0"
    assert _error(save_view({"name": "bad", "columns": []}), 422)["field"] == "columns"
    assert _error(save_view({"name": " "}), 422)["field"] == "name"
    view = _ok(save_view({"name": "ok"}), 201)
    patched = client.patch(
        f"/api/v1/saved-views/{view['id']}", json={"filters": {"limit": "5"}}, headers=headers
    )
    assert _error(patched, 422)["field"] == "filters.limit"
    assert (
        _error(
            client.patch(f"/api/v1/saved-views/{view['id']}", json={"name": None}, headers=headers),
            422,
        )["field"]
        == "name"
    )
    assert client.get("/api/v1/saved-views", headers=headers).get_json()["data"][0]["name"] == "ok"


def test_a_personal_view_is_its_owners_and_a_shared_one_everyones(
    app, client, tenant, create_user, save_view
):
    mia = bearer(app, tenant, create_user(tenant, "member", email="mia@acme.example"))
    max_ = bearer(app, tenant, create_user(tenant, "member", email="max@acme.example"))
    admin = bearer(app, tenant, create_user(tenant, "admin", email="ada@acme.example"))
    personal = _ok(save_view({"name": "Mine"}, mia), 201)
    shared = _ok(save_view({"name": "Ours", "shared": True}, mia), 201)
    assert personal["owner"]["type"] == "user"

    seen = client.get("/api/v1/saved-views", headers=max_).get_json()["data"]
    assert [v["id"] for v in seen] == [shared["id"]]
    mine = f"/api/v1/saved-views/{personal['id']}"
    for who in (max_, admin):  # another's personal view: a 404, to admins too
        for response in (
            client.get(mine, headers=who),
            client.patch(mine, json={"name": "x"}, headers=who),
            client.delete(mine, headers=who),
            client.get(f"/api/v1/documents?savedView={personal['id']}", headers=who),
        ):
            assert _error(response, 404)["code"] == "NOT_FOUND"

    ours = f"/api/v1/saved-views/{shared['id']}"
    assert _ok(client.get(ours, headers=max_))["name"] == "Ours"
    refused = client.patch(ours, json={"name": "Theirs"}, headers=max_)
    assert _error(refused, 403)["code"] == "FORBIDDEN"
    assert _error(client.delete(ours, headers=max_), 403)["code"] == "FORBIDDEN"
    assert _ok(client.patch(ours, json={"name": "Team"}, headers=admin))["name"] == "Team"
    assert _ok(client.patch(mine, json={"shared": True}, headers=mia))["shared"] is True
    assert _ok(client.delete(ours, headers=admin))["id"] == shared["id"]


def test_another_tenants_view_answers_404(client, headers, other_tenant, create_key, save_view):
    theirs_headers = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    theirs = _ok(save_view({"name": "Theirs", "shared": True}, theirs_headers), 201)
    path = f"/api/v1/saved-views/{theirs['id']}"
    for response in (
        client.get(path, headers=headers),
        client.patch(path, json={"name": "x"}, headers=headers),
        client.delete(path, headers=headers),
        client.get(f"/api/v1/documents?savedView={theirs['id']}", headers=headers),
    ):
        assert _error(response, 404)["code"] == "NOT_FOUND"
    assert client.get("/api/v1/saved-views", headers=headers).get_json()["data"] == []
    assert _ok(client.get(path, headers=theirs_headers))["name"] == "Theirs"


def test_reading_needs_documents_read_and_writing_documents_write(
    client, tenant, create_key, save_view
):
    reader = auth_headers(create_key(tenant, ["documents:read"])[1], tenant.id)
    writer = auth_headers(create_key(tenant, ["documents:write"])[1], tenant.id)
    view = _ok(save_view({"name": "v", "shared": True}, writer), 201)
    path = f"/api/v1/saved-views/{view['id']}"
    assert client.get(path, headers=reader).status_code == 200
    for response in (
        save_view({"name": "no"}, reader),
        client.patch(path, json={"name": "no"}, headers=reader),
        client.delete(path, headers=reader),
        client.get("/api/v1/saved-views", headers=writer),
    ):
        assert _error(response, 403)["code"] == "INSUFFICIENT_SCOPE"


def test_views_are_audited_and_emitted(app, client, headers, tenant, save_view):
    from extensions import db
    from models import Event

    view = _ok(save_view({"name": "Audited"}), 201)
    path = f"/api/v1/saved-views/{view['id']}"
    client.patch(path, json={"name": "Renamed"}, headers=headers)
    client.patch(path, json={"name": "Renamed"}, headers=headers)  # no change: no entry
    client.delete(path, headers=headers)
    assert audit_actions(app, tenant.id)[-3:] == [
        "saved_view.created",
        "saved_view.updated",
        "saved_view.deleted",
    ]
    with app.app_context():
        events = db.session.scalars(
            select(Event)
            .where(Event.tenant_id == tenant.id, Event.type.like("saved_view.%"))
            .order_by(Event.created_at, Event.id)
        ).all()
        assert [(e.type, e.data["savedView"]["name"]) for e in events] == [
            ("saved_view.created", "Audited"),
            ("saved_view.updated", "Renamed"),
            ("saved_view.deleted", "Renamed"),
        ]
    catalogue = client.get("/api/v1/webhooks/event-types", headers=headers).get_json()["data"]
    assert {"saved_view.created", "saved_view.updated", "saved_view.deleted"} <= {
        t["type"] for t in catalogue
    }


def test_an_idempotency_key_saves_one_view(client, headers):
    keyed = {**headers, "Idempotency-Key": "view-1"}
    first = client.post("/api/v1/saved-views", json={"name": "once"}, headers=keyed)
    again = client.post("/api/v1/saved-views", json={"name": "once"}, headers=keyed)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert len(client.get("/api/v1/saved-views", headers=headers).get_json()["data"]) == 1
