"""The tenant's tag classifier: trained from the tags people gave documents, it predicts a
tag on a new similar document (suggestions, `auto` rules); a tenant without a model gets no
suggestion, and tenant A's model is never used for tenant B; the stored model loads without
pickle and a tampered one is refused; retraining is due once enough changed."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from sqlalchemy import select, update

from extensions import db
from models import Document, TagClassifier
from services.matching import classifier, predictions, training

INVOICE_WORDS = [
    "invoice",
    "total",
    "due",
    "payment",
    "amount",
    "vat",
    "supplier",
    "bank",
    "transfer",
    "remit",
]
CONTRACT_WORDS = [
    "contract",
    "agreement",
    "party",
    "clause",
    "term",
    "termination",
    "signed",
    "governing",
    "law",
]
FILLER = ["the", "of", "and", "a", "to", "in", "for", "on", "with", "this", "that", "is", "by"]


def _text(words: list[str], rng: random.Random) -> str:
    return " ".join(rng.choice(words + FILLER) for _ in range(60))


@pytest.fixture
def tagged_corpus(app, store_document, work):
    """12 invoices and 12 contracts for a tenant, tagged by people, their text extracted."""

    def make(tenant) -> None:
        rng = random.Random(7)
        for n in range(12):
            store_document(tenant, _text(INVOICE_WORDS, rng).encode(), f"i{n}.txt",
                           tags=["invoice"])  # fmt: skip
            store_document(tenant, _text(CONTRACT_WORDS, rng).encode(), f"c{n}.txt",
                           tags=["contract", "legal"])  # fmt: skip
        work()

    return make


def _train(app, tenant_id: str) -> tuple[int, list[str]] | None:
    """(documents learned from, tags) of the stored model; None when none was made."""
    with app.app_context():
        row = training.train(tenant_id)
        db.session.commit()
        return None if row is None else (row.documents, list(row.tags))


def test_a_trained_classifier_suggests_the_tag_of_similar_documents(
    app, tenant, tagged_corpus, upload, work, client, headers
):
    tagged_corpus(tenant)
    documents, tags = _train(app, tenant.id)
    assert documents == 24 and sorted(tags) == ["contract", "invoice", "legal"]

    document = upload("Invoice: the total amount due, payment by bank transfer, VAT included.")
    work()
    response = client.get(f"/api/v1/documents/{document}/suggestions", headers=headers)
    assert response.status_code == 200
    suggested = response.get_json()["data"]["tags"]
    assert suggested[0]["name"] == "invoice" and suggested[0]["score"] >= 0.5
    assert "contract" not in [t["name"] for t in suggested if t["score"] >= 0.5]


def test_suggestions_leave_out_tags_the_document_has(
    app, tenant, tagged_corpus, store_document, work, client, headers
):
    tagged_corpus(tenant)
    _train(app, tenant.id)
    document = store_document(tenant, b"invoice total due payment vat", tags=["invoice"])
    work()
    tags = client.get(f"/api/v1/documents/{document}/suggestions", headers=headers)
    assert "invoice" not in [t["name"] for t in tags.get_json()["data"]["tags"]]


def test_an_auto_rule_adds_the_predicted_tags_only(
    app, tenant, tagged_corpus, make_rule, upload, work, seen
):
    tagged_corpus(tenant)
    _train(app, tenant.id)
    make_rule("auto", algorithm="auto", actions={"addTags": ["invoice", "contract"]})
    document = upload("invoice: total due, payment amount, supplier bank transfer")
    work()
    assert seen.tags(document) == ["invoice"]


def test_without_a_model_suggestions_are_empty_and_auto_rules_do_not_match(
    tenant, make_rule, upload, work, client, headers, seen
):
    make_rule("auto", algorithm="auto", actions={"addTags": ["invoice"]})
    document = upload("invoice total due payment")
    work()
    response = client.get(f"/api/v1/documents/{document}/suggestions", headers=headers)
    assert response.status_code == 200 and response.get_json()["data"] == {"tags": []}
    assert seen.tags(document) == []


def test_tenant_a_model_is_never_used_for_tenant_b(
    app, tenant, other_tenant, other_headers, tagged_corpus, upload, work, client, headers
):
    tagged_corpus(tenant)
    _train(app, tenant.id)
    text = "Invoice: the total amount due, payment by bank transfer."
    mine = upload(text)
    theirs = upload(text, auth=other_headers)
    client.post(
        "/api/v1/matching-rules",
        json={"name": "auto", "match": {"algorithm": "auto"},
              "actions": {"addTags": ["invoice"]}},
        headers=other_headers,
    )  # fmt: skip
    work()
    # A's model is now cached in this process; B still has none.
    assert client.get(f"/api/v1/documents/{mine}/suggestions", headers=headers).get_json()["data"][
        "tags"
    ]
    answer = client.get(f"/api/v1/documents/{theirs}/suggestions", headers=other_headers)
    assert answer.get_json()["data"] == {"tags": []}
    with app.app_context():
        assert db.session.get(Document, theirs).tag_names == []
    assert (
        client.get(f"/api/v1/documents/{mine}/suggestions", headers=other_headers).status_code
        == 404
    )


def test_too_few_tagged_documents_make_no_model(app, tenant, store_document, work):
    for n in range(training.MIN_DOCUMENTS - 1):
        store_document(tenant, b"invoice total", f"{n}.txt", tags=["invoice"])
    work()
    assert _train(app, tenant.id) is None
    with app.app_context():
        assert training.due(tenant.id) is False


def test_the_stored_model_loads_without_pickle_and_a_tampered_one_is_refused(
    app, tenant, tagged_corpus
):
    tagged_corpus(tenant)
    _train(app, tenant.id)
    with app.app_context():
        row = db.session.scalar(select(TagClassifier).where(TagClassifier.tenant_id == tenant.id))
        with np.load(io.BytesIO(row.model), allow_pickle=False) as archive:
            assert archive["weights"].shape == (3, classifier.FEATURES)
        evil = io.BytesIO()
        np.savez(evil, format=np.array([classifier.FORMAT, classifier.FEATURES]),
                 weights=np.array([{"x": 1}], dtype=object), intercepts=np.zeros(3))  # fmt: skip
        row.model = evil.getvalue()
        row.trained_at = row.trained_at.replace(year=2000)
        db.session.commit()
        predictions.forget()
        assert predictions.model_for(tenant.id) is None


def test_retraining_is_due_once_enough_documents_changed(app, tenant, tagged_corpus):
    tagged_corpus(tenant)
    with app.app_context():
        assert training.due(tenant.id) is True
    _train(app, tenant.id)
    with app.app_context():
        assert training.due(tenant.id) is False
        row = db.session.scalar(select(TagClassifier).where(TagClassifier.tenant_id == tenant.id))
        ids = db.session.scalars(
            select(Document.id).where(Document.tenant_id == tenant.id).order_by(Document.id)
        ).all()
        later = row.trained_until.replace(year=row.trained_until.year + 1)
        db.session.execute(
            update(Document).where(Document.id.in_(ids[: training.RETRAIN_MIN_CHANGES - 1]))
            .values(updated_at=later)
        )  # fmt: skip
        db.session.commit()
        assert training.due(tenant.id) is False
        db.session.execute(
            update(Document).where(Document.id == ids[training.RETRAIN_MIN_CHANGES - 1])
            .values(updated_at=later)
        )  # fmt: skip
        db.session.commit()
        assert training.due(tenant.id) is True
        assert tenant.id in training.tenants_due()


def test_the_training_job_trains_and_the_periodic_job_enqueues_it(app, tenant, tagged_corpus, work):
    from jobs import matching as matching_jobs

    tagged_corpus(tenant)
    with app.app_context():
        assert matching_jobs.retrain_due() == [tenant.id]
    work()
    with app.app_context():
        row = db.session.scalar(select(TagClassifier).where(TagClassifier.tenant_id == tenant.id))
        assert row is not None and row.documents == 24
