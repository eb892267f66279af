"""The Documents page's saved views: the sidebar lists the person's and the shared views,
"Save this view" keeps the filters shown (CSRF required), applying one fills the filters and
shows its columns (also on a row redrawn in place), a view the list's form has no field for
still applies, deleting is for its owner (or an admin, shared), and another person's personal
view or another tenant's is neither listed nor applied."""

from __future__ import annotations

import re

import pytest

from tests.helpers import auth_headers, csrf_token, post, sign_in


@pytest.fixture
def signed_in(client, tenant):
    def as_user(user):
        response = sign_in(client, tenant.id, user.email)
        assert response.status_code == 302, response.get_data(as_text=True)
        return client

    return as_user


def _page(client, query: str = "") -> str:
    response = client.get(f"/documents{query}")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def _titles(html: str) -> list[str]:
    return re.findall(r'<a class="strong" href="/documents/doc_[^"]+">([^<]+)</a>', html)


def _headers(html: str) -> list[str]:
    return re.findall(r'<th scope="col" data-column="([a-z]+)"', html)


def _view_id(client, name: str, headers) -> str:
    views = client.get("/api/v1/saved-views", headers=headers).get_json()["data"]
    return next(v["id"] for v in views if v["name"] == name)


def test_saving_the_filters_shown_and_applying_the_view(client, headers, admin, signed_in, upload):
    upload("b-report", ["finance"])
    upload("a-invoice", ["finance"])
    upload("c-memo", ["hr"])
    browser = signed_in(admin)
    assert "No views of yours yet." in _page(browser)
    shown = "tag=finance&sort=title"
    saved = post(
        browser,
        "/documents/views",
        {"name": "Finance", "query": shown, "columns": ["title", "source", "created"]},
    )
    assert saved.status_code == 302
    assert "saved=svw_" in saved.headers["Location"]

    html = _page(browser, "?" + saved.headers["Location"].split("?", 1)[1])
    assert "Saved the view “Finance”." in html
    assert _titles(html) == ["a-invoice", "b-report"]
    assert _headers(html) == ["source", "created"]
    assert 'data-source="api"' in html
    assert re.search(r'<a href="[^"]*saved=svw_[^"]*" aria-current="page"', html)

    plain = _page(browser)
    assert _headers(plain) == ["status", "tags", "type", "size", "modified"]
    view = client.get("/api/v1/saved-views", headers=headers).get_json()["data"]
    assert view == []  # the admin's personal view is not the API key's
    assert "Finance" in plain


def test_saving_needs_the_csrf_token(admin, signed_in):
    browser = signed_in(admin)
    refused = browser.post("/documents/views", data={"name": "x", "query": "", "columns": "title"})
    assert refused.status_code in (400, 403)
    assert "No views of yours yet." in _page(browser)


def test_a_view_made_through_the_api_applies_all_its_filters(
    app, client, tenant, admin, signed_in, upload
):
    from tests.helpers import bearer

    token = bearer(app, tenant, admin)
    upload("kept", ["finance"])
    upload("dropped", ["finance"])
    client.patch(  # give one a metadata pair the page's form has no field for
        "/api/v1/documents/" + _doc_id(client, token, "kept"),
        json={"metadata": {"quarter": "Q3"}},
        headers=token,
    )
    made = client.post(
        "/api/v1/saved-views",
        json={
            "name": "Q3",
            "filters": {"metadata.quarter": "Q3", "status": ["active", "archived"]},
        },
        headers=token,
    )
    assert made.status_code == 201, made.get_json()
    browser = signed_in(admin)
    html = _page(browser, f"?saved={made.get_json()['data']['id']}")
    assert _titles(html) == ["kept"]


def _doc_id(client, headers, title: str) -> str:
    listed = client.get("/api/v1/documents", headers=headers).get_json()["data"]
    return next(d["id"] for d in listed if d["title"] == title)


def test_a_trashed_row_redrawn_in_place_keeps_the_views_columns(
    client, headers, admin, signed_in, upload
):
    document = upload("only", ["finance"])
    browser = signed_in(admin)
    post(browser, "/documents/views", {"name": "Slim", "query": "", "columns": ["title", "size"]})
    view = re.search(r"saved=(svw_[a-z0-9]+)", _page(browser)).group(1)
    token = csrf_token(browser, f"/documents?saved={view}")
    row = browser.post(
        f"/documents/{document['id']}/trash",
        data={"back": f"/documents?saved={view}"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    html = row.get_data(as_text=True)
    assert row.status_code == 200 and html.count("<td") == 4  # select, title, size, actions


def test_others_personal_views_stay_theirs_and_shared_ones_are_deleted_by_admins(
    app, client, tenant, other_tenant, create_user, create_key, signed_in, upload
):
    from tests.helpers import bearer

    upload("listed")
    mia = create_user(tenant, "member", email="mia@acme.example")
    admin = create_user(tenant, "admin", email="ada@acme.example")
    as_mia = bearer(app, tenant, mia)
    personal = client.post("/api/v1/saved-views", json={"name": "Mia's own"}, headers=as_mia)
    shared = client.post(
        "/api/v1/saved-views", json={"name": "Team view", "shared": True}, headers=as_mia
    )
    theirs = client.post(
        "/api/v1/saved-views",
        json={"name": "Globex view", "shared": True},
        headers=auth_headers(create_key(other_tenant)[1], other_tenant.id),
    )
    personal_id = personal.get_json()["data"]["id"]
    shared_id = shared.get_json()["data"]["id"]
    theirs_id = theirs.get_json()["data"]["id"]

    browser = signed_in(admin)
    html = _page(browser)
    assert "Team view" in html and "Mia's own" not in html and "Globex view" not in html
    for foreign in (personal_id, theirs_id):  # not applied: the default columns
        assert _headers(_page(browser, f"?saved={foreign}")) == [
            "status", "tags", "type", "size", "modified",
        ]  # fmt: skip
        refused = post(browser, f"/documents/views/{foreign}/delete", {})
        assert refused.status_code == 404
    assert post(browser, f"/documents/views/{shared_id}/delete", {}).status_code == 302
    after = _page(browser)
    assert "Deleted the view “Team view”." in after and 'id="view-svw_' not in after
    assert client.get(f"/api/v1/saved-views/{personal_id}", headers=as_mia).status_code == 200


def test_a_views_name_is_shown_escaped(admin, signed_in, upload):
    upload("any")
    browser = signed_in(admin)
    name = "<img src=x onerror=alert(1)>"
    post(browser, "/documents/views", {"name": name, "query": "", "columns": ["title"]})
    html = _page(browser)
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and name not in html


def test_htmx_saves_the_filter_forms_fields_not_the_stale_query(admin, signed_in, upload):
    upload("hr memo", ["hr"])
    browser = signed_in(admin)
    token = csrf_token(browser, "/documents")
    saved = browser.post(
        "/documents/views",
        data={"name": "HR", "query": "tag=finance", "columns": "title", "tag": "hr", "q": ""},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert saved.status_code == 204 and "tag=hr" in saved.headers["HX-Redirect"]
    html = _page(browser, "?" + saved.headers["HX-Redirect"].split("?", 1)[1])
    assert _titles(html) == ["hr memo"]
