"""An entity's neighbourhood: breadth-first to depth 1-3 over relationships either way, each
entity once at its shortest distance, cycles ending, the type filter, and the cap."""

from __future__ import annotations

from tests.graph.conftest import ENTITIES


def _neighbors(client, headers, entity, query: str = "") -> dict:
    response = client.get(f"{ENTITIES}/{entity['id']}/neighbors?{query}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def _depths(data: dict) -> dict[str, int]:
    return {e["name"]: e["depth"] for e in data["entities"]}


def test_depths_one_to_three_with_cycles(client, headers, make_entity, link):
    # a -> b -> c -> d -> e, with a cycle c -> a and a self-loop on b, and d <- x.
    a, b, c, d, e, x = (make_entity(n) for n in "abcdex")
    ab, bc, cd, de = link(a, b), link(b, c), link(c, d), link(d, e)
    ca, bb, xd = link(c, a, "cites"), link(b, b), link(x, d)

    one = _neighbors(client, headers, a, "depth=1")
    assert _depths(one) == {"a": 0, "b": 1, "c": 1}  # c through the cycle, against the arrow
    assert {r["id"] for r in one["relationships"]} == {ab["id"], bc["id"], ca["id"], bb["id"]}
    assert one["truncated"] is False
    assert one["entities"][0]["name"] == "a"

    two = _neighbors(client, headers, a, "depth=2")
    assert _depths(two) == {"a": 0, "b": 1, "c": 1, "d": 2}
    three = _neighbors(client, headers, a, "depth=3")
    assert _depths(three) == {"a": 0, "b": 1, "c": 1, "d": 2, "e": 3, "x": 3}
    assert len(three["entities"]) == len({e["id"] for e in three["entities"]})
    assert {r["id"] for r in three["relationships"]} == {
        ab["id"],
        bc["id"],
        cd["id"],
        de["id"],
        ca["id"],
        bb["id"],
        xd["id"],
    }
    assert _neighbors(client, headers, a) == one  # depth 1 by default

    # Only the relationships of one type are followed.
    cites = _neighbors(client, headers, a, "depth=3&type=cites")
    assert _depths(cites) == {"a": 0, "c": 1}
    assert [r["id"] for r in cites["relationships"]] == [ca["id"]]


def test_an_entity_alone_and_bad_depths(client, headers, make_entity):
    alone = make_entity("alone")
    data = _neighbors(client, headers, alone, "depth=3")
    assert _depths(data) == {"alone": 0} and data["relationships"] == []
    for query in ("depth=0", "depth=4", "depth=x", "depth=1&depth=2", "colour=red"):
        response = client.get(f"{ENTITIES}/{alone['id']}/neighbors?{query}", headers=headers)
        assert response.status_code == 400, query
        assert response.get_json()["errors"][0]["code"] == "INVALID_PARAMETER"


def test_the_neighbourhood_is_capped(app, client, headers, tenant, make_entity, monkeypatch):
    from extensions import db
    from models import Entity, Relationship
    from services.graph import neighbors

    monkeypatch.setattr(neighbors, "MAX_NODES", 5)
    hub = make_entity("hub")
    with app.app_context():
        spokes = [Entity(tenant_id=tenant.id, type="thing", name=f"s{i}") for i in range(8)]
        db.session.add_all(spokes)
        db.session.flush()
        db.session.add_all(
            Relationship(tenant_id=tenant.id, type="has", source_id=hub["id"], target_id=s.id)
            for s in spokes
        )
        db.session.commit()
    data = _neighbors(client, headers, hub, "depth=2")
    assert data["truncated"] is True and len(data["entities"]) == 5
    assert data["entities"][0]["name"] == "hub"
    ids = {e["id"] for e in data["entities"]}
    assert all(r["sourceId"] in ids and r["targetId"] in ids for r in data["relationships"])
