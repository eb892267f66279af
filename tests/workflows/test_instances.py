"""Workflow instances through the API: every transition and its refusal, currentApprovers
after each step in both modes, role approvers, the history, events and notifications, and
definitions edited under running instances."""

from __future__ import annotations

from sqlalchemy import select

from tests.helpers import audit_actions, notifications_of
from tests.workflows.conftest import actions, approver_emails


def events_of(app, prefix: str) -> list[str]:
    from extensions import db
    from models import Event

    with app.app_context():
        rows = db.session.scalars(
            select(Event.type).where(Event.type.startswith(prefix)).order_by(Event.id)
        )
        return list(rows)


def notified(app, person) -> list[tuple[str, dict]]:
    return [(kind, data) for kind, _title, data in notifications_of(app, person)]


def test_all_then_any_step_by_step(app, flow, people, document_id):
    ann, bob, cy = people["ann"], people["bob"], people["cy"]
    definition = flow.define(
        [
            {
                "name": "Managers",
                "mode": "all",
                "approvers": [{"user": ann.id}, {"email": bob.email}],
            },
            {"name": "Finance", "mode": "any", "approvers": [{"user": cy.id}, {"role": "admin"}]},
        ]
    )
    started = flow.start(definition["id"], document_id)
    assert started.status_code == 201 and started.headers["Location"].endswith(
        started.get_json()["data"]["id"]
    )
    instance = started.get_json()["data"]
    wfi = instance["id"]
    assert instance["state"] == "pending" and instance["currentStep"] == 0
    assert instance["currentStepName"] == "Managers"
    assert instance["subject"] == {"type": "document", "id": document_id}
    assert approver_emails(instance) == ["ann@acme.example", "bob@acme.example"]
    assert [t for t, _ in notified(app, ann)] == ["workflow.approval_waiting"]
    assert notified(app, cy) == []  # not their step yet

    one = flow.act(wfi, "approve", ann, "fine by me").get_json()["data"]
    assert one["state"] == "in_progress" and one["currentStep"] == 0
    assert approver_emails(one) == ["bob@acme.example"]  # `all`: ann is done
    again = flow.act(wfi, "approve", ann)
    assert again.status_code == 409 and again.get_json()["errors"][0]["code"] == "CONFLICT"

    two = flow.act(wfi, "approve", bob).get_json()["data"]
    assert two["currentStep"] == 1 and two["currentStepName"] == "Finance"
    assert approver_emails(two) == ["cy@acme.example", "dee@acme.example"]
    assert [t for t, _ in notified(app, cy)] == ["workflow.approval_waiting"]

    done = flow.act(wfi, "approve", people["dee"], "paid").get_json()["data"]
    assert done["state"] == "approved" and done["currentStep"] is None
    assert done["currentApprovers"] == [] and done["completedAt"]
    assert actions(done) == [
        ("started", None), ("approved", 0), ("approved", 0), ("step_completed", 0),
        ("approved", 1), ("step_completed", 1),
    ]  # fmt: skip
    assert done["history"][1]["comment"] == "fine by me"
    assert done["history"][1]["actor"] == f"user:{ann.id}"
    assert events_of(app, "workflow.") == [
        "workflow.instance.created", "workflow.instance.step_completed",
        "workflow.instance.step_completed", "workflow.instance.approved",
    ]  # fmt: skip
    finished = flow.act(wfi, "approve", cy)
    assert finished.status_code == 409
    decisions = [a for a in audit_actions(app, ann.tenant_id) if a.startswith("workflow.")]
    assert decisions == [
        "workflow.definition_created", "workflow.started", "workflow.approved",
        "workflow.approved", "workflow.approved",
    ]  # fmt: skip


def test_reject_ends_it_and_nothing_follows(app, flow, people, document_id):
    ann = people["ann"]
    definition = flow.define([{"name": "Check", "approvers": [{"user": ann.id}]}])
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    rejected = flow.act(wfi, "reject", ann, "wrong amount").get_json()["data"]
    assert rejected["state"] == "rejected" and rejected["currentApprovers"] == []
    assert actions(rejected)[-1] == ("rejected", 0)
    for action in ("approve", "reject"):
        assert flow.act(wfi, action, ann).status_code == 409
    assert (
        flow.client.post(
            f"/api/v1/workflows/instances/{wfi}/cancel", headers=flow.key_headers
        ).status_code
        == 409
    )
    assert events_of(app, "workflow.instance.rejected") == ["workflow.instance.rejected"]


def test_who_may_act(flow, people, document_id, client, headers):
    ann, bob = people["ann"], people["bob"]
    definition = flow.define([{"name": "Check", "approvers": [{"user": ann.id}]}])
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    by_key = client.post(f"/api/v1/workflows/instances/{wfi}/approve", json={}, headers=headers)
    assert by_key.status_code == 403
    assert by_key.get_json()["errors"][0]["code"] == "USER_CONTEXT_REQUIRED"
    stranger = flow.act(wfi, "approve", bob)
    assert stranger.status_code == 403
    assert stranger.get_json()["errors"][0]["code"] == "NOT_AN_APPROVER"
    no_body = flow.client.post(
        f"/api/v1/workflows/instances/{wfi}/approve", headers=flow.token(ann)
    )
    assert no_body.status_code == 200 and no_body.get_json()["data"]["state"] == "approved"


def test_cancel_by_the_starter_or_an_admin(flow, people, document_id, tenant, create_key):
    from tests.helpers import auth_headers

    ann = people["ann"]
    definition = flow.define([{"name": "Check", "approvers": [{"user": ann.id}]}])
    first = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    _other, secret = create_key(tenant)
    other_key = auth_headers(secret, tenant.id)
    refused = flow.client.post(f"/api/v1/workflows/instances/{first}/cancel", headers=other_key)
    assert refused.status_code == 403 and refused.get_json()["errors"][0]["code"] == "FORBIDDEN"
    assert flow.act(first, "cancel", ann).status_code == 403  # an approver is not the starter
    cancelled = flow.client.post(
        f"/api/v1/workflows/instances/{first}/cancel",
        json={"comment": "sent twice"},
        headers=flow.key_headers,
    ).get_json()["data"]
    assert cancelled["state"] == "cancelled" and actions(cancelled)[-1] == ("cancelled", 0)
    second = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    by_admin = flow.act(second, "cancel", people["dee"])
    assert by_admin.status_code == 200 and by_admin.get_json()["data"]["state"] == "cancelled"


def test_role_approvers_follow_the_people(
    app, flow, people, document_id, tenant, create_user, work
):
    from extensions import db
    from models import User
    from services.accounts import users
    from services.core import transaction
    from services.core.actors import Actor

    definition = flow.define([{"name": "Admins", "approvers": [{"role": "admin"}]}])
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    assert approver_emails(flow.get(wfi)) == ["dee@acme.example"]
    create_user(tenant, "admin", email="eve@acme.example")
    work()  # the refresh job after a person's access changed
    assert approver_emails(flow.get(wfi)) == ["dee@acme.example", "eve@acme.example"]
    with app.app_context():
        dee = db.session.get(User, people["dee"].id)
        users.change_role(dee, "member", Actor.system("tests"))
        transaction.commit()
    # Acting is checked live: the demoted admin is refused before any job ran.
    assert flow.act(wfi, "approve", people["dee"]).status_code == 403
    work()
    assert approver_emails(flow.get(wfi)) == ["eve@acme.example"]


def test_an_edited_definition_leaves_running_instances_alone(flow, people, document_id):
    ann, bob = people["ann"], people["bob"]
    definition = flow.define([{"name": "Check", "approvers": [{"user": ann.id}]}])
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    patched = flow.client.patch(
        f"/api/v1/workflows/{definition['id']}",
        json={"steps": [{"name": "Other", "approvers": [{"user": bob.id}]}]},
        headers=flow.key_headers,
    ).get_json()["data"]
    assert patched["version"] == 2 and patched["steps"][0]["name"] == "Other"
    running = flow.get(wfi)
    assert running["definitionVersion"] == 1 and running["currentStepName"] == "Check"
    assert approver_emails(running) == ["ann@acme.example"]
    assert flow.act(wfi, "approve", bob).status_code == 403
    newer = flow.start(definition["id"], document_id).get_json()["data"]
    assert newer["definitionVersion"] == 2 and approver_emails(newer) == ["bob@acme.example"]


def test_the_document_names_its_latest_workflow(flow, people, document_id, tenant, store_document):
    definition = flow.define([{"name": "Check", "approvers": [{"user": people["ann"].id}]}])
    without = store_document(tenant, b"a document no workflow was started on")
    document = flow.client.get(f"/api/v1/documents/{document_id}", headers=flow.key_headers)
    assert document.get_json()["data"]["workflow"] is None
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    flow.act(wfi, "approve", people["ann"])
    document = flow.client.get(f"/api/v1/documents/{document_id}", headers=flow.key_headers)
    assert document.get_json()["data"]["workflow"] == {"id": wfi, "state": "approved"}
    listed = flow.client.get("/api/v1/documents", headers=flow.key_headers).get_json()["data"]
    workflows = {item["id"]: item["workflow"] for item in listed}
    assert workflows == {document_id: {"id": wfi, "state": "approved"}, without: None}
