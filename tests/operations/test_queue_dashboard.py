"""rq-dashboard on the internal tier: served to loopback and operator-token callers, hidden
(404, like the rest of /internal/*) from everyone else, and its actions refused cross-site."""

from __future__ import annotations

import pytest

from services.core import queue
from tests.helpers import auth_headers

REMOTE = {"REMOTE_ADDR": "203.0.113.5"}
TOKEN = "op-token-0123456789abcdef"


@pytest.fixture
def operator_app(make_app):
    return make_app(DMS_OPERATOR_TOKEN=TOKEN)


def test_served_to_loopback_with_the_app_queues(client, app, tenant, store_document):
    store_document(tenant, b"some text to extract")  # queues its extraction job
    with app.app_context():
        name = queue.queue().name

    page = client.get("/internal/queues/")
    data = client.get("/internal/queues/0/data/queues.json")

    assert page.status_code == 200 and b"<title>RQ dashboard</title>" in page.data
    assert "'unsafe-inline'" in page.headers["Content-Security-Policy"]  # this page only
    counts = {q["name"]: q["count"] for q in data.get_json()["queues"]}
    assert counts.get(name, 0) >= 1
    assert client.get("/internal/queues/0/view/workers").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/internal/queues/",
        "/internal/queues/0/data/queues.json",
        "/internal/queues/static/js/dashboard.js",
    ],
)
def test_hidden_from_outside(client, path):
    answer = client.get(path, environ_base=REMOTE)
    assert answer.status_code == 404
    assert answer.get_json()["errors"][0]["code"] == "NOT_FOUND"


def test_a_customer_key_is_refused_even_from_loopback(client, headers):
    assert client.get("/internal/queues/", headers=headers).status_code == 404


def test_the_operator_token_opens_it_from_anywhere(operator_app):
    client = operator_app.test_client()
    good = client.get("/internal/queues/", headers=auth_headers(TOKEN), environ_base=REMOTE)
    wrong = client.get("/internal/queues/", headers=auth_headers("nope"), environ_base=REMOTE)
    assert good.status_code == 200 and wrong.status_code == 404


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/internal/queues/queue/default/failed/empty"),
        ("GET", "/internal/queues/requeue/default"),
    ],
)
def test_actions_from_another_site_are_refused(client, method, path):
    cross = client.open(
        path,
        method=method,
        headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
    )
    assert cross.status_code == 403
    assert cross.get_json()["errors"][0]["code"] == "FORBIDDEN"

    same = client.open(
        path, method=method, headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    )
    assert same.status_code == 200
