"""PostgreSQL: a phrase's lead matches are found through the adjacent word pairs of the rank
vector (migration 0028, services/search/engines/postgres_pairs.py). Every document whose lead
holds the phrase must be found: the walks of phrase queries equal the exact path's, whatever
the phrase (reversed, three words, around a stop word, a hyphenated word, across the title
and the tags)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

import clock
from extensions import db
from services.search import query_syntax
from services.search.engines import postgres
from tests.search.conftest import ids_of
from tests.search.test_search_paths import (
    FILLER,
    _create_rank_gin,
    _skip_unless_postgres,
    _walks_equal_the_exact_walks,
)

PHRASES = [
    '"alpha beta"',
    '"alpha beta" or omega',
    '"alpha beta" or omega -gamma',
    '"alpha beta" or "beta alpha"',
    '"alpha beta gamma" or omega',
    '"alpha the beta" or omega',  # no pair: `alpha <2> beta`
    '"alpha-beta" or omega',
    '"kappa lambda"',  # the title's last word, then the tags' first
]


@pytest.fixture
def rank_vector(database_url) -> None:
    """Skips on SQLite, before the corpus is indexed: the pairs index is PostgreSQL's."""
    _skip_unless_postgres(database_url)


@pytest.fixture
def pair_corpus(index_of_one_age, tenant):
    """Documents holding `alpha beta` adjacent (in the title, early or late in the lead),
    apart, reversed, around a stop word, as three words, hyphenated, across fields; and
    `omega` documents; all of one age, so recency ties."""
    specs = [
        {"title": "alpha beta", "text": FILLER},
        {"title": "Notes", "text": "alpha beta " + FILLER * 3},
        {"title": "Notes", "text": FILLER * 5 + "alpha beta gamma"},
        {"title": "Notes", "text": "alpha x beta " + FILLER},
        {"title": "Notes", "text": "beta alpha " + FILLER},
        {"title": "Notes", "text": "alpha the beta " + FILLER},
        {"title": "Notes", "text": "alpha-beta " + FILLER},
        {"title": "Notes", "text": "alpha beta alpha beta gamma " + FILLER},
        {"title": "kappa", "tags": ["lambda"], "text": FILLER},
        {"title": "kappa x", "tags": ["y lambda"], "text": FILLER},
    ]
    specs += [{"title": f"O {i}", "text": "omega " * (i + 1) + FILLER} for i in range(6)]
    return index_of_one_age(tenant, *specs)


@pytest.mark.parametrize("limit", [2, 5])
def test_phrases_found_through_their_pairs_walk_like_the_exact_path(
    app, rank_vector, pair_corpus, find, monkeypatch, limit
):
    with app.app_context():
        postgres.forget_path()
        assert postgres._by_pairs(query_syntax.parse('"alpha beta" or omega'))
    walks, stood = _walks_equal_the_exact_walks(
        app, find, monkeypatch, PHRASES, limit, restore=_create_rank_gin
    )
    assert any(stood)  # some pages came from the bounded paths

    def found(q: str) -> set[int]:
        return {pair_corpus.index(ident) for ident in walks[q]}

    omega = set(range(10, 16))
    # `alpha-beta` is `alpha-beta alpha beta` to PostgreSQL's parser: the phrase is in it
    assert found('"alpha beta"') == {0, 1, 2, 6, 7}
    assert found('"alpha beta" or "beta alpha"') == {0, 1, 2, 4, 6, 7}
    assert found('"alpha beta gamma" or omega') == {2, 7} | omega
    # `"alpha the beta"` is `alpha <2> beta`: any one word between, `x` too
    assert found('"alpha the beta" or omega') == {3, 5} | omega
    assert 6 in found('"alpha-beta" or omega')
    assert found('"kappa lambda"') == {8}


def test_the_lead_of_a_phrase_query_reads_the_pairs_index(
    app, rank_vector, tenant, pair_corpus, find
):
    """The lead's statement looks the phrase up by its pairs, through migration 0028's index
    (the code's expression is the migration's: else PostgreSQL would compute the pairs of
    every document), and the first hit is the document with the phrase in its title."""
    with app.app_context():
        db.session.execute(text("SET LOCAL enable_seqscan = off"))
        expression = postgres.pairs_expression("document_texts.rank_vector")
        sql = f"EXPLAIN SELECT 1 FROM document_texts WHERE {expression} @@ '''alpha beta'''"  # noqa: S608
        plan = "\n".join(db.session.execute(text(sql)).scalars())
        assert postgres.PAIRS_INDEX in plan
        query = query_syntax.parse('"alpha beta" or omega')
        lead = postgres.ranked(
            tenant.id, query, postgres.DocumentFilters(), clock.now(), True, bounded="lead"
        )
        assert "dms_lead_pairs" in str(lead.compile(dialect=db.engine.dialect))
        db.session.rollback()
    assert ids_of(find('"alpha beta" or omega', limit=3))[0] == pair_corpus[0]


_PARALLEL = {  # a parallel plan however small the table
    "max_parallel_workers_per_gather": "2",
    "parallel_setup_cost": "0",
    "parallel_tuple_cost": "0",
    "min_parallel_table_scan_size": "0",
    "min_parallel_index_scan_size": "0",
    "enable_seqscan": "off",
}


def _plan_nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from _plan_nodes(child)


def test_a_parallel_plan_does_not_scan_for_the_phrase_when_its_pairs_are_looked_up(
    app, rank_vector, tenant, pair_corpus
):
    """A parallel plan evaluates its InitPlans up front: both branches of postgres_pairs'
    CASE, where a serial plan computes only the one taken. The lookup without pairs (every
    lead holding the phrase's words) is gated on the pairs' absence, so for a phrase with
    pairs it is never executed."""
    query = query_syntax.parse('"alpha beta" or omega')
    with app.app_context():
        for name, value in _PARALLEL.items():
            db.session.execute(text("SELECT set_config(:n, :v, true)"), {"n": name, "v": value})
        stmt = postgres.ranked(
            tenant.id, query, postgres.DocumentFilters(), clock.now(), True, bounded="lead"
        )
        compiled = stmt.compile(dialect=db.engine.dialect)
        explain = "EXPLAIN (ANALYZE, FORMAT JSON) " + str(compiled)
        connection = db.session.connection()
        plan = connection.exec_driver_sql(explain, compiled.params).scalar_one()[0]["Plan"]
        db.session.rollback()
    nodes = list(_plan_nodes(plan))
    assert any(n["Node Type"] in ("Gather", "Gather Merge") for n in nodes)
    scans = [n for n in nodes if n.get("Relation Name") == "document_texts"]
    by_pairs = [n for n in scans if "dms_lead_pairs" in _conditions(n)]
    assert any(n["Actual Loops"] for n in by_pairs)  # the pairs were looked up
    without_pairs = [n for n in scans if "<->" in _conditions(n) and n not in by_pairs]
    assert without_pairs  # the gated scan is in the plan,
    assert all(n["Actual Loops"] == 0 for n in without_pairs)  # and never executed


def _conditions(node: dict) -> str:
    return " ".join(node.get(key, "") for key in ("Index Cond", "Recheck Cond", "Filter"))


def test_the_pairs_of_a_vector_are_its_adjacent_lexemes(app, database_url):
    _skip_unless_postgres(database_url)
    with app.app_context():
        pairs = db.session.execute(
            text("SELECT dms_lead_pairs(to_tsvector('english', 'the quick brown fox is lazy'))")
        ).scalar_one()
        db.session.rollback()
    # `fox is lazy`: `is` is a stop word, so `fox` and `lazi` are not adjacent
    assert pairs == "'brown fox' 'quick brown'"
