"""The Notes panel of a document's page: listed newest first and escaped, written with a
plain form or htmx (CSRF either way), deleted by its author or an admin, read-only for
auditors and in the trash, and another tenant's document answering 404."""

from __future__ import annotations

import re

import pytest

from tests.helpers import csrf_token, post, sign_in

HTMX = {"HX-Request": "true"}


@pytest.fixture
def signed_in(client, tenant):
    def as_user(user):
        response = sign_in(client, tenant.id, user.email)
        assert response.status_code == 302, response.get_data(as_text=True)
        return client

    return as_user


def _page(client, document_id) -> str:
    response = client.get(f"/documents/{document_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_plain_form_adds_a_note_and_the_page_shows_it_escaped(app, admin_client, document):
    assert 'id="no-notes"' in _page(admin_client, document)
    response = post(
        admin_client, f"/documents/{document}/notes", {"body": "<script>alert(1)</script>\nok"}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == f"/documents/{document}#notes"
    page = _page(admin_client, document)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    assert "Note added." in page


def test_htmx_swaps_the_panel_and_shows_a_refusal_in_it(admin_client, document):
    token = csrf_token(admin_client, f"/documents/{document}")
    headers = {**HTMX, "X-CSRFToken": token}
    panel = admin_client.post(
        f"/documents/{document}/notes", data={"body": "first"}, headers=headers
    )
    html = panel.get_data(as_text=True)
    assert panel.status_code == 200 and html.lstrip().startswith('<section class="card notes"')
    assert '<p class="note-body">first</p>' in html and "<html" not in html
    blank = admin_client.post(f"/documents/{document}/notes", data={"body": "  "}, headers=headers)
    assert blank.status_code == 200 and 'role="alert"' in blank.get_data(as_text=True)
    long = admin_client.post(
        f"/documents/{document}/notes", data={"body": "x" * 10_001}, headers=headers
    ).get_data(as_text=True)
    assert "Shorten this to 10000 characters or fewer" in long  # our words, not pydantic's
    assert "String should have" not in long
    second = admin_client.post(
        f"/documents/{document}/notes", data={"body": "second"}, headers=headers
    )
    html = second.get_data(as_text=True)
    newest_first = html.index(">second</p>") < html.index(">first</p>")
    assert newest_first


def test_writing_and_deleting_need_the_csrf_token(app, admin_client, document):
    from sqlalchemy import select

    from extensions import db
    from models import Note

    assert admin_client.post(f"/documents/{document}/notes", data={"body": "x"}).status_code == 400
    assert (
        admin_client.post(
            f"/documents/{document}/notes", data={"body": "x"}, headers=HTMX
        ).status_code
        == 400
    )
    with app.app_context():
        assert db.session.scalars(select(Note.id)).all() == []


def test_delete_buttons_are_the_authors_and_the_admins(
    app, client, signed_in, tenant, admin, member, create_user, document
):
    other = create_user(tenant, "member", email="other@acme.example")
    signed_in(member)
    post(client, f"/documents/{document}/notes", {"body": "by the member"})
    page = _page(client, document)
    assert page.count('btn-danger" aria-label="Delete the note') == 1
    client.post("/logout", data={"csrf_token": csrf_token(client, "/")})

    signed_in(other)
    page = _page(client, document)
    assert "by the member" in page and "Delete the note" not in page
    note_id = re.search(r'id="note-(not_[a-z0-9]+)"', page).group(1)
    refused = post(client, f"/documents/{document}/notes/{note_id}/delete")
    assert refused.status_code == 403
    client.post("/logout", data={"csrf_token": csrf_token(client, "/")})

    signed_in(admin)
    assert "Delete the note" in _page(client, document)
    deleted = post(client, f"/documents/{document}/notes/{note_id}/delete")
    assert deleted.status_code == 302 and "by the member" not in _page(client, document)


def test_auditors_read_notes_but_write_none(client, signed_in, auditor, document, write_note):
    write_note(document, "for the record")
    signed_in(auditor)
    page = _page(client, document)
    assert "for the record" in page and 'id="note-form"' not in page
    assert post(client, f"/documents/{document}/notes", {"body": "x"}).status_code == 403


def test_a_trashed_documents_panel_has_no_form(admin_client, headers, client, document, write_note):
    write_note(document, "kept in the trash")
    client.delete(f"/api/v1/documents/{document}", headers=headers)
    page = _page(admin_client, document)
    assert "kept in the trash" in page and 'id="note-form"' not in page
    assert "Delete the note" not in page
    assert post(admin_client, f"/documents/{document}/notes", {"body": "x"}).status_code == 409


def test_another_tenants_document_is_404_for_the_panel(admin_client, other_tenant, store_document):
    theirs = store_document(other_tenant, b"x", "x.txt")
    assert post(admin_client, f"/documents/{theirs}/notes", {"body": "x"}).status_code == 404


def test_a_mention_notification_links_to_the_notes(
    app, client, signed_in, tenant, member, document, write_note
):
    write_note(document, "@member@acme.example have a look")
    signed_in(member)
    page = client.get("/notifications").get_data(as_text=True)
    opened = client.get(page.split('class="notification-link"><a href="')[1].split('"')[0])
    assert opened.headers["Location"] == f"/documents/{document}#notes"
