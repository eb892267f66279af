"""GET /documents: every filter and sort, keyset walks, cursors, limits, parameters."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

import clock

URL = "/api/v1/documents"


def _list(client, headers, **params):
    response = client.get(URL, headers=headers, query_string=params)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    return [d["title"] for d in body["data"]], body["meta"]["pagination"]


@pytest.fixture
def library(make_document, client, headers):
    """Five documents, created a minute apart, with varied tags, types and metadata."""
    start = clock.now().replace(microsecond=0) - timedelta(days=1)
    clock.freeze(start)
    docs = {}
    specs = [
        ("alpha report", b"%PDF-1.4 a", "a.pdf", ["finance", "q1"], {"dept": "sales"}),
        ("Beta notes", b"beta words", "b.txt", ["finance"], {"dept": "ops"}),
        ("gamma REPORT", b"# gamma", "g.md", ["q1"], {"dept": "sales", "year": "2026"}),
        ("delta sheet", b"a,b\n1,2\n", "d.csv", [], {}),
        ("epsilon 50%_off", b"eps", "e.txt", ["finance", "q1"], {"year": "2025"}),
    ]
    for title, content, name, tags, meta in specs:
        clock.shift(timedelta(minutes=1))
        docs[title] = make_document(content, name, title=title, tags=tags, metadata=meta)
    clock.reset()
    return docs


def test_default_order_is_newest_first(client, headers, library):
    titles, page = _list(client, headers)
    assert titles == list(reversed(library))
    assert page == {"limit": 50, "hasMore": False}


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        (
            "createdAt",
            ["alpha report", "Beta notes", "gamma REPORT", "delta sheet", "epsilon 50%_off"],
        ),
        (
            "-createdAt",
            ["epsilon 50%_off", "delta sheet", "gamma REPORT", "Beta notes", "alpha report"],
        ),
        ("title", ["Beta notes", "alpha report", "delta sheet", "epsilon 50%_off", "gamma REPORT"]),
        (
            "-title",
            ["gamma REPORT", "epsilon 50%_off", "delta sheet", "alpha report", "Beta notes"],
        ),
    ],
)
def test_sort_orders(client, headers, library, sort, expected):
    titles, _ = _list(client, headers, sort=sort)
    if sort.lstrip("-") == "title":  # collation decides where capitals go; compare as sorted
        assert titles in (expected, sorted(expected, key=str.lower, reverse=sort[0] == "-"))
    else:
        assert titles == expected


def test_updated_at_sorts_follow_changes(client, headers, library):
    oldest = library["alpha report"]["id"]
    clock.shift(timedelta(minutes=30))
    client.patch(f"{URL}/{oldest}", json={"title": "alpha report v2"}, headers=headers)
    titles, _ = _list(client, headers, sort="-updatedAt")
    assert titles[0] == "alpha report v2"
    titles, _ = _list(client, headers, sort="updatedAt")
    assert titles[-1] == "alpha report v2"


def test_filters(client, headers, library):
    created = {t: d["createdAt"] for t, d in library.items()}

    def titles(**params):
        return set(_list(client, headers, **params)[0])

    assert titles(tag="finance") == {"alpha report", "Beta notes", "epsilon 50%_off"}
    assert titles(tag=["finance", "q1"]) == {"alpha report", "epsilon 50%_off"}
    assert titles(tag="finance,q1") == {"alpha report", "epsilon 50%_off"}
    assert titles(tag="nope") == set()
    assert titles(contentType="application/pdf") == {"alpha report"}
    assert titles(contentType="text/*") == {
        "Beta notes",
        "gamma REPORT",
        "delta sheet",
        "epsilon 50%_off",
    }
    assert titles(contentType="text/csv") == {"delta sheet"}
    assert titles(title="report") == {"alpha report", "gamma REPORT"}
    assert titles(title="50%_") == {"epsilon 50%_off"}  # LIKE wildcards are literal
    assert titles(title="%") == {"epsilon 50%_off"}
    assert titles(**{"metadata.dept": "sales"}) == {"alpha report", "gamma REPORT"}
    assert titles(**{"metadata.dept": "sales", "metadata.year": "2026"}) == {"gamma REPORT"}
    assert titles(**{"metadata.year": "1999"}) == set()
    assert titles(createdAfter=created["gamma REPORT"]) == {
        "gamma REPORT",
        "delta sheet",
        "epsilon 50%_off",
    }
    assert titles(createdBefore=created["gamma REPORT"]) == {"alpha report", "Beta notes"}
    assert titles(createdAfter=created["Beta notes"], createdBefore=created["delta sheet"]) == {
        "Beta notes",
        "gamma REPORT",
    }
    assert titles(updatedAfter=created["epsilon 50%_off"]) == {"epsilon 50%_off"}
    assert titles(updatedBefore=created["Beta notes"]) == {"alpha report"}
    assert titles(tag="q1", contentType="text/*", title="REPORT") == {"gamma REPORT"}


def test_metadata_pairs_as_generated_clients_send_them(client, headers, library):
    """`metadata=<key>:<value>`, repeated for several pairs (the OpenAPI document's form),
    beside `metadata.<key>=<value>`; a value keeps its own colons and commas."""

    def titles(query: str) -> set[str]:
        response = client.get(f"{URL}?{query}", headers=headers)
        assert response.status_code == 200, response.get_json()
        return {d["title"] for d in response.get_json()["data"]}

    assert titles("metadata=dept:sales") == {"alpha report", "gamma REPORT"}
    assert titles("metadata=dept:sales&metadata=year:2026") == {"gamma REPORT"}
    assert titles("metadata=dept:sales&metadata.year=2026") == {"gamma REPORT"}
    assert titles("metadata=year:1999") == set()
    assert titles("metadata=dept:sales,ops") == set()  # one value, not two pairs
    assert titles("metadata=dept:sales&metadata.dept=sales") == {"alpha report", "gamma REPORT"}


@pytest.mark.parametrize(
    "query",
    [
        "metadata=dept",  # no colon
        "metadata=bad%20key:x",
        "metadata=:x",
        "metadata=dept:a&metadata=dept:b",
        "metadata=dept:a&metadata.dept=b",
        "&".join(f"metadata=k{i}:v" for i in range(11)),
    ],
)
def test_bad_metadata_pairs_are_400_naming_metadata(client, headers, query):
    response = client.get(f"{URL}?{query}", headers=headers)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("INVALID_PARAMETER", "metadata")


def test_status_filter_and_the_trash(client, headers, library):
    archived, trashed = library["Beta notes"]["id"], library["delta sheet"]["id"]
    client.patch(f"{URL}/{archived}", json={"status": "archived"}, headers=headers)
    client.delete(f"{URL}/{trashed}", headers=headers)
    default = set(_list(client, headers)[0])
    assert "delta sheet" not in default and "Beta notes" in default
    assert set(_list(client, headers, status="archived")[0]) == {"Beta notes"}
    assert set(_list(client, headers, status="deleted")[0]) == {"delta sheet"}
    assert len(_list(client, headers, status="active,archived,deleted")[0]) == 5


@pytest.mark.parametrize(
    "params",
    [
        {"unknown": "1"},
        {"status": "gone"},
        {"sort": "size"},
        {"limit": "0"},
        {"limit": "ten"},
        {"createdAfter": "yesterday"},
        {"metadata.bad key": "x"},
        {"metadata": "x"},
        {"metadata": ""},
        {"title": ""},
    ],
)
def test_bad_parameters_are_400(client, headers, params):
    response = client.get(URL, headers=headers, query_string=params)
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "INVALID_PARAMETER"


def test_repeated_scalar_parameter_is_400(client, headers):
    response = client.get(f"{URL}?sort=title&sort=-title", headers=headers)
    assert response.status_code == 400


def test_limit_is_clamped_to_200_and_echoed(client, headers, library):
    assert _list(client, headers, limit=500)[1] == {"limit": 200, "hasMore": False}
    assert _list(client, headers, limit=2)[1]["limit"] == 2


def _walk(client, headers, **params) -> list[str]:
    ids, cursor = [], None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        response = client.get(URL, headers=headers, query_string=query)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        ids += [d["id"] for d in body["data"]]
        page = body["meta"]["pagination"]
        if not page["hasMore"]:
            assert "nextCursor" not in page
            return ids
        cursor = page["nextCursor"]


@pytest.mark.parametrize("sort", ["-createdAt", "createdAt", "title", "-title", "updatedAt"])
def test_walking_pages_visits_every_row_once(client, headers, make_document, sort):
    clock.freeze(clock.now())  # identical timestamps: the id must break the ties
    made = [
        make_document(f"doc {i}".encode(), f"{i}.txt", title=f"t{i % 3}")["id"] for i in range(7)
    ]
    clock.reset()
    walked = _walk(client, headers, sort=sort, limit=2)
    assert sorted(walked) == sorted(made)
    assert len(walked) == len(set(walked))


def test_walk_with_concurrent_inserts_never_repeats_or_skips(app, client, headers, upload):
    existing = {upload(f"old {i}".encode(), "o.txt").get_json()["data"]["id"] for i in range(12)}
    stop = threading.Event()
    inserted: list[str] = []

    def writer() -> None:
        writer_client = app.test_client()
        while not stop.is_set() and len(inserted) < 30:
            response = writer_client.post(
                URL,
                data={"file": (__import__("io").BytesIO(b"new"), "n.txt")},
                headers=headers,
                content_type="multipart/form-data",
            )
            inserted.append(response.get_json()["data"]["id"])

    for sort in ("-createdAt", "createdAt"):
        thread = threading.Thread(target=writer)
        thread.start()
        try:
            walked = _walk(client, headers, sort=sort, limit=3)
        finally:
            stop.set()
            thread.join(timeout=30)
        stop.clear()
        assert len(walked) == len(set(walked)), "a row was repeated"
        assert existing <= set(walked), "a row that existed when the walk began was skipped"
        existing |= set(inserted)


def _first_cursor(client, headers, **params) -> str:
    response = client.get(URL, headers=headers, query_string={"limit": 1, **params})
    return response.get_json()["meta"]["pagination"]["nextCursor"]


def test_tampered_cursor_is_invalid(client, headers, library):
    cursor = _first_cursor(client, headers)
    for bad in (cursor[:-2] + ("AA" if not cursor.endswith("AA") else "BB"), "garbage", "a.b.c"):
        response = client.get(URL, headers=headers, query_string={"cursor": bad})
        assert response.status_code == 400
        assert response.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


def test_cursor_expires_after_an_hour(client, headers, library):
    cursor = _first_cursor(client, headers)
    clock.shift(timedelta(minutes=59))
    assert client.get(URL, headers=headers, query_string={"cursor": cursor}).status_code == 200
    clock.shift(timedelta(minutes=2))
    response = client.get(URL, headers=headers, query_string={"cursor": cursor})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "CURSOR_EXPIRED"


@pytest.mark.parametrize(
    "other",
    [
        {"sort": "title"},
        {"tag": "finance"},
        {"status": "deleted"},
        {"metadata.dept": "ops"},
        {"title": "report"},
        {"createdAfter": "2020-01-01T00:00:00Z"},
    ],
)
def test_cursor_is_bound_to_its_sort_and_filters(client, headers, library, other):
    cursor = _first_cursor(client, headers)
    response = client.get(URL, headers=headers, query_string={"cursor": cursor, **other})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "INVALID_CURSOR"
    # The limit is not part of the binding: a cursor may be used with another page size.
    ok = client.get(URL, headers=headers, query_string={"cursor": cursor, "limit": 3})
    assert ok.status_code == 200


def test_cursor_from_another_tenant_is_invalid(client, headers, library, other_tenant, create_key):
    from tests.helpers import auth_headers

    cursor = _first_cursor(client, headers)
    _, secret = create_key(other_tenant)
    response = client.get(
        URL, headers=auth_headers(secret, other_tenant.id), query_string={"cursor": cursor}
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "INVALID_CURSOR"
