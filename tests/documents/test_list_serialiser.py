"""The list's JSON, written by the database (listing.list_page + wire.listed_documents_json),
against the pydantic model every other document answer goes through (DocumentOut): field for
field the same JSON, on documents chosen to be awkward (odd Unicode and control characters,
nulls, large metadata, trashed, timestamps a microsecond before the next second, tags that
sort differently by case and accent, several pages)."""

from __future__ import annotations

from datetime import timedelta

import orjson
import pytest
from sqlalchemy import event, update

import clock
from extensions import db
from models import Document
from services.documents import documents, listing, wire
from services.documents.filters import parse_position, position_of
from services.documents.wire import DocumentListQuery

URL = "/api/v1/documents"
ODD_TITLES = [
    "naïve café — “quotes” & <tags>",
    "emoji 📄🧾 family 👩‍👩‍👧 flag 🇫🇷",
    "RTL עברית العربية mixed",
    "combining e\u0301 and zero\u200bwidth",
    'line\nbreak\ttab \\ backslash "double" \x01 bell\x07 </script>',
    "CJK 文書管理 日本語",
    "x" * 500,
]


@pytest.fixture
def awkward(make_document, app, tenant):
    """Documents with every field in an unusual state; returns their ids, oldest first."""
    start = clock.now().replace(microsecond=0) - timedelta(days=3)
    clock.freeze(start)
    ids = []
    big_metadata = {f"key_{i:02d}": ("valeur ünïcode 📄 " * 60)[:1000] for i in range(50)}
    try:
        for i, title in enumerate(ODD_TITLES):
            clock.shift(timedelta(minutes=1))
            tags = ["Zeta", "alpha", "Ärger", "émile", "b", "B"] if i % 2 else []
            doc = make_document(f"body {i}".encode(), f"fïle-{i}.txt", title=title, tags=tags,
                                metadata={"dept": title[:20]})  # fmt: skip
            ids.append(doc["id"])
    finally:
        clock.reset()
    with app.app_context():  # past what one upload's form may carry: the most PATCH allows
        db.session.execute(update(Document).where(Document.id == ids[2]).values(meta=big_metadata))
        db.session.execute(
            update(Document)
            .where(Document.id == ids[4])
            .values(
                meta={'quote"key': 'back\\slash "and" \x02 ✓', "": ""},
                updated_at=start + timedelta(hours=2, microseconds=999_999),
            )
        )
        db.session.execute(
            update(Document)
            .where(Document.id == ids[1])
            .values(created_by=None, text_error="limit_exceeded: ünïcode ✂", text_truncated=True)
        )
        db.session.execute(
            update(Document)
            .where(Document.id == ids[3])
            .values(status="deleted", deleted_at=start + timedelta(hours=1, microseconds=999_500))
        )
        db.session.commit()
    return ids


def _pydantic(app, tenant_id: str, query: DocumentListQuery, limit: int) -> list[dict]:
    with app.app_context():
        rows, _ = documents.list_documents(tenant_id, query, limit, None)
        return wire.documents_data(rows)


def _prepared(app, tenant_id: str, query: DocumentListQuery, limit: int) -> list[dict]:
    with app.app_context():
        rows, _ = listing.list_page(tenant_id, query, limit, None)
        return orjson.loads(wire.listed_documents_json(rows))


@pytest.mark.parametrize(
    "params",
    [{}, {"status": ["deleted"]}, {"status": ["active", "deleted"], "sort": "title"}],
)
def test_prepared_serialiser_equals_the_model(app, tenant, awkward, params):
    query = DocumentListQuery.model_validate(params)
    fast = _prepared(app, tenant.id, query, 50)
    model = _pydantic(app, tenant.id, query, 50)
    assert fast == model
    assert [{k: type(v) for k, v in item.items()} for item in fast] == [
        {k: type(v) for k, v in item.items()} for item in model
    ]
    assert fast, "the fixture's documents are listed"


def test_listed_documents_equal_each_document_read_alone(client, headers, awkward):
    """Through the API: every listed item is exactly GET /documents/{id}'s data (DocumentOut;
    the single read adds `entities`), across pages of two, trashed documents included."""
    seen, cursor = [], None
    while True:
        params = {"limit": 2, "status": ["active", "deleted"]}
        if cursor:
            params["cursor"] = cursor
        body = client.get(URL, headers=headers, query_string=params).get_json()
        for item in body["data"]:
            single = client.get(f"{URL}/{item['id']}", headers=headers).get_json()["data"]
            single.pop("entities", None)  # the single read adds the knowledge graph's
            assert item == single
            seen.append(item["id"])
        cursor = body["meta"]["pagination"].get("nextCursor")
        if cursor is None:
            break
    assert sorted(seen) == sorted(awkward)


def test_each_document_lists_its_own_tags_in_order(app, client, headers, awkward):
    """One correlated aggregate per row: each row gets its own tags (not the page's), in
    the relationship's order (the database's collation, not Python's)."""
    listed = {d["id"]: d for d in client.get(URL, headers=headers).get_json()["data"]}
    with app.app_context():
        for i, ident in enumerate(awkward):
            if i == 3:  # trashed
                assert ident not in listed
                continue
            expected = [t.tag for t in db.session.get(Document, ident).tags]
            assert len(expected) == (6 if i % 2 else 0)
            assert listed[ident]["tags"] == expected


PLAIN_SHAPES = [{}, {"sort": "title"}, {"status": ["deleted"]}, {"sort": "-updatedAt"}]


def _walk(app, tenant_id: str, query: DocumentListQuery, limit: int) -> list[str]:
    seen, position = [], None
    with app.app_context():
        while True:
            rows, more = listing.list_page(tenant_id, query, limit, position)
            seen += [row.id for row in rows]
            if not more:
                return seen
            position = parse_position(position_of(rows[-1], query.sort), query.sort)


@pytest.mark.parametrize("params", PLAIN_SHAPES)
def test_the_plain_statement_built_once_walks_like_a_fresh_one_for_each_tenant(
    app, tenant, other_tenant, awkward, store_document, monkeypatch, params
):
    """The plain list reuses one statement per shape with the tenant, size and position
    bound at execution: walked for one tenant, then another, then the first again, each
    gets exactly its own documents, as the statement built per request gives them."""
    theirs = [store_document(other_tenant, f"theirs {i}".encode()) for i in range(3)]
    query = DocumentListQuery.model_validate(params)
    assert listing.status_only(query) is not None
    reused = [_walk(app, t.id, query, 2) for t in (tenant, other_tenant, tenant)]
    monkeypatch.setattr(listing, "status_only", lambda _filters: None)
    fresh = [_walk(app, t.id, query, 2) for t in (tenant, other_tenant)]
    assert reused == [fresh[0], fresh[1], fresh[0]]
    assert not set(reused[0]) & set(theirs)
    if "status" not in params:
        assert sorted(reused[1]) == sorted(theirs)
        assert len(reused[0]) == len(awkward) - 1  # one is in the trash
    assert listing._plain_statement.cache_info().hits > 0


def test_a_filtered_list_builds_its_own_statement(app, tenant, awkward):
    query = DocumentListQuery.model_validate({"tag": ["alpha"]})
    assert listing.status_only(query) is None
    assert len(_walk(app, tenant.id, query, 2)) == 2  # documents 1 and 5 (3 is in the trash)


def test_the_debug_encoder_writes_the_same_list(app, client, headers, awkward):
    """In debug mode Flask's own encoder (indentation) replaces orjson: the page the
    database wrote is parsed into it rather than refused as an unknown type."""
    fast = client.get(URL, headers=headers).get_json()
    app.debug = True
    try:
        response = client.get(URL, headers=headers)
    finally:
        app.debug = False
    assert response.status_code == 200
    assert response.get_json() == fast
    assert len(fast["data"]) == len(awkward) - 1


def test_searched_documents_equal_each_document_read_alone(
    app, client, headers, awkward, other_tenant
):
    """A search hit's document is the list's JSON (listing.documents_json): exactly GET
    /documents/{id}'s data, awkward fields included; another tenant's ids give nothing."""
    words = "emoji or mixed or combining or break or cjk"  # titles 1 to 5 (3 is in the trash)
    found = client.get("/api/v1/search", headers=headers, query_string={"q": words}).get_json()
    hits = [hit["document"] for hit in found["data"]]
    assert sorted(item["id"] for item in hits) == sorted(awkward[i] for i in (1, 2, 4, 5))
    for item in hits:
        single = client.get(f"{URL}/{item['id']}", headers=headers).get_json()["data"]
        single.pop("entities", None)  # the single read adds the knowledge graph's
        assert item == single
    with app.app_context():
        assert listing.documents_json(other_tenant.id, awkward) == {}
        assert Document.get_many_for_tenant(awkward, other_tenant.id) == {}  # the portal's


LOADERS = {
    "json": lambda tenant_id, ids: listing.documents_json(tenant_id, ids),
    "orm": lambda tenant_id, ids: Document.get_many_for_tenant(ids, tenant_id),
}


@pytest.mark.parametrize("loader", LOADERS)
def test_a_search_pages_documents_are_found_by_id_on_sqlite(app, tenant, awkward, loader):
    """Without statistics SQLite's planner looked the documents up by the tenant's index
    (every document of the tenant: 48 ms at 100,000) rather than by their primary key: the
    API's JSON and the portal's ORM objects (TenantScoped.found_in_tenant)."""
    seen = []

    def record(_conn, _cursor, statement, parameters, *_args):
        seen.append((statement, parameters))

    with app.app_context():
        if db.session.get_bind().dialect.name != "sqlite":
            pytest.skip("SQLite's planner (PostgreSQL has statistics and finds them by key)")
        event.listen(db.engine, "before_cursor_execute", record)
        try:
            # a page's worth of ids: SQLite guesses about ten rows per tenant without statistics
            page = awkward + [f"doc_gone_{i}" for i in range(50 - len(awkward))]
            assert set(LOADERS[loader](tenant.id, page)) == set(awkward)
        finally:
            event.remove(db.engine, "before_cursor_execute", record)
        statement, parameters = seen[0]  # (the ORM then loads the tags)
        plan = db.session.connection().exec_driver_sql(
            "EXPLAIN QUERY PLAN " + statement, parameters
        )
        lookups = [row[3] for row in plan if row[3].startswith("SEARCH documents")]
    assert lookups and all("tenant" not in step for step in lookups), lookups
