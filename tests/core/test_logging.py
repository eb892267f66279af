"""Structured request logs: one JSON object per request, with ids and never a secret."""

from __future__ import annotations

import json
import logging

from observability import JsonFormatter


def test_request_log_is_json_with_ids_and_no_secret(client, tenant, api_key, caplog):
    key, secret = api_key
    caplog.set_level(logging.INFO, logger="dms.request")
    response = client.get(
        "/api/v1/documents",
        headers={"Authorization": f"Bearer {secret}", "X-Tenant-Id": tenant.id},
    )
    assert response.status_code == 200
    records = [r for r in caplog.records if r.name == "dms.request"]
    assert len(records) == 1
    line = json.loads(JsonFormatter().format(records[0]))
    assert line["request_id"] == response.headers["X-Request-Id"]
    assert (line["tenant"], line["credential"], line["status"]) == (tenant.id, key.id, 200)
    assert line["latency_ms"] >= 0 and line["path"] == "/api/v1/documents"
    assert secret not in json.dumps(line)
    assert secret not in caplog.text
