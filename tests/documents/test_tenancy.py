"""Another tenant's documents are invisible: 404 by id, absent from lists (never 403)."""

from __future__ import annotations

import pytest

from tests.helpers import auth_headers

URL = "/api/v1/documents"


@pytest.fixture
def theirs(other_tenant, create_key, upload):
    """A document of the other tenant, and that tenant's headers."""
    _, secret = create_key(other_tenant)
    their_headers = auth_headers(secret, other_tenant.id)
    response = upload(b"their secret", "secret.txt", title="secret", auth=their_headers)
    assert response.status_code == 201
    return response.get_json()["data"], their_headers


@pytest.mark.parametrize(
    ("method", "suffix", "kwargs"),
    [
        ("get", "", {}),
        ("get", "/content", {}),
        ("get", "/content?version=1", {}),
        ("get", "/versions", {}),
        ("patch", "", {"json": {"title": "mine now"}}),
        ("delete", "", {}),
    ],
)
def test_other_tenants_document_is_404(client, headers, theirs, method, suffix, kwargs):
    doc, their_headers = theirs
    response = getattr(client, method)(f"{URL}/{doc['id']}{suffix}", headers=headers, **kwargs)
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    # Untouched for its owner.
    still = client.get(f"{URL}/{doc['id']}", headers=their_headers).get_json()["data"]
    assert (still["title"], still["status"]) == ("secret", "active")


def test_other_tenants_document_takes_no_versions(upload, theirs):
    doc, _ = theirs
    response = upload(b"overwrite", "x.txt", path=f"{URL}/{doc['id']}/versions")
    assert response.status_code == 404


def test_other_tenants_documents_are_absent_from_lists(client, headers, theirs, make_document):
    mine = make_document(b"mine", "mine.txt", title="secret")
    for params in ({}, {"title": "secret"}, {"status": "active,archived,deleted"}):
        listed = client.get(URL, headers=headers, query_string=params).get_json()["data"]
        assert [d["id"] for d in listed] == [mine["id"]]


def test_same_content_in_two_tenants_is_stored_apart(app, upload, theirs):
    import os

    doc, _ = theirs
    mine = upload(b"their secret", "same.txt").get_json()["data"]
    assert mine["sha256"] == doc["sha256"]
    root = app.config["DMS_STORAGE_DIR"]
    sha = doc["sha256"]
    for tenant_id in ("acme", "globex"):
        assert os.path.isfile(os.path.join(root, tenant_id, sha[:2], sha[2:4], sha))
