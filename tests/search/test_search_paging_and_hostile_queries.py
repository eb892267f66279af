"""Search pages and queries: keyset walks over (score, id) without repeats while documents
are added, cursor binding and expiry, and hostile input that must never cause a 500."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clock


def _walk(find, q: str, limit: int, between_pages=None) -> list[str]:
    seen: list[str] = []
    cursor = None
    for page_number in range(100):
        params = {"limit": limit}
        if cursor:
            params["cursor"] = cursor
        body = find(q, **params).get_json()
        seen += [hit["document"]["id"] for hit in body["data"]]
        scores = [hit["score"] for hit in body["data"]]
        assert scores == sorted(scores, reverse=True)
        if not body["meta"]["pagination"]["hasMore"]:
            return seen
        cursor = body["meta"]["pagination"]["nextCursor"]
        if between_pages:
            between_pages(page_number)
    raise AssertionError("the walk did not end")


def test_walk_without_repeats_or_skips_while_documents_are_added(index_documents, tenant, find):
    # Varying counts give varying scores; equal texts give ties broken by id.
    specs = [{"title": f"Doc {i}", "text": "walrus " * (1 + i % 4)} for i in range(23)]
    existing = index_documents(tenant, *specs)

    def insert(page_number: int) -> None:
        index_documents(tenant, {"title": f"Late walrus {page_number}", "text": "walrus walrus"})

    seen = _walk(find, "walrus", limit=5, between_pages=insert)
    assert len(seen) == len(set(seen))
    assert set(existing) <= set(seen)


def test_limit_is_clamped_and_echoed(index_documents, tenant, find):
    index_documents(tenant, {"title": "Clamp", "text": "otter"})
    body = find("otter", limit=1000).get_json()
    assert body["meta"]["pagination"]["limit"] == 200
    assert find("otter", expect=400, limit=0).get_json()["errors"][0]["field"] == "limit"


def test_cursor_is_bound_to_query_filters_and_tenant(
    index_documents, tenant, find, create_key, client
):
    index_documents(tenant, *[{"title": f"t{i}", "text": "badger"} for i in range(3)])
    cursor = find("badger", limit=1).get_json()["meta"]["pagination"]["nextCursor"]

    for other in ({"q": "otter"}, {"q": "badger", "tag": "x"}, {"q": "badger", "recency": "0"}):
        q = other.pop("q")
        error = find(q, expect=400, cursor=cursor, limit=1, **other).get_json()["errors"][0]
        assert error["code"] == "INVALID_CURSOR"

    tampered = cursor[:-3] + ("AAA" if not cursor.endswith("AAA") else "BBB")
    assert find("badger", expect=400, cursor=tampered).get_json()["errors"][0]["code"] == (
        "INVALID_CURSOR"
    )
    assert find("badger", expect=400, cursor="garbage").get_json()["errors"][0]["code"] == (
        "INVALID_CURSOR"
    )


def test_documents_cursor_is_not_a_search_cursor(index_documents, tenant, find, client, headers):
    index_documents(tenant, *[{"title": f"t{i}", "text": "heron"} for i in range(3)])
    listing = client.get("/api/v1/documents", query_string={"limit": 1}, headers=headers)
    cursor = listing.get_json()["meta"]["pagination"]["nextCursor"]
    assert find("heron", expect=400, cursor=cursor).get_json()["errors"][0]["code"] == (
        "INVALID_CURSOR"
    )


def test_cursor_expires_after_an_hour(index_documents, tenant, find):
    index_documents(tenant, *[{"title": f"t{i}", "text": "lynx"} for i in range(3)])
    cursor = find("lynx", limit=1).get_json()["meta"]["pagination"]["nextCursor"]
    assert find("lynx", cursor=cursor, limit=1).get_json()["data"]
    clock.shift(timedelta(minutes=61))
    assert find("lynx", expect=400, cursor=cursor, limit=1).get_json()["errors"][0]["code"] == (
        "CURSOR_EXPIRED"
    )


HOSTILE = [
    "-",
    "*",
    '"',
    '""',
    '"unbalanced phrase',
    "(((",
    "a) OR (b",
    "NEAR(a b, 2)",
    "title:secret",
    "body : x",
    "^start",
    "a AND",
    "OR",
    "or or or",
    "NOT x",
    "-x -y",
    "x\x00y",
    "\x00",
    "'; DROP TABLE documents; --",
    "!!! ??? ...",
    "a & b | !c <-> d",
    "a:* & b:*",
    "{}[]\\/",
    "\u202e\u200b emoji 🎉 ∑",
    "ß ﬁ İ ǅ",
    "_",
    "__init__",
    "x" * 500,
    " ".join(["w"] * 40),
]


@pytest.mark.parametrize("q", HOSTILE)
def test_hostile_queries_answer_200_or_400(index_documents, tenant, find, q):
    index_documents(tenant, {"title": "Target", "text": "a b c x y start secret"})
    response = find(q, expect=None)
    assert response.status_code in (200, 400), (q, response.get_json())
    body = response.get_json()
    if response.status_code == 400:
        assert body["errors"][0]["code"] == "INVALID_PARAMETER"
    else:
        assert isinstance(body["data"], list)


def test_excluding_everything_or_only_punctuation_is_invalid(find, tenant):
    for q in ("-alone", "***", '" "'):
        error = find(q, expect=400).get_json()["errors"][0]
        assert (error["code"], error["field"]) == ("INVALID_PARAMETER", "q")


@pytest.fixture
def one_document(index_documents, tenant):
    return index_documents(tenant, {"title": "Near title", "text": "a b or not near x y z"})


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(q=st.text(min_size=1, max_size=500))
def test_any_text_answers_200_or_400(app, one_document, headers, q):
    client = app.test_client()
    response = client.get("/api/v1/search", query_string={"q": q}, headers=headers)
    assert response.status_code in (200, 400), (q, response.get_json())
    assert response.get_json()["success"] is (response.status_code == 200)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    q=st.lists(
        st.sampled_from(['"', "-", "or", "OR", "(", ")", "NEAR", ":", "*", "^", "a", "b", " "]),
        min_size=1,
        max_size=30,
    ).map("".join)
)
def test_operator_soup_answers_200_or_400(app, one_document, headers, q):
    client = app.test_client()
    response = client.get("/api/v1/search", query_string={"q": q}, headers=headers)
    assert response.status_code in (200, 400), (q, response.get_json())
