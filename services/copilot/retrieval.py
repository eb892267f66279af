"""Retrieval, in one function: the passages of the tenant's live documents that best answer a
question (docs/copilot.md, "Retrieval").

`retrieve(tenant_id, question, document_ids, limit)`:

1. Candidate documents: the search engine (services/search) ranks the tenant's live
   documents (active and archived; never the trash, never another tenant's) against the
   question's content words joined by `or`, and the best CANDIDATE_DOCUMENTS are kept. With
   `document_ids` the candidates are exactly those documents (the caller has checked that
   they are the tenant's and live: `check_documents`). A follow-up's `context` adds the
   previous question's words (at half weight) and the documents cited before.
2. Passages of the candidates (services/search/passages) are scored with BM25 over the
   question's stems (k1 1.2, b 0.75; document frequencies among the candidate passages), a
   context stem counting half; a passage of a document cited earlier in the conversation
   gets +10% of the score. Passages matching no stem of the question (or, when the question
   has no content words of its own, of its context) are dropped.
3. The best `limit` passages, best first.

With semantic search on (docs/semantic.md), step 2 also takes the passages nearest to
the question's vector (cosine similarity at or above DMS_SEMANTIC_MIN_SIMILARITY, inside the
live documents, or `document_ids`): their documents join the candidates, a passage near the
question is kept even when it matches no stem, and each passage's score becomes

    bm25 x (1 + SEMANTIC_WEIGHT x similarity)           a passage matching the question's stems
    SEMANTIC_ONLY_WEIGHT x best x similarity            one found by meaning alone (best: the
                                                        best score above, 1 when none matched)

Multiplying keeps the keyword scale and its ratios, so passages that only share the question's
common words stay under the extractive generator's relative cut-off (an additive bonus lifts
them over it and halves citation precision in bench/semantic_eval.py); `similarity` on each
passage says what it added."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import select

from errors import not_found
from extensions import db
from models import Document, DocumentStatus
from services.copilot import terms
from services.documents.filters import DocumentFilters
from services.search import passages, search
from services.semantic import embedding

CANDIDATE_DOCUMENTS = 20
MAX_QUERY_WORDS = 24  # under services/search/query_syntax.MAX_TERMS
CONTEXT_WEIGHT = 0.5
CITED_BOOST = 0.1
SEMANTIC_WEIGHT = 0.5
SEMANTIC_ONLY_WEIGHT = 0.25
SEMANTIC_PASSAGES = 20
_K1, _B = 1.2, 0.75


@dataclass(frozen=True)
class Context:
    """What a follow-up inherits: the earlier questions and the documents cited so far."""

    text: str = ""
    cited_document_ids: tuple[str, ...] = ()


@dataclass
class RetrievedPassage:
    passage_id: str
    document_id: str
    title: str
    ordinal: int
    start: int
    end: int
    text: str
    score: float
    # The stems of the question (weight 1) and of the context (CONTEXT_WEIGHT) it matched.
    matched: dict[str, float] = field(default_factory=dict)
    # Cosine similarity to the question's vector, when semantic search found the passage.
    similarity: float | None = None


def check_documents(tenant_id: str, document_ids: Sequence[str]) -> list[str]:
    """The ids, without repeats, if each is a live document of the tenant; else 404 (another
    tenant's id, a trashed or unknown one are alike)."""
    wanted = list(dict.fromkeys(document_ids))
    if not wanted:
        return []
    found = set(
        db.session.scalars(
            select(Document.id).where(
                Document.tenant_id == tenant_id,
                Document.id.in_(wanted),
                Document.status != DocumentStatus.DELETED.value,
            )
        )
    )
    if len(found) != len(wanted):
        raise not_found("Document")
    return wanted


def question_weights(question: str, context: Context | None = None) -> dict[str, float]:
    """stem -> weight: the question's content words 1, the context's new ones CONTEXT_WEIGHT."""
    weights = {terms.stem(w): 1.0 for w in terms.content_words(question)}
    if context is not None:
        for word in terms.content_words(context.text):
            weights.setdefault(terms.stem(word), CONTEXT_WEIGHT)
    return weights


def retrieve(
    tenant_id: str,
    question: str,
    document_ids: Sequence[str] | None = None,
    limit: int = 5,
    context: Context | None = None,
) -> list[RetrievedPassage]:
    """The best `limit` passages for `question` among the tenant's live documents (or
    `document_ids`, already checked), best first; [] when nothing matches."""
    weights = question_weights(question, context)
    if not weights:
        return []
    cited = set(context.cited_document_ids) if context is not None else set()
    near = _semantic_passages(tenant_id, question, context, document_ids)
    if document_ids:
        candidates = list(document_ids)
    else:
        candidates = _search_documents(tenant_id, question, context)
        candidates += [d for d in live_documents(tenant_id, cited) if d not in candidates]
        candidates += list(dict.fromkeys(d for d, _ in near.values() if d not in candidates))
    if not candidates:
        return []
    titles = dict(
        db.session.execute(
            select(Document.id, Document.title).where(
                Document.tenant_id == tenant_id,
                Document.id.in_(candidates),
                Document.status != DocumentStatus.DELETED.value,
            )
        ).all()
    )
    rows = [p for p in passages.of_documents(tenant_id, candidates) if p.document_id in titles]
    similarity = {passage_id: value for passage_id, (_, value) in near.items()}
    return _rank(rows, titles, weights, cited, limit, similarity)


def _semantic_passages(
    tenant_id: str, question: str, context: Context | None, document_ids: Sequence[str] | None
) -> dict[str, tuple[str, float]]:
    """passage id -> (document id, similarity) of the passages nearest to the question, when
    semantic search is on and the question's vector can be had; else {}."""
    if not embedding.active():
        return {}
    text = question if context is None or not context.text else f"{question}\n{context.text}"
    vector = embedding.query_vector(text)
    if vector is None:
        return {}
    found = embedding.nearest_passages(tenant_id, vector, SEMANTIC_PASSAGES, document_ids or None)
    return {passage_id: (document_id, value) for passage_id, document_id, value in found}


def _search_documents(tenant_id: str, question: str, context: Context | None) -> list[str]:
    words = terms.content_words(question)
    if context is not None:
        words += [w for w in terms.content_words(context.text) if w not in words]
    query = " or ".join(words[:MAX_QUERY_WORDS])
    page = search.search(
        tenant_id,
        query,
        DocumentFilters(),
        CANDIDATE_DOCUMENTS,
        recency=False,
        with_highlights=False,
    )
    return [hit.id for hit in page.hits]


def live_documents(tenant_id: str, ids: set[str]) -> list[str]:
    if not ids:
        return []
    return list(
        db.session.scalars(
            select(Document.id).where(
                Document.tenant_id == tenant_id,
                Document.id.in_(sorted(ids)),
                Document.status != DocumentStatus.DELETED.value,
            )
        )
    )


def _rank(rows, titles, weights, cited, limit, similarity) -> list[RetrievedPassage]:
    measured = [terms.count_stems(p.text, weights) for p in rows]
    counts = [c for c, _ in measured]
    lengths = [n for _, n in measured]
    average = (sum(lengths) / len(lengths)) if lengths else 1.0
    total = len(rows)
    frequency = Counter(t for c in counts for t in weights if t in c)
    own = {t for t, w in weights.items() if w == 1.0}
    needed = own or set(weights)
    scored = []
    for row, count, length in zip(rows, counts, lengths, strict=True):
        matched = {t: weights[t] for t in weights if t in count}
        if not needed & set(matched) and row.id not in similarity:
            continue
        score = 0.0
        for term, weight in matched.items():
            idf = math.log(1 + (total - frequency[term] + 0.5) / (frequency[term] + 0.5))
            tf = count[term]
            norm = tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / max(average, 1.0)))
            score += weight * idf * norm
        if row.document_id in cited:
            score *= 1 + CITED_BOOST
        scored.append((score, row, matched))
    if similarity:
        scored = [
            (score * (1 + SEMANTIC_WEIGHT * similarity.get(row.id, 0.0)), row, matched)
            for score, row, matched in scored
        ]
        best = max((score for score, _, matched in scored if matched), default=0.0) or 1.0
        scored = [
            (score if matched else SEMANTIC_ONLY_WEIGHT * best * similarity[row.id], row, matched)
            for score, row, matched in scored
        ]
    scored.sort(key=lambda s: (-s[0], s[1].document_id, s[1].ordinal))
    return [
        RetrievedPassage(
            passage_id=row.id,
            document_id=row.document_id,
            title=titles[row.document_id],
            ordinal=row.ordinal,
            start=row.start_char,
            end=row.end_char,
            text=row.text,
            score=round(score, 6),
            matched=matched,
            similarity=similarity.get(row.id),
        )
        for score, row, matched in scored[:limit]
    ]
