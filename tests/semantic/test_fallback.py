"""Without embeddings, or without a vector engine in the database, search keeps working on
keywords alone and says so (`meta.aiSignalsUsed`, /internal/health)."""

from __future__ import annotations

from config import engine_options
from models import EmbeddingStatus
from tests.helpers import auth_headers
from tests.semantic.conftest import Semantic, _clean, build


def test_embeddings_off_is_keyword_search_and_health_says_so(client, headers, store_document,
                                                             tenant, work):  # fmt: skip
    document_id = store_document(tenant, b"The automobile was repaired.", title="Garage")
    work()
    body = client.get("/api/v1/search?q=automobile", headers=headers).get_json()
    assert [h["document"]["id"] for h in body["data"]] == [document_id]
    assert body["meta"]["aiSignalsUsed"] == ["keyword", "recency"]
    assert "semantic" not in body["data"][0]["signals"]
    assert client.get("/api/v1/search?q=car", headers=headers).get_json()["data"] == []
    similar = client.get(f"/api/v1/documents/{document_id}/similar", headers=headers)
    assert similar.status_code == 200
    assert similar.get_json()["data"] == [] and similar.get_json()["meta"]["aiSignalsUsed"] == []
    health = client.get("/internal/health").get_json()["data"]
    assert health["status"] == "ok"
    semantic = health["checks"]["semanticSearch"]
    assert semantic["ok"] and semantic["embeddings"] == "none" and not semantic["semanticSearch"]


def test_similar_needs_the_read_scope_and_a_document_of_the_tenant(
    client, create_key, tenant, other_tenant, store_document
):
    theirs = store_document(other_tenant, b"Globex fleet.", title="Fleet")
    mine = store_document(tenant, b"Acme fleet.", title="Fleet")
    _, secret = create_key(tenant, scopes=["documents:write"])
    narrow = client.get(
        f"/api/v1/documents/{mine}/similar", headers=auth_headers(secret, tenant.id)
    )
    assert narrow.status_code == 403
    assert narrow.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"
    _, secret = create_key(tenant)
    foreign = client.get(
        f"/api/v1/documents/{theirs}/similar", headers=auth_headers(secret, tenant.id)
    )
    assert foreign.status_code == 404
    unknown = client.get(
        "/api/v1/documents/doc_nope/similar", headers=auth_headers(secret, tenant.id)
    )
    assert unknown.status_code == 404


def test_no_vector_engine_keeps_search_working_and_health_says_why(
    app, base_config, fake_embeddings, main_url, tmp_path
):
    # The SQLite driver of this Python cannot load extensions; PostgreSQL 15 here has no
    # pgvector: either way the database offers no vector engine. (SQLite: a file of its own,
    # never opened by the other driver.)
    url = f"sqlite:///{tmp_path / 'plain.sqlite3'}" if main_url.startswith("sqlite") else main_url
    application = build(
        base_config, fake_embeddings, url, SQLALCHEMY_ENGINE_OPTIONS=engine_options(url)
    )
    s = Semantic(application, fake_embeddings, "no engine")
    try:
        if s.engine_available:  # a Python whose sqlite3 loads extensions gets sqlite-vec
            return
        s.tenant("acme")
        document_id = s.store("acme", "The automobile was repaired at the garage.", "Garage")
        s.work()
        row = s.status(document_id)
        assert row.status == EmbeddingStatus.FAILED
        assert "sqlite-vec" in row.error or "pgvector" in row.error
        client = s.client()
        body = client.get("/api/v1/search?q=automobile", headers=s.headers("acme")).get_json()
        assert [h["document"]["id"] for h in body["data"]] == [document_id]
        assert body["meta"]["aiSignalsUsed"] == ["keyword", "recency"]
        health = client.get("/internal/health")
        assert health.status_code == 200
        check = health.get_json()["data"]["checks"]["semanticSearch"]
        assert check["ok"] and check["embeddings"] == "openai"
        assert not check["vectorEngineAvailable"] and not check["semanticSearch"]
        assert check["vectorEngine"] in {"sqlite-vec", "pgvector"} and check["detail"]
    finally:
        _clean(application)


def test_health_reports_the_engine_and_model_when_on(needs_vectors):
    check = needs_vectors.client().get("/internal/health").get_json()["data"]["checks"]
    semantic = check["semanticSearch"]
    assert semantic["semanticSearch"] and semantic["vectorEngineAvailable"]
    assert semantic["model"] == "openai:test-model"
    assert (
        semantic["vectorEngine"]
        == {"main": "sqlite-vec", "pgvector": "pgvector"}[needs_vectors.database]
    )
