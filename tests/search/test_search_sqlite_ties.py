"""SQLite's settling of ties (services/search/engines/sqlite.settle_ties): a word in more than
half of all rows has an idf FTS5 clamps to almost 0, so its matches tie after rounding and no
bound proves a bounded page. The bounded rows and the tenant's first documents by id are then
ranked together, and that page is kept only when provably the exact one. Every walk equals the
exact walk hit for hit (ids and scores), with and without recency, with filters, from the
common word's list and from the candidates, with a pool too small to settle some pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

import clock
from extensions import db
from models import Document
from models.documents import DocumentStatus
from services.documents.filters import DocumentFilters
from services.search import common_words, index_merge, search
from services.search.engines import sqlite
from tests.search import walks
from tests.support import index_documents, new_tenant

FILLER = "report quarterly numbers meeting "
QUERIES = ["omega", "omega -delta", "omega or gamma"]
FILTERS = {
    "none": DocumentFilters(),
    "archived": DocumentFilters(status=[DocumentStatus.ARCHIVED]),
    "tag": DocumentFilters(tag=["red"]),
}


@pytest.fixture(scope="module")
def indexed(app, database_url):
    """acme: 36 documents, `omega` in 30 (1-4 times, in the title of every fifth, a long
    text in every fourth; `delta` in every third, `gamma` in every seventh), tag `red` on
    the even ones, every sixth archived; ages spread over 400 days, document 9 changed just
    now. globex: 2 documents with `omega` in the title and text (the best bm25: they lead the
    list and the candidates), 8 without. `omega` is in 32 of 46 rows, more than half: FTS5
    clamps its idf to almost 0 and its scores tie."""
    yield from walks.sqlite_corpus(app, database_url, lambda: _build(app))


def _build(app) -> dict:
    tenant, other_tenant = new_tenant(app, "acme"), new_tenant(app, "globex")
    specs = []
    for i in range(1, 37):
        words = ["omega"] * (i % 4 + 1) if i % 6 else []
        words += ["delta"] * (i % 3 == 0) + ["gamma"] * (i % 7 == 0)
        specs.append(
            {
                "title": f"Omega file {i:02d}" if i % 5 == 0 and i % 6 else f"File {i:02d}",
                "text": " ".join(words) + " " + FILLER * (12 if i % 4 == 0 else 2),
                "tags": ["red"] if i % 2 == 0 else [],
            }
        )
    ids = index_documents(app, tenant.id, *specs)
    others = [{"title": "Omega omega", "text": "omega omega " + FILLER}] * 2
    other_ids = index_documents(app, other_tenant.id, *others, *[{"text": FILLER}] * 8)
    as_of = clock.now()
    with app.app_context():
        for i, ident in enumerate(ids, start=1):
            age = timedelta(0) if i == 9 else timedelta(days=(i * 37) % 400 + 1)
            status = DocumentStatus.ARCHIVED if i % 6 == 3 else DocumentStatus.ACTIVE
            db.session.execute(
                update(Document)
                .where(Document.id == ident)
                .values(updated_at=as_of - age, status=status.value)
            )
        db.session.commit()
        common_words.refresh()  # `omega` is listed: its pages try the list first
    return {"as_of": as_of, "others": set(other_ids)}


@pytest.fixture
def corpus(app, indexed, sqlite_only, tenant, other_tenant, monkeypatch):
    """The database as `indexed` left it (this test's acme and globex replaced by its own),
    with the lists it was built with."""
    walks.small_lists(monkeypatch)
    copy, corpus = indexed
    copy.restore()
    yield corpus
    with app.app_context():  # one segment again, for the tests after these in this worker
        index_merge.merge()


def _walk(app, tenant_id, q, filters, limit, recency, as_of) -> list[tuple[str, float]]:
    return walks.walk(app, tenant_id, q, limit, filters=filters, recency=recency, as_of=as_of)


@pytest.mark.parametrize("candidates", [6, 1000])
@pytest.mark.parametrize("tie_pool", [3, 2000])
@pytest.mark.parametrize("recency", [True, False])
def test_settled_walks_equal_exact_walks(
    app, corpus, tenant, monkeypatch, candidates, tie_pool, recency
):
    """A pool of 3 documents settles only pages that end among the tenant's first three
    documents by id; 2,000 holds every document, so pages that only ties left in doubt are
    settled. Either way the walk is the exact one."""
    monkeypatch.setattr(sqlite, "CANDIDATES", candidates)
    monkeypatch.setattr(sqlite, "TIE_POOL", tie_pool)
    settled: dict[tuple, list[bool]] = {}
    settle = sqlite.settle_ties

    for q in QUERIES:
        for name, filters in FILTERS.items():

            def recorded(tenant_id, rows, *rest, said=settled.setdefault((q, name), [])):
                page = settle(tenant_id, rows, *rest)
                if rows:  # with no bounded rows of the tenant, nothing is tried
                    said.append(page is not None)
                return page

            for limit in (2, 3, 5):
                with monkeypatch.context() as patch:
                    patch.setattr(sqlite, "settle_ties", recorded)
                    settled_walk = _walk(
                        app, tenant.id, q, filters, limit, recency, corpus["as_of"]
                    )
                exact = walks.exact_walk(
                    app, monkeypatch, tenant.id, q, limit, filters=filters, recency=recency,
                    as_of=corpus["as_of"],
                )  # fmt: skip
                assert settled_walk == exact, (q, name, limit)
                ids = [ident for ident, _ in settled_walk]
                assert len(ids) == len(set(ids)) and not set(ids) & corpus["others"]
    omega = _walk(app, tenant.id, "omega", FILTERS["none"], 5, recency, corpus["as_of"])
    assert len(omega) == 30
    assert len({score for _, score in omega}) <= 4  # the floor: a few rounded values, tied
    tied_word = settled["omega", "none"] + settled["omega", "archived"]
    if tie_pool == 2000:  # every page of the tied word that no bound proved is settled
        assert tied_word and all(tied_word)
    else:  # pages that end past the tenant's first three documents (after the cursor) are not
        assert True in tied_word and False in tied_word


def test_without_settling_the_pages_of_a_tied_word_fall_back(app, corpus, tenant, monkeypatch):
    """What settling saves: without it (the code before) every page of `omega` paid the exact
    path, as the bound is above every tied score; with it, only the pages after the bounded
    rows (none of the tenant's left after the cursor: a pool is not even read)."""
    monkeypatch.setattr(sqlite, "CANDIDATES", 6)  # of 32 matches: no page proven by its size
    exact_runs = []
    rows = search._Ranking.rows

    def counted(self, **kwargs):
        exact_runs.append(not kwargs.get("bounded"))
        return rows(self, **kwargs)

    monkeypatch.setattr(search._Ranking, "rows", counted)
    walk = _walk(app, tenant.id, "omega", FILTERS["none"], 5, True, corpus["as_of"])
    settled = exact_runs.count(True)
    exact_runs.clear()
    monkeypatch.setattr(sqlite, "settle_ties", lambda *_: None)
    assert _walk(app, tenant.id, "omega", FILTERS["none"], 5, True, corpus["as_of"]) == walk
    assert exact_runs.count(True) == -(-len(walk) // 5)  # every page
    assert settled < exact_runs.count(True) / 2


def test_the_rule_settles_only_what_it_proves():
    """settle_ties()'s rule alone, on the pool's page: a pool of every document settles any
    page; else the page must be full, its last row at least 0.4e-6 above the bound (else a
    match left out may round above it), not past the pool's last id (a match left out with
    a smaller id may tie with it), and, with a pool that starts after the cursor's id, at the
    cursor's score."""

    class Row:
        def __init__(self, ident, score):
            self.id, self.score = ident, score

    page = [Row("a", 3e-06), Row("c", 2e-06), Row("d", 2e-06)]
    assert sqlite._settles(2.3e-06, page, 2, "e", None)
    assert not sqlite._settles(2.3e-06, page[:2], 2, "e", None)  # not full
    assert not sqlite._settles(2.41e-06, page, 2, "e", None)  # may round to 3e-06
    assert sqlite._settles(2.3e-06, page, 2, "d", None)  # the pool reaches the last row
    assert not sqlite._settles(2.3e-06, page, 2, "c", None)  # "c2" may tie ahead of "d"
    assert sqlite._settles(2.3e-06, page, 2, None, 2e-06)  # inside the cursor's tie
    assert not sqlite._settles(2.3e-06, page, 2, None, 3e-06)  # left it: "b" at 2e-06 unseen
    assert not sqlite._settles(2.3e-06, page[:2], 2, None, 2e-06)  # short, after the cursor
    # a pool of every document of the tenant: its page is the exact one, whatever the bound
    assert sqlite._settles(9.0, page[:1], 2, None, None)
