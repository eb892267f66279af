"""Share links in the portal: the document's panel lists them; a plain POST and an htmx POST
make one and show its address once; revoke; auditors only read; CSRF on every form; the
admins' Sharing page turns links off for the workspace."""

from __future__ import annotations

import re

from tests.helpers import csrf_token, post, sign_in
from tests.sharing.conftest import HTML


def _detail(client, document_id) -> str:
    return client.get(f"/documents/{document_id}").get_data(as_text=True)


def test_a_plain_post_makes_a_link_and_shows_its_address_once(admin_client, document_id):
    response = post(
        admin_client,
        f"/documents/{document_id}/share-links",
        {"expires_in_days": "30", "max_downloads": "2", "password": "", "version": ""},
    )

    assert response.status_code == 201
    url = re.search(
        r'id="share-url" type="text" readonly value="([^"]+)"', response.get_data(as_text=True)
    ).group(1)
    assert "/s/" in url and response.headers["Cache-Control"] == "no-store"
    page = _detail(admin_client, document_id)
    assert 'id="share-links-table"' in page and "0 of 2" in page
    assert url.rsplit("/", 1)[1] not in page  # listed, never shown again
    download = admin_client.get("/s/" + url.rsplit("/s/", 1)[1])
    assert download.status_code == 200 and download.data == HTML


def test_htmx_swaps_the_panel_with_the_address_and_revokes(admin_client, document_id):
    token = csrf_token(admin_client, f"/documents/{document_id}")
    htmx = {"HX-Request": "true", "X-CSRFToken": token}

    made = admin_client.post(
        f"/documents/{document_id}/share-links",
        data={"expires_in_days": "7", "password": "pw"},
        headers=htmx,
    )
    html = made.get_data(as_text=True)
    assert made.status_code == 200 and html.lstrip().startswith("{#") is False
    assert 'id="sharing"' in html and 'id="share-url"' in html and "<html" not in html
    link_id = re.search(r'id="share-(shl_[0-9a-z]+)"', html).group(1)

    revoked = admin_client.post(f"/share-links/{link_id}/revoke", headers=htmx)
    assert revoked.status_code == 200 and 'data-status="revoked"' in revoked.get_data(as_text=True)
    assert 'id="share-url"' not in revoked.get_data(as_text=True)


def test_form_errors_stay_beside_the_fields(admin_client, document_id):
    response = post(
        admin_client,
        f"/documents/{document_id}/share-links",
        {"expires_in_days": "3", "max_downloads": "0", "version": "9"},
    )

    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="share-errors"' in html and "Choose one of the offered expiries." in html


def test_forms_need_the_csrf_token(admin_client, document_id):
    response = admin_client.post(
        f"/documents/{document_id}/share-links", data={"expires_in_days": "7"}
    )

    assert response.status_code == 400


def test_auditors_see_the_links_but_make_none(client, tenant, auditor, document_id, make_link):
    make_link()
    sign_in(client, tenant.id, auditor.email)

    page = _detail(client, document_id)

    assert (
        'id="share-links-table"' in page
        and 'id="share-form"' not in page
        and "Revoke share link" not in page
    )
    refused = post(client, f"/documents/{document_id}/share-links", {"expires_in_days": "7"})
    assert refused.status_code == 403


def test_other_tenants_links_are_404(client, other_tenant, create_user, make_link):
    link = make_link()
    stranger = create_user(other_tenant, "admin", email="admin@globex.example")
    sign_in(client, other_tenant.id, stranger.email)

    assert post(client, f"/share-links/{link['id']}/revoke").status_code == 404
    assert post(client, f"/documents/{link['documentId']}/share-links", {}).status_code == 404


def test_the_admins_switch(admin_client, document_id, make_link, client):
    link = make_link()

    off = post(admin_client, "/sharing", {})
    page = admin_client.get("/sharing").get_data(as_text=True)

    assert off.status_code == 302 and "Share links are <strong>off</strong>" in page
    assert 'id="sharing-off"' in _detail(admin_client, document_id)
    assert 'id="share-form"' not in _detail(admin_client, document_id)
    assert admin_client.get("/s/" + link["url"].rsplit("/s/", 1)[1]).status_code == 410
    post(admin_client, "/sharing", {"share_links_enabled": "on"})
    assert "Share links are <strong>on</strong>" in admin_client.get("/sharing").get_data(
        as_text=True
    )


def test_members_cannot_reach_the_switch(client, tenant, member):
    sign_in(client, tenant.id, member.email)

    assert client.get("/sharing").status_code == 403
