"""SQLite's bounded search path (services/search/engines/sqlite.py: the CANDIDATES best matches
by bm25, a page kept only when provably the exact page) against the exact path on a fixed
corpus: with a small CANDIDATES, pages are proven from the candidates and pages fall back,
and every walk equals the exact walk hit for hit (ids and scores), with and without recency,
with filters, and with another tenant's documents matching the same words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

import clock
from extensions import db
from models import Document
from models.documents import DocumentStatus
from services.documents.filters import DocumentFilters
from services.search import query_syntax, search
from services.search.engines import sqlite
from tests.search import walks
from tests.support import built_once, index_documents, new_tenant

FILLER = "report quarterly numbers meeting "
QUERIES = ["alpha", "alpha beta", '"alpha beta"', "alpha -delta", "beta or gamma"]
FILTERS = {
    "none": DocumentFilters(),
    "archived": DocumentFilters(status=[DocumentStatus.ARCHIVED]),
    "tag": DocumentFilters(tag=["red"]),
}


@pytest.fixture(scope="module")
def indexed(app, database_url):
    """acme: 40 documents, `alpha` i % 7 + 1 times in every third (then `beta` in the even
    ones: the phrase "alpha beta"), `alpha` in the title of every ninth, `gamma` in every
    fourth, `delta` in every fifth, tag `red` on the even ones; every fourth archived, one
    in the trash; ages spread over 400 days, document 12 changed just now (recency 1).
    globex: six documents full of `alpha beta gamma` in the title and text (the best bm25 of
    all: they fill the first candidates) and six without them (so the words stay rarer than
    half the table and bm25 keeps its spread)."""
    if not database_url.startswith("sqlite"):
        pytest.skip("the bounded FTS5 path is SQLite's (PostgreSQL: test_search_paths.py)")
    copy, corpus = built_once(app, lambda: _build(app))
    yield copy, corpus
    copy.close()


def _build(app) -> dict:
    tenant, other_tenant = new_tenant(app, "acme"), new_tenant(app, "globex")
    specs = []
    for i in range(1, 41):
        words = (["alpha"] * (i % 7 + 1) + (["beta"] if i % 2 == 0 else [])) if i % 3 == 0 else []
        words += ["gamma"] * (i % 4 == 0) + ["delta"] * (i % 5 == 0)
        title = f"Alpha file {i:02d}" if i % 9 == 0 else f"File {i:02d}"
        specs.append(
            {
                "text": " ".join(words) + " " + FILLER * (5 + i % 6),
                "title": title,
                "tags": ["red"] if i % 2 == 0 else [],
            }
        )
    ids = index_documents(app, tenant.id, *specs)
    strong = " ".join(["alpha beta gamma"] * 8)
    others = [{"text": strong, "title": "Alpha beta gamma"}] * 6 + [{"text": FILLER}] * 6
    other_ids = index_documents(app, other_tenant.id, *others)
    as_of = clock.now()
    with app.app_context():
        for i, ident in enumerate(ids, start=1):
            age = timedelta(0) if i == 12 else timedelta(days=(i * 37) % 400 + 1)
            status = DocumentStatus.ARCHIVED if i % 4 == 0 else DocumentStatus.ACTIVE
            if i == 33:
                status = DocumentStatus.DELETED
            db.session.execute(
                update(Document)
                .where(Document.id == ident)
                .values(updated_at=as_of - age, status=status.value)
            )
        db.session.commit()
    return {"ids": ids, "others": set(other_ids), "as_of": as_of}


@pytest.fixture
def corpus(indexed, tenant, other_tenant) -> dict:
    """The database as `indexed` left it (this test's acme and globex replaced by its own)."""
    copy, corpus = indexed
    copy.restore()
    return corpus


def _walk(app, tenant_id, q, filters, limit, recency, as_of) -> list[tuple[str, float, float]]:
    return walks.walk(
        app, tenant_id, q, limit, filters=filters, recency=recency, as_of=as_of, keywords=True
    )


@pytest.mark.parametrize("candidates", [6, 12, 1000])
@pytest.mark.parametrize("recency", [True, False])
def test_bounded_walks_equal_exact_walks(app, corpus, tenant, monkeypatch, candidates, recency):
    """CANDIDATES 6: globex's six documents are the only candidates of `alpha`, acme's pages
    all fall back; 12: some pages are proven from the candidates, the others fall back;
    1000: more than every match, every page is kept (the candidates are all the matches)."""
    monkeypatch.setattr(sqlite, "CANDIDATES", candidates)
    outcomes = []
    stands = sqlite.page_stands

    def recorded(tenant_id, query, rows, limit):
        outcomes.append(stands(tenant_id, query, rows, limit))
        return outcomes[-1]

    walked = {}
    for q in QUERIES:
        for name, filters in FILTERS.items():
            for limit in (2, 3, 5):
                with monkeypatch.context() as patch:
                    patch.setattr(sqlite, "page_stands", recorded)
                    bounded = _walk(app, tenant.id, q, filters, limit, recency, corpus["as_of"])
                exact = walks.exact_walk(
                    app, monkeypatch, tenant.id, q, limit, filters=filters, recency=recency,
                    as_of=corpus["as_of"], keywords=True,
                )  # fmt: skip
                assert bounded == exact, (q, name, limit)
                ids = [ident for ident, _, _ in bounded]
                assert len(ids) == len(set(ids))
                assert not set(ids) & corpus["others"]
                walked[q, name, limit] = bounded
    assert len(walked["alpha", "none", 2]) == 12  # 13 documents with `alpha`, one in the trash
    assert len(walked["alpha", "archived", 3]) == 3  # 12, 24, 36
    if candidates == 6:
        assert not any(outcomes)
    elif candidates == 12:
        assert any(outcomes) and not all(outcomes)
    else:
        assert all(outcomes)


def test_recency_lifts_a_candidate_from_beyond_the_page(app, corpus, tenant, monkeypatch):
    """Document 12 (changed just now, `alpha` 6 times) outranks older documents of a higher
    keyword: the first page holds a hit whose keyword alone would put it past the page, and
    the bounded walk, proven from the candidates, still equals the exact walk."""
    monkeypatch.setattr(sqlite, "CANDIDATES", 16)  # of 19 matches: globex's 6, acme's 13
    as_of, limit = corpus["as_of"], 3
    walk = _walk(app, tenant.id, "alpha", FILTERS["none"], limit, True, as_of)
    keywords = sorted((kw for _, _, kw in walk), reverse=True)
    first_page = walk[:limit]
    assert any(keywords.index(kw) >= limit for _, _, kw in first_page)
    assert corpus["ids"][11] in [ident for ident, _, _ in first_page]
    with app.app_context():
        ranked = sqlite.ranked(
            tenant.id, _alpha(), DocumentFilters(), as_of, True, bounded="candidates"
        )
        rows = search._page(ranked, None, None, limit)
        assert sqlite.page_stands(tenant.id, _alpha(), rows, limit)  # proven, not a fallback
    monkeypatch.setattr(sqlite, "prepare", lambda *_: ())
    assert _walk(app, tenant.id, "alpha", FILTERS["none"], limit, True, as_of) == walk


def test_page_stands_needs_a_full_page_strictly_above_the_bound(monkeypatch):
    """The rule alone: fewer candidates than CANDIDATES keeps any page; otherwise the page
    must be full and its last row above the bound by more than the rounding (a tie at the
    bound could be broken by id in a left-out match's favour)."""
    monkeypatch.setattr(sqlite, "CANDIDATES", 10)

    class Row:
        def __init__(self, score, window=10, bound=1.0):
            self.score, self.window, self.bound = score, window, bound

    def stands(rows, limit):  # the rule reads the rows only
        return sqlite.page_stands("tenant", None, rows, limit)

    assert not stands([], 2)
    assert stands([Row(0.1, window=9)], 2)
    assert not stands([Row(3.0), Row(2.0)], 2)  # short: the filters removed some
    assert stands([Row(3.0), Row(2.0), Row(1.000002)], 2)
    assert not stands([Row(3.0), Row(2.0), Row(1.000001)], 2)
    assert not stands([Row(3.0), Row(2.0), Row(1.0)], 2)


def _alpha():
    return query_syntax.parse("alpha")
