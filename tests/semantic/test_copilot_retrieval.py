"""The copilot's retrieval with semantic search on: passages near the question join the
keyword (BM25) ones, within the tenant's live documents or `documentIds`."""

from __future__ import annotations

from services.copilot import retrieval
from tests.semantic.conftest import Semantic

API = "/api/v1/copilot/conversations"


def _documents(s: Semantic) -> dict[str, str]:
    s.tenant("acme")
    ids = {
        "Fleet": s.store("acme", "Vehicle maintenance is booked every spring.", "Fleet"),
        "Garden": s.store("acme", "Maintenance of the garden and its hedges.", "Garden"),
        "Motor": s.store("acme", "Automobile", "Motor"),
    }
    s.work()
    return ids


def test_semantic_passages_join_and_reorder_the_keyword_ones(needs_vectors):
    s = needs_vectors
    ids = _documents(s)
    with s.app.test_request_context():
        found = retrieval.retrieve("acme", "car maintenance")
    by_document = {p.document_id: p for p in found}
    assert found[0].document_id == ids["Fleet"]  # vehicle = car: the nearest, and a keyword hit
    assert by_document[ids["Fleet"]].similarity > (by_document[ids["Garden"]].similarity or 0)
    motor = by_document[ids["Motor"]]  # no word of the question, near in meaning
    assert motor.matched == {} and motor.similarity > 0.5
    with s.app.test_request_context():
        restricted = retrieval.retrieve("acme", "car maintenance", [ids["Garden"]])
    assert {p.document_id for p in restricted} == {ids["Garden"]}


def test_other_tenants_and_trashed_documents_stay_out(needs_vectors):
    s = needs_vectors
    ids = _documents(s)
    s.tenant("globex")
    theirs = s.store("globex", "Automobile and car maintenance.", "Theirs")
    s.work()
    client = s.client()
    trashed = client.delete(f"/api/v1/documents/{ids['Motor']}", headers=s.headers("acme"))
    assert trashed.status_code == 200
    with s.app.test_request_context():
        found = retrieval.retrieve("acme", "car maintenance")
    assert {p.document_id for p in found} == {ids["Fleet"], ids["Garden"]}
    response = client.post(
        API, json={"message": "When is car maintenance booked?"}, headers=s.headers("acme")
    )
    assert response.status_code == 201, response.get_json()
    citations = response.get_json()["data"]["messages"][-1]["citations"]
    assert citations and {c["documentId"] for c in citations} <= {ids["Fleet"], ids["Garden"]}
    assert theirs not in {c["documentId"] for c in citations}
    foreign = client.post(
        API, json={"message": "car?", "documentIds": [theirs]}, headers=s.headers("acme")
    )
    assert foreign.status_code == 404


def test_without_embeddings_the_retrieval_is_keyword_only(app, tenant, store_document, work):
    store_document(tenant, b"Automobile", title="Motor")
    fleet = store_document(tenant, b"Vehicle maintenance is booked every spring.", title="Fleet")
    work()
    with app.test_request_context():
        found = retrieval.retrieve(tenant.id, "car maintenance")
    assert [p.document_id for p in found] == [fleet]
    assert found[0].similarity is None
