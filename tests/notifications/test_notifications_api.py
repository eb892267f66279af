"""GET /api/v1/notifications and POST …/{id}/read: a person's own notifications, the unread
filter and count, marking read, folding repeats, the event each creates, and who may see what
(an API key has no person: 403; anyone else's notification: 404)."""

from __future__ import annotations

import threading

from sqlalchemy import select

from tests.helpers import auth_headers, user_token

API = "/api/v1/notifications"


def test_a_notification_is_listed_read_and_announced(app, client, tenant, admin, notify, as_user):
    first = notify(admin, "First", body="one", data={"webhookId": "whk_1"})
    second = notify(admin, "Second")
    headers = as_user(tenant, admin)

    listed = client.get(API, headers=headers)
    assert listed.status_code == 200
    body = listed.get_json()
    assert [n["id"] for n in body["data"]] == [second, first]  # newest first
    assert body["meta"]["unread"] == 2
    one = body["data"][1]
    assert one["type"] == "test.message" and one["title"] == "First" and one["body"] == "one"
    assert one["data"] == {"webhookId": "whk_1"} and one["readAt"] is None
    assert one["deliveries"] == [] and one["createdAt"].endswith("Z")

    read = client.post(f"{API}/{first}/read", headers=headers)
    assert read.status_code == 200 and read.get_json()["data"]["readAt"] is not None
    again = client.post(f"{API}/{first}/read", headers=headers)
    assert again.get_json()["data"]["readAt"] == read.get_json()["data"]["readAt"]

    unread = client.get(f"{API}?unread=true", headers=headers).get_json()
    assert [n["id"] for n in unread["data"]] == [second] and unread["meta"]["unread"] == 1
    done = client.get(f"{API}?unread=false", headers=headers).get_json()
    assert [n["id"] for n in done["data"]] == [first]
    assert client.get(f"{API}/{second}", headers=headers).get_json()["data"]["title"] == "Second"

    with app.app_context():
        from extensions import db
        from models import Event

        events = db.session.scalars(
            select(Event).where(Event.type == "notification.created").order_by(Event.id)
        ).all()
        assert [e.data["notification"]["id"] for e in events] == [first, second]
        assert events[0].data["notification"]["userId"] == admin.id


def test_pages_follow_the_cursor(client, tenant, member, notify, as_user):
    ids = [notify(member, f"n{i}") for i in range(5)]
    headers = as_user(tenant, member)
    seen, url = [], f"{API}?limit=2"
    while url:
        body = client.get(url, headers=headers).get_json()
        seen += [n["id"] for n in body["data"]]
        cursor = body["meta"]["pagination"].get("nextCursor")
        url = f"{API}?limit=2&cursor={cursor}" if cursor else None
    assert seen == list(reversed(ids))
    # A cursor of the unread list is not one of the whole list.
    body = client.get(f"{API}?limit=2", headers=headers).get_json()
    cursor = body["meta"]["pagination"]["nextCursor"]
    refused = client.get(f"{API}?limit=2&unread=true&cursor={cursor}", headers=headers)
    assert refused.status_code == 400
    assert refused.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


def test_repeats_of_one_cause_fold_into_one(client, tenant, admin, notify, as_user):
    assert notify(admin, "Key due", dedupe_key="key-rotation:key_1") is not None
    assert notify(admin, "Key due", dedupe_key="key-rotation:key_1") is None
    assert notify(admin, "Another", dedupe_key="key-rotation:key_2") is not None
    assert notify(admin, "No key") and notify(admin, "No key")  # no key, no folding
    body = client.get(API, headers=as_user(tenant, admin)).get_json()
    assert len(body["data"]) == 4


def test_an_api_key_has_no_notifications(client, headers):
    response = client.get(API, headers=headers)
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["code"] == "USER_CONTEXT_REQUIRED"


def test_scopes_are_needed(app, client, tenant, member, notify):
    ntf = notify(member)
    read_only = user_token(app, member, ["notifications:read"])
    nothing = user_token(app, member, ["documents:read"])
    assert client.get(API, headers=auth_headers(nothing, tenant.id)).status_code == 403
    assert client.get(API, headers=auth_headers(read_only, tenant.id)).status_code == 200
    refused = client.post(f"{API}/{ntf}/read", headers=auth_headers(read_only, tenant.id))
    assert refused.status_code == 403
    assert refused.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"


def test_another_persons_or_tenants_notification_is_not_found(
    client, tenant, other_tenant, admin, member, create_user, notify, as_user
):
    mine = notify(admin, "Mine")
    stranger = create_user(other_tenant, "admin", email="admin@other.example")
    theirs = notify(stranger, "Theirs")
    for user, tenant_of in ((member, tenant), (stranger, other_tenant)):
        headers = as_user(tenant_of, user)
        for response in (
            client.get(f"{API}/{mine}", headers=headers),
            client.post(f"{API}/{mine}/read", headers=headers),
        ):
            assert response.status_code == 404
            assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"
        assert mine not in [n["id"] for n in client.get(API, headers=headers).get_json()["data"]]
    # The stranger's id asked for inside our tenant (the header names ours) is unknown too.
    assert client.get(f"{API}/{theirs}", headers=as_user(tenant, admin)).status_code == 404
    assert client.get(f"{API}/ntf_nonexistent", headers=as_user(tenant, admin)).status_code == 404


def test_bad_query_parameters_are_refused(client, tenant, admin, as_user):
    headers = as_user(tenant, admin)
    for query in ("unread=maybe", "limit=0", "cursor=garbage", "colour=red"):
        response = client.get(f"{API}?{query}", headers=headers)
        assert response.status_code in (400, 422), query
        assert response.get_json()["success"] is False


def test_two_writers_of_one_cause_make_one_notification(app, admin):
    """The unique (user, dedupe key) decides, not a read before the write: two workers
    seeing the same failure at the same moment still notify once."""
    from extensions import db
    from models import Notification
    from services.core import transaction
    from services.notifications.notifications import Message, notify

    barrier = threading.Barrier(4)
    results: list[object] = []

    def writer() -> None:
        with app.app_context():
            barrier.wait()
            created = notify(admin.tenant_id, admin.id, Message("t", "Race"), "race:1")
            transaction.commit()
            results.append(created.id if created else None)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(results) == 4 and sum(r is not None for r in results) == 1
    with app.app_context():
        rows = db.session.scalars(select(Notification).where(Notification.dedupe_key == "race:1"))
        assert len(rows.all()) == 1
