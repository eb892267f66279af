"""The portal's custom fields: the admins' fields page (create, errors beside the fields,
rename, a select's options, delete), a document's panel where editors set values with a form
per data type (htmx swaps the row; plain POSTs come back to the page), CSRF on every form,
roles, and another tenant's ids answering 404."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from extensions import db
from models import CustomField, Event
from tests.helpers import audit_actions, csrf_token, post, sign_in


def _field_id(app, name: str) -> str:
    with app.app_context():
        return db.session.scalar(select(CustomField.id).where(CustomField.name == name))


def test_admins_create_rename_and_delete_fields(app, admin_client, tenant):
    assert admin_client.get("/custom-fields").status_code == 200
    created = post(admin_client, "/custom-fields", {"name": "Total", "data_type": "monetary"})
    assert created.status_code == 302
    kinds = post(
        admin_client,
        "/custom-fields",
        {"name": "Kind", "data_type": "select", "options": "Invoice\nReceipt\n\n"},
    )
    assert kinds.status_code == 302
    html = admin_client.get("/custom-fields").get_data(as_text=True)
    assert "Total" in html and "Monetary" in html and "Invoice, Receipt" in html
    taken = post(admin_client, "/custom-fields", {"name": "TOTAL", "data_type": "string"})
    assert taken.status_code == 422
    assert 'id="name-errors"' in taken.get_data(as_text=True)
    kind_id = _field_id(app, "Kind")
    with app.app_context():
        invoice, receipt = db.session.get(CustomField, kind_id).options
    saved = post(
        admin_client,
        f"/custom-fields/{kind_id}",
        {"name": "Type", f"option.{invoice['id']}": "Bill", f"option.{receipt['id']}": "",
         "new_options": "Contract"},
    )  # fmt: skip
    assert saved.status_code == 302
    with app.app_context():
        field = db.session.get(CustomField, kind_id)
        assert field.name == "Type"
        assert [o["label"] for o in field.options] == ["Bill", "Contract"]
        assert field.options[0]["id"] == invoice["id"]
    assert post(admin_client, f"/custom-fields/{kind_id}/delete").status_code == 302
    assert _field_id(app, "Type") is None
    assert {"custom_field.created", "custom_field.updated", "custom_field.deleted"} <= set(
        audit_actions(app, tenant.id)
    )


def test_every_form_needs_its_csrf_token(app, admin_client):
    post(admin_client, "/custom-fields", {"name": "Total", "data_type": "integer"})
    field_id = _field_id(app, "Total")
    for path in (
        "/custom-fields",
        f"/custom-fields/{field_id}",
        f"/custom-fields/{field_id}/delete",
    ):
        response = admin_client.post(path, data={"name": "X", "data_type": "string"})
        assert response.status_code == 400, path
    assert _field_id(app, "Total") == field_id


@pytest.fixture
def fields_and_doc(app, client, headers, store_document, tenant):
    made = {}
    for name, kind, extra in (
        ("Total", "monetary", {}),
        ("Count", "integer", {}),
        ("Paid", "boolean", {}),
        ("Due", "date", {}),
        ("Kind", "select", {"options": [{"label": "Invoice"}]}),
        ("Note", "string", {}),
        ("Ratio", "number", {}),
        ("Link", "documentLink", {}),
    ):
        response = client.post(
            "/api/v1/custom-fields", json={"name": name, "dataType": kind, **extra}, headers=headers
        )
        made[name] = response.get_json()["data"]
    return made, store_document(tenant, b"hello\n", "a.txt", title="Invoice 7")


def test_an_editor_sets_each_type_from_the_document_page(app, admin_client, fields_and_doc):
    fields, doc_id = fields_and_doc
    page = admin_client.get(f"/documents/{doc_id}").get_data(as_text=True)
    assert 'id="custom-fields"' in page and 'type="date"' in page and 'name="currency"' in page
    other = fields_and_doc[1]
    forms = {
        "Total": {"amount": "12.5", "currency": "CHF"},
        "Count": {"value": "42"},
        "Paid": {"value": "true"},
        "Due": {"value": "2025-02-28"},
        "Kind": {"value": fields["Kind"]["options"][0]["id"]},
        "Note": {"value": "ok <b>"},
        "Ratio": {"value": "0.25"},
        "Link": {"value": other},
    }
    for name, data in forms.items():
        url = f"/documents/{doc_id}/custom-fields/{fields[name]['id']}"
        response = post(admin_client, url, data)
        assert response.status_code == 302, name
    html = admin_client.get(f"/documents/{doc_id}").get_data(as_text=True)
    assert "12.50 CHF" in html and "2025-02-28" in html and "ok &lt;b&gt;" in html
    assert re.search(r'id="value-' + fields["Kind"]["id"] + r'">\s*Invoice', html)
    with app.app_context():
        changes = [
            e.data["changes"]
            for e in db.session.scalars(select(Event).where(Event.type == "document.updated"))
        ]
    assert changes == [["customFields"]] * len(forms)


def test_htmx_swaps_the_row_and_shows_what_was_wrong(admin_client, fields_and_doc):
    fields, doc_id = fields_and_doc
    url = f"/documents/{doc_id}/custom-fields/{fields['Due']['id']}"
    htmx = {"HX-Request": "true"}
    wrong = post(admin_client, url, {"value": "2025-02-30"}, headers=htmx)
    assert wrong.status_code == 200
    body = wrong.get_data(as_text=True)
    assert body.lstrip().startswith(f'<div id="field-{fields["Due"]["id"]}"')
    assert "Due: 2025-02-30 is not a day of the calendar" in body
    right = post(admin_client, url, {"value": "2025-03-01"}, headers=htmx).get_data(as_text=True)
    assert "2025-03-01" in right and "field-errors" not in right
    cleared = post(admin_client, url, {"clear": "1"}, headers=htmx).get_data(as_text=True)
    assert "2025-03-01" not in cleared
    count = f"/documents/{doc_id}/custom-fields/{fields['Count']['id']}"
    typed = post(admin_client, count, {"value": "many"}, headers=htmx).get_data(as_text=True)
    assert "Count: a whole number is expected." in typed


def test_a_plain_post_with_a_wrong_value_comes_back_with_the_error(admin_client, fields_and_doc):
    fields, doc_id = fields_and_doc
    url = f"/documents/{doc_id}/custom-fields/{fields['Total']['id']}"
    response = post(admin_client, url, {"amount": "1.234", "currency": "EUR"})
    assert response.status_code == 302
    page = admin_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Total: amount: a decimal string" in page


def test_roles(client, tenant, create_user, fields_and_doc):
    fields, doc_id = fields_and_doc
    auditor = create_user(tenant, "auditor", email="aud@acme.example")
    assert sign_in(client, tenant.id, auditor.email).status_code == 302
    assert client.get("/custom-fields").status_code == 403
    page = client.get(f"/documents/{doc_id}").get_data(as_text=True)
    assert 'id="custom-fields"' in page and "custom-field-form" not in page
    url = f"/documents/{doc_id}/custom-fields/{fields['Note']['id']}"
    assert post(client, url, {"value": "x"}).status_code == 403
    member = create_user(tenant, "member", email="mem@acme.example")
    client.post("/logout", data={"csrf_token": csrf_token(client, "/")})
    assert sign_in(client, tenant.id, member.email).status_code == 302
    assert client.get("/custom-fields").status_code == 403
    assert post(client, url, {"value": "x"}).status_code == 302


def test_another_tenants_field_or_document_is_not_found(
    client, create_tenant, create_user, fields_and_doc, store_document
):
    fields, doc_id = fields_and_doc
    globex = create_tenant("globex")
    admin = create_user(globex, "admin", email="admin@globex.example")
    assert sign_in(client, globex.id, admin.email).status_code == 302
    their_doc = store_document(globex, b"x\n", "x.txt")
    field = fields["Note"]["id"]
    assert client.get(f"/custom-fields/{field}").status_code == 404
    assert post(client, f"/custom-fields/{field}", {"name": "Mine"}).status_code == 404
    assert post(client, f"/custom-fields/{field}/delete").status_code == 404
    assert (
        post(client, f"/documents/{their_doc}/custom-fields/{field}", {"value": "x"}).status_code
        == 404
    )
    assert (
        post(client, f"/documents/{doc_id}/custom-fields/{field}", {"value": "x"}).status_code
        == 404
    )
