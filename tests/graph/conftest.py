"""Knowledge-graph fixtures: entities and relationships made through the API (the path an
integrator takes)."""

from __future__ import annotations

import pytest

ENTITIES = "/api/v1/knowledge-graph/entities"
RELATIONSHIPS = "/api/v1/knowledge-graph/relationships"


@pytest.fixture
def make_entity(client, headers):
    """An entity of `headers`' tenant; returns its JSON."""

    def factory(name: str, type: str = "organization", *, headers=headers, **fields) -> dict:
        body = {"type": type, "name": name, **fields}
        response = client.post(ENTITIES, json=body, headers=headers)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return factory


@pytest.fixture
def link(client, headers):
    """A relationship source -type-> target; returns its JSON."""

    def factory(source: dict, target: dict, type: str = "related_to", **fields) -> dict:
        body = {"type": type, "sourceId": source["id"], "targetId": target["id"], **fields}
        response = client.post(RELATIONSHIPS, json=body, headers=headers)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]

    return factory
