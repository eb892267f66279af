"""Share-link fixtures: a document and links made through the API, as an integrator would."""

from __future__ import annotations

import pytest

HTML = b"<html><body><script>alert(document.cookie)</script>Quarterly</body></html>"


@pytest.fixture
def document_id(tenant, store_document) -> str:
    return store_document(tenant, HTML, "report.html", schedule=False)


@pytest.fixture
def make_link(client, headers, document_id):
    """A share link of `document_id` (or another) made through the API; its JSON."""

    def factory(doc: str | None = None, **body) -> dict:
        response = client.post(
            f"/api/v1/documents/{doc or document_id}/share-links", json=body, headers=headers
        )
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return factory


def path_of(link: dict) -> str:
    """The public page's path of a link's `url`."""
    return "/s/" + link["url"].rsplit("/s/", 1)[1]
