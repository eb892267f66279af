"""A document's custom field values: set by PATCH and on upload, checked by type (a wrong
type is a 422 naming customFields.<id>), removed with null, shown on the document, in the
list (written by the database) and in document.updated; another tenant's field or document
is refused."""

from __future__ import annotations

import io
import json

import pytest
from sqlalchemy import select

from extensions import db
from models import Event
from tests.customfields.conftest import errors_of, values_of

DOCS = "/api/v1/documents"


@pytest.fixture
def every_type(make_field, make_doc):
    """One field of each data type; returns {type: field JSON}."""
    fields = {
        kind: make_field(f"F {kind}", kind)
        for kind in ("string", "integer", "number", "monetary", "boolean", "date", "documentLink")
    }
    fields["select"] = make_field("F select", "select", options=[{"label": "Red"}])
    return fields


def _good_values(fields: dict, linked: str) -> dict:
    return {
        fields["string"]["id"]: "naïve “quoted” \\ </script>",
        fields["integer"]["id"]: -(2**63),
        fields["number"]["id"]: 0.1 + 0.2,
        fields["monetary"]["id"]: {"currency": "EUR", "amount": "1250.5"},
        fields["boolean"]["id"]: False,
        fields["date"]["id"]: "2024-02-29",
        fields["select"]["id"]: fields["select"]["options"][0]["id"],
        fields["documentLink"]["id"]: [linked, linked],
    }


def test_every_type_is_set_shown_and_listed_alike(
    app, client, headers, every_type, make_doc, patch_values, tenant
):
    linked, doc = make_doc("linked"), make_doc("target")
    response = patch_values(doc["id"], _good_values(every_type, linked["id"]))
    assert response.status_code == 200, response.get_json()
    shown = values_of(response.get_json()["data"])
    assert shown[every_type["monetary"]["id"]] == {"currency": "EUR", "amount": "1250.50"}
    assert shown[every_type["documentLink"]["id"]] == [linked["id"]]
    assert shown[every_type["number"]["id"]] == 0.1 + 0.2
    assert shown[every_type["integer"]["id"]] == -(2**63)
    names = [item["name"] for item in response.get_json()["data"]["customFields"]]
    assert names == sorted(names, key=str.casefold)
    read = client.get(f"{DOCS}/{doc['id']}", headers=headers).get_json()["data"]
    listed = client.get(DOCS, headers=headers).get_json()["data"]
    by_id = {d["id"]: d for d in listed}
    assert by_id[doc["id"]]["customFields"] == read["customFields"]
    assert by_id[linked["id"]]["customFields"] == []
    with app.app_context():
        event = db.session.scalars(
            select(Event).where(Event.type == "document.updated").order_by(Event.id.desc())
        ).first()
    assert event.data["changes"] == ["customFields"]
    assert event.data["document"]["customFields"] == read["customFields"]


@pytest.mark.parametrize(
    ("kind", "value", "says"),
    [
        ("string", 12, "a string is expected"),
        ("string", "x" * 501, "at most 500"),
        ("string", "nul \x00 inside", "NUL"),
        ("integer", "12", "an integer is expected"),
        ("integer", True, "an integer is expected"),
        ("integer", 1.5, "an integer is expected"),
        ("integer", 2**63, "64 bits"),
        ("number", "1.5", "a number is expected"),
        ("number", 10**400, "range of a double"),
        ("monetary", "12.00", "an object"),
        ("monetary", {"currency": "EUR"}, "an object"),
        ("monetary", {"currency": "EUR", "amount": "1", "x": 1}, "an object"),
        ("monetary", {"currency": "eur", "amount": "1.00"}, "ISO 4217"),
        ("monetary", {"currency": "ABC", "amount": "1.00"}, "ISO 4217"),
        ("monetary", {"currency": "EUR", "amount": "12345678901234567890"}, "13 digits"),
        ("monetary", {"currency": "EUR", "amount": "1.005"}, "2 after"),
        ("monetary", {"currency": "EUR", "amount": "1e3"}, "decimal string"),
        ("monetary", {"currency": "EUR", "amount": 12.5}, "decimal string"),
        ("monetary", {"currency": "EUR", "amount": " 1.00"}, "decimal string"),
        ("boolean", "true", "true or false"),
        ("boolean", 0, "true or false"),
        ("date", "2025-02-30", "not a day of the calendar"),
        ("date", "2025-13-01", "not a day of the calendar"),
        ("date", "20250101", "YYYY-MM-DD"),
        ("date", "2025-01-01T00:00:00", "YYYY-MM-DD"),
        ("select", "opt_unknown", "one of the field's options"),
        ("select", 0, "one of the field's options"),
        ("documentLink", "doc_x", "list of document ids"),
        ("documentLink", ["not-a-doc"], "document ids"),
        ("documentLink", [f"doc_{'0' * 26}"], "no such document"),
    ],
)
def test_a_wrong_value_is_a_422_naming_the_field(
    every_type, make_doc, patch_values, kind, value, says
):
    field = every_type[kind]
    response = patch_values(make_doc()["id"], {field["id"]: value})
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["errors"][0]
    assert error["code"] == "VALIDATION_ERROR"
    assert error["field"] == f"customFields.{field['id']}"
    assert says in error["message"]


def test_every_wrong_field_is_named_and_nothing_changes(
    client, headers, every_type, make_doc, patch_values
):
    doc = make_doc()
    response = patch_values(
        doc["id"],
        {
            every_type["integer"]["id"]: "x",
            every_type["date"]["id"]: "2025-02-30",
            every_type["string"]["id"]: "fine",
        },
    )
    assert response.status_code == 422
    assert set(errors_of(response)) == {
        f"customFields.{every_type['integer']['id']}",
        f"customFields.{every_type['date']['id']}",
    }
    read = client.get(f"{DOCS}/{doc['id']}", headers=headers).get_json()["data"]
    assert read["customFields"] == []


def test_another_tenants_field_and_document_are_refused(
    client, make_field, make_doc, patch_values, other_headers
):
    theirs = make_field("Theirs", auth=other_headers)
    their_doc = make_doc("theirs", auth=other_headers)
    link = make_field("Link", "documentLink")
    doc = make_doc()
    response = patch_values(doc["id"], {theirs["id"]: "x"})
    assert response.status_code == 422
    name = f"customFields.{theirs['id']}"
    assert errors_of(response) == {name: f"{name}: no such custom field."}
    response = patch_values(doc["id"], {link["id"]: [their_doc["id"]]})
    assert response.status_code == 422
    assert f"customFields.{link['id']}" in errors_of(response)
    # and their document is not found at all, with or without custom fields
    mine = make_field("Mine")
    assert patch_values(their_doc["id"], {mine["id"]: "x"}).status_code == 404


def test_null_and_an_empty_link_list_remove_a_value(
    client, headers, make_field, make_doc, patch_values
):
    text, link = make_field("Text"), make_field("Link", "documentLink")
    other, doc = make_doc("other"), make_doc()
    patch_values(doc["id"], {text["id"]: "a", link["id"]: [other["id"]]})
    response = patch_values(doc["id"], {text["id"]: None, link["id"]: []})
    assert response.status_code == 200 and response.get_json()["data"]["customFields"] == []


def test_an_unchanged_value_emits_nothing(app, make_field, make_doc, patch_values):
    text, doc = make_field("Text"), make_doc()
    patch_values(doc["id"], {text["id"]: "a"})
    with app.app_context():
        before = db.session.query(Event).count()
    assert patch_values(doc["id"], {text["id"]: "a"}).status_code == 200
    with app.app_context():
        assert db.session.query(Event).count() == before


def test_a_trashed_document_takes_no_values(client, headers, make_field, make_doc, patch_values):
    text, doc = make_field("Text"), make_doc()
    assert client.delete(f"{DOCS}/{doc['id']}", headers=headers).status_code == 200
    response = patch_values(doc["id"], {text["id"]: "a"})
    assert response.status_code == 409


def test_upload_sets_values_and_announces_them(app, make_field, make_doc, client, headers, tenant):
    total = make_field("Total", "monetary")
    doc = make_doc(custom_fields={total["id"]: {"currency": "CHF", "amount": "9.90"}})
    assert values_of(doc) == {total["id"]: {"currency": "CHF", "amount": "9.90"}}
    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.type == "document.created"))
    assert event.data["document"]["customFields"] == doc["customFields"]


@pytest.mark.parametrize(
    ("raw", "field"),
    [("[1, 2]", "customFields"), ("{nope", "customFields"), (None, "customFields.")],
)
def test_upload_refuses_bad_values_before_storing(app, client, headers, make_field, raw, field):
    total = make_field("Total", "integer")
    if raw is None:
        raw = json.dumps({total["id"]: "twelve"})
    response = client.post(
        DOCS,
        data={"file": (io.BytesIO(b"x\n"), "f.txt"), "customFields": raw},
        headers=headers,
        content_type="multipart/form-data",
    )
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"][0]["field"].startswith(field)
    assert client.get(DOCS, headers=headers).get_json()["data"] == []
