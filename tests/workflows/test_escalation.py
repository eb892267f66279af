"""Never stuck silently: a deactivated approver drops out; a step nobody can act on is
escalated, or reported as stalled to the admins; an overdue step gets its escalateTo approver
by the sweep, on a controlled clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

import clock
from tests.helpers import forget_jobs, notifications_of
from tests.workflows.conftest import actions, approver_emails

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def deactivate(app, person) -> None:
    from extensions import db
    from models import User
    from services.accounts import users
    from services.core import transaction
    from services.core.actors import Actor

    with app.app_context():
        users.set_active(db.session.get(User, person.id), False, Actor.system("tests"))
        transaction.commit()


def sweep(app) -> dict:
    from jobs.workflows import sweep as job

    with app.app_context():
        return job()


def notifications(app, person) -> list[str]:
    return [kind for kind, _title, _data in notifications_of(app, person)]


def test_a_deactivated_approver_drops_out_and_the_step_escalates(
    app, flow, people, document_id, work
):
    ann, cy = people["ann"], people["cy"]
    definition = flow.define(
        [{"name": "Check", "approvers": [{"user": ann.id}], "escalateTo": {"user": cy.id}}]
    )
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    deactivate(app, ann)
    work()
    instance = flow.get(wfi)
    assert approver_emails(instance) == ["cy@acme.example"]
    assert actions(instance)[-1] == ("escalated", 0)
    assert "workflow.approval_waiting" in notifications(app, cy)
    with app.app_context():
        from extensions import db
        from models import Event

        escalated = db.session.scalars(
            select(Event).where(Event.type == "workflow.instance.escalated")
        ).all()
        assert [e.data["instance"]["id"] for e in escalated] == [wfi]
    approved = flow.act(wfi, "approve", cy).get_json()["data"]
    assert approved["state"] == "approved"


def test_a_step_nobody_can_act_on_is_reported(app, flow, people, document_id, work):
    ann, dee = people["ann"], people["dee"]
    definition = flow.define([{"name": "Check", "approvers": [{"user": ann.id}]}])
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    deactivate(app, ann)
    work()
    instance = flow.get(wfi)
    assert instance["currentApprovers"] == [] and instance["state"] == "pending"
    assert instance["stalledReason"] and actions(instance)[-1] == ("stalled", 0)
    assert notifications(app, dee) == ["workflow.stalled"]
    work()  # reported once, not on every look
    assert notifications(app, dee) == ["workflow.stalled"]
    cancelled = flow.act(wfi, "cancel", dee)  # an admin can still end it
    assert cancelled.get_json()["data"]["state"] == "cancelled"


def test_the_sweep_escalates_an_overdue_step_once(app, flow, people, document_id):
    ann, cy, dee = people["ann"], people["cy"], people["dee"]
    clock.freeze(T0)
    definition = flow.define(
        [
            {
                "name": "Check",
                "approvers": [{"user": ann.id}],
                "dueInHours": 24,
                "escalateTo": {"email": cy.email},
            },
            {"name": "Sign", "approvers": [{"user": dee.id}], "dueInHours": 2},
        ]
    )
    wfi = flow.start(definition["id"], document_id).get_json()["data"]["id"]
    assert flow.get(wfi)["stepDueAt"] == "2026-11-24T09:00:00Z"
    clock.freeze(T0 + timedelta(hours=23, minutes=59))
    assert sweep(app)["escalated"] == 0
    clock.freeze(T0 + timedelta(hours=24))
    assert sweep(app)["escalated"] == 1
    instance = flow.get(wfi)
    assert approver_emails(instance) == ["ann@acme.example", "cy@acme.example"]
    assert actions(instance)[-1] == ("escalated", 0) and instance["stepDueAt"] is None
    assert "2026-11-24T09:00:00Z" in instance["history"][-1]["comment"]
    assert sweep(app)["escalated"] == 0  # once per step
    flow.act(wfi, "approve", cy)
    # The second step has a deadline and nobody to escalate to: the admins hear of it.
    clock.freeze(T0 + timedelta(hours=27))
    assert sweep(app)["escalated"] == 1
    assert notifications(app, dee).count("workflow.overdue") == 1
    assert sweep(app)["escalated"] == 0
    assert approver_emails(flow.get(wfi)) == ["dee@acme.example"]


def test_a_starting_worker_books_the_sweep_and_the_push_reconciler(app):
    from rq.registry import ScheduledJobRegistry

    from jobs import worker
    from services.core import queue

    with app.app_context():
        forget_jobs()  # earlier tests' runs would count as living chains
        worker.ensure_scheduled()
        booked = ScheduledJobRegistry(queue=queue.queue()).get_job_ids()
        assert any(j.startswith("workflows-sweep-") for j in booked), booked
        assert any(j.startswith("push-reconcile-") for j in booked), booked
        sweep(app)  # a run books the next
        again = ScheduledJobRegistry(queue=queue.queue()).get_job_ids()
        assert len([j for j in again if j.startswith("workflows-sweep-")]) >= 1
