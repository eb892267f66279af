"""The embedding job against the fake server: batches, retries, status per document, model
change re-embeds; `flask documents embed`."""

from __future__ import annotations

from datetime import timedelta

import clock
from jobs.semantic import embed_document
from models import EmbeddingStatus
from services.documents import purge
from services.semantic import embedding, vectors
from tests.semantic.conftest import MODEL, build


def _paragraphs(count: int, topic: str) -> str:
    sentence = f"The {topic} report covers item number {{}} in plain words for the reader. "
    return "\n\n".join(
        "".join(sentence.format(p * 100 + s) for s in range(25)) for p in range(count)
    )


def test_passages_are_embedded_in_batches_after_extraction(needs_vectors):
    s = needs_vectors
    s.tenant("acme")
    document_id = s.store("acme", _paragraphs(5, "harbour"), "Harbour report")
    s.work()  # extraction, then the embedding job it schedules
    row = s.status(document_id)
    assert row.status == EmbeddingStatus.DONE
    assert row.model == f"openai:{MODEL}" and row.dimensions == 64
    assert row.passages >= 3 and row.attempts == 1 and row.error is None
    sizes = [r["inputs"] for r in s.fake.requests if r["inputs"] > 0]
    assert sum(sizes) == row.passages and max(sizes) <= 4 and len(sizes) > 1
    with s.app.test_request_context():
        stored = vectors.document_vectors("acme", document_id, f"openai:{MODEL}")
    assert len(stored) == row.passages


def test_server_errors_and_rate_limits_are_tried_again(needs_vectors):
    s = needs_vectors
    s.tenant("acme")
    document_id = s.store("acme", "Minutes of the harbour board meeting.", "Minutes")
    s.fake.fail_next(1, 500)
    s.fake.fail_next(1, 429)
    s.work()
    assert s.status(document_id).status == EmbeddingStatus.DONE
    # the query path is untouched; the job made three requests for its one batch
    assert [r["inputs"] for r in s.fake.requests] == [1, 1, 1]


def test_failures_past_every_attempt_leave_the_document_failed_with_the_reason(needs_vectors):
    s = needs_vectors
    s.tenant("acme")
    s.fake.fail_next(100, 503)
    document_id = s.store("acme", "Minutes of the harbour board meeting.", "Minutes")
    s.work()  # RQ keeps the job for a later retry: the document stays pending, reason noted
    row = s.status(document_id)
    assert row.status == EmbeddingStatus.PENDING and "503" in row.error
    with s.app.app_context():  # the last of RQ's attempts
        assert embed_document("acme", document_id) == EmbeddingStatus.FAILED
    row = s.status(document_id)
    assert row.status == EmbeddingStatus.FAILED and "503" in row.error and row.attempts == 2


def test_a_refusal_fails_at_once(needs_vectors):
    s = needs_vectors
    s.tenant("acme")
    s.fake.fail_next(1, 400)
    document_id = s.store("acme", "Minutes of the harbour board meeting.", "Minutes")
    s.work()
    row = s.status(document_id)
    assert row.status == EmbeddingStatus.FAILED and "400" in row.error


def test_changing_the_model_re_embeds(needs_vectors, base_config):
    s = needs_vectors
    s.tenant("acme")
    first = s.store("acme", "The automobile was repaired at the garage.", "Garage")
    second = s.store("acme", "Quarterly invoice for the harbour cranes.", "Invoice")
    s.work()
    url = s.app.config["SQLALCHEMY_DATABASE_URI"]
    other = build(base_config, s.fake, url, DMS_EMBEDDINGS_MODEL="other-model-32d")
    with other.app_context():
        assert sorted(embedding.to_embed()) == sorted([("acme", first), ("acme", second)])
    result = other.test_cli_runner().invoke(args=["documents", "embed", "--inline"])
    assert result.exit_code == 0, result.output
    assert "embedded 2 documents, 0 failed" in result.output
    row = s.status(first)
    assert row.model == "openai:other-model-32d" and row.dimensions == 32
    with other.test_request_context():
        assert embedding.to_embed() == []
        assert vectors.document_vectors("acme", first, f"openai:{MODEL}") == []
        assert len(vectors.document_vectors("acme", first, "openai:other-model-32d")) == 1
    again = other.test_cli_runner().invoke(args=["documents", "embed", "--all", "--inline"])
    assert "embedded 2 documents" in again.output


def test_the_command_enqueues_without_inline_and_refuses_when_off(needs_vectors, make_app):
    s = needs_vectors
    s.tenant("acme")
    document_id = s.store("acme", "Harbour cranes.", "Cranes")
    s.fake.fail_next(1, 400)
    s.work()
    assert s.status(document_id).status == EmbeddingStatus.FAILED
    result = s.app.test_cli_runner().invoke(args=["documents", "embed"])
    assert result.exit_code == 0 and "enqueued 1 documents" in result.output
    s.work()
    assert s.status(document_id).status == EmbeddingStatus.DONE
    off = make_app(DMS_EMBEDDINGS="none").test_cli_runner().invoke(args=["documents", "embed"])
    assert off.exit_code == 1 and "embeddings are off" in off.output


def test_purging_a_document_drops_its_vectors(needs_vectors):
    s = needs_vectors
    s.tenant("acme")
    document_id = s.store("acme", "Harbour cranes.", "Cranes")
    s.work()
    response = s.client().delete(f"/api/v1/documents/{document_id}", headers=s.headers("acme"))
    assert response.status_code == 200
    with s.app.test_request_context():
        clock.shift(timedelta(days=31))
        purge.purge_trash()
        assert vectors.document_vectors("acme", document_id, f"openai:{MODEL}") == []
