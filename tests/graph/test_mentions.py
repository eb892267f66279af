"""Mentions through the whole path: the worker extracts a text and the mention job finds the
entities in it; kept in step when a text changes (new version, purge) and when an entity's
names change (only the affected documents); an entity's documents; a document's entities."""

from __future__ import annotations

import io

from sqlalchemy import select

from tests.graph.conftest import ENTITIES
from tests.helpers import auth_headers
from tests.support import run_jobs

DOCUMENTS = "/api/v1/documents"


def _upload(client, headers, text: str, filename: str = "note.txt") -> dict:
    data = {"file": (io.BytesIO(text.encode()), filename)}
    response = client.post(
        DOCUMENTS, data=data, headers=headers, content_type="multipart/form-data"
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def _new_version(client, headers, doc: dict, text: str) -> None:
    response = client.post(
        f"{DOCUMENTS}/{doc['id']}/versions",
        data={"file": (io.BytesIO(text.encode()), "note.txt")},
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 201, response.get_json()


def _mentions(client, headers, entity: dict) -> dict[str, tuple[int, list[int]]]:
    response = client.get(f"{ENTITIES}/{entity['id']}/documents", headers=headers)
    assert response.status_code == 200, response.get_json()
    return {m["documentId"]: (m["count"], m["positions"]) for m in response.get_json()["data"]}


def _entity(client, headers, entity: dict) -> dict:
    return client.get(f"{ENTITIES}/{entity['id']}", headers=headers).get_json()["data"]


def test_extracted_texts_are_scanned_and_listed_both_ways(app, client, headers, make_entity):
    nyt = make_entity("New York Times", aliases=["NYT"])
    ny = make_entity("New York", "location")
    a = _upload(client, headers, "The New York Times (the nyt) is printed in New York.")
    b = _upload(client, headers, "Nothing here about new yorkers.")
    run_jobs(app)

    assert _mentions(client, headers, nyt) == {a["id"]: (2, [4, 24])}
    assert _mentions(client, headers, ny) == {a["id"]: (1, [43])}
    assert _entity(client, headers, nyt)["mentionCount"] == 1
    document = client.get(f"{DOCUMENTS}/{a['id']}", headers=headers).get_json()["data"]
    assert document["entities"] == [
        {"id": nyt["id"], "type": "organization", "name": "New York Times", "count": 2},
        {"id": ny["id"], "type": "location", "name": "New York", "count": 1},
    ]
    other = client.get(f"{DOCUMENTS}/{b['id']}", headers=headers).get_json()["data"]
    assert other["entities"] == []


def test_documents_of_an_entity_page_and_hide_the_trash(app, client, headers, make_entity):
    acme = make_entity("Acme")
    docs = [_upload(client, headers, f"Acme memo {i}") for i in range(3)]
    run_jobs(app)
    first = client.get(f"{ENTITIES}/{acme['id']}/documents?limit=2", headers=headers).get_json()
    assert [m["documentId"] for m in first["data"]] == [docs[2]["id"], docs[1]["id"]]
    cursor = first["meta"]["pagination"]["nextCursor"]
    rest = client.get(
        f"{ENTITIES}/{acme['id']}/documents?limit=2&cursor={cursor}", headers=headers
    ).get_json()
    assert [m["documentId"] for m in rest["data"]] == [docs[0]["id"]]
    assert rest["data"][0]["title"]
    client.delete(f"{DOCUMENTS}/{docs[0]['id']}", headers=headers)
    assert docs[0]["id"] not in _mentions(client, headers, acme)


def test_a_new_text_replaces_the_mentions(app, client, headers, make_entity):
    acme, globex = make_entity("Acme"), make_entity("Globex")
    doc = _upload(client, headers, "Acme buys from Acme.")
    run_jobs(app)
    assert _mentions(client, headers, acme) == {doc["id"]: (2, [0, 15])}
    _new_version(client, headers, doc, "Now Globex only.")
    run_jobs(app)
    assert _mentions(client, headers, acme) == {}
    assert _mentions(client, headers, globex) == {doc["id"]: (1, [4])}
    assert _entity(client, headers, acme)["mentionCount"] == 0
    assert _entity(client, headers, globex)["mentionCount"] == 1


def test_names_changing_rescan_only_the_documents_they_can_affect(
    app, client, headers, make_entity, monkeypatch
):
    from services.graph import mentions

    old = _upload(client, headers, "Initech ships the report.")
    new = _upload(client, headers, "Intertrode signs the deal. New York Times too.")
    other = _upload(client, headers, "Nothing relevant.")
    run_jobs(app)  # extraction; no entities yet
    scanned: list[list[str]] = []
    real = mentions.scan_documents
    monkeypatch.setattr(
        mentions, "scan_documents", lambda t, ids: scanned.append(sorted(ids)) or real(t, ids)
    )

    # A new entity: the documents that contain its names are scanned, and only those.
    initech = make_entity("Initech")
    run_jobs(app)
    assert scanned == [[old["id"]]]
    assert _mentions(client, headers, initech) == {old["id"]: (1, [0])}

    # A new alias adds the documents that contain it; the old ones are looked at again.
    scanned.clear()
    response = client.patch(
        f"{ENTITIES}/{initech['id']}", json={"aliases": ["Intertrode"]}, headers=headers
    )
    assert response.status_code == 200
    run_jobs(app)
    assert scanned == [sorted([old["id"], new["id"]])]
    assert set(_mentions(client, headers, initech)) == {old["id"], new["id"]}

    # A renamed entity loses the documents that only had its old name.
    scanned.clear()
    client.patch(
        f"{ENTITIES}/{initech['id']}", json={"name": "Initrode", "aliases": []}, headers=headers
    )
    run_jobs(app)
    assert other["id"] not in {i for batch in scanned for i in batch}
    assert _mentions(client, headers, initech) == {}
    assert _entity(client, headers, initech)["mentionCount"] == 0

    # Properties alone change no mentions: nothing is scanned.
    scanned.clear()
    client.patch(f"{ENTITIES}/{initech['id']}", json={"properties": {"x": 1}}, headers=headers)
    run_jobs(app)
    assert scanned == []

    # Deleting the longer name gives the shorter one its place in the documents it had.
    ny = make_entity("New York")
    nyt = make_entity("New York Times")
    run_jobs(app)
    assert _mentions(client, headers, ny) == {}
    client.delete(f"{ENTITIES}/{nyt['id']}", headers=headers)
    run_jobs(app)
    assert _mentions(client, headers, ny) == {new["id"]: (1, [27])}


def test_purging_a_document_drops_its_mentions(app, client, headers, tenant, make_entity):
    from extensions import db
    from models import EntityMention
    from services.core import signals, transaction

    acme = make_entity("Acme")
    doc = _upload(client, headers, "Acme")
    run_jobs(app)
    with app.app_context():
        signals.document_purged.send(doc["id"], tenant_id=tenant.id)
        transaction.commit()
        assert db.session.scalars(select(EntityMention)).all() == []
    assert _entity(client, headers, acme)["mentionCount"] == 0


def test_deleting_an_entity_deletes_its_mentions(app, client, headers, make_entity):
    from extensions import db
    from models import EntityMention

    acme = make_entity("Acme")
    _upload(client, headers, "Acme")
    run_jobs(app)
    client.delete(f"{ENTITIES}/{acme['id']}", headers=headers)
    with app.app_context():
        assert db.session.scalars(select(EntityMention)).all() == []


def test_mentions_stay_in_their_tenant(
    app, client, headers, other_tenant, create_key, make_entity, tenant
):
    theirs = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    acme = make_entity("Acme")
    their_acme = make_entity("Acme", headers=theirs)
    ours = _upload(client, headers, "Acme")
    their_doc = _upload(client, theirs, "Acme and Acme")
    run_jobs(app)
    assert _mentions(client, headers, acme) == {ours["id"]: (1, [0])}
    assert _mentions(client, theirs, their_acme) == {their_doc["id"]: (2, [0, 9])}
    assert (
        client.get(f"{ENTITIES}/{their_acme['id']}/documents", headers=headers).status_code == 404
    )
    # Without knowledge-graph:read a document shows no entities.
    reader = auth_headers(create_key(tenant, scopes=["documents:read"])[1], tenant.id)
    plain = client.get(f"{DOCUMENTS}/{ours['id']}", headers=reader).get_json()["data"]
    assert plain["entities"] is None


def test_flask_graph_rescan_rebuilds_every_mention(app, client, headers, tenant, make_entity):
    from extensions import db
    from models import EntityMention

    acme = make_entity("Acme")
    doc = _upload(client, headers, "Acme and Acme")
    run_jobs(app)
    with app.app_context():
        db.session.execute(EntityMention.__table__.delete())  # as if jobs were lost
        db.session.commit()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["graph", "rescan", tenant.id])
    assert result.exit_code == 0, result.output
    assert "rescanned 1 documents" in result.output
    assert _mentions(client, headers, acme) == {doc["id"]: (2, [0, 9])}
    missing = runner.invoke(args=["graph", "rescan", "no-such-tenant"])
    assert missing.exit_code == 1
