"""The entity pages: the browser with its filters, an entity's page with its graph and the
table beside it, and the admins' create, edit and delete (with CSRF); others only read."""

from __future__ import annotations

from tests.helpers import csrf_token, sign_in
from tests.support import run_jobs, stored_document


def _post(client, path: str, data: dict):
    return client.post(path, data={"csrf_token": csrf_token(client, "/entities"), **data})


def test_admin_creates_edits_links_and_deletes(app, admin_client, tenant, make_entity):
    client = admin_client
    page = client.get("/entities")
    assert page.status_code == 200 and "No entities yet" in page.get_data(as_text=True)

    created = _post(
        client,
        "/entities/new",
        {
            "name": "Acme Corp",
            "type": "organization",
            "aliases": "ACME\nAcme Inc",
            "properties": '{"hq": "Oslo"}',
        },
    )
    assert created.status_code == 302, created.get_data(as_text=True)
    entity_path = created.headers["Location"]
    html = client.get(entity_path).get_data(as_text=True)
    assert "Acme Corp" in html and "ACME, Acme Inc" in html and "Oslo" in html
    assert 'id="entity-graph"' in html and "<svg" in html

    bad = _post(client, entity_path, {"name": "", "type": "Bad Type", "properties": "[1]"})
    assert bad.status_code == 422
    body = bad.get_data(as_text=True)
    assert "Give the entity a name." in body and "a JSON object" in body

    saved = _post(
        client, entity_path, {"name": "Acme", "type": "company", "aliases": "", "properties": "{}"}
    )
    assert saved.status_code == 302
    assert "company" in client.get(entity_path).get_data(as_text=True)

    ada = make_entity("Ada", "person")
    entity_id = entity_path.rsplit("/", 1)[1]
    linked = _post(
        client,
        f"/entities/{entity_id}/relationships",
        {"type": "employs", "target_id": ada["id"], "direction": "out"},
    )
    assert linked.status_code == 302
    html = client.get(entity_path).get_data(as_text=True)
    assert "employs" in html and 'class="graph-edge"' in html
    assert client.get(f"/entities/{ada['id']}").get_data(as_text=True).count("Acme") >= 2

    twice = _post(
        client,
        f"/entities/{entity_id}/relationships",
        {"type": "employs", "target_id": ada["id"], "direction": "out"},
    )
    assert "was not added" in client.get(twice.headers["Location"]).get_data(as_text=True)

    listed = client.get("/entities?q=ac&type=company").get_data(as_text=True)
    assert "Acme" in listed and "Ada" not in listed

    deleted = _post(client, f"/entities/{entity_id}/delete", {})
    assert deleted.status_code == 302
    assert client.get(entity_path).status_code == 404


def test_mentioning_documents_are_listed(app, admin_client, tenant, make_entity):
    acme = make_entity("Acme")
    stored_document(app, tenant.id, b"Acme and Acme", "a.txt", title="Acme memo")
    run_jobs(app)
    html = admin_client.get(f"/entities/{acme['id']}").get_data(as_text=True)
    assert "Acme memo" in html and 'id="mentions-table"' in html


def test_members_read_but_cannot_change(client, tenant, member, make_entity):
    entity = make_entity("Acme")
    assert sign_in(client, tenant.id, member.email).status_code == 302
    assert client.get("/entities").status_code == 200
    html = client.get(f"/entities/{entity['id']}").get_data(as_text=True)
    assert "Delete entity" not in html and 'id="entity-form"' not in html
    refused = _post(client, f"/entities/{entity['id']}/delete", {})
    assert refused.status_code == 403


def test_forms_need_the_csrf_token(admin_client, make_entity):
    entity = make_entity("Acme")
    response = admin_client.post(f"/entities/{entity['id']}/delete", data={})
    assert response.status_code in (400, 403)
    assert admin_client.get(f"/entities/{entity['id']}").status_code == 200


def test_another_tenants_entity_is_404(admin_client, other_tenant, create_key, make_entity):
    from tests.helpers import auth_headers

    theirs = make_entity(
        "Theirs", headers=auth_headers(create_key(other_tenant)[1], other_tenant.id)
    )
    assert admin_client.get(f"/entities/{theirs['id']}").status_code == 404
    assert _post(admin_client, f"/entities/{theirs['id']}/delete", {}).status_code == 404


def test_a_relationship_shows_only_its_tenants_entities(
    app, admin_client, other_tenant, create_key, make_entity, link
):
    """Even a relationship whose end names another tenant's entity (no service writes one)
    shows nothing of it: the names are read inside the entity's tenant."""
    from extensions import db
    from models import Relationship
    from tests.helpers import auth_headers

    ours, partner = make_entity("Acme Corp"), make_entity("Harbour Ltd")
    relationship = link(ours, partner)
    theirs = make_entity(
        "Globex Secret", headers=auth_headers(create_key(other_tenant)[1], other_tenant.id)
    )
    with app.app_context():
        db.session.get(Relationship, relationship["id"]).target_id = theirs["id"]
        db.session.commit()

    page = admin_client.get(f"/entities/{ours['id']}")
    assert page.status_code == 200 and "Globex Secret" not in page.get_data(as_text=True)
