"""The portal's bell and Notifications page: the unread count on every page, the list, marking
one read with htmx (the bell updates out of band) or all at once, CSRF on both, and nobody
else's notifications (another person's id is a 404; support staff have no bell)."""

from __future__ import annotations

import re

from tests.helpers import csrf_token, post, sign_in

HTMX = {"HX-Request": "true"}


def bell_count(html: str) -> int | None:
    match = re.search(r'class="bell-count" data-count="(\d+)"', html)
    return int(match.group(1)) if match else None


def test_the_bell_counts_and_the_page_lists(admin_client, admin, notify):
    assert bell_count(admin_client.get("/").get_data(as_text=True)) is None
    first = notify(admin, "Webhook endpoint disabled", body="https://x.example stopped")
    key_due = notify(admin, "Key due", type="api_key.rotation_due", data={"keyId": "key_123"})
    home = admin_client.get("/").get_data(as_text=True)
    assert bell_count(home) == 2 and 'aria-label="Notifications: 2 unread"' in home
    page = admin_client.get("/notifications").get_data(as_text=True)
    assert "Webhook endpoint disabled" in page and "https://x.example stopped" in page
    # The notification links to its subject, through a link that reads it on the way.
    assert f'href="/notifications/{key_due}/open"' in page and "Open the API key" in page
    assert page.index("Key due") < page.index("Webhook endpoint disabled")  # newest first
    poll = admin_client.get("/notifications/bell").get_data(as_text=True)
    assert bell_count(poll) == 2 and 'hx-trigger="every 60s"' in poll
    opened = admin_client.get(f"/notifications/{key_due}/open")
    assert opened.status_code == 302 and opened.headers["Location"] == "/keys/key_123"
    assert bell_count(admin_client.get("/notifications/bell").get_data(as_text=True)) == 1
    assert first


def test_marking_one_read_with_htmx_updates_the_bell(admin_client, admin, notify):
    ntf = notify(admin, "One")
    notify(admin, "Two")
    token = csrf_token(admin_client, "/notifications")
    answer = admin_client.post(f"/notifications/{ntf}/read", headers={**HTMX, "X-CSRFToken": token})
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert f'id="notification-{ntf}"' in html and "Mark read" not in html
    assert 'hx-swap-oob="true"' in html and bell_count(html) == 1
    unread = admin_client.get("/notifications?show=unread").get_data(as_text=True)
    assert "Two" in unread and ">One<" not in unread


def test_mark_all_read_and_csrf(admin_client, admin, notify):
    notify(admin, "One")
    notify(admin, "Two")
    assert admin_client.post("/notifications/read-all").status_code == 400  # no CSRF token
    assert bell_count(admin_client.get("/").get_data(as_text=True)) == 2
    done = post(admin_client, "/notifications/read-all")
    assert done.status_code == 302
    assert bell_count(admin_client.get("/").get_data(as_text=True)) is None


def test_another_persons_notification_is_not_found(client, tenant, admin, member, notify):
    theirs = notify(admin, "Admin's own")
    sign_in(client, tenant.id, member.email)
    assert post(client, f"/notifications/{theirs}/read").status_code == 404
    assert "Admin's own" not in client.get("/notifications").get_data(as_text=True)


def test_older_notifications_page_back(admin_client, admin, notify, monkeypatch):
    from portal import notifications as page

    monkeypatch.setattr(page, "PAGE_SIZE", 2)
    ids = [notify(admin, f"Number {i}") for i in range(3)]
    first = admin_client.get("/notifications").get_data(as_text=True)
    assert "Number 2" in first and "Number 1" in first and "Number 0" not in first
    older = admin_client.get(f"/notifications?before={ids[1]}").get_data(as_text=True)
    assert "Number 0" in older and "Number 1" not in older


def test_support_staff_have_no_bell(client, support_staff):
    sign_in(client, None, "help@operator.example")
    home = client.get("/support/tenants", follow_redirects=True).get_data(as_text=True)
    assert 'id="notification-bell"' not in home
    assert client.get("/notifications").status_code in (302, 403)
