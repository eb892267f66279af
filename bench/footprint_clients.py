"""The footprint bench's clients: a keep-alive HTTP connection speaking as the demo key or
the portal session, an upload's multipart body, and a portal sign-in."""

from __future__ import annotations

import http.client
import re
import urllib.parse
import uuid

WORDS = ("invoice", "contract", "report", "budget", "meeting", "supplier", "quarterly", "audit")


class Client:
    """One keep-alive connection speaking as the demo key, or as the portal session."""

    def __init__(self, port: int, api_headers: dict, cookie: str) -> None:
        self.port, self.api_headers, self.cookie = port, api_headers, cookie
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def send(self, method: str, path: str, headers: dict, body: bytes | None = None) -> tuple:
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                return response.status, data
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                if attempt:
                    raise
        raise AssertionError


def upload_body(tag: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    words = " ".join(WORDS[(len(tag) + i) % len(WORDS)] for i in range(400))
    text = f"Bench document {tag}\n{words}\n".encode()
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{tag}.txt"\r\nContent-Type: text/plain\r\n\r\n'
        ).encode()
        + text
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def portal_cookie(port: int, tenant: str, email: str, password: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/login")
    response = conn.getresponse()
    page = response.read().decode()
    cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode(
        {"workspace": tenant, "email": email, "password": password, "csrf_token": token}
    )
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    conn.request("POST", "/login", body=form, headers=headers)
    response = conn.getresponse()
    response.read()
    assert response.status == 302, response.status
    cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
    for path in ("/", "/documents"):  # the portal served once
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        response.read()
        assert response.status == 200, (path, response.status)
    return cookie
