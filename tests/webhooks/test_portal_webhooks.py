"""The portal's Webhooks pages: create with the secret shown once, roles (auditor read-only,
member 403), another tenant's ids 404, CSRF, enable/disable/delete/rotate, and a test event
and a retry sent over the portal that reach the real local receiver, with the delivery log
showing each attempt."""

from __future__ import annotations

import re

import pytest

from tests.helpers import audit_actions, csrf_token, post, sign_in
from tests.webhooks.receiver import Answer

_SECRET = re.compile(r'id="secret"[^>]*value="(whsec_[^"]+)"')
_ENDPOINT_ID = re.compile(r'id="new-endpoint-id">(whk_[^<]+)<')
HTMX = {"HX-Request": "true"}


def _endpoint_row(app, endpoint_id):
    from extensions import db
    from models import WebhookEndpoint

    with app.app_context():
        row = db.session.get(WebhookEndpoint, endpoint_id)
        if row is not None:
            db.session.expunge(row)
        return row


def _endpoint_count(app) -> int:
    from sqlalchemy import func, select

    from extensions import db
    from models import WebhookEndpoint

    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(WebhookEndpoint))


@pytest.fixture
def signed_in(client, tenant):
    def as_(user):
        response = sign_in(client, tenant.id, user.email)
        assert response.status_code == 302, response.get_data(as_text=True)
        return client

    return as_


def test_admin_creates_an_endpoint_and_sees_the_secret_once(
    app, admin_client, tenant, local_delivery, receiver
):
    page = admin_client.get("/webhooks").get_data(as_text=True)
    assert 'action="/webhooks"' in page and "Event catalogue" in page
    assert "document.created" in page and "<details>" in page  # the catalogue with samples

    created = post(
        admin_client,
        "/webhooks",
        {"url": receiver.url(), "events": ["document.created"], "description": "CRM sync"},
    )

    assert created.status_code == 201, created.get_data(as_text=True)
    assert created.headers["Cache-Control"].startswith("no-store")
    html = created.get_data(as_text=True)
    secret, endpoint_id = _SECRET.search(html).group(1), _ENDPOINT_ID.search(html).group(1)
    row = _endpoint_row(app, endpoint_id)
    assert row.tenant_id == tenant.id and row.event_types == ["document.created"]
    assert row.description == "CRM sync"
    listing = admin_client.get("/webhooks").get_data(as_text=True)
    assert endpoint_id in listing and "CRM sync" in listing and secret not in listing
    detail = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    assert secret not in detail and "Send test event" in detail
    assert "webhook.created" in audit_actions(app, tenant.id)


def test_bad_input_is_refused_beside_the_fields_and_nothing_is_saved(app, admin_client):
    response = post(admin_client, "/webhooks", {"url": "http://127.0.0.1/x", "events": []})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="url-errors"' in html and 'id="events-errors"' in html
    assert _endpoint_count(app) == 0


def test_csrf_missing_is_a_400_and_nothing_changes(
    app, admin_client, tenant, make_endpoint, receiver
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    form = {"url": receiver.url("/b"), "events": ["*"]}
    assert admin_client.post("/webhooks", data=form).status_code == 400
    assert admin_client.post(f"/webhooks/{endpoint_id}/delete").status_code == 400
    assert admin_client.post(f"/webhooks/{endpoint_id}/delete", headers=HTMX).status_code == 400
    assert (
        admin_client.post(f"/webhooks/{endpoint_id}/enabled", data={"enabled": "0"}).status_code
        == 400
    )
    assert admin_client.post(f"/webhooks/{endpoint_id}/test", headers=HTMX).status_code == 400
    assert _endpoint_count(app) == 1
    assert _endpoint_row(app, endpoint_id).enabled is True
    assert receiver.requests == []


def test_auditor_reads_without_forms_and_is_refused_every_change(
    app, signed_in, auditor, tenant, make_endpoint, receiver
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    client = signed_in(auditor)
    listing = client.get("/webhooks")
    assert listing.status_code == 200
    html = listing.get_data(as_text=True)
    assert (
        endpoint_id in html
        and "<form" not in html.split("</header>", 1)[1].split("Event catalogue")[0]
    )
    assert 'action="/webhooks"' not in html
    detail = client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    assert "Send test event" not in detail and "Rotate secret" not in detail
    token = csrf_token(client, "/webhooks")
    for path in (
        "/webhooks",
        f"/webhooks/{endpoint_id}/enabled",
        f"/webhooks/{endpoint_id}/delete",
        f"/webhooks/{endpoint_id}/rotate",
        f"/webhooks/{endpoint_id}/test",
    ):
        assert client.post(path, data={"csrf_token": token, "url": "x"}).status_code == 403, path
    assert client.get(f"/webhooks/{endpoint_id}/rotate").status_code == 403
    assert _endpoint_row(app, endpoint_id).enabled is True
    assert receiver.requests == []


def test_member_gets_403(signed_in, member):
    client = signed_in(member)
    assert client.get("/webhooks").status_code == 403
    assert 'href="/webhooks"' not in client.get("/").get_data(as_text=True)


def test_another_tenants_endpoint_and_delivery_are_404(
    app, admin_client, other_tenant, tenant, make_endpoint, emit, receiver, work, deliveries_of
):
    theirs, _ = make_endpoint(other_tenant, receiver.url())
    emit(other_tenant)
    work()
    [their_delivery] = deliveries_of(theirs)
    mine, _ = make_endpoint(tenant, receiver.url("/mine"))
    assert admin_client.get(f"/webhooks/{theirs}").status_code == 404
    assert post(admin_client, f"/webhooks/{theirs}/delete").status_code == 404
    assert post(admin_client, f"/webhooks/{theirs}/test").status_code == 404
    assert post(admin_client, f"/webhooks/{theirs}/rotate").status_code == 404
    delivery_path = f"/webhooks/{mine}/deliveries/{their_delivery['id']}"
    assert admin_client.get(delivery_path, headers=HTMX).status_code == 404
    assert post(admin_client, f"{delivery_path}/retry").status_code == 404
    assert _endpoint_row(app, theirs) is not None
    assert len(receiver.requests) == 1


def test_test_event_over_htmx_reaches_the_receiver_and_shows_in_place(
    admin_client, tenant, make_endpoint, receiver, work
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    sent = post(admin_client, f"/webhooks/{endpoint_id}/test", headers=HTMX)
    assert sent.status_code == 200
    fragment = sent.get_data(as_text=True)
    assert "<html" not in fragment and "webhook.test" in fragment
    delivery_id = re.search(r'data-delivery="(dlv_[^"]+)"', fragment).group(1)
    assert 'hx-trigger="load delay:2s"' in fragment  # polls until the attempt lands

    work()

    [request] = receiver.requests
    assert b'"type":"webhook.test"' in request.body.replace(b" ", b"")
    polled = admin_client.get(
        f"/webhooks/{endpoint_id}/deliveries/{delivery_id}?poll=0", headers=HTMX
    ).get_data(as_text=True)
    assert 'data-status="succeeded"' in polled and 'data-attempt="1"' in polled
    assert "hx-trigger" not in polled  # done: no more polling
    detail = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    assert delivery_id in detail and "100% ok" in detail


def test_retry_over_the_portal_and_the_log_shows_every_attempt(
    app, admin_client, tenant, make_endpoint, emit, receiver, work
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    receiver.default = Answer(500, body=b"receiver broke")
    emit(tenant)
    work()
    detail = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    delivery_id = re.search(r'data-delivery="(dlv_[^"]+)"', detail).group(1)
    assert 'data-status="retrying"' in detail and "receiver broke" in detail
    assert "Retry now" in detail and 'class="attempt-timeline"' in detail
    assert "timeline-fail" in detail and "timeline-next" in detail

    receiver.default = Answer(200, body=b"thanks")
    retried = post(
        admin_client, f"/webhooks/{endpoint_id}/deliveries/{delivery_id}/retry", headers=HTMX
    )
    assert retried.status_code == 200
    assert f'id="dlv-{delivery_id}"' in retried.get_data(as_text=True)
    work()

    assert len(receiver.requests) == 2
    assert receiver.requests[0].headers["webhook-id"] == receiver.requests[1].headers["webhook-id"]
    log = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    assert 'data-status="succeeded"' in log
    assert 'data-attempt="1"' in log and 'data-attempt="2"' in log
    assert "receiver broke" in log and "thanks" in log
    assert "timeline-ok" in log and "50% ok" in log
    assert "webhook.delivery_retried" in audit_actions(app, tenant.id)


def test_retry_without_javascript_redirects_back(
    admin_client, tenant, make_endpoint, emit, receiver, work
):
    endpoint_id, _ = make_endpoint(tenant, receiver.url())
    receiver.script.append(Answer(503))
    emit(tenant)
    work()
    detail = admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)
    delivery_id = re.search(r'data-delivery="(dlv_[^"]+)"', detail).group(1)
    response = post(admin_client, f"/webhooks/{endpoint_id}/deliveries/{delivery_id}/retry")
    assert response.status_code == 302
    work()
    assert len(receiver.requests) == 2


def test_disable_enable_rotate_and_delete(app, admin_client, tenant, make_endpoint, receiver):
    endpoint_id, first_secret = make_endpoint(tenant, receiver.url())
    assert (
        post(admin_client, f"/webhooks/{endpoint_id}/enabled", {"enabled": "0"}).status_code == 302
    )
    row = _endpoint_row(app, endpoint_id)
    assert row.enabled is False and row.disabled_reason
    listing = admin_client.get("/webhooks").get_data(as_text=True)
    assert "Disabled" in listing and row.disabled_reason in listing
    refused = post(admin_client, f"/webhooks/{endpoint_id}/test", headers=HTMX)
    assert "disabled" in refused.get_data(as_text=True) and receiver.requests == []
    post(admin_client, f"/webhooks/{endpoint_id}/enabled", {"enabled": "1"})
    assert _endpoint_row(app, endpoint_id).enabled is True

    assert "24 hours" in admin_client.get(f"/webhooks/{endpoint_id}/rotate").get_data(as_text=True)
    rotated = post(admin_client, f"/webhooks/{endpoint_id}/rotate")
    assert rotated.status_code == 201 and rotated.headers["Cache-Control"].startswith("no-store")
    new_secret = _SECRET.search(rotated.get_data(as_text=True)).group(1)
    assert new_secret != first_secret
    assert new_secret not in admin_client.get(f"/webhooks/{endpoint_id}").get_data(as_text=True)

    assert admin_client.get(f"/webhooks/{endpoint_id}/delete").status_code == 200
    gone = post(admin_client, f"/webhooks/{endpoint_id}/delete", headers=HTMX)
    assert gone.status_code == 200 and gone.get_data(as_text=True) == ""
    assert _endpoint_row(app, endpoint_id) is None
    actions = audit_actions(app, tenant.id)
    for action in ("webhook.updated", "webhook.secret_rotated", "webhook.deleted"):
        assert action in actions
