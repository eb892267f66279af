"""Hybrid search over the API with embeddings on (the fake server's model knows a few
synonyms): keyword and semantic lists fused, `signals.semantic`, `meta.aiSignalsUsed`, keyset
pages, tenants kept apart; GET /documents/{id}/similar."""

from __future__ import annotations

import pytest

from services.search import hybrid
from tests.semantic.conftest import Semantic

DOCUMENTS = {
    "Garage": "The automobile was repaired at the garage on Monday.",
    "Insurance": "Car insurance renewal notice for the family car.",
    "Party": "Annual garden party menu with lemonade and cake.",
}


def _setup(s: Semantic) -> dict[str, str]:
    s.tenant("acme")
    ids = {title: s.store("acme", body, title) for title, body in DOCUMENTS.items()}
    s.work()
    return ids


def _search(s: Semantic, tenant: str = "acme", **params) -> dict:
    response = s.client().get("/api/v1/search", query_string=params, headers=s.headers(tenant))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_fusion_finds_what_keywords_miss_and_shows_each_signal(needs_vectors):
    s = needs_vectors
    ids = _setup(s)
    body = _search(s, q="car")
    hits = {h["document"]["id"]: h for h in body["data"]}
    assert set(hits) == {ids["Insurance"], ids["Garage"]}  # Garage says "automobile"
    assert body["data"][0]["document"]["id"] == ids["Insurance"]  # in both lists: first
    assert hits[ids["Insurance"]]["signals"]["keyword"] > 0
    assert hits[ids["Insurance"]]["signals"]["semantic"] > 0.3
    assert hits[ids["Garage"]]["signals"]["keyword"] == 0
    assert hits[ids["Garage"]]["signals"]["semantic"] > 0.3
    assert set(hits[ids["Garage"]]["signals"]) == {"keyword", "recency", "semantic"}
    assert body["meta"]["aiSignalsUsed"] == ["keyword", "recency", "semantic"]
    assert hits[ids["Insurance"]]["highlights"]  # the page is highlighted as before
    assert hits[ids["Insurance"]]["score"] == pytest.approx(2 / 61, abs=1e-6)


def test_semantic_is_not_claimed_where_it_did_not_contribute(needs_vectors):
    s = needs_vectors
    ids = _setup(s)
    body = _search(s, q="lemonade", recency="false")
    assert [h["document"]["id"] for h in body["data"]] == [ids["Party"]]
    assert body["meta"]["aiSignalsUsed"] == ["keyword", "semantic"]
    s.fake.fail_next(1, 500)  # a new query while the endpoint fails: keyword search alone
    body = _search(s, q="cake", recency="false")
    assert [h["document"]["id"] for h in body["data"]] == [ids["Party"]]
    assert body["meta"]["aiSignalsUsed"] == ["keyword"]
    assert "semantic" not in body["data"][0]["signals"]
    body = _search(s, q="zeppelin")  # nothing near enough
    assert body["data"] == [] and body["meta"]["aiSignalsUsed"] == []


def test_filters_apply_to_semantic_hits(needs_vectors):
    s = needs_vectors
    ids = _setup(s)
    response = s.client().delete(f"/api/v1/documents/{ids['Garage']}", headers=s.headers("acme"))
    assert response.status_code == 200
    assert [h["document"]["id"] for h in _search(s, q="car")["data"]] == [ids["Insurance"]]
    trash = _search(s, q="vehicle", status="deleted")["data"]
    assert [h["document"]["id"] for h in trash] == [ids["Garage"]]


def test_another_tenants_documents_never_come_back(needs_vectors):
    s = needs_vectors
    _setup(s)
    s.tenant("globex")
    theirs = s.store("globex", "The automobile fleet of Globex, every car listed.", "Fleet")
    s.work()
    for q in ("car", "automobile", "fleet"):
        found = {h["document"]["id"] for h in _search(s, q=q)["data"]}
        assert theirs not in found
    assert [h["document"]["id"] for h in _search(s, "globex", q="vehicle")["data"]] == [theirs]


@pytest.fixture
def many(needs_vectors, monkeypatch):
    """Twelve keyword hits for "invoice" and four that only say "bill", with a fusion window
    of five keyword hits and three semantic neighbours, so a walk crosses into the tail."""
    s = needs_vectors
    s.tenant("acme")
    for n in range(12):
        s.store("acme", f"Invoice {n} for harbour crane hire, invoice number {n}.", f"Inv {n}")
    for n in range(4):
        s.store("acme", f"Bill {n}", f"B{n}")
    s.work()
    monkeypatch.setattr(hybrid, "WINDOW", 5)
    monkeypatch.setattr(hybrid, "SEMANTIC_K", 3)
    return s


def test_keyset_pages_walk_the_fused_list_once(many):
    s = many
    whole = _search(s, q="invoice", limit=100)
    ranked = [h["document"]["id"] for h in whole["data"]]
    assert len(ranked) == len(set(ranked)) == 12 + 3  # 12 keyword hits + 3 semantic only
    scores = [h["score"] for h in whole["data"]]
    assert scores == sorted(scores, reverse=True)
    for limit in (1, 2, 4, 7):
        walked, cursor, pages = [], None, 0
        while True:
            params = {"q": "invoice", "limit": limit}
            if cursor:
                params["cursor"] = cursor
            body = _search(s, **params)
            walked += [h["document"]["id"] for h in body["data"]]
            pages += 1
            cursor = body["meta"]["pagination"].get("nextCursor")
            if not cursor:
                break
        assert walked == ranked, limit
        assert pages >= len(ranked) // limit


def test_tail_pages_do_not_claim_semantic(many):
    s = many
    first = _search(s, q="invoice", limit=8)
    assert "semantic" in first["meta"]["aiSignalsUsed"]
    tail = _search(s, q="invoice", limit=8, cursor=first["meta"]["pagination"]["nextCursor"])
    assert tail["data"] and tail["meta"]["aiSignalsUsed"] == ["keyword", "recency"]
    assert all("semantic" not in h["signals"] for h in tail["data"])


def test_hostile_cursors_are_refused(many):
    s = many
    first = _search(s, q="invoice", limit=2)
    cursor = first["meta"]["pagination"]["nextCursor"]
    for params in (
        {"q": "invoice", "limit": 2, "cursor": cursor[:-3] + "abc"},
        {"q": "crane", "limit": 2, "cursor": cursor},  # another query's cursor
    ):
        response = s.client().get("/api/v1/search", query_string=params, headers=s.headers("acme"))
        assert response.status_code == 400
        assert response.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


@pytest.mark.parametrize(
    "cursor",
    [["h"], ["h", "x", "doc_1", "2026-01-01T00:00:00+00:00"], ["t", 1, 0.5, "doc", "2026"],
     ["t", True, 0.5, "d", "2026-01-01T00:00:00+00:00"], ["z", 1, 2, 3], [None, 1, 2, 3, 4]],
)  # fmt: skip
def test_malformed_hybrid_positions_are_invalid_cursors(cursor):
    with pytest.raises(Exception) as caught:
        hybrid._read(cursor)
    assert getattr(caught.value, "errors", None)
    assert caught.value.errors[0].code == "INVALID_CURSOR"


def test_similar_documents(needs_vectors):
    s = needs_vectors
    ids = _setup(s)
    s.tenant("globex")
    theirs = s.store("globex", "Their automobile and their car.", "Theirs")
    s.work()
    client = s.client()
    response = client.get(f"/api/v1/documents/{ids['Garage']}/similar", headers=s.headers("acme"))
    body = response.get_json()
    assert response.status_code == 200, body
    assert [d["document"]["id"] for d in body["data"]] == [ids["Insurance"]]
    assert 0.3 < body["data"][0]["similarity"] <= 1
    assert body["meta"]["aiSignalsUsed"] == ["semantic"]
    foreign = client.get(f"/api/v1/documents/{theirs}/similar", headers=s.headers("acme"))
    assert foreign.status_code == 404
    too_many = client.get(
        f"/api/v1/documents/{ids['Garage']}/similar?limit=51", headers=s.headers("acme")
    )
    assert too_many.status_code == 400
