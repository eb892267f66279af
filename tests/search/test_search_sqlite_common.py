"""SQLite's listed common words (services/search/common_words.py, migration 0031): a search for
one common word ranks its listed rows and the rows written since, and keeps a page only when
it is provably the exact page. Every walk equals the exact walk hit for hit (ids and scores),
after the list was made and after writes that move the statistics the bound depends on: a
row rewritten to be the best, a longer average row (which lifts a long row left out above
the listed ones), deleted rows."""

from __future__ import annotations

import pytest
from sqlalchemy import text

import clock
from extensions import db
from jobs.search import daily
from services.documents.filters import DocumentFilters
from services.search import common_words, fts5_rows, index_merge, indexing, query_syntax
from services.search.engines import sqlite
from tests.search import walks
from tests.support import index_documents, new_tenant

FILLER = "report quarterly numbers meeting"


@pytest.fixture
def small_lists(monkeypatch):
    """Lists of 8 rows, for terms matched by 4 rows or more."""
    walks.small_lists(monkeypatch)


@pytest.fixture(scope="module")
def indexed(app, database_url):
    """acme: 14 documents with `alpha` (i % 5 + 1 times, `delta` in every third; every fourth
    a long text, with three times as many), 30 without; globex: 3 documents with `alpha` in
    the title (the best bm25 of all: they are listed too) and 3 without. The clock stands
    still from then on."""
    yield from walks.sqlite_corpus(app, database_url, lambda: _build(app))


def _build(app) -> dict:
    tenant, other_tenant = new_tenant(app, "acme"), new_tenant(app, "globex")
    specs = []
    for i in range(14):
        length = 60 if i % 4 == 0 else 4
        words = ["alpha"] * (i % 5 + 1) * (3 if length == 60 else 1) + ["delta"] * (i % 3 == 0)
        specs.append({"title": f"File {i}", "text": " ".join(words) + f" {FILLER}" * length})
    specs += [{"title": "Other", "text": FILLER}] * 30  # `alpha` in under half the rows
    ids = index_documents(app, tenant.id, *specs)
    others = [{"title": "Alpha alpha", "text": "alpha " + FILLER}] * 3 + [{"text": FILLER}] * 3
    other_ids = index_documents(app, other_tenant.id, *others)
    return {"ids": ids, "others": set(other_ids), "built_at": clock.now()}


@pytest.fixture
def corpus(app, indexed, sqlite_only, small_lists, tenant, other_tenant):
    """The database as `indexed` left it (this test's acme and globex replaced by its own)."""
    copy, corpus = indexed
    copy.restore()
    clock.freeze(corpus["built_at"])  # every walk ranks at one instant: the same recency in each
    yield corpus
    clock.reset()
    with app.app_context():  # one segment again, for the tests after these in this worker
        index_merge.merge()


def _walk(app, tenant_id, q, limit, recency=True, filters=None) -> list[tuple[str, float]]:
    return walks.walk(app, tenant_id, q, limit, filters=filters, recency=recency)


def _exact(app, monkeypatch, tenant_id, q, limit, recency=True, filters=None):
    return walks.exact_walk(app, monkeypatch, tenant_id, q, limit, filters=filters, recency=recency)


@pytest.fixture
def proofs(monkeypatch):
    """What page_stands() said of each page the common path ranked."""
    said, stands = [], sqlite.page_stands

    def recorded(tenant_id, query, rows, limit):
        verdict = stands(tenant_id, query, rows, limit)
        if rows and rows[0].window is None:  # the common path's rows (window unknown)
            said.append(verdict)
        return verdict

    monkeypatch.setattr(sqlite, "page_stands", recorded)
    return said


def _refresh(app) -> common_words.Refreshed:
    with app.app_context():
        return common_words.refresh()


@pytest.mark.parametrize("recency", [True, False])
def test_common_walks_equal_exact_walks(app, corpus, tenant, monkeypatch, proofs, recency):
    assert _refresh(app).listed >= 1
    with app.app_context():
        assert common_words.is_listed("alpha")
        assert sqlite.prepare(tenant.id, query_syntax.parse("Alpha"), 3) == (
            "common",
            "candidates",
        )
    archived = DocumentFilters(tag=["none"])
    for q in ["alpha", "alpha -delta", '"alpha"']:
        for limit in (1, 2, 3, 5):
            common = _walk(app, tenant.id, q, limit, recency)
            assert common == _exact(app, monkeypatch, tenant.id, q, limit, recency), (q, limit)
            assert len(common) == len({ident for ident, _ in common})
            assert not {ident for ident, _ in common} & corpus["others"]
        assert _walk(app, tenant.id, q, 2, recency, archived) == []
    assert len(_walk(app, tenant.id, "alpha", 4, recency)) == 14
    assert True in proofs and False in proofs  # first pages proven, later ones fall back


def test_a_row_rewritten_after_the_list_is_ranked(app, corpus, tenant, monkeypatch, proofs):
    """Document 10 (`alpha` once, not listed) is rewritten to be the best match: it is not in
    the list, but written after it, so the common path ranks it, first, and proves the page."""
    _refresh(app)
    rewritten = corpus["ids"][10]
    with app.app_context():
        listed = db.session.scalars(
            text("SELECT fts_rowid FROM document_search_common WHERE term = 'alpha'")
        ).all()
        assert fts5_rows.rowid(rewritten) not in listed
        title = " ".join(["alpha"] * 12)
        fts5_rows.write([indexing.entry(rewritten, tenant.id, title, "", "alpha " + FILLER)])
        db.session.commit()
    walk = _walk(app, tenant.id, "alpha", 2)
    assert walk[0][0] == rewritten
    assert proofs[0] is True
    assert walk == _exact(app, monkeypatch, tenant.id, "alpha", 2)


def test_a_longer_average_row_keeps_the_bound(
    app, corpus, tenant, other_tenant, index_documents, monkeypatch, proofs
):
    """bm25 normalises a row's length by the average: when long rows arrive (globex's, without
    `alpha`), a long acme text left out of the list (every fourth: `alpha` up to 15 times in
    60 fillers) rises above the short listed ones. Its row did not change, so only the
    bound's max(1, average now / average then) keeps the first page from being kept without
    it."""
    _refresh(app)
    with app.app_context():
        listed = db.session.scalars(
            text("SELECT fts_rowid FROM document_search_common WHERE term = 'alpha'")
        ).all()
    long_ones = {ident for i, ident in enumerate(corpus["ids"]) if i % 4 == 0}
    before = _walk(app, tenant.id, "alpha", 2, recency=False)
    assert not long_ones & {ident for ident, _ in before[:2]}
    index_documents(other_tenant, *[{"text": f"{FILLER} " * 2000}] * 12)
    proofs.clear()
    after = _walk(app, tenant.id, "alpha", 2, recency=False)
    assert after == _exact(app, monkeypatch, tenant.id, "alpha", 2, recency=False)
    assert after[0][0] in long_ones and fts5_rows.rowid(after[0][0]) not in listed
    assert proofs and not any(proofs)  # the rise is bounded: no page of this walk kept


def test_deleted_rows_and_a_word_no_longer_common(app, corpus, tenant, monkeypatch):
    _refresh(app)
    with app.app_context():
        for ident in corpus["ids"][:12] + list(corpus["others"]):
            fts5_rows.delete(ident)
        db.session.commit()
    walk = _walk(app, tenant.id, "alpha", 1)
    assert walk == _exact(app, monkeypatch, tenant.id, "alpha", 1)
    assert len(walk) == 2  # documents 12 and 13
    assert _refresh(app).dropped >= 1  # `alpha`: 2 matches left
    with app.app_context():
        assert not common_words.is_listed("alpha")
        left = "SELECT count(*) FROM document_search_common WHERE term = 'alpha'"
        assert db.session.scalar(text(left)) == 0
        assert sqlite.prepare(tenant.id, query_syntax.parse("alpha"), 2) == ("candidates",)


def test_a_list_is_left_aside_after_many_writes(app, corpus, tenant, monkeypatch):
    """Once STALE_AFTER rows were written after a list was made (a large import, a reindex),
    a search no longer tries it (each such row would be ranked with the listed ones); the
    next listing takes it back."""
    monkeypatch.setattr(common_words, "STALE_AFTER", 3)
    _refresh(app)
    alpha = query_syntax.parse("alpha")
    with app.app_context():
        assert sqlite.prepare(tenant.id, alpha, 2) == ("common", "candidates")
        for n in range(3):
            fts5_rows.write([indexing.entry(f"new-{n}", tenant.id, "New", "", FILLER)])
        db.session.commit()
        assert not common_words.is_listed("alpha")
        assert sqlite.prepare(tenant.id, alpha, 2) == ("candidates",)
    assert _walk(app, tenant.id, "alpha", 3) == _exact(app, monkeypatch, tenant.id, "alpha", 3)
    _refresh(app)
    with app.app_context():
        assert common_words.is_listed("alpha")


def test_page_stands_without_a_bound(monkeypatch):
    """A list dropped between prepare() and the page's statement leaves no bound: not proven."""

    class Row:
        window, bound, score = None, None, 5.0

    assert not sqlite.page_stands("tenant", None, [Row(), Row(), Row()], 2)


def test_writes_are_numbered(app, sqlite_only, tenant):
    """Every write of a row, by this code or any other, gets a number above every earlier one
    (the trigger of migration 0031), also after the row written last was deleted, so a search
    knows which rows changed after a list was made."""

    def written(document_id: str) -> int:
        number = "SELECT written FROM document_search_ids WHERE document_id = :d"
        return db.session.scalar(text(number), {"d": document_id})

    with app.app_context():
        entries = [indexing.entry(f"doc-{n}", tenant.id, "t", "", "alpha") for n in range(3)]
        fts5_rows.write(entries)
        older = (  # as code older than the migration writes it
            "INSERT OR REPLACE INTO document_search_ids (fts_rowid, document_id, tenant_id)"
            " VALUES (7, 'raw', :t)"
        )
        db.session.execute(text(older), {"t": tenant.id})
        db.session.commit()
        numbers = [written(f"doc-{n}") for n in range(3)] + [written("raw")]
        assert numbers == sorted(set(numbers)) and numbers[0] > 0
        fts5_rows.write(entries[:1])
        db.session.commit()
        last = written("doc-0")
        assert last > numbers[-1]
        fts5_rows.delete("doc-0")  # the row written last: max(written) + 1 would reuse `last`
        fts5_rows.write([indexing.entry("doc-9", tenant.id, "t", "", "alpha")])
        db.session.commit()
        assert written("doc-9") > last


def test_terms_are_fts5s_own(app, sqlite_only):
    assert common_words.term_of("Running") == "run"
    assert common_words.term_of("café") == "cafe"
    assert common_words.term_of("two words") is None
    with app.app_context():
        schema = db.session.scalar(
            text("SELECT sql FROM sqlite_master WHERE name = 'document_search'")
        )
    assert f"tokenize = '{common_words.TOKENIZE}'" in schema


def test_the_ceiling_reads_fts5s_averages(app, sqlite_only, index_documents, tenant):
    """The averages record holds the row count and each column's tokens: the sums of the
    per-row sizes in FTS5's docsize table."""
    index_documents(tenant, {"title": "One two", "text": "three four five"}, {"text": "six"})
    with app.app_context():
        block = db.session.scalar(text("SELECT block FROM document_search_data WHERE id = 1"))
        sizes = db.session.scalars(text("SELECT sz FROM document_search_docsize")).all()
    rows, tokens = common_words._totals(block)
    assert rows == len(sizes) == 2
    assert tokens == sum(common_words._totals(b"\x00" + size)[1] for size in sizes)
    assert common_words.keyword_ceiling(None, 3, 1.0, 5.0) is None
    assert common_words.keyword_ceiling(block, 1, None, 5.0) is None
    # A longer average now than when the list was made raises the ceiling (6 / 2 = 3 > 1.5).
    then = common_words.keyword_ceiling(block, 1, 2.0, 3.0)
    assert common_words.keyword_ceiling(block, 1, 2.0, 1.5) > then


def test_the_command_and_the_daily_job_list(app, corpus):
    result = app.test_cli_runner().invoke(args=["documents", "list-common-words"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        listed = db.session.scalars(text("SELECT term FROM document_search_common_terms")).all()
        assert "alpha" in listed and "file" in listed  # and the fillers, in every document
        assert f"listed {len(listed)} common words; dropped 0 no longer common" in result.output
        assert daily()["commonWordsListed"] == len(listed)


def test_nothing_to_list_on_postgresql(app, database_url, index_documents, tenant):
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL's side of it (SQLite: the tests above)")
    index_documents(tenant, {"text": "alpha"})
    with app.app_context():
        assert common_words.refresh() == common_words.Refreshed(0, 0)
        assert daily()["commonWordsListed"] == 0
