"""Search's `entity` signal: a query naming an entity (or an alias) lifts the documents that
mention it, each hit shows the boost, `aiSignalsUsed` says `entity` only when it counted, and
keyset pages stay consistent."""

from __future__ import annotations

from tests.graph.conftest import ENTITIES
from tests.support import run_jobs, stored_document


def _search(client, headers, q: str, **params) -> dict:
    response = client.get("/api/v1/search", query_string={"q": q, **params}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _ids(body: dict) -> list[str]:
    return [hit["document"]["id"] for hit in body["data"]]


def _documents(app, tenant) -> tuple[str, str, str]:
    # The same keyword relevance for "quarterly report" in each; only `mentioning` names
    # the entity in its text.
    plain = stored_document(app, tenant.id, b"quarterly report on widgets", "a.txt", title="A")
    mentioning = stored_document(
        app, tenant.id, b"quarterly report on Globex, by Globex", "b.txt", title="B"
    )
    other = stored_document(app, tenant.id, b"quarterly report on gadgets", "c.txt", title="C")
    return plain, mentioning, other


def test_naming_an_entity_lifts_the_documents_that_mention_it(
    app, client, headers, tenant, make_entity
):
    _documents(app, tenant)
    run_jobs(app)
    before = _search(client, headers, "quarterly report globex", recency="false")
    assert before["meta"]["aiSignalsUsed"] == ["keyword"]
    globex = make_entity("Globex Corporation", aliases=["Globex"])
    run_jobs(app)  # the documents that name it are scanned

    plain_q = _search(client, headers, "quarterly report", recency="false")
    assert plain_q["meta"]["aiSignalsUsed"] == ["keyword"]  # no entity named
    assert all("entity" not in hit["signals"] for hit in plain_q["data"])

    body = _search(client, headers, "globex report", recency="false")
    assert body["meta"]["aiSignalsUsed"] == ["keyword", "entity"]
    [hit] = body["data"]  # only the mentioning one matches "globex" as a word
    assert hit["signals"]["entity"] == 0.5  # two mentions: 2 / (2 + 2)
    assert hit["score"] == round(hit["signals"]["keyword"] * 1.5, 6)
    assert globex["id"]


def test_the_boost_changes_the_order(app, client, headers, tenant, make_entity):
    # `stems` matches "budget" through stemming alone (budgets), so it names no entity;
    # `names` says "budget" four times but is less relevant to the engines.
    stems = stored_document(app, tenant.id, b"budgets " * 8 + b"plan", "x.txt", title="Plan")
    names = stored_document(
        app, tenant.id, b"budget plan: the budget of the budget office, budget", "y.txt"
    )
    for i in range(6):  # other documents, so the word is rare enough to weigh
        stored_document(app, tenant.id, f"filler text number {i}".encode(), f"f{i}.txt")
    run_jobs(app)
    before = _search(client, headers, "budget", recency="false")
    assert _ids(before) == [stems, names]
    assert before["meta"]["aiSignalsUsed"] == ["keyword"]

    make_entity("Budget", "project")
    run_jobs(app)
    after = _search(client, headers, "budget", recency="false")
    assert _ids(after) == [names, stems]
    assert after["meta"]["aiSignalsUsed"] == ["keyword", "entity"]
    hits = {h["document"]["id"]: h for h in after["data"]}
    assert hits[names]["signals"]["entity"] == round(4 / 6, 6)
    assert hits[stems]["signals"]["entity"] == 0.0
    keyword = hits[names]["signals"]["keyword"]
    assert hits[names]["score"] == round(keyword * (1 + 4 / 6), 6)
    # With recency the boost multiplies the recency-lifted score; still first.
    assert _ids(_search(client, headers, "budget"))[0] == names


def test_pages_are_consistent_with_the_boost(app, client, headers, tenant, make_entity):
    ids = [
        stored_document(
            app,
            tenant.id,
            ("shared words " + "Acme " * (i % 4)).encode(),
            f"d{i}.txt",
            title=f"T{i}",
        )
        for i in range(9)
    ]
    make_entity("Acme")
    run_jobs(app)
    whole = _search(client, headers, "shared acme OR words", limit=50)
    assert "entity" in whole["meta"]["aiSignalsUsed"]
    walked, cursor = [], None
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = _search(client, headers, "shared acme OR words", **params)
        walked += _ids(page)
        cursor = page["meta"]["pagination"].get("nextCursor")
        if not cursor:
            break
    assert walked == _ids(whole)
    assert sorted(walked) == sorted(ids)
    scores = [h["score"] for h in whole["data"]]
    assert scores == sorted(scores, reverse=True)


def test_another_tenants_entities_do_not_boost(
    app, client, headers, tenant, other_tenant, create_key, make_entity
):
    from tests.helpers import auth_headers

    stored_document(app, tenant.id, b"report from Hooli", "h.txt")
    theirs = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    make_entity("Hooli", headers=theirs)
    run_jobs(app)
    body = _search(client, headers, "hooli report")
    assert "entity" not in body["meta"]["aiSignalsUsed"]
    assert client.get(ENTITIES, headers=headers).get_json()["data"] == []
