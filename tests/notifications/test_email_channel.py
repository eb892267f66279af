"""The e-mail channel: off by default; turned on from the Notifications page, each new
notification is also mailed through SMTP (a real aiosmtpd server) by a job."""

from __future__ import annotations

from tests.helpers import post, sign_in


def test_notifications_are_mailed_once_the_person_turns_email_on(
    app, client, tenant, member, notify, smtp_server, work
):
    notify(member, "Before the switch")
    work()
    assert smtp_server.messages == []  # off by default

    sign_in(client, tenant.id, member.email)
    assert post(client, "/notifications/settings", {"email": "on"}).status_code == 302
    assert 'id="notify-email" checked' in client.get("/notifications").get_data(as_text=True)

    notify(member, "Invoice approved", body="The invoice of March was approved.")
    assert smtp_server.messages == []  # sent by the job, not by the writer
    work()
    assert len(smtp_server.messages) == 1
    message = smtp_server.messages[0]
    assert message["To"] == member.email and message["Subject"] == "Invoice approved"
    assert "The invoice of March was approved." in message.get_content()

    post(client, "/notifications/settings", {})
    notify(member, "After turning it off")
    work()
    assert len(smtp_server.messages) == 1


def test_other_people_are_not_mailed(app, client, tenant, member, admin, notify, smtp_server,
                                     work):  # fmt: skip
    sign_in(client, tenant.id, member.email)
    post(client, "/notifications/settings", {"email": "on"})
    notify(admin, "For the admin")
    work()
    assert smtp_server.messages == []


def test_the_setting_form_needs_csrf(client, tenant, member):
    sign_in(client, tenant.id, member.email)
    assert client.post("/notifications/settings", data={"email": "on"}).status_code == 400
