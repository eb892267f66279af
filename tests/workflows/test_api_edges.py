"""The edges of the workflows API: lists with their filters and cursors, approver=me, bad
definitions (another tenant's approver, unknown ids, wrong shapes), another tenant's ids (404),
and two approvers acting at the same moment on an `any` step (it advances once)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from tests.helpers import auth_headers

API = "/api/v1/workflows"


def test_lists_and_filters(flow, people, document_id, store_document, tenant):
    ann, bob = people["ann"], people["bob"]
    other_doc = store_document(tenant, b"contract", "contract.txt")
    for_ann = flow.define([{"name": "A", "approvers": [{"user": ann.id}]}], name="A")
    for_bob = flow.define([{"name": "B", "approvers": [{"user": bob.id}]}], name="B")
    first = flow.start(for_ann["id"], document_id).get_json()["data"]["id"]
    second = flow.start(for_bob["id"], other_doc).get_json()["data"]["id"]
    third = flow.start(for_ann["id"], other_doc).get_json()["data"]["id"]
    flow.act(third, "approve", ann)

    def ids(query: str, headers=None) -> list[str]:
        response = flow.client.get(f"{API}/instances?{query}", headers=headers or flow.key_headers)
        assert response.status_code == 200, response.get_json()
        return [i["id"] for i in response.get_json()["data"]]

    assert ids("") == [third, second, first]
    assert ids("state=pending") == [second, first]
    assert ids(f"documentId={other_doc}") == [third, second]
    assert ids("approver=me", flow.token(ann)) == [first]
    assert ids("approver=me", flow.token(bob)) == [second]
    assert ids("createdAfter=2000-01-01T00:00:00Z&createdBefore=2000-01-02T00:00:00Z") == []
    page = flow.client.get(f"{API}/instances?limit=2", headers=flow.key_headers).get_json()
    cursor = page["meta"]["pagination"]["nextCursor"]
    rest = flow.client.get(f"{API}/instances?limit=2&cursor={cursor}", headers=flow.key_headers)
    assert [i["id"] for i in rest.get_json()["data"]] == [first]
    other_filter = flow.client.get(
        f"{API}/instances?limit=2&state=pending&cursor={cursor}", headers=flow.key_headers
    )
    assert other_filter.get_json()["errors"][0]["code"] == "INVALID_CURSOR"
    by_key = flow.client.get(f"{API}/instances?approver=me", headers=flow.key_headers)
    assert by_key.status_code == 403
    assert by_key.get_json()["errors"][0]["code"] == "USER_CONTEXT_REQUIRED"
    for bad in ("state=done", "approver=you", "limit=0", "colour=red"):
        assert (
            flow.client.get(f"{API}/instances?{bad}", headers=flow.key_headers).status_code == 400
        )
    definitions = flow.client.get(API, headers=flow.key_headers).get_json()["data"]
    assert [d["name"] for d in definitions] == ["B", "A"]


ADMINS = [{"role": "admin"}]


@pytest.mark.parametrize(
    "steps, field",
    [
        ([], "steps"),
        ([{"name": "x", "approvers": []}], "steps.0.approvers"),
        ([{"name": "x", "approvers": [{"user": "usr_x", "role": "admin"}]}], "steps.0.approvers.0"),
        ([{"name": "x", "approvers": [{"role": "owner"}]}], "steps.0.approvers.0.role"),
        ([{"name": "x", "mode": "most", "approvers": ADMINS}], "steps.0.mode"),
        ([{"name": "x", "approvers": ADMINS, "dueInHours": 0}], "steps.0.dueInHours"),
        ([{"name": "x", "approvers": [{"user": "usr_nobody"}]}], "steps.0.approvers.0"),
        ([{"name": "x", "approvers": [{"email": "nobody@else.example"}]}], "steps.0.approvers.0"),
        (
            [{"name": "x", "approvers": ADMINS, "escalateTo": {"user": "usr_x"}}],
            "steps.0.escalateTo",
        ),
        ([{"name": f"s{i}", "approvers": ADMINS} for i in range(21)], "steps"),
    ],
)
def test_bad_definitions_are_refused_per_field(flow, steps, field):
    response = flow.client.post(API, json={"name": "x", "steps": steps}, headers=flow.key_headers)
    assert response.status_code == 422, response.get_json()
    errors = response.get_json()["errors"]
    assert errors[0]["code"] == "VALIDATION_ERROR"
    assert any(e.get("field", "").startswith(field) for e in errors), errors


def test_another_tenants_people_documents_and_ids(
    app, flow, people, document_id, other_tenant, create_user, create_key, store_document
):
    stranger = create_user(other_tenant, "admin", email="boss@globex.example")
    refused = flow.client.post(
        API,
        json={"name": "x", "steps": [{"name": "s", "approvers": [{"user": stranger.id}]}]},
        headers=flow.key_headers,
    )
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "steps.0.approvers.0"
    definition = flow.define([{"name": "s", "approvers": [{"user": people["ann"].id}]}])
    their_doc = store_document(other_tenant, b"secret", "s.txt")
    bad_doc = flow.start(definition["id"], their_doc)
    assert bad_doc.status_code == 422 and bad_doc.get_json()["errors"][0]["field"] == "documentId"
    bad_def = flow.start("wfd_nope", document_id)
    assert bad_def.status_code == 422
    assert bad_def.get_json()["errors"][0]["field"] == "definitionId"
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]

    _key, secret = create_key(other_tenant)
    theirs = auth_headers(secret, other_tenant.id)
    for method, path in (
        ("get", f"{API}/{definition['id']}"),
        ("patch", f"{API}/{definition['id']}"),
        ("get", f"{API}/instances/{wfi}"),
        ("post", f"{API}/instances/{wfi}/cancel"),
    ):
        response = getattr(flow.client, method)(path, json={}, headers=theirs)
        assert response.status_code == 404, (method, path)
    other_definition = flow.client.post(
        f"{API}/instances",
        json={"definitionId": definition["id"], "documentId": their_doc},
        headers=theirs,
    )
    assert other_definition.status_code == 422
    assert flow.client.get(f"{API}/instances", headers=theirs).get_json()["data"] == []
    # Their admin, with a token of their own tenant, cannot act on ours either.
    token = flow.token(stranger)
    token["X-Tenant-Id"] = other_tenant.id
    assert flow.client.post(f"{API}/instances/{wfi}/approve", headers=token).status_code == 404


def test_two_approvers_at_once_advance_an_any_step_once(app, flow, people, document_id):
    """Both press approve at the same moment: one advances the step, the other finds it moved
    on (409); the history has one step_completed, the next step is untouched."""
    from extensions import db
    from models import User, WorkflowAction, WorkflowInstance
    from services.core import transaction
    from services.workflows import instances

    ann, bob, cy = people["ann"], people["bob"], people["cy"]
    definition = flow.define(
        [
            {"name": "Either", "mode": "any", "approvers": [{"user": ann.id}, {"user": bob.id}]},
            {"name": "Then", "approvers": [{"user": cy.id}]},
        ]
    )
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def press(user_id: str) -> None:
        with app.app_context():
            instance = db.session.get(WorkflowInstance, wfi)
            user = db.session.get(User, user_id)
            barrier.wait()
            try:
                instances.approve(instance, user, None)
                transaction.commit()
                outcomes.append("ok")
            except Exception as exc:  # the DomainError the API would answer
                db.session.rollback()
                outcomes.append(getattr(exc, "status", type(exc).__name__))

    threads = [threading.Thread(target=press, args=(u.id,)) for u in (ann, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(map(str, outcomes)) in (["403", "ok"], ["409", "ok"]), outcomes
    with app.app_context():
        completed = db.session.scalar(
            select(func.count())
            .select_from(WorkflowAction)
            .where(WorkflowAction.instance_id == wfi, WorkflowAction.action == "step_completed")
        )
        assert completed == 1
    instance = flow.get(wfi)
    assert instance["currentStep"] == 1 and [p["email"] for p in instance["currentApprovers"]] == [
        "cy@acme.example"
    ]


def test_webhooks_can_subscribe_to_every_workflow_event(flow, app, monkeypatch):
    monkeypatch.setitem(app.config, "DMS_WEBHOOK_ALLOW_PRIVATE", True)
    catalogue = flow.client.get("/api/v1/webhooks/event-types", headers=flow.key_headers)
    names = {t["type"] for t in catalogue.get_json()["data"]}
    wanted = [
        f"workflow.instance.{n}"
        for n in ("created", "step_completed", "approved", "rejected", "cancelled", "escalated")
    ]
    assert set(wanted) <= names
    created = flow.client.post(
        "/api/v1/webhooks",
        json={"url": "https://hooks.example.com/dms", "events": wanted},
        headers=flow.key_headers,
    )
    assert created.status_code == 201, created.get_json()
