"""The custom fields resource: create, read, list, rename, a select's options, the data type,
delete; names unique per tenant ignoring case; another tenant's ids are 404 everywhere."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from extensions import db
from models import CustomFieldValue, Event
from tests.customfields.conftest import URL, errors_of, values_of
from tests.helpers import audit_actions, auth_headers


def test_create_read_list_and_events(app, client, headers, make_field, tenant):
    total = make_field("Invoice total", "monetary")
    assert total["id"].startswith("cfd_")
    assert total["dataType"] == "monetary" and total["options"] == []
    assert set(total) >= {"name", "createdAt", "updatedAt"}
    assert client.get(f"{URL}/{total['id']}", headers=headers).get_json()["data"] == total
    make_field("due date", "date")
    make_field("Amount paid", "number")
    page = client.get(f"{URL}?limit=2", headers=headers).get_json()
    assert [f["name"] for f in page["data"]] == ["Amount paid", "due date"]
    cursor = page["meta"]["pagination"]["nextCursor"]
    rest = client.get(f"{URL}?limit=2&cursor={cursor}", headers=headers).get_json()
    assert [f["name"] for f in rest["data"]] == ["Invoice total"]
    assert rest["meta"]["pagination"]["hasMore"] is False
    with app.app_context():
        types = db.session.scalars(select(Event.type).where(Event.tenant_id == tenant.id)).all()
    assert types.count("custom_field.created") == 3
    assert "custom_field.created" in audit_actions(app, tenant.id)


@pytest.mark.parametrize("taken", ["invoice TOTAL", " Invoice total "])
def test_names_are_unique_per_tenant_ignoring_case(client, headers, make_field, taken):
    make_field("Invoice total")
    response = client.post(URL, json={"name": taken, "dataType": "string"}, headers=headers)
    assert response.status_code == 422
    assert "name" in errors_of(response)


def test_another_tenant_may_use_the_same_name(make_field, other_headers):
    make_field("Invoice total")
    assert make_field("invoice total", auth=other_headers)["name"] == "invoice total"


def test_a_select_needs_options_and_keeps_their_ids(client, headers, make_field):
    refused = client.post(URL, json={"name": "Kind", "dataType": "select"}, headers=headers)
    assert refused.status_code == 422
    twice = {"name": "Kind", "dataType": "select", "options": [{"label": "A"}, {"label": "a"}]}
    assert client.post(URL, json=twice, headers=headers).status_code == 422
    kind = make_field("Kind", "select", options=[{"label": "Invoice"}, {"label": "Receipt"}])
    invoice, receipt = kind["options"]
    assert invoice["label"] == "Invoice" and invoice["id"] != receipt["id"]
    body = {"options": [{"id": invoice["id"], "label": "Bill"}, {"label": "Contract"}]}
    changed = client.patch(f"{URL}/{kind['id']}", json=body, headers=headers).get_json()["data"]
    assert changed["options"][0] == {"id": invoice["id"], "label": "Bill"}
    assert [o["label"] for o in changed["options"]] == ["Bill", "Contract"]
    strange = {"options": [{"id": "opt_not_mine", "label": "X"}]}
    response = client.patch(f"{URL}/{kind['id']}", json=strange, headers=headers)
    assert response.status_code == 422


def test_options_belong_to_selects_only(client, headers):
    body = {"name": "Note", "dataType": "string", "options": [{"label": "A"}]}
    assert client.post(URL, json=body, headers=headers).status_code == 422


def test_removing_an_option_removes_the_values_that_chose_it(
    client, headers, make_field, make_doc, patch_values
):
    kind = make_field("Kind", "select", options=[{"label": "Invoice"}, {"label": "Receipt"}])
    invoice, receipt = kind["options"]
    first, second = make_doc("one"), make_doc("two")
    assert patch_values(first["id"], {kind["id"]: invoice["id"]}).status_code == 200
    assert patch_values(second["id"], {kind["id"]: receipt["id"]}).status_code == 200
    client.patch(f"{URL}/{kind['id']}", json={"options": [receipt]}, headers=headers)
    read = client.get(f"/api/v1/documents/{first['id']}", headers=headers).get_json()["data"]
    assert values_of(read) == {}
    read = client.get(f"/api/v1/documents/{second['id']}", headers=headers).get_json()["data"]
    assert values_of(read) == {kind["id"]: receipt["id"]}


def test_renaming_keeps_values_and_deleting_removes_them(
    app, client, headers, make_field, make_doc, patch_values, tenant
):
    field = make_field("Reference")
    doc = make_doc()
    assert patch_values(doc["id"], {field["id"]: "R-1"}).status_code == 200
    renamed = client.patch(f"{URL}/{field['id']}", json={"name": "Ref"}, headers=headers)
    assert renamed.status_code == 200 and renamed.get_json()["data"]["name"] == "Ref"
    read = client.get(f"/api/v1/documents/{doc['id']}", headers=headers).get_json()["data"]
    assert read["customFields"] == [{"fieldId": field["id"], "name": "Ref", "value": "R-1"}]
    deleted = client.delete(f"{URL}/{field['id']}", headers=headers)
    assert deleted.status_code == 200 and deleted.get_json()["data"]["name"] == "Ref"
    assert client.get(f"{URL}/{field['id']}", headers=headers).status_code == 404
    read = client.get(f"/api/v1/documents/{doc['id']}", headers=headers).get_json()["data"]
    assert read["customFields"] == []
    with app.app_context():
        assert db.session.scalars(select(CustomFieldValue)).all() == []
    assert {"custom_field.updated", "custom_field.deleted"} <= set(audit_actions(app, tenant.id))


def test_the_data_type_changes_only_while_no_document_has_a_value(
    client, headers, make_field, make_doc, patch_values
):
    field = make_field("Total", "string")
    changed = client.patch(f"{URL}/{field['id']}", json={"dataType": "integer"}, headers=headers)
    assert changed.status_code == 200 and changed.get_json()["data"]["dataType"] == "integer"
    assert patch_values(make_doc()["id"], {field["id"]: 12}).status_code == 200
    refused = client.patch(f"{URL}/{field['id']}", json={"dataType": "string"}, headers=headers)
    assert refused.status_code == 409
    assert refused.get_json()["errors"][0]["code"] == "CONFLICT"


def test_null_is_refused_where_a_patch_field_may_only_be_left_out(client, headers, make_field):
    field = make_field("Total")
    response = client.patch(f"{URL}/{field['id']}", json={"name": None}, headers=headers)
    assert response.status_code == 422


def test_another_tenants_field_is_not_found(client, make_field, other_headers):
    field = make_field("Secret")
    for method in ("get", "patch", "delete"):
        kwargs = {"json": {"name": "Mine"}} if method == "patch" else {}
        response = getattr(client, method)(f"{URL}/{field['id']}", headers=other_headers, **kwargs)
        assert response.status_code == 404, method
        assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    listed = client.get(URL, headers=other_headers).get_json()["data"]
    assert listed == []


def test_scopes(client, tenant, create_key, make_field):
    reader = auth_headers(create_key(tenant, scopes=["documents:read"])[1], tenant.id)
    refused = client.post(URL, json={"name": "X", "dataType": "string"}, headers=reader)
    assert refused.status_code == 403
    assert refused.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"
    field = make_field("Visible")
    assert client.get(f"{URL}/{field['id']}", headers=reader).status_code == 200
    assert client.delete(f"{URL}/{field['id']}", headers=reader).status_code == 403
