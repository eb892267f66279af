"""A note's words find its document, ranked below every document matching in its own fields,
on both engines; deleting the note, or purging the document, forgets them."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import text


def _search(client, headers, q: str) -> list[str]:
    response = client.get("/api/v1/search", query_string={"q": q}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return [hit["document"]["id"] for hit in response.get_json()["data"]]


def test_a_word_only_in_a_note_finds_the_document_until_the_note_goes(
    client, headers, document, write_note
):
    assert _search(client, headers, "marmalade") == []
    note = write_note(document, "Ask the auditors about the marmalade invoice.").get_json()["data"]
    assert _search(client, headers, "marmalade") == [document]
    client.delete(f"/api/v1/documents/{document}/notes/{note['id']}", headers=headers)
    assert _search(client, headers, "marmalade") == []


def test_a_match_in_the_body_ranks_above_one_only_in_a_note(
    client, headers, tenant, store_document, work, write_note
):
    # The note-only document is the newer, shorter one and says the word more often: all of
    # that would lift it if notes weighed like the text.
    in_body = store_document(
        tenant, b"A long report. " * 200 + b"The zeppelin budget is attached.", "body.txt"
    )
    in_note = store_document(tenant, b"Unrelated memo.", "note.txt")
    work()
    write_note(in_note, "zeppelin zeppelin zeppelin")
    assert _search(client, headers, "zeppelin") == [in_body, in_note]


def test_notes_do_not_reorder_documents_matching_in_their_titles(
    client, headers, tenant, store_document, work, write_note
):
    titled = store_document(tenant, b"x", "a.txt", title="Walrus contract")
    noted = store_document(tenant, b"y", "b.txt", title="Walrus memo")
    work()
    before = _search(client, headers, "walrus")
    write_note(noted, "walrus " * 50)
    assert _search(client, headers, "walrus") == before
    assert set(before) == {titled, noted}


def test_a_later_refresh_of_the_index_keeps_the_notes(client, headers, document, write_note):
    client.patch(f"/api/v1/documents/{document}", json={"title": "Renamed"}, headers=headers)
    write_note(document, "pangolin")
    client.patch(f"/api/v1/documents/{document}", json={"title": "Renamed again"}, headers=headers)
    assert _search(client, headers, "pangolin") == [document]  # a later refresh keeps notes


def test_purging_a_document_drops_its_notes_from_the_index(
    app, client, headers, document, write_note
):
    from extensions import db
    from services.documents import purge

    write_note(document, "capybara")
    client.delete(f"/api/v1/documents/{document}", headers=headers)
    with app.app_context():
        purge.purge_trash(now=dt.datetime.now(dt.UTC) + dt.timedelta(days=365))
        if db.engine.dialect.name == "sqlite":
            left = db.session.scalar(
                text("SELECT count(*) FROM document_search WHERE document_search MATCH 'capybara'")
            )
            assert left == 0
    assert _search(client, headers, "capybara") == []


def test_rebuilding_postgresql_vectors_keeps_the_notes(
    app, client, headers, tenant, document, write_note
):
    from extensions import db
    from services.search import indexing

    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("rebuild_vectors is PostgreSQL's")
    write_note(document, "axolotl")
    with app.app_context():
        db.session.execute(text("UPDATE document_texts SET search_vector = NULL"))
        db.session.commit()
        assert sum(indexing.rebuild_vectors(tenant.id)) == 1
    assert _search(client, headers, "axolotl") == [document]
