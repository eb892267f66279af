"""Search statements built once per shape of query, with the tenant, the words, the instant
and the position as bind parameters (services/search/search.py, `_Ranking.rows`): the same
hits and pages as statements built for each search, on both databases, and a statement
reused for another tenant and other words finds only that tenant's documents for them. On
PostgreSQL a page's ids are one parameter too, whatever the page's length."""

from __future__ import annotations

import pytest
from sqlalchemy import event

import clock
from extensions import db
from services.documents import listing
from services.documents.filters import DocumentFilters
from services.search import search

QUERIES = ["alpha", "alpha beta", '"alpha beta" or gamma -delta', "beta or gamma", "alpha -delta"]


@pytest.fixture
def corpus(index_documents, tenant, other_tenant):
    """Twenty documents of `tenant` whose scores differ (`alpha` i times), and five of
    `other_tenant` holding every word."""
    specs = []
    for i in range(1, 21):
        words = ["alpha"] * i + (["beta"] if i % 2 else []) + ["gamma"] * (i % 3 == 0)
        specs.append(
            {"title": f"Document {i:02d}", "text": " ".join(words + ["delta"] * (i % 5 == 0))}
        )
    ids = index_documents(tenant, *specs)
    others = index_documents(
        other_tenant, *[{"title": f"Other {i}", "text": "alpha beta gamma omega"} for i in range(5)]
    )
    return {"ids": ids, "others": others}


def _walk(app, tenant_id: str, q: str, limit: int, filters: DocumentFilters, as_of):
    seen, cursor = [], None
    with app.app_context():
        while True:
            page = search.search(tenant_id, q, filters, limit, cursor, as_of=as_of)
            seen += [(h.id, h.score, h.highlights) for h in page.hits]
            if page.next_position is None:
                return seen
            cursor = page.next_position


@pytest.mark.parametrize("limit", [3, 50])
def test_reused_statements_walk_like_statements_built_each_time(
    app, corpus, tenant, monkeypatch, limit
):
    as_of = clock.now()
    for filters in (DocumentFilters(), DocumentFilters(status=["active"])):
        for q in QUERIES:
            reused = _walk(app, tenant.id, q, limit, filters, as_of)
            with monkeypatch.context() as patch:
                patch.setattr(search, "status_only", lambda _filters: None)  # build each time
                built = _walk(app, tenant.id, q, limit, filters, as_of)
            assert reused == built, (q, filters)
            assert not {ident for ident, _, _ in reused} & set(corpus["others"])
    assert len(_walk(app, tenant.id, "alpha", 3, DocumentFilters(), as_of)) == 20


def test_a_statement_serves_another_tenant_and_other_words(app, corpus, tenant, other_tenant):
    with app.app_context():
        first = search.search(tenant.id, "alpha", DocumentFilters(), 50)
        statements = dict(search._STATEMENTS)
        second = search.search(other_tenant.id, "omega", DocumentFilters(), 50)
        # the same shape: the first search's statement, no other built
        assert statements.keys() == search._STATEMENTS.keys()
        assert all(search._STATEMENTS[key] is stmt for key, stmt in statements.items())
    assert {h.id for h in first.hits} == set(corpus["ids"])
    assert {h.id for h in second.hits} == set(corpus["others"])
    assert all("omega" in h.highlights[-1]["snippet"] for h in second.hits)


def test_a_pages_ids_are_one_parameter_on_postgresql(app, corpus, tenant, database_url):
    """The page's highlights and documents are read by the page's ids, bound as one array
    (models.base.id_list): for a page of 3 and a page of 20 they are the same statements
    with as many parameters, so psycopg converts each once per process. An expanding IN
    wrote out a parameter per id (`ids_1`, `ids_2`, …), and psycopg converts a statement of
    over 50 parameters again on every run."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite has no arrays: its page's ids are an expanding IN")

    def by_ids(limit: int) -> list[tuple[str, list[str]]]:
        seen = []

        def record(_conn, _cursor, statement, parameters, *_args):
            if any(name.startswith("ids") for name in parameters):
                seen.append((statement, sorted(parameters)))

        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", record)
            try:
                page = search.search(tenant.id, "alpha", DocumentFilters(), limit)
                documents = listing.documents_json(tenant.id, [h.id for h in page.hits])
            finally:
                event.remove(db.engine, "before_cursor_execute", record)
        assert len(page.hits) == limit and all(h.highlights for h in page.hits)
        assert set(documents) == {h.id for h in page.hits}
        return seen

    small, large = by_ids(3), by_ids(20)
    assert len(small) == 2  # the highlights, then the documents (api/search.py)
    assert small == large
