"""The forms resource: create, read, list, change; schema rules on save; status transitions
and their refusals; versions; another tenant's ids are 404 everywhere."""

from __future__ import annotations

import time

import pytest

from tests.forms.conftest import EXPENSE_SCHEMA, errors_of
from tests.helpers import auth_headers


def test_create_read_and_list(client, headers, make_form):
    form = make_form(status="draft", description="Claim back what you spent", public=True)
    assert form["id"].startswith("frm_")
    assert form["status"] == "draft" and form["version"] == 1
    assert form["schema"] == EXPENSE_SCHEMA and form["public"] is True
    assert form["publicUrl"] == f"/f/{form['id']}"
    assert set(form) >= {"name", "description", "workflowDefinitionId", "createdAt", "updatedAt"}
    got = client.get(f"/api/v1/forms/{form['id']}", headers=headers).get_json()["data"]
    assert got == form
    listed = client.get("/api/v1/forms?limit=1", headers=headers).get_json()
    assert [f["id"] for f in listed["data"]] == [form["id"]]
    assert listed["meta"]["pagination"]["hasMore"] is False


def test_list_pages_with_a_cursor_and_filters_by_status(client, headers, make_form):
    ids = [make_form(status="draft")["id"] for _ in range(3)]
    published = make_form()["id"]
    page = client.get("/api/v1/forms?limit=2", headers=headers).get_json()
    assert [f["id"] for f in page["data"]] == [published, ids[2]]
    cursor = page["meta"]["pagination"]["nextCursor"]
    rest = client.get(f"/api/v1/forms?limit=2&cursor={cursor}", headers=headers).get_json()
    assert [f["id"] for f in rest["data"]] == [ids[1], ids[0]]
    drafts = client.get("/api/v1/forms?status=published", headers=headers).get_json()
    assert [f["id"] for f in drafts["data"]] == [published]
    wrong = client.get(f"/api/v1/forms?status=draft&cursor={cursor}", headers=headers)
    assert wrong.status_code == 400 and wrong.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


@pytest.mark.parametrize(
    ("schema", "says"),
    [
        ([1, 2], "Input should be an object"),
        ({"type": "array"}, '"type": "object"'),
        ({"type": "object", "properties": {"a": {"type": "strin"}}}, "not a valid JSON Schema"),
        ({"type": "object", "minProperties": -1}, "not a valid JSON Schema"),
        (
            {"type": "object", "properties": {"a": {"$ref": "https://evil.example/s.json"}}},
            "points outside the schema",
        ),
        ({"type": "object", "properties": {"a": {"$ref": "other.json#/x"}}}, "outside"),
        ({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}, "points to nothing"),
        (
            {"type": "object", "$id": "https://evil.example/", "properties": {}},
            "$id is not allowed",
        ),
        ({"type": "object", "patternProperties": {"^x": {}}}, "patternProperties is not allowed"),
        (
            {"type": "object", "properties": {f"f{i}": {"type": "string"} for i in range(201)}},
            "at most 200 properties",
        ),
        (
            {"type": "object", "$schema": "http://json-schema.org/draft-07/schema#"},
            "$schema, when given",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}},
            "is not a 'regex'",
        ),
        (
            {
                "type": "object",
                "properties": {"o": {"type": "object", "properties": {"f": {"format": "binary"}}}},
            },
            "file fields must be top-level",
        ),
        ({"type": "object", "$ref": "#"}, "refers back to itself"),
    ],
)
def test_bad_schemas_are_refused_with_a_reason(client, headers, schema, says):
    response = client.post("/api/v1/forms", json={"name": "Bad", "schema": schema}, headers=headers)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"][0]["code"] == "VALIDATION_ERROR"
    assert says in errors_of(response)["schema"]


def test_a_catastrophic_pattern_is_refused_quickly(client, headers):
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a|aa)+$"}}}
    started = time.monotonic()
    response = client.post(
        "/api/v1/forms", json={"name": "ReDoS", "schema": schema}, headers=headers
    )
    assert time.monotonic() - started < 2
    assert response.status_code == 422
    assert "catastrophic backtracking" in errors_of(response)["schema"]


def test_a_schema_nested_too_deep_is_refused(client, headers):
    node: dict = {"type": "string"}
    for _ in range(40):
        node = {"type": "object", "properties": {"x": node}}
    response = client.post("/api/v1/forms", json={"name": "Deep", "schema": node}, headers=headers)
    assert response.status_code == 422
    assert "nests deeper" in errors_of(response)["schema"]


def test_an_unknown_workflow_definition_is_refused(client, headers):
    body = {"name": "F", "schema": EXPENSE_SCHEMA, "workflowDefinitionId": "wfd_nope"}
    response = client.post("/api/v1/forms", json=body, headers=headers)
    assert response.status_code == 422
    assert "workflowDefinitionId" in errors_of(response)


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        (["published"], True),
        (["archived"], True),
        (["published", "archived", "published"], True),
        (["published", "draft"], False),
        (["published", "archived", "draft"], False),
    ],
)
def test_status_transitions(client, headers, make_form, path, allowed):
    form = make_form(status="draft")
    for i, status in enumerate(path):
        response = client.patch(
            f"/api/v1/forms/{form['id']}", json={"status": status}, headers=headers
        )
        last = i == len(path) - 1
        if last and not allowed:
            assert response.status_code == 409
            assert response.get_json()["errors"][0]["code"] == "CONFLICT"
        else:
            assert response.status_code == 200, response.get_json()
            assert response.get_json()["data"]["status"] == status


def test_editing_a_draft_keeps_the_version_and_a_published_schema_makes_a_new_one(
    client, headers, make_form
):
    form = make_form(status="draft")
    url = f"/api/v1/forms/{form['id']}"
    changed = {**EXPENSE_SCHEMA, "required": ["name"]}
    assert (
        client.patch(url, json={"schema": changed}, headers=headers).get_json()["data"]["version"]
        == 1
    )
    assert client.patch(url, json={"status": "published"}, headers=headers).status_code == 200
    again = client.patch(url, json={"name": "Renamed"}, headers=headers).get_json()["data"]
    assert again["version"] == 1 and again["name"] == "Renamed"
    newer = client.patch(url, json={"schema": EXPENSE_SCHEMA}, headers=headers).get_json()["data"]
    assert newer["version"] == 2 and newer["schema"] == EXPENSE_SCHEMA
    same = client.patch(url, json={"schema": EXPENSE_SCHEMA}, headers=headers).get_json()["data"]
    assert same["version"] == 2


def test_patch_refuses_null_and_unknown_fields(client, headers, make_form):
    form = make_form()
    url = f"/api/v1/forms/{form['id']}"
    assert client.patch(url, json={"name": None}, headers=headers).status_code == 422
    assert client.patch(url, json={"schema": None}, headers=headers).status_code == 422
    assert client.patch(url, json={"colour": "red"}, headers=headers).status_code == 422
    cleared = client.patch(url, json={"description": None}, headers=headers)
    assert cleared.status_code == 200 and cleared.get_json()["data"]["description"] is None


def test_scopes(client, tenant, create_key, make_form):
    form = make_form()
    _key, read_only = create_key(tenant, scopes=["forms:read"])
    headers = auth_headers(read_only, tenant.id)
    assert client.get(f"/api/v1/forms/{form['id']}", headers=headers).status_code == 200
    refused = client.post("/api/v1/forms", json={"name": "x", "schema": {}}, headers=headers)
    assert refused.status_code == 403
    assert refused.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"
    _key, none = create_key(tenant, scopes=["documents:read"])
    assert client.get("/api/v1/forms", headers=auth_headers(none, tenant.id)).status_code == 403


def test_another_tenants_forms_and_submissions_are_404(
    client, headers, other_tenant, create_key, make_form
):
    form = make_form()
    sent = client.post(
        f"/api/v1/forms/{form['id']}/submissions",
        json={"data": {"name": "Ada", "amount": 5}},
        headers=headers,
    )
    submission = sent.get_json()["data"]["id"]
    _key, secret = create_key(other_tenant)
    theirs = auth_headers(secret, other_tenant.id)
    fid = form["id"]
    for method, path, body in [
        ("get", f"/api/v1/forms/{fid}", None),
        ("patch", f"/api/v1/forms/{fid}", {"name": "Mine now"}),
        ("get", f"/api/v1/forms/{fid}/submissions", None),
        ("post", f"/api/v1/forms/{fid}/submissions", {"data": {"name": "x", "amount": 1}}),
        ("get", f"/api/v1/forms/{fid}/submissions.csv", None),
        ("get", f"/api/v1/forms/submissions/{submission}", None),
    ]:
        response = getattr(client, method)(path, json=body, headers=theirs)
        assert response.status_code == 404, (method, path)
        assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
    assert client.get("/api/v1/forms", headers=theirs).get_json()["data"] == []
    assert client.get(f"/api/v1/forms/{fid}", headers=headers).get_json()["data"]["name"] == (
        "Expense claim"
    )
