"""The internal tier: loopback or operator token only, never a customer credential."""

from __future__ import annotations

from tests.helpers import auth_headers


def test_health_from_loopback(client):
    response = client.get("/internal/health")
    assert response.status_code == 200
    checks = response.get_json()["data"]["checks"]
    assert checks["database"]["ok"] and checks["redis"]["ok"]


def test_internal_is_hidden_from_remote_callers(client):
    response = client.get("/internal/health", environ_base={"REMOTE_ADDR": "203.0.113.5"})
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "NOT_FOUND"


def test_operator_token_opens_it_from_anywhere(make_app):
    app = make_app(DMS_OPERATOR_TOKEN="op-token-0123456789")
    remote = {"REMOTE_ADDR": "203.0.113.5"}
    ok = app.test_client().get(
        "/internal/metrics", headers=auth_headers("op-token-0123456789"), environ_base=remote
    )
    assert ok.status_code == 200
    wrong = app.test_client().get(
        "/internal/metrics", headers=auth_headers("op-token-wrong"), environ_base=remote
    )
    assert wrong.status_code == 404


def test_customer_key_is_refused_even_from_loopback(client, headers):
    assert client.get("/internal/health", headers=headers).status_code == 404


def _count(client, labels: str) -> float:
    prefix = f"dms_http_requests_total{{{labels}}} "
    for line in client.get("/internal/metrics").get_data(as_text=True).splitlines():
        if line.startswith(prefix):
            return float(line[len(prefix) :])
    return 0.0


def test_metrics_count_requests_by_endpoint_and_status(client, headers):
    ok = 'endpoint="api.list_documents",method="GET",status="200"'
    denied = 'endpoint="api.list_documents",method="GET",status="401"'
    before = (_count(client, ok), _count(client, denied))
    client.get("/api/v1/documents", headers=headers)
    client.get("/api/v1/documents", headers=headers)
    client.get("/api/v1/documents")
    assert (_count(client, ok), _count(client, denied)) == (before[0] + 2, before[1] + 1)
    text = client.get("/internal/metrics").get_data(as_text=True)
    assert 'dms_http_request_duration_seconds_bucket{endpoint="api.list_documents"' in text


def test_health_reports_redis_down(make_app):
    app = make_app(REDIS_URL="redis://127.0.0.1:1/0")
    response = app.test_client().get("/internal/health")
    assert response.status_code == 503
    assert response.get_json()["data"]["checks"]["redis"]["ok"] is False
