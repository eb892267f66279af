"""Notes fixtures: a document of the tenant (uploaded through the documents service, its text
extracted), and writing a note through the API."""

from __future__ import annotations

import pytest


@pytest.fixture
def document(tenant, store_document, work):
    """A text document of `tenant`, extracted (its words are searchable)."""
    document_id = store_document(tenant, b"Quarterly figures for the board.", "q3.txt", title="Q3")
    work()
    return document_id


@pytest.fixture
def write_note(client, headers):
    """POST a note with `headers` (the tenant's all-scopes key unless given); the response."""

    def writer(document_id: str, body: str, with_headers: dict | None = None):
        return client.post(
            f"/api/v1/documents/{document_id}/notes",
            json={"body": body},
            headers=with_headers or headers,
        )

    return writer
