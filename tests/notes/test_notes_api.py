"""The notes API (CONTRACT §10): write, list newest first, delete (its author or an admin),
scopes, another tenant's ids, validation, a trashed document, audit entries and events."""

from __future__ import annotations

from sqlalchemy import select

from tests.helpers import audit_actions, auth_headers, bearer


def _ok(response, status=200):
    assert response.status_code == status, response.get_json()
    return response.get_json()["data"]


def test_a_note_is_written_listed_newest_first_and_deleted(client, headers, document, write_note):
    first = _ok(write_note(document, "Checked the totals."), 201)
    second = _ok(write_note(document, "Line one\nline two <b>"), 201)
    assert first["id"].startswith("not_") and first["documentId"] == document
    assert first["author"]["type"] == "api_key" and first["author"]["id"].startswith("key_")
    assert first["author"]["email"] is None and first["mentions"] == []
    assert second["body"] == "Line one\nline two <b>"

    listed = client.get(f"/api/v1/documents/{document}/notes", headers=headers).get_json()
    assert [n["id"] for n in listed["data"]] == [second["id"], first["id"]]
    assert listed["meta"]["pagination"]["limit"] == 50

    gone = _ok(client.delete(f"/api/v1/documents/{document}/notes/{first['id']}", headers=headers))
    assert gone["id"] == first["id"]
    listed = client.get(f"/api/v1/documents/{document}/notes", headers=headers).get_json()
    assert [n["id"] for n in listed["data"]] == [second["id"]]


def test_the_list_pages_with_a_cursor_bound_to_the_document(
    client, headers, tenant, store_document, document, write_note
):
    ids = [_ok(write_note(document, f"note {n}"), 201)["id"] for n in range(3)]
    page = client.get(f"/api/v1/documents/{document}/notes?limit=2", headers=headers).get_json()
    assert [n["id"] for n in page["data"]] == ids[:0:-1]
    cursor = page["meta"]["pagination"]["nextCursor"]
    rest = client.get(
        f"/api/v1/documents/{document}/notes?limit=2&cursor={cursor}", headers=headers
    ).get_json()
    assert [n["id"] for n in rest["data"]] == ids[:1]
    other = store_document(tenant, b"other", "o.txt")
    wrong = client.get(f"/api/v1/documents/{other}/notes?cursor={cursor}", headers=headers)
    assert wrong.status_code == 400 and wrong.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


def test_another_tenants_document_and_note_answer_404(
    client, headers, other_tenant, create_key, store_document, document, write_note
):
    mine = _ok(write_note(document, "ours"), 201)
    theirs_doc = store_document(other_tenant, b"theirs", "t.txt")
    their_headers = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    theirs = _ok(write_note(theirs_doc, "theirs", their_headers), 201)

    for response in (
        client.get(f"/api/v1/documents/{theirs_doc}/notes", headers=headers),
        write_note(theirs_doc, "sneaky"),
        client.delete(f"/api/v1/documents/{theirs_doc}/notes/{theirs['id']}", headers=headers),
        # their note under our document, and ours under theirs, with their key
        client.delete(f"/api/v1/documents/{document}/notes/{theirs['id']}", headers=headers),
        client.delete(f"/api/v1/documents/{theirs_doc}/notes/{mine['id']}", headers=their_headers),
    ):
        assert response.status_code == 404, response.get_json()
        assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    listed = client.get(f"/api/v1/documents/{theirs_doc}/notes", headers=their_headers)
    assert [n["body"] for n in listed.get_json()["data"]] == ["theirs"]


def test_a_note_of_another_document_of_the_tenant_is_not_found_under_this_one(
    client, headers, tenant, store_document, document, write_note
):
    note = _ok(write_note(document, "on the first"), 201)
    second = store_document(tenant, b"second", "2.txt")
    response = client.delete(f"/api/v1/documents/{second}/notes/{note['id']}", headers=headers)
    assert response.status_code == 404


def test_reading_needs_documents_read_and_writing_documents_write(
    client, tenant, create_key, document, write_note
):
    reader = auth_headers(create_key(tenant, ["documents:read"])[1], tenant.id)
    writer = auth_headers(create_key(tenant, ["documents:write"])[1], tenant.id)
    note = _ok(write_note(document, "hello", writer), 201)
    assert client.get(f"/api/v1/documents/{document}/notes", headers=reader).status_code == 200
    refused = [
        write_note(document, "no", reader),
        client.delete(f"/api/v1/documents/{document}/notes/{note['id']}", headers=reader),
        client.get(f"/api/v1/documents/{document}/notes", headers=writer),
    ]
    for response in refused:
        assert response.status_code == 403
        assert response.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"


def test_the_body_is_plain_text_of_1_to_10000_characters(client, headers, document, write_note):
    assert _ok(write_note(document, "x" * 10_000), 201)["body"] == "x" * 10_000
    for body in ("", "   \n ", "x" * 10_001, "a\x00b"):
        response = write_note(document, body)
        assert response.status_code == 422, body[:20]
        assert response.get_json()["errors"][0]["field"] == "body"
    extra = client.post(
        f"/api/v1/documents/{document}/notes", json={"body": "x", "author": "me"}, headers=headers
    )
    assert extra.status_code == 422


def test_only_its_author_or_an_admin_deletes_a_note(
    app, client, tenant, create_key, create_user, document, write_note
):
    member = create_user(tenant, "member", email="mia@acme.example")
    admin = create_user(tenant, "admin", email="ada@acme.example")
    other_key = auth_headers(create_key(tenant)[1], tenant.id)
    by_member = _ok(write_note(document, "mine", bearer(app, tenant, member)), 201)
    assert by_member["author"] == {
        "type": "user",
        "id": member.id,
        "email": "mia@acme.example",
        "name": None,
    }
    path = f"/api/v1/documents/{document}/notes/{by_member['id']}"

    refused = client.delete(path, headers=other_key)
    assert refused.status_code == 403 and refused.get_json()["errors"][0]["code"] == "FORBIDDEN"
    assert client.delete(path, headers=bearer(app, tenant, admin)).status_code == 200

    by_key = _ok(write_note(document, "the key's", other_key), 201)
    key_path = f"/api/v1/documents/{document}/notes/{by_key['id']}"
    assert client.delete(key_path, headers=bearer(app, tenant, member)).status_code == 403
    assert client.delete(key_path, headers=other_key).status_code == 200


def test_a_trashed_documents_notes_are_read_but_not_changed(client, headers, document, write_note):
    note = _ok(write_note(document, "before the trash"), 201)
    trashed = client.delete(f"/api/v1/documents/{document}", headers=headers)
    assert trashed.status_code in (200, 204), trashed.get_json()
    listed = client.get(f"/api/v1/documents/{document}/notes", headers=headers)
    assert [n["id"] for n in listed.get_json()["data"]] == [note["id"]]
    for response in (
        write_note(document, "after"),
        client.delete(f"/api/v1/documents/{document}/notes/{note['id']}", headers=headers),
    ):
        assert response.status_code == 409
        assert response.get_json()["errors"][0]["code"] == "CONFLICT"


def test_notes_are_audited_and_emitted(app, client, headers, tenant, document, write_note):
    from extensions import db
    from models import Event

    note = _ok(write_note(document, "audited"), 201)
    client.delete(f"/api/v1/documents/{document}/notes/{note['id']}", headers=headers)
    actions = audit_actions(app, tenant.id)
    assert actions[-2:] == ["note.created", "note.deleted"]
    with app.app_context():
        events = db.session.scalars(
            select(Event)
            .where(Event.tenant_id == tenant.id, Event.type.like("note.%"))
            .order_by(Event.created_at, Event.type)  # created sorts before deleted on a tie
        ).all()
        assert [(e.type, e.data["note"]["id"]) for e in events] == [
            ("note.created", note["id"]),
            ("note.deleted", note["id"]),
        ]
    catalogue = client.get("/api/v1/webhooks/event-types", headers=headers).get_json()["data"]
    assert {"note.created", "note.deleted"} <= {t["type"] for t in catalogue}


def test_an_idempotency_key_writes_one_note(client, headers, document):
    path = f"/api/v1/documents/{document}/notes"
    keyed = {**headers, "Idempotency-Key": "note-1"}
    first = client.post(path, json={"body": "once"}, headers=keyed)
    again = client.post(path, json={"body": "once"}, headers=keyed)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    listed = client.get(path, headers=headers).get_json()["data"]
    assert len(listed) == 1


def test_purging_the_document_deletes_its_notes(app, client, headers, document, write_note):
    import datetime as dt

    from extensions import db
    from models import Note
    from services.documents import purge

    _ok(write_note(document, "going with it"), 201)
    client.delete(f"/api/v1/documents/{document}", headers=headers)
    with app.app_context():
        purge.purge_trash(now=dt.datetime.now(dt.UTC) + dt.timedelta(days=365))
        assert db.session.scalars(select(Note.id)).all() == []
