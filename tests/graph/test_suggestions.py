"""Entity suggestions from a document's extracted text: capitalised multi-word names that
are not entities yet, most frequent first; e-mail domains, amounts, existing names and
aliases, sentence-initial words and all-caps noise left out; nothing created; 404 for
another tenant's document; 409 while there is no text; scopes enforced."""

from __future__ import annotations

import io

from services.graph.suggestions import find_names
from tests.graph.conftest import ENTITIES
from tests.helpers import auth_headers
from tests.support import run_jobs

DOCUMENTS = "/api/v1/documents"
SUGGEST = f"{ENTITIES}/suggest"

CONTRACT = """Supply agreement between Acme Widget Corporation and Globex Trading Company.

Acme Widget Corporation will deliver 500 units. Contact Maria Lopez at
maria.lopez@Acme-Widget.Example or see www.acme-widget.com for the catalogue.
The price is USD 12,500.00 (Twelve Thousand Five Hundred Dollars) payable to
Acme Widget Corporation's account. Yesterday Maria Lopez met Dr. Zoë Ångström in Oslo.
NOTICE OF TERMINATION applies. Maria Lopez signs for Acme Widget Corporation; the
Initech Systems team (Peter Gibbons) reviews.
"""


def _upload(client, headers, text: str) -> dict:
    data = {"file": (io.BytesIO(text.encode()), "contract.txt")}
    response = client.post(
        DOCUMENTS, data=data, headers=headers, content_type="multipart/form-data"
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def _suggest(client, headers, document_id: str, **params) -> dict:
    query = "&".join(f"{k}={v}" for k, v in {"documentId": document_id, **params}.items())
    response = client.post(f"{SUGGEST}?{query}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def _offsets(text: str, name: str) -> list[int]:
    found, start = [], text.find(name)
    while start >= 0:
        found.append(start)
        start = text.find(name, start + 1)
    return found


def _entity_count(client, headers) -> int:
    return len(client.get(f"{ENTITIES}?limit=200", headers=headers).get_json()["data"])


def test_names_are_proposed_most_frequent_first_and_nothing_is_created(
    app, client, headers, make_entity
):
    make_entity("Globex Trading Co", aliases=["globex trading company"])  # an alias, casefolded
    make_entity("Peter Gibbons", "person")
    doc = _upload(client, headers, CONTRACT)
    run_jobs(app)
    before = _entity_count(client, headers)

    data = _suggest(client, headers, doc["id"])

    assert _entity_count(client, headers) == before
    assert data["documentId"] == doc["id"]
    names = [s["name"] for s in data["suggestions"]]
    # "Maria Lopez" 3 times: "Contact" and "Yesterday" open sentences, not the name.
    assert names == ["Acme Widget Corporation", "Maria Lopez", "Zoë Ångström", "Initech Systems"]
    assert data["total"] == 4
    acme, maria, zoe, initech = data["suggestions"]
    assert acme == {
        "name": "Acme Widget Corporation",
        "type": "organization",
        "count": 4,  # once with a possessive
        "positions": _offsets(CONTRACT, "Acme Widget Corporation"),
    }
    assert maria["count"] == 3 and maria["type"] is None
    assert maria["positions"] == _offsets(CONTRACT, "Maria Lopez")
    assert zoe == {
        "name": "Zoë Ångström",
        "type": "person",  # after the honorific "Dr."
        "count": 1,
        "positions": [CONTRACT.index("Zoë")],
    }
    assert initech["type"] == "organization"
    # Left out: existing names and aliases, e-mail domains and URLs, amounts, all-caps noise.
    folded = {n.casefold() for n in names}
    for absent in ["globex trading company", "peter gibbons", "acme-widget", "usd"]:
        assert not any(absent in n for n in folded), absent
    assert not any(word in n for n in folded for word in ("thousand", "notice", "contact"))


def test_limit_caps_the_list_and_total_counts_all(app, client, headers):
    doc = _upload(client, headers, CONTRACT)
    run_jobs(app)
    data = _suggest(client, headers, doc["id"], limit=2)
    assert [s["name"] for s in data["suggestions"]] == ["Acme Widget Corporation", "Maria Lopez"]
    assert data["total"] == 6  # Globex and Peter Gibbons are no entities in this tenant
    refused = client.post(f"{SUGGEST}?documentId={doc['id']}&limit=101", headers=headers)
    assert refused.status_code == 400
    assert refused.get_json()["errors"][0]["code"] == "INVALID_PARAMETER"


def test_a_document_without_text_yet_is_a_conflict(client, headers):
    doc = _upload(client, headers, "Maria Lopez of Acme Widget Corporation")  # no job run
    response = client.post(f"{SUGGEST}?documentId={doc['id']}", headers=headers)
    assert response.status_code == 409
    error = response.get_json()["errors"][0]
    assert error["code"] == "CONFLICT" and "not been extracted yet" in error["message"]


def test_another_tenants_or_an_unknown_document_is_404(
    app, client, headers, other_tenant, create_key
):
    theirs_headers = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    theirs = _upload(client, theirs_headers, CONTRACT)
    run_jobs(app)
    for document_id in [theirs["id"], "doc_unknown"]:
        response = client.post(f"{SUGGEST}?documentId={document_id}", headers=headers)
        assert response.status_code == 404
        body = response.get_json()
        assert body["success"] is False and body["errors"][0]["code"] == "NOT_FOUND"
    for query in ["", "?documentId=" + "d" * 41, "?documentId=doc_x&limit=many", "?x=1"]:
        refused = client.post(SUGGEST + query, headers=headers)
        assert refused.status_code == 400, query
        assert refused.get_json()["errors"][0]["code"] == "INVALID_PARAMETER"


def test_scopes_both_graph_and_documents_read(app, client, headers, tenant, create_key):
    doc = _upload(client, headers, CONTRACT)
    run_jobs(app)
    path = f"{SUGGEST}?documentId={doc['id']}"
    both = ["knowledge-graph:read", "documents:read"]
    allowed = auth_headers(create_key(tenant, scopes=both)[1], tenant.id)
    assert client.post(path, headers=allowed).status_code == 200
    for scopes in (["knowledge-graph:read"], ["documents:read"], ["knowledge-graph:write"]):
        key_headers = auth_headers(create_key(tenant, scopes=scopes)[1], tenant.id)
        refused = client.post(path, headers=key_headers)
        assert refused.status_code == 403, scopes
        assert refused.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"


def test_a_suggestion_once_created_is_no_longer_proposed(app, client, headers, make_entity):
    doc = _upload(client, headers, "Zoë Ångström met Maria Lopez. Zoë Ångström left.")
    run_jobs(app)
    assert [s["name"] for s in _suggest(client, headers, doc["id"])["suggestions"]] == [
        "Zoë Ångström",
        "Maria Lopez",
    ]
    make_entity("ZOË ÅNGSTRÖM", "person")  # compared casefolded
    assert [s["name"] for s in _suggest(client, headers, doc["id"])["suggestions"]] == [
        "Maria Lopez"
    ]


def test_rules_of_the_name_finder():
    found = find_names(
        "The Quick Brown Fox Jumps Over Lazy Dogs Today. Ludwig van Beethoven wrote. "
        "We flew to John F. Kennedy Airport and Main Street. IBM Research hired J. Doe. "
        "Write to Jane.Roe@Contoso-Labs.Example. Dear Jane Roe, thanks. "
        "東京 Tower. Seven Eleven Dollars. Ms Ada Lovelace. Bank of America."
    )
    assert found.keys() == {
        "ludwig van beethoven",
        "john f. kennedy airport",
        "main street",
        "jane roe",
        "ada lovelace",
        "bank of america",
    }
    assert found["john f. kennedy airport"].type == "location"
    assert found["ada lovelace"].type == "person"
    assert found["bank of america"].type == "organization"
    assert found["jane roe"].positions == [found["jane roe"].positions[0]]
    # A name split by a line break is two lines, not one name.
    assert find_names("Acme Widget\nCorporation") == {
        "acme widget": find_names("Acme Widget")["acme widget"]
    }
