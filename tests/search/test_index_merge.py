"""Merging SQLite's FTS5 index into one segment (services/search/index_merge.py): documents
indexed a transaction each leave several segments; merge() leaves one, in steps that each
commit; searches answer the same hits, scores and highlights before and after; a document
indexed between two steps is kept; the CLI and search's daily job run it; PostgreSQL has
nothing to merge."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from extensions import db
from jobs.search import daily, recover_lost_work
from services.documents.filters import DocumentFilters
from services.search import fts5_rows, index_merge, indexing, search

SPECS = [
    {"title": f"Harbour report {i}", "text": f"tide crane berth {'cargo ' * (i % 4)} quay {i}"}
    for i in range(12)
]


def _filler(entries: int, words_each: int = 3000) -> None:
    """Index entries of many distinct words, a transaction each, with no document behind
    them (so no search returns them): segments of several pages, which take several steps."""
    for n in range(entries):
        words = " ".join(f"w{n}x{i}" for i in range(words_each))
        fts5_rows.write([indexing.entry(f"filler-{n}", "nobody", "", "", words)])
        db.session.commit()


@pytest.fixture
def no_automerge(app, sqlite_only):
    """FTS5's automerge off for the test (FTS5's default, 4, back after it): after a merge
    each write leaves a segment of its own, whatever earlier tests in this worker left in
    the index, where automerge, or crisismerge (16 segments on a level), could fold several
    writes into one (as CI saw)."""

    def automerge(value: int) -> None:
        with app.app_context():
            db.session.execute(
                text(
                    "INSERT INTO document_search (document_search, rank) VALUES ('automerge', :v)"
                ),
                {"v": value},
            )
            db.session.commit()

    automerge(0)
    yield
    automerge(4)


def _page(tenant_id: str, q: str) -> list[tuple]:
    found = search.search(tenant_id, q, DocumentFilters(), 20)
    return [(h.id, h.score, h.highlights) for h in found.hits]


def test_merge_leaves_one_segment_and_the_same_answers(app, no_automerge, index_documents, tenant):
    index_documents(tenant, *SPECS)
    queries = ["cargo", "harbour", '"crane berth"', "tide -cargo", "quay or berth"]
    with app.app_context():
        index_merge.merge()
        _filler(6)
        assert index_merge.segments() == 1 + 6
        before = {q: _page(tenant.id, q) for q in queries}
        steps = []
        assert index_merge.merge(step_pages=1, progress=steps.append) >= 2
        assert steps == list(range(1, len(steps) + 1))
        assert index_merge.segments() == 1
        assert {q: _page(tenant.id, q) for q in queries} == before
        assert all(before[q] for q in queries)
        assert index_merge.merge() == 0  # one segment: nothing left to merge


def test_a_document_indexed_between_two_steps_is_kept(app, sqlite_only, index_documents, tenant):
    index_documents(tenant, *SPECS)
    added = []

    def upload_meanwhile(step: int) -> None:
        if step == 1:
            added.extend(index_documents(tenant, {"title": "Late", "text": "lighthouse"}))

    with app.app_context():
        _filler(6)
        assert index_merge.merge(step_pages=1, progress=upload_meanwhile) >= 2
        assert added
        assert [hit[0] for hit in _page(tenant.id, "lighthouse")] == added
        assert len(_page(tenant.id, "tide")) == len(SPECS)
        # The merge under way finished without the newcomer's segments; the next one takes them.
        assert index_merge.segments() > 1
        index_merge.merge()
        assert index_merge.segments() == 1
        assert [hit[0] for hit in _page(tenant.id, "lighthouse")] == added


def test_the_command_and_the_daily_job_merge(app, sqlite_only, index_documents, tenant):
    index_documents(tenant, *SPECS)
    result = app.test_cli_runner().invoke(args=["documents", "merge-index"])
    assert result.exit_code == 0, result.output
    assert "merged the search index in" in result.output
    assert result.output.rstrip().endswith("segments → 1)")
    with app.app_context():
        assert index_merge.segments() == 1
    with app.app_context():
        # Two small segments, under automerge's 4: more documents could, depending on how
        # many writes each made, fill a level and let FTS5 fold them into one itself.
        _filler(2, words_each=5)
        assert index_merge.segments() == 3
        assert daily()["searchIndexMergeSteps"] >= 1
        assert index_merge.segments() == 1
    again = app.test_cli_runner().invoke(args=["documents", "merge-index"])
    assert again.exit_code == 0 and "nothing to merge" in again.output


def test_tidy_merges_the_segments_that_share_a_level(app, sqlite_only, index_documents, tenant):
    index_documents(tenant, *SPECS)
    queries = ["cargo", '"crane berth"', "tide -cargo"]
    with app.app_context():
        setting = "SELECT v FROM document_search_config WHERE k = 'usermerge'"
        assert db.session.scalar(text(setting)) == 2  # migration 0030
        index_merge.merge()
        _filler(2, words_each=5)  # two small segments on one level, under automerge's 4
        before = {q: _page(tenant.id, q) for q in queries}
        assert index_merge.segments() == 3
        assert index_merge.tidy(step_pages=1) >= 1  # with FTS5's default usermerge, 4: 0
        assert index_merge.segments() < 3
        assert {q: _page(tenant.id, q) for q in queries} == before
        assert index_merge.tidy() == 0
        result = app.test_cli_runner().invoke(args=["documents", "merge-index"])
        assert result.exit_code == 0 and index_merge.segments() == 1


def test_nothing_to_merge_on_postgresql(app, database_url, index_documents, tenant):
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL's side of it (SQLite: the tests above)")
    index_documents(tenant, *SPECS[:3])
    result = app.test_cli_runner().invoke(args=["documents", "merge-index"])
    assert result.exit_code == 0 and "nothing to merge" in result.output
    with app.app_context():
        assert daily()["searchIndexMergeSteps"] == 0
        assert recover_lost_work()["searchIndexTidySteps"] == 0
