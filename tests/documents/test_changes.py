"""PATCH, trash and restore, versions, and the events each change records."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

import clock

URL = "/api/v1/documents"


def _events(app, document_id: str) -> list[tuple[str, dict]]:
    from extensions import db
    from models import Event

    with app.app_context():
        rows = db.session.scalars(select(Event).order_by(Event.created_at, Event.id)).all()
        return [
            (e.type, e.data)
            for e in rows
            if e.type.startswith("document.") and e.data["document"]["id"] == document_id
        ]


def test_get_document(client, headers, make_document):
    doc = make_document(title="Hello")
    response = client.get(f"{URL}/{doc['id']}", headers=headers)
    assert response.status_code == 200
    # The single read adds the entities the text mentions (docs/graph.md).
    assert response.get_json()["data"] == {**doc, "entities": []}
    import jsonschema

    from services.documents.wire import DocumentOut

    # the documented schema matches the wire
    jsonschema.validate(doc, DocumentOut.model_json_schema(mode="serialization"))


def test_unknown_document_is_404(client, headers):
    response = client.get(f"{URL}/doc_nope", headers=headers)
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"


def test_patch_changes_fields_and_emits_document_updated(app, client, headers, make_document):
    doc = make_document(tags=["a"], metadata={"keep": "1", "drop": "2"})
    clock.shift(timedelta(seconds=5))
    response = client.patch(
        f"{URL}/{doc['id']}",
        json={
            "title": " New title ",
            "tags": ["b", "c", "b"],
            "metadata": {"drop": None, "add": "3"},
        },
        headers=headers,
    )
    assert response.status_code == 200
    data = response.get_json()["data"]
    assert data["title"] == "New title"
    assert data["tags"] == ["b", "c"]
    assert data["metadata"] == {"keep": "1", "add": "3"}
    assert data["updatedAt"] > doc["updatedAt"]
    assert data["createdAt"] == doc["createdAt"]
    events = _events(app, doc["id"])
    assert [t for t, _ in events] == ["document.created", "document.updated"]
    assert events[1][1]["changes"] == ["title", "tags", "metadata"]
    assert events[1][1]["document"]["title"] == "New title"


def test_patch_without_changes_emits_nothing(app, client, headers, make_document):
    doc = make_document(title="Same")
    response = client.patch(f"{URL}/{doc['id']}", json={"title": "Same"}, headers=headers)
    assert response.status_code == 200
    assert [t for t, _ in _events(app, doc["id"])] == ["document.created"]


def test_patch_validation_is_422_per_field(client, headers, make_document):
    doc = make_document()
    response = client.patch(
        f"{URL}/{doc['id']}",
        json={
            "title": "",
            "tags": "not-a-list",
            "metadata": {"bad key": "x"},
            "status": "gone",
            "owner": "me",
        },
        headers=headers,
    )
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert {e["field"].split(".")[0] for e in errors} == {
        "title",
        "tags",
        "metadata",
        "status",
        "owner",
    }
    assert {e["code"] for e in errors} == {"VALIDATION_ERROR"}
    nulls = client.patch(f"{URL}/{doc['id']}", json={"title": None}, headers=headers)
    assert nulls.status_code == 422


def test_patch_needs_json(client, headers, make_document):
    doc = make_document()
    response = client.patch(
        f"{URL}/{doc['id']}",
        data="title=x",
        headers=headers,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 415


def test_archive_and_unarchive(client, headers, make_document):
    doc = make_document()
    archived = client.patch(f"{URL}/{doc['id']}", json={"status": "archived"}, headers=headers)
    assert archived.get_json()["data"]["status"] == "archived"
    active = client.patch(f"{URL}/{doc['id']}", json={"status": "active"}, headers=headers)
    assert active.get_json()["data"]["status"] == "active"


def test_delete_moves_to_trash_and_patch_restores(app, client, headers, make_document):
    doc = make_document(b"keep me", "k.txt")
    deleted = client.delete(f"{URL}/{doc['id']}", headers=headers)
    assert deleted.status_code == 200
    data = deleted.get_json()["data"]
    assert data["status"] == "deleted" and data["deletedAt"] is not None
    # Still readable by id and downloadable; gone from the default list.
    assert client.get(f"{URL}/{doc['id']}", headers=headers).status_code == 200
    listed = client.get(URL, headers=headers).get_json()["data"]
    assert doc["id"] not in {d["id"] for d in listed}
    # Deleting again changes nothing; editing in the trash is a conflict.
    assert client.delete(f"{URL}/{doc['id']}", headers=headers).status_code == 200
    edit = client.patch(f"{URL}/{doc['id']}", json={"title": "x"}, headers=headers)
    assert edit.status_code == 409
    assert edit.get_json()["errors"][0]["code"] == "CONFLICT"
    archive = client.patch(f"{URL}/{doc['id']}", json={"status": "archived"}, headers=headers)
    assert archive.status_code == 422
    restored = client.patch(f"{URL}/{doc['id']}", json={"status": "active"}, headers=headers)
    assert restored.status_code == 200
    data = restored.get_json()["data"]
    assert data["status"] == "active" and data["deletedAt"] is None
    content = client.get(f"{URL}/{doc['id']}/content", headers=headers)
    assert content.data == b"keep me"
    types = [t for t, _ in _events(app, doc["id"])]
    assert types == ["document.created", "document.deleted", "document.updated"]


def test_patch_status_deleted_is_the_same_as_delete(app, client, headers, make_document):
    doc = make_document()
    response = client.patch(f"{URL}/{doc['id']}", json={"status": "deleted"}, headers=headers)
    assert response.get_json()["data"]["status"] == "deleted"
    assert [t for t, _ in _events(app, doc["id"])][-1] == "document.deleted"


def test_versions(app, client, headers, make_document, upload):
    doc = make_document(b"version one", "one.txt")
    clock.shift(timedelta(seconds=2))
    response = upload(b"%PDF-1.4 version two", "two.pdf", path=f"{URL}/{doc['id']}/versions")
    assert response.status_code == 201
    version = response.get_json()["data"]
    assert version["number"] == 2 and version["documentId"] == doc["id"]
    assert version["contentType"] == "application/pdf"
    assert response.headers["Location"] == f"{URL}/{doc['id']}/content?version=2"

    current = client.get(f"{URL}/{doc['id']}", headers=headers).get_json()["data"]
    assert current["currentVersion"] == 2
    assert (current["filename"], current["sha256"]) == ("two.pdf", version["sha256"])
    assert current["updatedAt"] > doc["updatedAt"]

    latest = client.get(f"{URL}/{doc['id']}/content", headers=headers)
    older = client.get(f"{URL}/{doc['id']}/content?version=1", headers=headers)
    assert (latest.data, older.data) == (b"%PDF-1.4 version two", b"version one")
    assert older.headers["ETag"] == f'"{doc["sha256"]}"'

    listed = client.get(f"{URL}/{doc['id']}/versions?limit=1", headers=headers).get_json()
    assert [v["number"] for v in listed["data"]] == [2]
    cursor = listed["meta"]["pagination"]["nextCursor"]
    rest = client.get(
        f"{URL}/{doc['id']}/versions", headers=headers, query_string={"limit": 1, "cursor": cursor}
    ).get_json()
    assert [v["number"] for v in rest["data"]] == [1]
    assert rest["meta"]["pagination"]["hasMore"] is False

    events = _events(app, doc["id"])
    assert events[-1][0] == "document.updated" and events[-1][1]["changes"] == ["content"]


def test_version_upload_refuses_fields_and_trashed_documents(
    client, headers, make_document, upload
):
    doc = make_document()
    path = f"{URL}/{doc['id']}/versions"
    assert upload(b"v2", "v.txt", title="no", path=path).status_code == 422
    client.delete(f"{URL}/{doc['id']}", headers=headers)
    assert upload(b"v2", "v.txt", path=path).status_code == 409


def test_versions_cursor_is_bound_to_its_document(client, headers, make_document, upload):
    first, second = make_document(b"1"), make_document(b"2")
    upload(b"1b", "x.txt", path=f"{URL}/{first['id']}/versions")
    cursor = client.get(f"{URL}/{first['id']}/versions?limit=1", headers=headers).get_json()[
        "meta"
    ]["pagination"]["nextCursor"]
    response = client.get(
        f"{URL}/{second['id']}/versions", headers=headers, query_string={"cursor": cursor}
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


def test_created_event_carries_the_document(app, make_document):
    doc = make_document(title="Evented")
    ((kind, data),) = _events(app, doc["id"])
    assert kind == "document.created"
    assert data["document"] == doc | {"textStatus": data["document"]["textStatus"]}


def test_read_scope_cannot_change(client, create_key, tenant, make_document):
    from tests.helpers import auth_headers

    doc = make_document()
    _, secret = create_key(tenant, scopes=["documents:read"])
    reader = auth_headers(secret, tenant.id)
    assert client.get(f"{URL}/{doc['id']}", headers=reader).status_code == 200
    assert (
        client.patch(f"{URL}/{doc['id']}", json={"title": "x"}, headers=reader).status_code == 403
    )
    assert client.delete(f"{URL}/{doc['id']}", headers=reader).status_code == 403
