"""Entities and relationships through the API: create, read, list (type, q, pages), change,
delete with what hangs on them; validation, duplicates (409), scopes, another tenant (404)."""

from __future__ import annotations

from tests.graph.conftest import ENTITIES, RELATIONSHIPS
from tests.helpers import audit_actions, auth_headers


def test_create_read_change_and_delete(app, client, headers, tenant, make_entity):
    acme = make_entity(
        "Acme Corp", aliases=["ACME", " acme corp ", "Acme Corporation"], properties={"hq": "Oslo"}
    )
    assert acme["id"].startswith("ent_")
    assert acme["type"] == "organization" and acme["name"] == "Acme Corp"
    # The name repeated as an alias (casefolded) is dropped; the others are kept, stripped.
    assert acme["aliases"] == ["ACME", "Acme Corporation"]
    assert acme["properties"] == {"hq": "Oslo"} and acme["mentionCount"] == 0
    assert set(acme) >= {"createdAt", "updatedAt"}
    got = client.get(f"{ENTITIES}/{acme['id']}", headers=headers)
    assert got.get_json()["data"] == acme

    changed = client.patch(
        f"{ENTITIES}/{acme['id']}",
        json={"aliases": ["Acme Inc"], "type": "company"},
        headers=headers,
    )
    assert changed.status_code == 200, changed.get_json()
    data = changed.get_json()["data"]
    assert data["aliases"] == ["Acme Inc"] and data["type"] == "company"
    assert data["properties"] == {"hq": "Oslo"}

    deleted = client.delete(f"{ENTITIES}/{acme['id']}", headers=headers)
    assert deleted.status_code == 200 and deleted.get_json()["data"]["id"] == acme["id"]
    assert client.get(f"{ENTITIES}/{acme['id']}", headers=headers).status_code == 404
    assert audit_actions(app, tenant.id)[-3:] == [
        "entity.created",
        "entity.updated",
        "entity.deleted",
    ]


def test_bad_bodies_name_their_field(client, headers, make_entity):
    cases = [
        ({"type": "Person", "name": "Ada"}, "type"),
        ({"type": "person", "name": "   "}, "name"),
        ({"type": "person", "name": "Ada", "aliases": [""]}, "aliases.0"),
        ({"type": "person", "name": "Ada", "aliases": ["x"] * 51}, "aliases"),
        ({"type": "person", "name": "Ada", "properties": {"k": "v" * 20_000}}, "properties"),
        ({"type": "person", "name": "Ada", "properties": []}, "properties"),
        ({"type": "person", "name": "Ada", "colour": "red"}, "colour"),
        ({"name": "Ada"}, "type"),
    ]
    for body, field in cases:
        response = client.post(ENTITIES, json=body, headers=headers)
        assert response.status_code == 422, (body, response.get_json())
        assert field in [e.get("field") for e in response.get_json()["errors"]], body
    ada = make_entity("Ada", "person")
    nulled = client.patch(f"{ENTITIES}/{ada['id']}", json={"name": None}, headers=headers)
    assert nulled.status_code == 422
    # An integer no JSON answer can carry (beyond 64 bits) is refused, not stored and then a 500.
    huge = '{"properties": {"a": {"b": [1, 123297236754546600968192]}}}'
    patched = client.patch(
        f"{ENTITIES}/{ada['id']}", data=huge, content_type="application/json", headers=headers
    )
    assert patched.status_code == 422, patched.get_json()
    assert patched.get_json()["errors"][0]["field"] == "properties"
    assert (
        client.get(f"{ENTITIES}/{ada['id']}", headers=headers).get_json()["data"]["properties"]
        == {}
    )


def test_list_filters_by_type_and_name_prefix_and_pages(client, headers, make_entity):
    make_entity("Zeta Labs")
    ada = make_entity("Ada Lovelace", "person", aliases=["Countess of Lovelace"])
    make_entity("Alan Turing", "person")
    make_entity("Ünal Straße", "person", aliases=["Unal"])

    def names(query: str) -> list[str]:
        response = client.get(f"{ENTITIES}?{query}", headers=headers)
        assert response.status_code == 200, response.get_json()
        return [e["name"] for e in response.get_json()["data"]]

    assert names("") == ["Ada Lovelace", "Alan Turing", "Zeta Labs", "Ünal Straße"]
    assert names("type=person") == ["Ada Lovelace", "Alan Turing", "Ünal Straße"]
    assert names("q=a") == ["Ada Lovelace", "Alan Turing"]
    assert names("q=COUNTESS") == ["Ada Lovelace"]  # an alias, any case
    assert names("q=ünal strasse") == ["Ünal Straße"]  # casefolded: ß is ss
    assert names("q=lovelace") == []  # a prefix, not a substring
    assert names("q=%25") == [] and names("q=_") == []  # wildcards are literal
    assert names("type=organization&q=z") == ["Zeta Labs"]

    first = client.get(f"{ENTITIES}?limit=2", headers=headers).get_json()
    assert [e["name"] for e in first["data"]] == ["Ada Lovelace", "Alan Turing"]
    cursor = first["meta"]["pagination"]["nextCursor"]
    second = client.get(f"{ENTITIES}?limit=2&cursor={cursor}", headers=headers).get_json()
    assert [e["name"] for e in second["data"]] == ["Zeta Labs", "Ünal Straße"]
    assert second["meta"]["pagination"]["hasMore"] is False
    # The cursor is bound to its filters.
    other = client.get(f"{ENTITIES}?limit=2&type=person&cursor={cursor}", headers=headers)
    assert other.status_code == 400 and other.get_json()["errors"][0]["code"] == "INVALID_CURSOR"
    assert ada["id"]


def test_relationships_are_typed_directed_and_unique(app, client, headers, tenant, make_entity):
    ada = make_entity("Ada", "person")
    acme = make_entity("Acme")
    body = {
        "type": "works_for",
        "sourceId": ada["id"],
        "targetId": acme["id"],
        "properties": {"since": 2020},
    }
    created = client.post(RELATIONSHIPS, json=body, headers=headers)
    assert created.status_code == 201, created.get_json()
    rel = created.get_json()["data"]
    assert rel["id"].startswith("rel_") and rel["properties"] == {"since": 2020}
    assert (rel["sourceId"], rel["targetId"], rel["type"]) == (ada["id"], acme["id"], "works_for")

    again = client.post(RELATIONSHIPS, json=body, headers=headers)
    assert again.status_code == 409 and again.get_json()["errors"][0]["code"] == "CONFLICT"
    # The other direction, or another type, is another relationship.
    back = {**body, "sourceId": acme["id"], "targetId": ada["id"]}
    back_id = client.post(RELATIONSHIPS, json=back, headers=headers).get_json()["data"]["id"]
    other_type = {**body, "type": "founded"}
    assert client.post(RELATIONSHIPS, json=other_type, headers=headers).status_code == 201

    listed = client.get(f"{RELATIONSHIPS}?entityId={ada['id']}&type=works_for", headers=headers)
    assert [r["id"] for r in listed.get_json()["data"]] == [back_id, rel["id"]]  # newest first
    assert client.get(f"{RELATIONSHIPS}/{rel['id']}", headers=headers).get_json()["data"] == rel
    bad = client.post(RELATIONSHIPS, json={**body, "type": "Works For"}, headers=headers)
    assert bad.status_code == 422

    deleted = client.delete(f"{RELATIONSHIPS}/{rel['id']}", headers=headers)
    assert deleted.status_code == 200
    assert client.get(f"{RELATIONSHIPS}/{rel['id']}", headers=headers).status_code == 404
    assert "relationship.deleted" in audit_actions(app, tenant.id)


def test_deleting_an_entity_deletes_its_relationships(client, headers, make_entity, link):
    ada, acme, bob = make_entity("Ada", "person"), make_entity("Acme"), make_entity("Bob")
    gone = [link(ada, acme)["id"], link(bob, ada)["id"]]
    kept = link(bob, acme)["id"]
    assert client.delete(f"{ENTITIES}/{ada['id']}", headers=headers).status_code == 200
    for rel_id in gone:
        assert client.get(f"{RELATIONSHIPS}/{rel_id}", headers=headers).status_code == 404
    assert client.get(f"{RELATIONSHIPS}/{kept}", headers=headers).status_code == 200


def test_another_tenants_entities_are_404_everywhere(
    client, headers, other_tenant, create_key, make_entity, link
):
    ours = make_entity("Ours")
    theirs_headers = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    theirs = make_entity("Theirs", headers=theirs_headers)
    rel = link(ours, make_entity("Also ours"))
    for method, path in [
        ("get", f"{ENTITIES}/{theirs['id']}"),
        ("patch", f"{ENTITIES}/{theirs['id']}"),
        ("delete", f"{ENTITIES}/{theirs['id']}"),
        ("get", f"{ENTITIES}/{theirs['id']}/neighbors"),
    ]:
        kwargs = {"json": {"name": "x"}} if method == "patch" else {}
        response = getattr(client, method)(path, headers=headers, **kwargs)
        assert response.status_code == 404, (method, path)
    for path in [f"{RELATIONSHIPS}/{rel['id']}", f"{ENTITIES}/{ours['id']}"]:
        assert client.get(path, headers=theirs_headers).status_code == 404
    # A relationship to another tenant's entity (or a missing one) names the foreign end.
    for source, target, field in [
        (ours["id"], theirs["id"], "targetId"),
        (theirs["id"], ours["id"], "sourceId"),
        (ours["id"], "ent_missing", "targetId"),
    ]:
        body = {"type": "knows", "sourceId": source, "targetId": target}
        response = client.post(RELATIONSHIPS, json=body, headers=headers)
        assert response.status_code == 404
        assert response.get_json()["errors"][0]["field"] == field
    listed = client.get(ENTITIES, headers=theirs_headers).get_json()["data"]
    assert [e["name"] for e in listed] == ["Theirs"]


def test_scopes_guard_every_route(client, tenant, create_key, make_entity):
    entity = make_entity("Acme")
    reader = auth_headers(create_key(tenant, scopes=["knowledge-graph:read"])[1], tenant.id)
    stranger = auth_headers(create_key(tenant, scopes=["documents:read"])[1], tenant.id)
    assert client.get(ENTITIES, headers=reader).status_code == 200
    assert client.get(f"{ENTITIES}/{entity['id']}/neighbors", headers=reader).status_code == 200
    refused = client.post(ENTITIES, json={"type": "person", "name": "x"}, headers=reader)
    assert refused.status_code == 403
    assert refused.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"
    assert client.delete(f"{ENTITIES}/{entity['id']}", headers=reader).status_code == 403
    assert client.get(ENTITIES, headers=stranger).status_code == 403
    assert client.get(RELATIONSHIPS, headers=stranger).status_code == 403


def test_the_retired_entities_path_still_answers_410(client, headers):
    response = client.get("/api/v1/entities", headers=headers)
    assert response.status_code == 410
