"""A notification created by the notifications service reaches the person's device, and the
notifications resource shows what became of each push (CONTRACT §9 `deliveries`)."""

from __future__ import annotations

from tests.push.conftest import APNS_TOKEN


def test_the_notification_lists_its_pushes(
    app, client, providers, subscribe, work, person, person_headers
):
    from services.core import transaction
    from services.notifications.notifications import Message, notify

    subscribe(person, "ios", APNS_TOKEN)
    with app.app_context():
        created = notify(person.tenant_id, person.id, Message("test.message", "Hello", "there"))
        transaction.commit()
        notification_id = created.id
    pending = client.get(f"/api/v1/notifications/{notification_id}", headers=person_headers)
    [delivery] = pending.get_json()["data"]["deliveries"]
    assert delivery["pushChannel"] == "apns" and delivery["status"] == "pending"
    work()
    [request] = providers.apns.requests
    assert b'"pushChannel":"apns"' in request.body.replace(b" ", b"")
    done = client.get("/api/v1/notifications", headers=person_headers).get_json()["data"][0]
    assert done["id"] == notification_id
    assert [(d["pushChannel"], d["status"]) for d in done["deliveries"]] == [("apns", "delivered")]
