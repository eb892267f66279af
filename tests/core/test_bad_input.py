"""Every bad input gets the envelope, never a 500 and never the HTTP server's own HTML page:
the probes of the hardening review, each as it was sent."""

from __future__ import annotations

import http.client
import io
import json
import socket
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server import gunicorn_server

URL = "/api/v1/documents"


def _upload(client, headers, metadata: str):
    return client.post(
        URL,
        data={"file": (io.BytesIO(b"x"), "x.txt"), "metadata": metadata},
        headers=headers,
        content_type="multipart/form-data",
    )


@pytest.mark.parametrize(
    "metadata",
    ["[" * 60000, '{"a":' * 3000 + "1" + "}" * 3000],
    ids=["arrays-60000-deep", "objects-3000-deep"],
)
def test_deeply_nested_metadata_is_a_422(client, headers, metadata):
    response = _upload(client, headers, metadata)
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("VALIDATION_ERROR", "metadata")
    assert "nested deeper than 200 levels" in error["message"]


def test_a_deeply_nested_json_body_is_a_400(client, headers):
    created = _upload(client, headers, "{}").get_json()["data"]
    body = '{"metadata":' + "[" * 60000 + "}"
    response = client.patch(
        f"{URL}/{created['id']}", data=body, headers=headers, content_type="application/json"
    )
    assert response.status_code == 400
    error = response.get_json()["errors"][0]
    assert error["code"] == "INVALID_JSON"
    assert "nested deeper than 200 levels" in error["message"]


def test_an_integer_beyond_the_column_is_a_400(client, headers):
    created = _upload(client, headers, "{}").get_json()["data"]
    response = client.get(
        f"{URL}/{created['id']}/content", query_string={"version": "9223372036854775808"},
        headers=headers,
    )  # fmt: skip
    assert response.status_code == 400
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("INVALID_PARAMETER", "version")


def test_the_openapi_document_states_the_integer_bounds(client):
    operation = client.get("/api/v1/openapi.json").get_json()["paths"][
        "/api/v1/documents/{document_id}/content"
    ]["get"]
    (version,) = [p for p in operation["parameters"] if p["name"] == "version"]
    (integer,) = [s for s in version["schema"]["anyOf"] if s.get("type") == "integer"]
    assert (integer["minimum"], integer["maximum"]) == (1, 2**31 - 1)


def test_a_url_over_the_apps_limit_is_a_414_in_the_envelope(client, headers):
    response = client.get(URL, query_string={"title": "x" * 20000}, headers=headers)
    assert response.status_code == 414
    assert response.get_json()["errors"][0]["code"] == "URI_TOO_LONG"


def test_too_many_headers_are_a_431_in_the_envelope(client, headers):
    many = {f"X-Probe-{n}": "1" for n in range(150)}
    response = client.get(URL, headers={**headers, **many})
    assert response.status_code == 431
    assert response.get_json()["errors"][0]["code"] == "HEADERS_TOO_LARGE"


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=12), children, max_size=4)
        ),
        max_leaves=25,
    )
)
def test_any_json_in_a_patch_or_the_metadata_field_is_answered_in_the_envelope(
    client, headers, body
):
    created = _upload(client, headers, "{}")
    assert created.status_code == 201
    document_id = created.get_json()["data"]["id"]
    text = json.dumps(body)
    for response in (
        client.patch(f"{URL}/{document_id}", data=text, headers=headers,
                     content_type="application/json"),
        client.patch(f"{URL}/{document_id}", data=json.dumps({"metadata": body}),
                     headers=headers, content_type="application/json"),
        _upload(client, headers, text),
    ):  # fmt: skip
        assert response.status_code < 500, response.get_data(as_text=True)
        assert response.mimetype == "application/json"
        assert "success" in response.get_json()


# --- through the real HTTP server ------------------------------------------------------------


@pytest.fixture
def server(tmp_path):
    with gunicorn_server(tmp_path) as running:
        yield running


def _raw_get(base: str, path: str, headers: dict[str, str]) -> tuple[int, str, dict]:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    connection.putrequest("GET", path, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, response.getheader("Content-Type") or "", json.loads(body or "null")


@pytest.mark.server
def test_the_servers_own_limits_sit_above_the_apps(server):
    """With its default limits gunicorn answers these itself, in HTML (414 for a
    10,000-character q, 431 for a 20 KiB header or 250 headers); gunicorn.conf.py sets its
    limits above the app's, so the app sees them and answers in the envelope."""
    base, secret = server
    auth = {"Authorization": f"Bearer {secret}", "X-Tenant-Id": "contract"}
    probes = [
        (f"/api/v1/search?q={'a' * 10000}", auth, 400, "INVALID_PARAMETER"),
        ("/api/v1/documents", {**auth, "X-Big": "b" * 20 * 1024}, 431, "HEADERS_TOO_LARGE"),
        ("/api/v1/documents", {**auth, **{f"X-H{n}": "1" for n in range(250)}}, 431,
         "HEADERS_TOO_LARGE"),
        (f"/api/v1/documents?title={'t' * 20000}", auth, 414, "URI_TOO_LONG"),
    ]  # fmt: skip
    for path, headers, status, code in probes:
        got, content_type, body = _raw_get(base, path, headers)
        assert (got, content_type.split(";")[0]) == (status, "application/json"), path[:40]
        assert body["errors"][0]["code"] == code


def _raw(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send `request` as it is over a socket; the answer's status, headers and body (the
    server closes the connection after refusing a request)."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _get(*header_lines: str, request_line: str = "GET /api/v1/documents HTTP/1.1") -> bytes:
    return "\r\n".join([request_line, "Host: 127.0.0.1", *header_lines, "", ""]).encode()


@pytest.mark.server
def test_what_the_server_refuses_itself_is_answered_in_the_envelope(server):
    """Past gunicorn.conf.py's limits, or not HTTP at all: gunicorn's parser refuses the
    request before the app sees it, and its worker (web_server.py) answers in the envelope."""
    base, _ = server
    probes = [
        ("a header over 32 KiB", _get(f"X-Big: {'b' * 33 * 1024}"), 431, "HEADERS_TOO_LARGE"),
        ("501 headers", _get(*(f"X-H{n}: 1" for n in range(501))), 431, "HEADERS_TOO_LARGE"),
        ("a garbage request line", b"GARBAGE\r\n\r\n", 400, "INVALID_PARAMETER"),
        ("a method that is no token", _get(request_line="G@T / HTTP/1.1"), 400,
         "INVALID_PARAMETER"),
        ("a header name with a space", _get("X Bad: 1"), 400, "INVALID_PARAMETER"),
        ("a control character in a value", _get("X-Ctl: a\x01b"), 400, "INVALID_PARAMETER"),
    ]  # fmt: skip
    for what, request, status, code in probes:
        got, headers, body = _raw(base, request)
        assert (got, headers.get("content-type")) == (status, "application/json"), (what, body)
        envelope = json.loads(body)
        assert envelope["success"] is False, what
        assert envelope["errors"][0]["code"] == code, what
        assert headers.get("x-request-id", "").startswith("req_"), what
        assert int(headers["content-length"]) == len(body), what
