"""GET /api/v1/search: ranking, highlights, signals, filters, query syntax, validation,
and tenant isolation (on SQLite FTS5 and PostgreSQL full text alike)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text

import clock
from extensions import db
from models import Document
from services.search.engines.postgres import _RANK_NORMALISATION, WEIGHTS
from tests.helpers import auth_headers
from tests.search.conftest import ids_of
from tests.support import statements


def test_title_match_outranks_a_body_match(index_documents, tenant, find):
    body_doc, title_doc = index_documents(
        tenant,
        {"title": "Meeting notes", "text": "We discussed the budget and the hiring plan."},
        {"title": "Budget 2027", "text": "Numbers for next year are attached."},
    )
    response = find("budget")
    assert ids_of(response) == [title_doc, body_doc]
    hits = response.get_json()["data"]
    assert hits[0]["score"] > hits[1]["score"]


def test_hit_shape_signals_and_ai_signals_used(index_documents, tenant, find):
    (doc,) = index_documents(tenant, {"title": "Harbour survey", "text": "Tide tables."})
    body = find("harbour").get_json()
    assert body["meta"]["aiSignalsUsed"] == ["keyword", "recency"]
    assert body["meta"]["pagination"] == {"limit": 50, "hasMore": False}
    (hit,) = body["data"]
    assert hit["document"]["id"] == doc
    assert hit["document"]["textStatus"] == "done"
    assert set(hit["signals"]) == {"keyword", "recency"}
    assert hit["signals"]["keyword"] > 0
    assert 0 < hit["signals"]["recency"] <= 1
    assert hit["score"] >= hit["signals"]["keyword"]

    plain = find("harbour", recency="false").get_json()
    assert plain["meta"]["aiSignalsUsed"] == ["keyword"]
    assert set(plain["data"][0]["signals"]) == {"keyword"}
    assert plain["data"][0]["score"] == plain["data"][0]["signals"]["keyword"]


def test_recency_lifts_the_recently_changed_of_equal_matches(app, index_documents, tenant, find):
    old, new, *_ = index_documents(
        tenant,
        {"title": "Lighthouse log", "text": "keeper"},
        {"title": "Lighthouse log", "text": "keeper"},
        # bm25 gives a term found in every document no weight at all: keep it rarer than that.
        *[{"title": f"Harbour note {i}", "text": "tide tables"} for i in range(4)],
    )
    with app.app_context():
        db.session.get(Document, new).updated_at = clock.now() - timedelta(days=1)
        db.session.get(Document, old).updated_at = clock.now() - timedelta(days=400)
        db.session.commit()
    hits = find("lighthouse").get_json()["data"]
    assert [h["document"]["id"] for h in hits] == [new, old]
    assert hits[0]["signals"]["recency"] > hits[1]["signals"]["recency"]
    assert hits[0]["signals"]["keyword"] == hits[1]["signals"]["keyword"]


def test_highlights_mark_terms_and_escape_markup(index_documents, tenant, find):
    index_documents(
        tenant,
        {
            "title": "Invoice <b>archive</b>",
            "text": 'Intro words here. When AT&T says "5 > 3" the invoice total is due.',
        },
    )
    (hit,) = find("invoice").get_json()["data"]
    fields = {h["field"]: h["snippet"] for h in hit["highlights"]}
    assert fields["title"] == "<mark>Invoice</mark> &lt;b&gt;archive&lt;/b&gt;"
    assert "<mark>invoice</mark>" in fields["text"]
    # The text's own markup characters come back escaped: the only markup is our <mark>.
    assert 'AT&amp;T says "5 &gt; 3"' in fields["text"]


def test_marker_characters_in_a_document_never_become_markup(index_documents, tenant, find):
    """The engines mark matches with U+E000/U+E001 before escaping; a document holding those
    characters must not open or close <mark> elements of its own."""
    index_documents(
        tenant,
        {
            "title": "\ue000markerprobe\ue001 \ue000 openonly",
            "text": "Some \ue000 words \ue001 then markerprobe and \ue001\ue001 more words.",
        },
    )
    (hit,) = find("markerprobe").get_json()["data"]
    fields = {h["field"]: h["snippet"] for h in hit["highlights"]}
    for snippet in fields.values():
        assert snippet.count("<mark>") == snippet.count("</mark>") == 1, snippet
        assert "\ue000" not in snippet and "\ue001" not in snippet
    assert fields["title"] == "<mark>markerprobe</mark>  openonly"
    assert "<mark>markerprobe</mark>" in fields["text"]


def test_text_snippets_come_from_where_a_query_word_is_spelt(index_documents, tenant, find):
    """PostgreSQL parses a window from the first place a query word is spelt (an early
    match, a late one); either way each hit gets its own text snippet, of whole words."""
    filler = "meeting notes about nothing in particular " * 100  # 4,200 characters
    early, late, both = index_documents(
        tenant,
        {"title": "Early", "text": "the glacier moved " + filler},
        {"title": "Late", "text": filler + " the glacier moved"},
        {"title": "Both", "text": "a glacier " + filler + " another glacier"},
    )
    hits = {h["document"]["id"]: h for h in find("glacier", limit=10).get_json()["data"]}
    assert set(hits) == {early, late, both}
    for ident in (early, late, both):
        (snippet,) = [h["snippet"] for h in hits[ident]["highlights"] if h["field"] == "text"]
        assert "<mark>glacier</mark>" in snippet
    late_snippet = hits[late]["highlights"][0]["snippet"]
    assert late_snippet.rstrip().endswith("<mark>glacier</mark> moved")
    words = set(filler.split()) | {"the", "glacier", "moved"}
    shown = late_snippet.replace("<mark>", "").replace("</mark>", "").replace("…", " ").split()
    assert set(shown) <= words, shown  # the window's cut first word is not shown


def test_a_snippet_shows_a_word_found_far_from_the_other(index_documents, tenant, find):
    """`glacier moraine`: the title has one word, the text the other past its first 2,000
    characters; the text snippet shows that word (a window where it is, not the start)."""
    filler = "meeting notes about nothing in particular " * 100
    index_documents(tenant, {"title": "Glacier", "text": filler + " a moraine formed"})
    (hit,) = find("glacier moraine").get_json()["data"]
    fields = {h["field"]: h["snippet"] for h in hit["highlights"]}
    assert "<mark>Glacier</mark>" in fields["title"]
    assert "<mark>moraine</mark> formed" in fields["text"]


def test_a_word_whose_stem_is_spelt_otherwise_is_still_shown(index_documents, tenant, find):
    """PostgreSQL stems `happy` as `happi`, which the text never spells: its snippet comes
    from parsing the text itself (HEADLINE_MAX_CHARS), not from the window."""
    filler = "meeting notes about nothing in particular " * 100
    index_documents(tenant, {"title": "Minutes", "text": filler + " a happy ending"})
    (hit,) = find("happy").get_json()["data"]
    (snippet,) = [h["snippet"] for h in hit["highlights"] if h["field"] == "text"]
    assert "<mark>happy</mark> ending" in snippet


def test_snippets_look_at_the_first_characters_of_a_text_not_bytes(
    index_documents, tenant, find, database_url
):
    """PostgreSQL's snippets look at a text's first HEADLINE_MAX_CHARS characters: a word
    past 50,000 bytes of two-byte letters but within 50,000 characters is shown; a word
    past 50,000 characters is not (the title's is)."""
    two_byte, far = index_documents(
        tenant,
        {"title": "Minutes", "text": "é " * 20_000 + "the glacier moved"},
        {"title": "Glacier far", "text": "x " * 30_000 + "the glacier moved"},
    )
    hits = {h["document"]["id"]: h for h in find("glacier", limit=10).get_json()["data"]}
    fields = {
        ident: {h["field"]: h["snippet"] for h in hits[ident]["highlights"]} for ident in hits
    }
    assert "<mark>glacier</mark> moved" in fields[two_byte]["text"]
    assert "<mark>Glacier</mark>" in fields[far]["title"]
    if database_url.startswith("postgres"):
        assert "text" not in fields[far]


def test_a_title_only_match_has_no_text_highlight(index_documents, tenant, find):
    index_documents(tenant, {"title": "Glacier survey", "text": "tide tables " * 300})
    (hit,) = find("glacier").get_json()["data"]
    assert [h["field"] for h in hit["highlights"]] == ["title"]


def test_text_only_match_has_no_title_highlight(index_documents, tenant, find):
    index_documents(tenant, {"title": "Plain title", "text": "The glacier moved slowly."})
    (hit,) = find("glacier").get_json()["data"]
    assert [h["field"] for h in hit["highlights"]] == ["text"]
    assert "<mark>glacier</mark>" in hit["highlights"][0]["snippet"]


def test_stemming_finds_other_forms(index_documents, tenant, find):
    (doc,) = index_documents(tenant, {"title": "Reports", "text": "She was running the reports."})
    assert ids_of(find("runs")) == [doc]


def test_tags_and_metadata_values_are_searched(index_documents, tenant, find):
    tagged, with_meta = index_documents(
        tenant,
        {"title": "One", "text": "x", "tags": ["quarantine"]},
        {"title": "Two", "text": "y", "meta": {"customer": "Wolfram"}},
    )
    assert ids_of(find("quarantine")) == [tagged]
    assert ids_of(find("wolfram")) == [with_meta]


def test_all_words_must_match_phrases_or_and_exclusions(index_documents, tenant, find):
    red_apple, green_apple, red_car = index_documents(
        tenant,
        {"title": "a", "text": "red apple pie"},
        {"title": "b", "text": "green apple sauce"},
        {"title": "c", "text": "a fast red car"},
    )
    assert set(ids_of(find("apple red"))) == {red_apple}
    assert set(ids_of(find('"red apple"'))) == {red_apple}
    assert set(ids_of(find('"apple red"'))) == set()
    assert set(ids_of(find("apple or car"))) == {red_apple, green_apple, red_car}
    assert set(ids_of(find("red -car"))) == {red_apple}


def test_stop_words_with_an_exclusion_find_nothing_on_postgresql(
    index_documents, tenant, find, database_url
):
    """PostgreSQL ignores English stop words, so `the` alone finds nothing, and `the -car`
    found every document without `car` (the empty group vanished from `'' & !car`). SQLite's
    FTS5 has no stop words: there `the` is a word like any other."""
    apple, _ = index_documents(
        tenant, {"title": "a", "text": "the red apple"}, {"title": "b", "text": "the fast car"}
    )
    expected = [] if database_url.startswith("postgres") else [apple]
    assert ids_of(find("the -car")) == expected
    assert ids_of(find("the or of -car")) == expected
    assert ids_of(find("the red -car")) == [apple]  # a stop word beside a word is ignored


def test_filters_apply_to_search(app, index_documents, tenant, find):
    tagged, plain, trashed, archived = index_documents(
        tenant,
        {"title": "Pricing memo", "text": "pricing", "tags": ["finance"], "meta": {"team": "ops"}},
        {"title": "Pricing draft", "text": "pricing"},
        {"title": "Pricing old", "text": "pricing"},
        {"title": "Pricing archive", "text": "pricing"},
    )
    with app.app_context():
        db.session.get(Document, trashed).status = "deleted"
        db.session.get(Document, archived).status = "archived"
        db.session.commit()
    assert set(ids_of(find("pricing"))) == {tagged, plain, archived}
    assert ids_of(find("pricing", tag="finance")) == [tagged]
    assert ids_of(find("pricing", **{"metadata.team": "ops"})) == [tagged]
    assert ids_of(find("pricing", status="deleted")) == [trashed]
    assert ids_of(find("pricing", status="archived")) == [archived]
    assert set(ids_of(find("pricing", title="draft"))) == {plain}
    assert set(ids_of(find("pricing", contentType="text/plain"))) == {tagged, plain, archived}
    assert ids_of(find("pricing", contentType="application/pdf")) == []


def test_other_tenants_documents_never_appear(
    index_documents, tenant, other_tenant, create_key, client, find
):
    (mine,) = index_documents(tenant, {"title": "Secret merger", "text": "merger terms"})
    (theirs,) = index_documents(other_tenant, {"title": "Secret merger", "text": "merger"})
    assert ids_of(find("merger")) == [mine]
    _, secret = create_key(other_tenant)
    response = client.get(
        "/api/v1/search", query_string={"q": "merger"}, headers=auth_headers(secret, "globex")
    )
    assert ids_of(response) == [theirs]


def test_search_needs_the_read_scope(tenant, create_key, client):
    _, secret = create_key(tenant, scopes=["workflows:read"])
    response = client.get(
        "/api/v1/search", query_string={"q": "x"}, headers=auth_headers(secret, tenant.id)
    )
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"


def test_q_is_required_and_bounded(find, tenant):
    for response in (find(None, expect=400), find("", expect=400), find("a" * 501, expect=400)):
        error = response.get_json()["errors"][0]
        assert error["code"] == "INVALID_PARAMETER"
        assert error["field"] == "q"
    assert find("a" * 500).get_json()["data"] == []


def test_unknown_parameters_and_other_sorts_are_refused(find, tenant):
    assert find("x", expect=400, colour="red").get_json()["errors"][0]["code"] == (
        "INVALID_PARAMETER"
    )
    assert find("x", expect=400, sort="-createdAt").get_json()["errors"][0]["field"] == "sort"


def test_text_still_pending_is_found_by_title(app, tenant, find):
    from tests.support import stored_document

    doc = stored_document(app, tenant.id, b"body words", "n.txt", title="Quokka census")
    response = find("quokka")
    assert ids_of(response) == [doc]
    assert response.get_json()["data"][0]["document"]["textStatus"] == "pending"


def test_a_page_of_hits_runs_as_many_statements_as_a_page_of_one(
    app, index_documents, tenant, find
):
    """The hits' documents are serialised together (one workflow query for the page), not
    one query per hit. (More matches than either page, so both take the same path: a short
    page would also run the exact path after the bounded attempt.)"""
    index_documents(tenant, *({"text": f"needle number {i}"} for i in range(30)))
    assert len(ids_of(find("needle", limit=12))) == 12  # warm: key cache, last-used
    with statements(app) as one:
        assert len(ids_of(find("needle", limit=1))) == 1
    with statements(app) as twelve:
        assert len(ids_of(find("needle", limit=12))) == 12
    assert len(twelve) == len(one)


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ('"annual report" or budget -draft', {"report", "budget"}),
        ("annual or budget -draft", {"report", "budget"}),
        ('"annual report" -draft', {"report"}),
        ('"annual report" or budget', {"report", "budget", "report draft", "budget draft"}),
        ("annual budget or report", {"report", "report draft"}),
        # a `-` before a quote excludes the phrase (it was read as requiring it)
        ('annual -"report draft"', {"report"}),
        ('budget -"draft budget"', {"budget"}),
    ],
)
def test_groups_alternatives_and_exclusions_read_alike_on_both_engines(
    index_documents, tenant, find, q, expected
):
    """Every group must match, any term of a group may, no excluded term may (PostgreSQL read
    `"a b" or c -d` as `a <-> b | (c & !d)`: a draft holding the phrase was found)."""
    index_documents(
        tenant,
        {"title": "report", "text": "the annual report for the year"},
        {"title": "report draft", "text": "draft of the annual report"},
        {"title": "budget", "text": "budget figures"},
        {"title": "budget draft", "text": "draft budget figures"},
        {"title": "neither", "text": "minutes of the meeting"},
    )
    found = {hit["document"]["title"] for hit in find(q, limit=50).get_json()["data"]}
    assert found == expected


def test_an_excluded_phrase_leaves_its_words_apart_and_counts_them_in_the_rank(
    app, index_documents, tenant, find, database_url
):
    """`alpha zeta -"beta gamma"`: a document holding beta and gamma apart is a hit, one
    holding the phrase is not. On PostgreSQL each hit's keyword is ts_rank_cd of its rank
    vector by the whole query: for the document with the words apart that differs from the
    rank by the groups alone (the excluded words' positions count), which the cheaper ranking
    of a vector without excluded words (postgres._keyword) must not be used for."""
    apart, plain, _phrase = index_documents(
        tenant,
        {"title": "One", "text": "alpha beta zeta gamma"},
        {"title": "Two", "text": "alpha zeta"},
        {"title": "Three", "text": "alpha beta gamma zeta"},
    )
    data = find('alpha zeta -"beta gamma"').get_json()["data"]
    keyword = {hit["document"]["id"]: hit["signals"]["keyword"] for hit in data}
    assert set(keyword) == {apart, plain}
    if not database_url.startswith("postgres"):
        return

    def rank(tsquery: str) -> str:
        return (
            f"round(ts_rank_cd('{WEIGHTS}'::float4[], rank_vector, {tsquery},"
            f" {_RANK_NORMALISATION})::numeric, 6)::float8"
        )

    groups = "websearch_to_tsquery('english', 'alpha zeta')"
    whole = f"""{groups} && !! websearch_to_tsquery('english', '"beta gamma"')"""
    with app.app_context():
        rows = db.session.execute(
            text(f"SELECT document_id, {rank(whole)}, {rank(groups)} FROM document_texts"),  # noqa: S608 (constant fragments)
        ).all()
    by_whole = {ident: w for ident, w, _ in rows if ident in keyword}
    assert {ident: g for ident, _, g in rows if ident == apart} != {apart: by_whole[apart]}
    assert keyword == by_whole
