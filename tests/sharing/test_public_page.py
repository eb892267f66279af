"""The public page `/s/<token>`: the file with the API download's safe headers, each download
counted, audited and emitted; 404 for tokens that name nothing, 410 for links that no longer
serve; HEAD counts nothing; the password form (per-form token, throttle per client IP); the
per-IP request limit; the token never in the request log."""

from __future__ import annotations

import logging
import re
from datetime import timedelta

from sqlalchemy import delete, select

import clock
from tests.helpers import audit_actions
from tests.sharing.conftest import HTML, path_of


def _events(app, type_: str) -> list[dict]:
    from extensions import db
    from models import Event

    with app.app_context():
        return [e.data for e in db.session.scalars(select(Event).where(Event.type == type_))]


def _form_token(page) -> str:
    return re.search(r'name="form_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def test_the_file_comes_with_the_safe_download_headers(app, client, make_link, tenant):
    link = make_link()

    response = client.get(path_of(link))

    assert response.status_code == 200 and response.data == HTML
    assert response.headers["Content-Disposition"].startswith('attachment; filename="report.html"')
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Security-Policy"] == "default-src 'none'; sandbox"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in response.headers
    (event,) = _events(app, "share_link.downloaded")
    assert event["shareLinkId"] == link["id"] and event["downloads"] == 1
    assert audit_actions(app, tenant.id)[-1] == "share_link.downloaded"


def test_ranges_and_validators_do_not_split_a_download(client, make_link):
    """Each answer is one whole download: no 206 that would count a part, no 304."""
    link = make_link()

    ranged = client.get(path_of(link), headers={"Range": "bytes=0-3"})
    again = client.get(path_of(link), headers={"If-None-Match": ranged.headers["ETag"]})

    assert ranged.status_code == 200 and ranged.data == HTML
    assert again.status_code == 200 and again.data == HTML


def test_head_answers_the_headers_and_counts_nothing(app, client, make_link, headers):
    link = make_link(maxDownloads=1)

    head = client.head(path_of(link))

    assert head.status_code == 200 and head.data == b""
    assert head.headers["Content-Length"] == str(len(HTML))
    assert head.headers["Content-Disposition"].startswith("attachment")
    assert head.headers["X-Content-Type-Options"] == "nosniff"
    assert _events(app, "share_link.downloaded") == []
    assert client.get(path_of(link)).status_code == 200  # the one download is still there


def test_a_link_used_up_expired_or_revoked_is_410(client, headers, make_link):
    capped, expiring, revoked = make_link(maxDownloads=1), make_link(), make_link()
    client.delete(f"/api/v1/share-links/{revoked['id']}", headers=headers)

    assert client.get(path_of(capped)).status_code == 200
    assert client.get(path_of(capped)).status_code == 410
    assert client.get(path_of(revoked)).status_code == 410
    assert client.get(path_of(expiring)).status_code == 200
    listed = client.get(f"/api/v1/documents/{capped['documentId']}/share-links", headers=headers)
    statuses = {row["id"]: row["status"] for row in listed.get_json()["data"]}
    assert statuses == {capped["id"]: "used_up", expiring["id"]: "active", revoked["id"]: "revoked"}
    clock.shift(timedelta(days=7, seconds=1))
    gone = client.get(path_of(expiring))
    assert gone.status_code == 410 and "expired" in gone.get_data(as_text=True)


def test_a_trashed_document_or_a_missing_pinned_version_is_410(app, client, headers, make_link):
    pinned, current = make_link(version=1), make_link()
    from extensions import db
    from models import DocumentVersion

    with app.app_context():
        db.session.execute(delete(DocumentVersion))
        db.session.commit()
    assert client.get(path_of(pinned)).status_code == 410
    client.delete(f"/api/v1/documents/{current['documentId']}", headers=headers)
    assert client.get(path_of(current)).status_code == 410


def test_unknown_and_malformed_tokens_are_404_and_reveal_nothing(client, make_link):
    link = make_link()
    token = path_of(link).removeprefix("/s/")
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")

    for path in (f"/s/{wrong}", "/s/short", f"/s/{token}x", "/s/" + "%00" * 43):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "report" not in response.get_data(as_text=True)


def test_a_pinned_version_is_sent_after_new_ones(client, headers, make_link, document_id):
    pinned = make_link(version=1)
    current = make_link()
    upload = {"file": (__import__("io").BytesIO(b"version two"), "report-v2.txt")}
    response = client.post(
        f"/api/v1/documents/{document_id}/versions", data=upload, headers=headers
    )
    assert response.status_code == 201

    assert client.get(path_of(pinned)).data == HTML
    assert client.get(path_of(current)).data == b"version two"


def test_the_password_form_then_the_file(app, client, make_link):
    link = make_link(password="open sesame")

    page = client.get(path_of(link))
    assert page.status_code == 200 and HTML not in page.data
    html = page.get_data(as_text=True)
    assert "<script" not in html and 'type="password"' in html
    assert "report" not in html and "acme" not in html.lower()  # nothing of the tenant's
    wrong = client.post(path_of(link), data={"form_token": _form_token(page), "password": "nope"})
    assert wrong.status_code == 403 and HTML not in wrong.data
    right = client.post(
        path_of(link), data={"form_token": _form_token(wrong), "password": "open sesame"}
    )
    assert right.status_code == 200 and right.data == HTML
    assert right.headers["X-Content-Type-Options"] == "nosniff"
    assert len(_events(app, "share_link.downloaded")) == 1


def test_the_password_form_needs_its_own_token_from_the_same_address(client, make_link):
    link = make_link(password="open sesame")
    token = _form_token(client.get(path_of(link)))

    missing = client.post(path_of(link), data={"password": "open sesame"})
    forged = client.post(path_of(link), data={"form_token": "x" + token, "password": "open sesame"})
    elsewhere = client.post(
        path_of(link),
        data={"form_token": token, "password": "open sesame"},
        environ_base={"REMOTE_ADDR": "203.0.113.9"},
    )

    assert [missing.status_code, forged.status_code, elsewhere.status_code] == [400, 400, 400]
    other = make_link(password="open sesame")
    assert (
        client.post(
            path_of(other), data={"form_token": token, "password": "open sesame"}
        ).status_code
        == 400
    )


def test_wrong_passwords_are_throttled_per_client_address(client, make_link):
    link = make_link(password="open sesame")
    other = make_link(password="something else")

    def attempt(target, password, ip="198.51.100.7"):
        env = {"REMOTE_ADDR": ip}
        page = client.get(path_of(target), environ_base=env)
        data = {"form_token": _form_token(page), "password": password}
        return client.post(path_of(target), data=data, environ_base=env)

    statuses = [attempt(link, f"guess {n}").status_code for n in range(5)]
    blocked = attempt(other, "something else")  # the right password, from the same address

    assert statuses == [403] * 5
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0
    assert HTML not in blocked.data
    assert attempt(link, "open sesame", ip="198.51.100.8").status_code == 200


def test_the_public_page_counts_against_the_per_ip_limit(make_app, tenant, create_key):
    app = make_app(DMS_RATE_LIMIT_IP_BURST=3)
    client = app.test_client()
    statuses = [client.get("/s/" + "a" * 43).status_code for _ in range(4)]

    assert statuses == [404, 404, 404, 429]


def test_the_token_never_reaches_the_request_log(client, make_link, caplog):
    link = make_link(password="open sesame")
    token = path_of(link).removeprefix("/s/")

    with caplog.at_level(logging.INFO, logger="dms.request"):
        client.get(path_of(link))
        client.post(path_of(link), data={"password": "x"})
        client.head(path_of(make_link()))

    lines = [r for r in caplog.records if r.name == "dms.request" and r.path.startswith("/s/")]
    assert len(lines) == 3
    assert all(r.path == "/s/[redacted]" and token not in r.getMessage() for r in lines)
    assert token not in caplog.text
