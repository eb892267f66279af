"""The portal's Forms pages: list, create with schema errors beside the textarea, the htmx
live preview (the public page's renderer), publish and archive, submissions and the CSV;
admins only, and another tenant's forms are 404."""

from __future__ import annotations

import json

from tests.forms.conftest import EXPENSE_SCHEMA
from tests.helpers import audit_actions, csrf_token, post


def test_create_edit_publish_and_archive(app, admin_client, tenant):
    page = admin_client.get("/forms/new")
    assert page.status_code == 200 and 'name="schema"' in page.get_data(as_text=True)
    created = post(
        admin_client,
        "/forms/new",
        {"name": "Expenses", "schema": json.dumps(EXPENSE_SCHEMA), "public": "on"},
    )
    assert created.status_code == 302
    edit_url = created.headers["Location"]
    form_id = edit_url.rstrip("/").rsplit("/", 1)[-1]
    html = admin_client.get(edit_url).get_data(as_text=True)
    assert "draft" in html and 'name="f.amount"' in html  # the preview is rendered
    assert (
        post(admin_client, f"/forms/{form_id}/status", {"status": "published"}).status_code == 302
    )
    html = admin_client.get(edit_url).get_data(as_text=True)
    assert 'id="public-link"' in html and "published" in html
    changed = {**EXPENSE_SCHEMA, "required": ["name"]}
    saved = post(
        admin_client,
        f"/forms/{form_id}",
        {"name": "Expenses", "schema": json.dumps(changed), "public": "on"},
    )
    assert saved.status_code == 302
    assert '<span id="form-version">2</span>' in admin_client.get(edit_url).get_data(as_text=True)
    assert post(admin_client, f"/forms/{form_id}/status", {"status": "archived"}).status_code == 302
    listing = admin_client.get("/forms").get_data(as_text=True)
    assert "Expenses" in listing and "archived" in listing
    actions = audit_actions(app, tenant.id)
    assert {"form.created", "form.published", "form.updated", "form.archived"} <= set(actions)


def test_schema_errors_show_beside_the_textarea(admin_client):
    response = post(admin_client, "/forms/new", {"name": "Bad", "schema": '{"type": "array"}'})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="schema-errors"' in html and "&#34;type&#34;: &#34;object&#34;" in html
    not_json = post(admin_client, "/forms/new", {"name": "Bad", "schema": "{nope"})
    assert "not valid JSON" in not_json.get_data(as_text=True)


def test_the_live_preview(admin_client):
    token = csrf_token(admin_client, "/forms/new")
    headers = {"HX-Request": "true", "X-CSRFToken": token}
    good = admin_client.post(
        "/forms/preview", data={"schema": json.dumps(EXPENSE_SCHEMA)}, headers=headers
    )
    assert good.status_code == 200
    assert '<select id="field-category" name="f.category" disabled' in good.get_data(as_text=True)
    bad = admin_client.post(
        "/forms/preview",
        data={"schema": '{"type": "object", "properties": {"a": {"$ref": "http://x"}}}'},
        headers=headers,
    )
    assert 'id="preview-problems"' in bad.get_data(as_text=True)
    assert admin_client.post("/forms/preview", data={"schema": "{}"}).status_code == 400  # no CSRF


def test_submissions_table_and_csv(client, admin_client, headers, make_form):
    form = make_form()
    client.post(
        f"/api/v1/forms/{form['id']}/submissions",
        json={"data": {"name": "=1+2", "amount": 3}},
        headers=headers,
    )
    page = admin_client.get(f"/forms/{form['id']}/submissions").get_data(as_text=True)
    assert "=1+2" in page and 'id="csv-download"' in page
    csv_text = admin_client.get(f"/forms/{form['id']}/submissions.csv").get_data(as_text=True)
    assert "'=1+2" in csv_text


def test_only_admins_and_only_their_tenants_forms(
    client, member, create_tenant, create_user, create_key, make_form
):
    from tests.helpers import auth_headers, sign_in

    form = make_form()
    sign_in(client, "acme", member.email)
    assert client.get("/forms").status_code == 403
    other = create_tenant("globex")
    stranger = create_user(other, "admin", email="admin@globex.example")
    other_client = client.application.test_client()
    sign_in(other_client, "globex", stranger.email)
    for path in (
        f"/forms/{form['id']}",
        f"/forms/{form['id']}/submissions",
        f"/forms/{form['id']}/submissions.csv",
    ):
        assert other_client.get(path).status_code == 404
    assert (
        post(other_client, f"/forms/{form['id']}/status", {"status": "archived"}).status_code == 404
    )
    _key, secret = create_key(other)
    assert (
        client.get("/api/v1/forms", headers=auth_headers(secret, "globex")).get_json()["data"] == []
    )
