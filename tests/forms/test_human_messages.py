"""The public form page and the submissions API say what to enter in our words, one message
per rule, never jsonschema's ("'not-an-email' is not a 'email'")."""

from __future__ import annotations

import re

from tests.forms.conftest import errors_of


def _token_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def _post_public(client, form_id: str, data: dict):
    token = _token_of(client.get(f"/f/{form_id}").get_data(as_text=True))
    body = {"csrf_token": token, **data}
    return client.post(f"/f/{form_id}", data=body, content_type="multipart/form-data")


def test_the_public_form_says_what_to_enter(client, make_form):
    form = make_form(public=True)
    response = _post_public(
        client,
        form["id"],
        {"f.name": "", "f.amount": "0", "f.email": "not-an-email", "f.spentOn": "2026-13-45"},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Enter an e-mail address such as name@example.com." in html
    assert "Enter 1 or more." in html
    assert "Enter a date such as 2026-11-21." in html
    assert "This is required." in html
    assert "is not a &#39;email&#39;" not in html and "is not a 'email'" not in html
    assert "is less than the minimum" not in html


def test_the_submissions_api_carries_the_same_words(client, headers, make_form):
    form = make_form()
    bad = {"name": "x" * 101, "amount": 0, "category": "boats", "email": "no"}
    response = client.post(
        f"/api/v1/forms/{form['id']}/submissions", json={"data": bad}, headers=headers
    )
    assert response.status_code == 422, response.get_json()
    errors = errors_of(response)
    assert errors["/email"] == "Enter an e-mail address such as name@example.com."
    assert errors["/amount"] == "Enter 1 or more."
    assert errors["/category"] == "Choose one of: travel, meals, other."
    assert errors["/name"] == "Shorten this to 100 characters or fewer."
