"""The mail-accounts API against a real Dovecot: the CONTRACT's shape, the password write-only
(never answered, stored encrypted, never in the audit), other tenants' accounts are 404,
validation, and a connection test that names each way of failing with its own code."""

from __future__ import annotations

import json
import logging

from sqlalchemy import select

from tests.helpers import audit_actions, bearer
from tests.mailaccounts.dovecot import PASSWORD

SHAPE = {
    "id", "name", "imapHost", "imapPort", "security", "username", "folder", "pollMinutes",
    "enabled", "lastPolledAt", "lastError", "lastErrorCode", "failures", "nextPollAt", "rules",
    "createdAt", "updatedAt",
}  # fmt: skip


def _stored(app):
    from extensions import db
    from models import AuditEntry, MailAccount

    with app.app_context():
        accounts = db.session.scalars(select(MailAccount)).all()
        audit = db.session.scalars(select(AuditEntry)).all()
        return [a.password_encrypted for a in accounts], [json.dumps(e.details) for e in audit]


def test_create_answers_the_contract_shape_without_the_password(
    app, client, headers, make_account, tenant
):
    account = make_account(
        rules=[{"fromContains": "supplier", "tags": ["invoices"], "afterImport": "move",
                "moveTo": "Archive"}],
    )  # fmt: skip

    assert set(account) == SHAPE
    assert account["id"].startswith("mac_")
    assert account["folder"] == "INBOX" and account["pollMinutes"] == 10
    assert account["enabled"] is True and account["security"] == "ssl"
    assert account["lastPolledAt"] is None and account["lastError"] is None
    assert account["rules"] == [
        {"fromContains": "supplier", "subjectContains": None, "attachmentsOnly": True,
         "importBody": False, "tags": ["invoices"], "afterImport": "move", "moveTo": "Archive"}
    ]  # fmt: skip
    fetched = client.get(f"/api/v1/mail-accounts/{account['id']}", headers=headers)
    listed = client.get("/api/v1/mail-accounts", headers=headers)
    for answer in (fetched, listed):
        assert answer.status_code == 200
        assert PASSWORD not in answer.get_data(as_text=True)
        assert "password" not in answer.get_data(as_text=True).lower()
    assert listed.get_json()["data"][0]["id"] == account["id"]
    sealed, audit = _stored(app)
    assert sealed[0] and PASSWORD not in sealed[0]
    assert not any(PASSWORD in details for details in audit)
    assert audit_actions(app, tenant.id)[-1] == "mail_account.created"


def test_patch_changes_fields_and_the_password_without_answering_it(
    app, client, headers, make_account, tenant
):
    account = make_account()
    before, _ = _stored(app)
    url = f"/api/v1/mail-accounts/{account['id']}"

    changed = client.patch(
        url, json={"pollMinutes": 5, "password": "another-Secret-9", "enabled": False},
        headers=headers,
    )  # fmt: skip

    assert changed.status_code == 200, changed.get_json()
    data = changed.get_json()["data"]
    assert data["pollMinutes"] == 5 and data["enabled"] is False
    assert "another-Secret-9" not in changed.get_data(as_text=True)
    after, audit = _stored(app)
    assert after != before and "another-Secret-9" not in after[0]
    assert not any("another-Secret-9" in details for details in audit)
    assert audit_actions(app, tenant.id)[-1] == "mail_account.updated"
    assert client.patch(url, json={"password": None}, headers=headers).status_code == 422
    deleted = client.delete(url, headers=headers)
    assert deleted.status_code == 200 and deleted.get_json()["data"]["id"] == account["id"]
    assert client.get(url, headers=headers).status_code == 404


def test_validation_names_the_field(client, headers, make_account):
    base = {"name": "x", "imapHost": "mail.example.com", "username": "u", "password": "p"}
    cases = [
        ({"pollMinutes": 0}, "pollMinutes"),
        ({"security": "tls"}, "security"),
        ({"imapPort": 70000}, "imapPort"),
        ({"imapHost": "imap://mail.example.com/"}, "imapHost"),
        ({"rules": [{"afterImport": "move"}]}, "rules.0.afterImport"),
        ({"rules": [{"afterImport": "archive"}]}, "rules.0.afterImport"),
        ({"passwordHash": "x"}, "passwordHash"),
        # A CR or LF would end the IMAP command and smuggle in another.
        ({"folder": "INBOX\r\nA1 DELETE INBOX"}, "folder"),
        ({"password": "p\r\nA1 LOGOUT"}, "password"),
        ({"username": "u\nx"}, "username"),
        ({"rules": [{"afterImport": "move", "moveTo": "A\r\nB"}]}, "rules.0.moveTo"),
    ]
    for extra, field in cases:
        response = client.post("/api/v1/mail-accounts", json={**base, **extra}, headers=headers)
        assert response.status_code == 422, (extra, response.get_json())
        fields = [e.get("field") for e in response.get_json()["errors"]]
        assert any(f and f.startswith(field) for f in fields), (extra, fields)
    missing = client.post("/api/v1/mail-accounts", json={"name": "x"}, headers=headers)
    assert missing.status_code == 422
    default_port = client.post("/api/v1/mail-accounts", json=base, headers=headers)
    assert default_port.get_json()["data"]["imapPort"] == 993


def test_another_tenants_account_is_404(app, client, make_account, other_tenant, create_key):
    account = make_account()
    _key, secret = create_key(other_tenant)
    theirs = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": other_tenant.id}
    url = f"/api/v1/mail-accounts/{account['id']}"

    assert client.get(url, headers=theirs).status_code == 404
    assert client.patch(url, json={"name": "x"}, headers=theirs).status_code == 404
    assert client.post(f"{url}/test", headers=theirs).status_code == 404
    assert client.post(f"{url}/poll", headers=theirs).status_code == 404
    assert client.delete(url, headers=theirs).status_code == 404
    assert client.get("/api/v1/mail-accounts", headers=theirs).get_json()["data"] == []


def test_members_may_not_manage_mail_accounts(app, client, tenant, member, make_account):
    account = make_account()
    as_member = bearer(app, tenant, member)
    assert client.get("/api/v1/mail-accounts", headers=as_member).status_code == 403
    url = f"/api/v1/mail-accounts/{account['id']}/test"
    assert client.post(url, headers=as_member).status_code == 403


def _test(client, headers, account) -> tuple[int, dict]:
    response = client.post(f"/api/v1/mail-accounts/{account['id']}/test", headers=headers)
    return response.status_code, response.get_json()


def _code(answer: tuple[int, dict]) -> tuple[int, str]:
    status, body = answer
    return status, body["errors"][0]["code"]


def test_the_connection_test_succeeds_over_each_kind_of_security(
    client, headers, dovecot, mailbox, make_account
):
    mailbox.deliver(b"Subject: one\r\nMessage-ID: <1@x>\r\n\r\nhi\r\n")
    ssl_account = make_account()
    starttls = make_account(security="starttls", imapPort=dovecot.plain_port)
    plain = make_account(security="none", imapPort=dovecot.plain_port)

    for account, security in ((ssl_account, "ssl"), (starttls, "starttls"), (plain, "none")):
        status, body = _test(client, headers, account)
        assert status == 200, body
        assert body["data"] == {"ok": True, "folder": "INBOX", "messages": 1, "security": security}


def test_the_connection_test_says_why_it_fails(
    app, client, headers, dovecot, dovecot_without_tls, mailbox, make_account, monkeypatch
):
    cases = {
        "MAIL_LOGIN_FAILED": make_account(password="wrong-password"),
        "MAIL_FOLDER_NOT_FOUND": make_account(folder="No such folder"),
        "MAIL_DNS_FAILED": make_account(imapHost="imap.does-not-exist.invalid"),
        "MAIL_CONNECTION_REFUSED": make_account(imapPort=1),
        "MAIL_STARTTLS_UNAVAILABLE": make_account(
            security="starttls", imapPort=dovecot_without_tls.plain_port
        ),
        # Implicit TLS spoken to the plain port: the handshake fails.
        "MAIL_TLS_FAILED": make_account(imapPort=dovecot.plain_port),
    }
    for code, account in cases.items():
        status, body = _test(client, headers, account)
        assert (status, body["errors"][0]["code"]) == (502, code), body
        assert PASSWORD not in json.dumps(body)

    # The test CA is not trusted without the operator's bundle: the certificate is refused.
    trusted = make_account()
    monkeypatch.setitem(app.config, "DMS_MAIL_CA_BUNDLE", None)
    status, body = _test(client, headers, trusted)
    assert (status, body["errors"][0]["code"]) == (502, "MAIL_TLS_FAILED")
    assert "certificate" in body["errors"][0]["message"]
    starttls = make_account(security="starttls", imapPort=dovecot.plain_port)
    assert _code(_test(client, headers, starttls)) == (502, "MAIL_TLS_FAILED")

    # Loopback is refused unless the operator allows private addresses.
    monkeypatch.setitem(app.config, "DMS_MAIL_ALLOW_PRIVATE", False)
    for host in ("127.0.0.1", "localhost", "2130706433", "[::1]", "169.254.169.254"):
        account = make_account(imapHost=host)
        assert _code(_test(client, headers, account)) == (422, "MAIL_ADDRESS_REFUSED"), host


def test_the_password_is_in_no_log_line(app, client, headers, make_account, caplog, poll):
    caplog.set_level(logging.DEBUG)
    good = make_account()
    bad = make_account(password="Wrong-" + PASSWORD)
    for account in (good, bad):
        _test(client, headers, account)
        poll(account["id"])
        client.post(f"/api/v1/mail-accounts/{account['id']}/poll", headers=headers)
    assert PASSWORD not in caplog.text
    assert caplog.records  # the poll's failure was logged, without it
