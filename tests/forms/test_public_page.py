"""The public form page: only published public forms, tenant by the form (never another's
host), fields from the schema, errors per field, files, CSRF, the honeypot, a per-IP limit."""

from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import func, select

from tests.forms.conftest import EXPENSE_SCHEMA


def _count_submissions(app) -> int:
    from extensions import db
    from models import FormSubmission

    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(FormSubmission))


def _post(client, form_id, data, token=None, **files):
    token = token or _token_of(client.get(f"/f/{form_id}").get_data(as_text=True))
    body = {"csrf_token": token, **data}
    for name, (content, filename) in files.items():
        body[name] = (io.BytesIO(content), filename)
    return client.post(f"/f/{form_id}", data=body, content_type="multipart/form-data")


@pytest.fixture
def public_form(make_form):
    return make_form(public=True)


def _token_of(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_the_page_renders_the_schema(client, public_form, tenant):
    page = client.get(f"/f/{public_form['id']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert tenant.name in html and "Expense claim" in html
    assert 'name="f.name"' in html and "Your name" in html
    assert '<select id="field-category" name="f.category"' in html
    assert 'type="date"' in html and 'type="checkbox" id="field-urgent"' in html
    assert 'type="number"' in html and 'type="file"' in html and "In euros" in html
    assert 'name="website"' in html  # the honeypot
    assert "script" not in html.split("<body", 1)[1]  # no JavaScript needed


def test_a_submission_through_the_page_and_the_thank_you(app, client, public_form):
    response = _post(
        client,
        public_form["id"],
        {
            "f.name": "Ada",
            "f.amount": "12",
            "f.category": "meals",
            "f.spentOn": "2026-11-20",
            "f.urgent": "on",
        },
        **{"f.receipt": (b"a receipt", "receipt.txt")},
    )
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/f/{public_form['id']}/thanks")
    assert "Thank you" in client.get(response.headers["Location"]).get_data(as_text=True)
    from extensions import db
    from models import FormSubmission

    with app.app_context():
        sub = db.session.scalar(select(FormSubmission))
        assert sub.submitted_by == "public" and len(sub.document_ids) == 1
        assert sub.data == {
            "name": "Ada",
            "amount": 12,
            "category": "meals",
            "spentOn": "2026-11-20",
            "urgent": True,
            "receipt": sub.document_ids[0],
        }


def test_errors_are_shown_beside_each_field(client, public_form):
    response = _post(client, public_form["id"], {"f.amount": "0", "f.email": "nope"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="field-name-errors"' in html and "is required" in html
    assert 'id="field-amount-errors"' in html and 'id="field-email-errors"' in html
    assert 'value="nope"' in html  # what was typed stays
    bad_number = _post(client, public_form["id"], {"f.name": "A", "f.amount": "ten"})
    assert "Enter a whole number" in bad_number.get_data(as_text=True)


def test_without_a_csrf_token_nothing_is_kept(app, client, public_form):
    client.get(f"/f/{public_form['id']}")
    response = client.post(f"/f/{public_form['id']}", data={"f.name": "Ada", "f.amount": "3"})
    assert response.status_code == 400
    assert _count_submissions(app) == 0


def test_the_honeypot_thanks_the_bot_and_keeps_nothing(app, client, public_form):
    response = _post(
        client, public_form["id"], {"f.name": "Bot", "f.amount": "3", "website": "http://spam"}
    )
    assert response.status_code == 303
    assert _count_submissions(app) == 0


@pytest.mark.parametrize("change", ["draft", "archived", "private", "missing"])
def test_only_published_public_forms_are_reachable(client, headers, make_form, change):
    form = make_form(
        public=change != "private", status="draft" if change == "draft" else "published"
    )
    if change == "archived":
        client.patch(f"/api/v1/forms/{form['id']}", json={"status": "archived"}, headers=headers)
    form_id = "frm_nope" if change == "missing" else form["id"]
    for path in (f"/f/{form_id}", f"/f/{form_id}/thanks"):
        response = client.get(path)
        assert response.status_code == 404
        assert "text/html" in response.content_type


def test_another_tenants_host_does_not_show_the_form(make_app, tenant, other_tenant, public_form):
    app = make_app(DMS_BASE_DOMAIN="dms.example")
    client = app.test_client()
    own = client.get(f"/f/{public_form['id']}", headers={"Host": "acme.dms.example"})
    assert own.status_code == 200
    other = client.get(f"/f/{public_form['id']}", headers={"Host": "globex.dms.example"})
    assert other.status_code == 404
    assert client.get(f"/f/{public_form['id']}", headers={"Host": "dms.example"}).status_code == 200


def test_posts_are_limited_per_client_ip(app, client, public_form, monkeypatch):
    monkeypatch.setitem(app.config, "DMS_RATE_LIMIT_IP_BURST", 3)
    token = _token_of(client.get(f"/f/{public_form['id']}").get_data(as_text=True))
    statuses = [
        _post(client, public_form["id"], {"f.name": "A", "f.amount": "1"}, token).status_code
        for _ in range(4)
    ]
    assert statuses[:2] == [303, 303] and statuses[-1] == 429
    elsewhere = app.test_client().get(
        f"/f/{public_form['id']}", environ_base={"REMOTE_ADDR": "10.9.8.7"}
    )
    assert elsewhere.status_code == 200


def test_a_file_over_the_limit_is_shown_on_its_field(app, client, public_form, monkeypatch):
    monkeypatch.setitem(app.config, "DMS_MAX_UPLOAD_BYTES", 100)
    response = _post(
        client,
        public_form["id"],
        {"f.name": "A", "f.amount": "1"},
        **{"f.receipt": (b"x" * 500, "big.bin")},
    )
    assert response.status_code == 413
    assert 'id="field-receipt-errors"' in response.get_data(as_text=True)
    assert _count_submissions(app) == 0


def test_a_schema_file_field_named_like_the_page_inputs_is_fine(client, make_form):
    schema = {
        **EXPENSE_SCHEMA,
        "properties": {**EXPENSE_SCHEMA["properties"], "website": {"type": "string"}},
    }
    form = make_form(schema, public=True)
    response = _post(client, form["id"], {"f.name": "A", "f.amount": "1", "f.website": "x.example"})
    assert response.status_code == 303
