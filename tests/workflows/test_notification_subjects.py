"""Approval notifications lead somewhere: they name the document and link to the approval;
acting on it (approving, rejecting, the workflow ending) marks them read, so the bell and the
Approvals page agree."""

from __future__ import annotations

import re

from sqlalchemy import select

from extensions import db
from models import Document, Notification
from tests.helpers import sign_in


def _mine(app, person) -> list[Notification]:
    with app.app_context():
        rows = db.session.scalars(
            select(Notification).where(Notification.user_id == person.id).order_by(Notification.id)
        ).all()
        for row in rows:
            db.session.expunge(row)
        return list(rows)


def _unread(app, person) -> list[str]:
    return [n.type for n in _mine(app, person) if n.read_at is None]


def _title(app, document_id: str, title: str) -> None:
    with app.app_context():
        db.session.get(Document, document_id).title = title
        db.session.commit()


def test_an_approval_notification_names_the_document_and_links_to_the_approval(
    app, client, flow, people, document_id
):
    _title(app, document_id, "Invoice 42 from Globex")
    ann = people["ann"]
    definition = flow.define([{"name": "Check", "mode": "any", "approvers": [{"user": ann.id}]}])
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]

    [note] = _mine(app, ann)
    assert note.type == "workflow.approval_waiting"
    assert "Invoice 42 from Globex" in note.title and "Invoice 42 from Globex" in note.body
    assert note.data["workflowInstanceId"] == wfi and note.data["documentId"] == document_id

    sign_in(client, ann.tenant_id, ann.email)
    page = client.get("/notifications").get_data(as_text=True)
    assert "Open the approval" in page
    assert f"/notifications/{note.id}/open" in page
    opened = client.get(f"/notifications/{note.id}/open")
    assert opened.status_code == 302 and opened.headers["Location"].endswith(f"/approvals/{wfi}")
    assert _unread(app, ann) == []  # following it read it


def test_approving_marks_the_approvers_notification_read_and_the_bell_agrees(
    app, client, flow, people, document_id
):
    ann, bob = people["ann"], people["bob"]
    definition = flow.define(
        [
            {"name": "Both", "mode": "all", "approvers": [{"user": ann.id}, {"user": bob.id}]},
            {"name": "Finance", "mode": "any", "approvers": [{"user": ann.id}]},
        ]
    )
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    assert _unread(app, ann) == ["workflow.approval_waiting"]
    assert _unread(app, bob) == ["workflow.approval_waiting"]

    assert flow.act(wfi, "approve", ann).status_code == 200
    assert _unread(app, ann) == []  # ann acted; bob still has to
    assert _unread(app, bob) == ["workflow.approval_waiting"]

    assert flow.act(wfi, "approve", bob).status_code == 200
    assert _unread(app, bob) == []
    assert _unread(app, ann) == ["workflow.approval_waiting"]  # step 2 is ann's, a new one

    sign_in(client, ann.tenant_id, ann.email)
    approvals = client.get("/approvals").get_data(as_text=True)
    assert 'data-count="1"' in approvals  # the bell: the one step waiting for ann
    # Times for people (the reader's zone by script), not RFC 3339 strings.
    assert re.search(r">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>", approvals)
    assert not re.search(r">\d{4}-\d\d-\d\dT[\d:]+Z<", approvals)
    detail = client.get(f"/approvals/{wfi}").get_data(as_text=True)
    assert "data-local" in detail and not re.search(r">\d{4}-\d\d-\d\dT[\d:]+Z<", detail)

    assert flow.act(wfi, "reject", ann, "wrong amount").status_code == 200
    assert _unread(app, ann) == []
    assert 'data-count="' not in client.get("/approvals").get_data(as_text=True)


def test_the_workflow_ending_reads_everyones_notifications_about_it(
    app, flow, people, document_id, headers, client
):
    ann, bob = people["ann"], people["bob"]
    definition = flow.define(
        [{"name": "Any", "mode": "any", "approvers": [{"user": ann.id}, {"user": bob.id}]}]
    )
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    other = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    assert flow.act(wfi, "approve", bob).status_code == 200
    # ann never acted, but the step is done: nothing is left to ask her about that workflow.
    unread = [n for n in _mine(app, ann) if n.read_at is None]
    assert [n.data["workflowInstanceId"] for n in unread] == [other]

    cancelled = client.post(f"/api/v1/workflows/instances/{other}/cancel", headers=headers)
    assert cancelled.status_code == 200, cancelled.get_json()
    assert _unread(app, ann) == [] and _unread(app, bob) == []


def test_another_persons_notification_cannot_be_opened(app, client, flow, people, document_id):
    ann, bob = people["ann"], people["bob"]
    definition = flow.define([{"name": "A", "mode": "any", "approvers": [{"user": ann.id}]}])
    flow.start(definition["id"], document_id)
    [note] = _mine(app, ann)
    sign_in(client, bob.tenant_id, bob.email)
    assert client.get(f"/notifications/{note.id}/open").status_code == 404
    assert _unread(app, ann) == ["workflow.approval_waiting"]
