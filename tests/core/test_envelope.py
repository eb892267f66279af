"""CONTRACT §1-2: the envelope on every error path, request ids, and no HTML ever."""

from __future__ import annotations

import logging

import pytest
from pydantic import BaseModel, Field

from tests.helpers import auth_headers


class EchoBody(BaseModel):
    model_config = {"extra": "forbid"}
    name: str = Field(min_length=1)
    count: int = Field(ge=0)


@pytest.fixture
def probe_app(make_app):
    """An app with two extra API routes: one echoes a validated JSON body, one crashes."""
    from api.auth import public
    from api.envelope import ok
    from api.validation import json_body

    app = make_app(DMS_MAX_JSON_BYTES=200)

    @public
    @json_body(EchoBody)
    def echo(body: EchoBody):
        return ok(body.model_dump())

    @public
    def crash():
        raise RuntimeError("secret internals: password=hunter2")

    from extensions import csrf

    csrf.exempt(echo)  # API routes authenticate by bearer, like the api blueprint
    app.add_url_rule("/api/v1/_probe/echo", "probe_echo", echo, methods=["POST"])
    app.add_url_rule("/api/v1/_probe/crash", "probe_crash", crash)
    return app


def _errors(response):
    assert response.content_type == "application/json", response.data[:200]
    body = response.get_json()
    assert body["success"] is False
    assert isinstance(body["errors"], list) and body["errors"]
    return body["errors"]


def test_unknown_api_path_is_a_404_envelope(client):
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert _errors(response)[0]["code"] == "NOT_FOUND"
    assert response.headers["X-Request-Id"]


def test_wrong_method_is_a_405_envelope(client, headers):
    response = client.delete("/api/v1/documents", headers=headers)
    assert response.status_code == 405
    assert _errors(response)[0]["code"] == "METHOD_NOT_ALLOWED"
    assert "GET" in response.headers["Allow"]


def test_non_json_body_is_415(probe_app):
    response = probe_app.test_client().post(
        "/api/v1/_probe/echo", data="name=x", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415
    assert _errors(response)[0]["code"] == "UNSUPPORTED_MEDIA_TYPE"


def test_malformed_json_is_400(probe_app):
    response = probe_app.test_client().post(
        "/api/v1/_probe/echo", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert _errors(response)[0]["code"] == "INVALID_JSON"


def test_oversized_json_is_413(probe_app):
    response = probe_app.test_client().post(
        "/api/v1/_probe/echo", json={"name": "x" * 500, "count": 1}
    )
    assert response.status_code == 413
    assert _errors(response)[0]["code"] == "PAYLOAD_TOO_LARGE"


def test_body_over_the_request_limit_is_a_werkzeug_413_in_the_envelope(probe_app):
    probe_app.config.update(MAX_CONTENT_LENGTH=100, DMS_MAX_JSON_BYTES=10_000)
    response = probe_app.test_client().post(
        "/api/v1/_probe/echo", json={"name": "x" * 300, "count": 1}
    )
    assert response.status_code == 413
    assert _errors(response)[0]["code"] == "PAYLOAD_TOO_LARGE"


def test_validation_error_has_one_object_per_field(probe_app):
    response = probe_app.test_client().post(
        "/api/v1/_probe/echo", json={"name": "", "count": -1, "extra": True}
    )
    assert response.status_code == 422
    errors = _errors(response)
    assert {e["field"] for e in errors} == {"name", "count", "extra"}
    assert all(e["code"] == "VALIDATION_ERROR" for e in errors)


def test_valid_body_passes(probe_app):
    response = probe_app.test_client().post("/api/v1/_probe/echo", json={"name": "a", "count": 2})
    assert response.status_code == 200
    assert response.get_json() == {"success": True, "data": {"name": "a", "count": 2}}


def test_500_has_no_stack_trace_and_carries_the_request_id(probe_app, caplog):
    caplog.set_level(logging.ERROR, logger="dms")
    response = probe_app.test_client().get(
        "/api/v1/_probe/crash", headers={"X-Request-Id": "trace-me-123"}
    )
    assert response.status_code == 500
    error = _errors(response)[0]
    assert error["code"] == "INTERNAL_ERROR"
    assert "trace-me-123" in error["message"]
    assert "hunter2" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    assert response.headers["X-Request-Id"] == "trace-me-123"


@pytest.mark.parametrize(
    ("incoming", "echoed"),
    [("abc-123", True), ("x" * 128, True), ("x" * 129, False), ("bad id<script>", False)],
)
def test_request_id_is_echoed_only_when_safe(client, incoming, echoed):
    response = client.get("/api/v1/documents", headers={"X-Request-Id": incoming})
    assert (response.headers["X-Request-Id"] == incoming) is echoed
    assert response.headers["X-Request-Id"]


def test_oversized_header_is_431_envelope(client, headers):
    response = client.get("/api/v1/documents", headers={**headers, "X-Junk": "y" * 10_000})
    assert response.status_code == 431
    assert _errors(response)[0]["code"] == "HEADERS_TOO_LARGE"


def test_unknown_query_parameter_and_bad_limit(client, headers):
    response = client.get("/api/v1/documents?colour=blue", headers=headers)
    assert response.status_code == 400
    assert _errors(response)[0] == {
        "code": "INVALID_PARAMETER",
        "message": "Unknown query parameter 'colour'.",
        "field": "colour",
    }
    for bad in ("0", "-5", "ten", "1.5"):
        response = client.get(f"/api/v1/documents?limit={bad}", headers=headers)
        assert response.status_code == 400
        assert _errors(response)[0]["field"] == "limit"


def test_limit_above_200_is_clamped_and_echoed(client, headers):
    response = client.get("/api/v1/documents?limit=1000", headers=headers)
    assert response.get_json()["meta"]["pagination"]["limit"] == 200


def test_garbage_cursor_is_invalid(client, headers):
    response = client.get("/api/v1/documents?cursor=not-a-cursor", headers=headers)
    assert response.status_code == 400
    assert _errors(response)[0]["code"] == "INVALID_CURSOR"


@pytest.fixture
def dead_database_app(make_app, tmp_path, database_url):
    if database_url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path}/missing-dir/nothing.sqlite3"
    else:
        url = "postgresql+psycopg://postgres@127.0.0.1:1/none?connect_timeout=1"
    return make_app(SQLALCHEMY_DATABASE_URI=url, SQLALCHEMY_ENGINE_OPTIONS={})


def test_database_down_is_503_in_the_envelope(dead_database_app, caplog):
    # A malformed key is refused without touching the database, so send a well-formed one.
    from services.keys.api_keys import generate_secret

    with dead_database_app.app_context():
        secret = generate_secret()
    with caplog.at_level(logging.ERROR, logger="dms.errors"):
        response = dead_database_app.test_client().get(
            "/api/v1/documents", headers=auth_headers(secret, "acme")
        )
    assert response.status_code == 503
    assert _errors(response)[0]["code"] == "SERVICE_UNAVAILABLE"
    # the log says why, in the driver's words, without the statement or its parameters
    logged = [r.getMessage() for r in caplog.records if "database unavailable" in r.getMessage()]
    assert logged and all("SELECT" not in line and "[SQL" not in line for line in logged)
    reason = (
        "unable to open database file"
        if "sqlite" in str(dead_database_app.config["SQLALCHEMY_DATABASE_URI"])
        else "port 1 failed"
    )
    assert any(reason in line for line in logged), logged


def test_health_fails_when_the_database_is_down(dead_database_app):
    response = dead_database_app.test_client().get("/internal/health")
    assert response.status_code == 503
    body = response.get_json()
    assert body["success"] is False
    assert body["data"]["checks"]["database"]["ok"] is False
