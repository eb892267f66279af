"""Rules run after extraction (new documents and new versions), every enabled rule in order,
each algorithm on content, title or file name; the actions (tags, metadata, custom fields, a
workflow) with one audit entry and one event per rule application; a regex that backtracks
past its timeout at run does not match and does not stop the others; another tenant's rules
never run on a document."""

from __future__ import annotations

import io
import time

import pytest
from sqlalchemy import select

from extensions import db
from models import MatchingRule, WorkflowInstance
from services.core import queue

TEXT = "Invoice INV-20431 from ACME Corporaton Ltd.\nThe total due is 1,250.00 EUR."


@pytest.mark.parametrize(
    ("match", "hit"),
    [
        ({"algorithm": "any", "pattern": "receipt invoice"}, True),
        ({"algorithm": "any", "pattern": "receipt voucher"}, False),
        ({"algorithm": "any", "pattern": '"total  due"'}, True),
        ({"algorithm": "any", "pattern": "invo"}, False),  # whole words only
        ({"algorithm": "all", "pattern": "invoice total"}, True),
        ({"algorithm": "all", "pattern": "invoice receipt"}, False),
        ({"algorithm": "exact", "pattern": "total due is"}, True),
        ({"algorithm": "exact", "pattern": "due total"}, False),
        ({"algorithm": "exact", "pattern": "INVOICE", "caseSensitive": True}, False),
        ({"algorithm": "exact", "pattern": "Invoice", "caseSensitive": True}, True),
        ({"algorithm": "regex", "pattern": r"INV-\d{5}"}, True),
        ({"algorithm": "regex", "pattern": r"inv-\d{5}", "caseSensitive": True}, False),
        ({"algorithm": "fuzzy", "pattern": "Acme Corporation"}, True),
        ({"algorithm": "fuzzy", "pattern": "Globex Industries"}, False),
        ({"algorithm": "exact", "pattern": "quarterly", "in": "title"}, True),
        ({"algorithm": "exact", "pattern": "invoice", "in": "title"}, False),
        ({"algorithm": "regex", "pattern": r"^scan_\d+\.txt$", "in": "filename"}, True),
        ({"algorithm": "any", "pattern": "invoice", "in": "filename"}, False),
    ],
)
def test_each_algorithm_in_each_place(make_rule, upload, work, seen, match, hit):
    make_rule("hit", **match)
    document = upload(TEXT, "scan_0042.txt", title="Quarterly statement")
    work()
    assert seen.tags(document) == (["hit"] if hit else [])


def test_enabled_rules_run_in_order_and_a_later_one_wins(make_rule, upload, work, seen, tenant):
    make_rule("second", order=2, pattern="invoice",
              actions={"addTags": ["b"], "setMetadata": {"kind": "second"}})  # fmt: skip
    first = {"addTags": ["a"], "setMetadata": {"kind": "first", "seen": "yes"}}
    make_rule("first", order=1, pattern="invoice", actions=first)
    make_rule("off", order=0, pattern="invoice", enabled=False, actions={"addTags": ["off"]})
    document = upload(TEXT)
    work()
    assert seen.tags(document) == ["a", "b"]
    assert seen.meta(document) == {"kind": "second", "seen": "yes"}
    ((entry_document, label, details),) = seen.applied(tenant.id)  # one entry for the run
    assert (entry_document, label) == (document, "matching rules")
    assert [(r["ruleName"], r.get("addedTags"), r.get("metadata")) for r in details["rules"]] == [
        ("first", ["a"], ["seen"]), ("second", ["b"], ["kind"]),
    ]  # fmt: skip
    # "kind" is the later rule's: each rule is named with only what it left.
    assert details["summary"] == (
        "tagged by rule first: a; set metadata seen; tagged by rule second: b; set metadata kind"
    )
    (event,) = seen.events(tenant.id, "matching_rules.applied")
    assert event["documentId"] == document
    assert [r["name"] for r in event["rules"]] == ["first", "second"]


def test_custom_fields_and_a_workflow_are_set_by_a_rule(
    client, headers, make_rule, upload, work, app, tenant, admin, seen
):
    field = client.post(
        "/api/v1/custom-fields", json={"name": "Supplier", "dataType": "string"}, headers=headers
    ).get_json()["data"]
    steps = [{"name": "Check", "approvers": [{"user": admin.id}]}]
    definition = client.post(
        "/api/v1/workflows", json={"name": "Invoice check", "steps": steps}, headers=headers
    ).get_json()["data"]
    make_rule("acme", algorithm="fuzzy", pattern="acme corporation",
              actions={"setCustomFields": {field["id"]: "ACME"},
                       "startWorkflow": definition["id"]})  # fmt: skip
    document = upload(TEXT)
    work()
    shown = client.get(f"/api/v1/documents/{document}", headers=headers).get_json()["data"]
    assert [(v["fieldId"], v["value"]) for v in shown["customFields"]] == [(field["id"], "ACME")]
    with app.app_context():
        started = db.session.scalars(
            select(WorkflowInstance.definition_id).where(WorkflowInstance.subject_id == document)
        ).all()
    assert started == [definition["id"]]
    ((_, label, details),) = seen.applied(tenant.id)
    assert label == "rule acme"
    assert details["rules"][0]["customFields"] == [field["id"]]
    assert details["rules"][0]["startedWorkflow"] == definition["id"]


def test_a_new_version_runs_the_rules_again(client, headers, make_rule, upload, work, seen):
    document = upload("nothing to see here")
    work()
    make_rule("late", pattern="invoice")
    assert seen.tags(document) == []
    response = client.post(
        f"/api/v1/documents/{document}/versions",
        data={"file": (io.BytesIO(TEXT.encode()), "v2.txt")},
        headers=headers, content_type="multipart/form-data",
    )  # fmt: skip
    assert response.status_code == 201
    work()
    assert seen.tags(document) == ["late"]


def test_a_rule_that_matched_and_changed_nothing_leaves_no_entry(
    make_rule, upload, work, seen, tenant, client, headers
):
    make_rule("inbox", pattern="invoice", actions={"addTags": ["inbox"]})
    document = upload(TEXT)
    work()
    rule = client.get("/api/v1/matching-rules", headers=headers).get_json()["data"][0]
    client.post(f"/api/v1/matching-rules/{rule['id']}/apply",
                json={"documentIds": [document]}, headers=headers)  # fmt: skip
    work()
    assert len(seen.applied(tenant.id)) == 1


def test_a_regex_bomb_saved_before_the_check_times_out_at_run_and_the_others_still_run(
    app, tenant, make_rule, upload, work, seen
):
    make_rule("after", order=2, pattern="aaaa")
    with app.app_context():  # as if saved before the save-time check knew this shape
        db.session.add(MatchingRule(
            tenant_id=tenant.id, name="bomb", order=1, algorithm="regex", pattern=r"^(a|aa)+$",
            case_sensitive=False, match_in="content", actions={"addTags": ["bomb"]},
        ))  # fmt: skip
        db.session.commit()
    document = upload("a" * 5000 + "!" + " aaaa")
    started = time.monotonic()
    work()
    assert time.monotonic() - started < 10
    assert seen.tags(document) == ["after"]


def test_a_tenant_without_rules_gets_no_rules_job(app, tenant, upload, work):
    upload(TEXT)
    work()  # extraction ran; its commit enqueued nothing for matching
    with app.app_context():
        assert queue.queue().count == 0


def test_another_tenants_rules_never_run_on_a_document(
    client, other_headers, make_rule, upload, work, seen
):
    client.post(
        "/api/v1/matching-rules",
        json={"name": "theirs", "match": {"algorithm": "any", "pattern": "invoice"},
              "actions": {"addTags": ["theirs"]}},
        headers=other_headers,
    )  # fmt: skip
    mine = upload(TEXT)
    theirs = upload(TEXT, auth=other_headers)
    work()
    assert seen.tags(mine) == []
    assert seen.tags(theirs) == ["theirs"]


def test_a_rule_that_cannot_apply_any_more_does_not_stop_the_others(
    client, headers, make_rule, upload, work, seen, tenant
):
    field = client.post(
        "/api/v1/custom-fields", json={"name": "Gone", "dataType": "string"}, headers=headers
    ).get_json()["data"]
    make_rule("stale", order=1, pattern="invoice",
              actions={"addTags": ["stale"], "setCustomFields": {field["id"]: "x"}})  # fmt: skip
    make_rule("fine", order=2, pattern="invoice")
    client.delete(f"/api/v1/custom-fields/{field['id']}", headers=headers)
    document = upload(TEXT)
    work()
    assert seen.tags(document) == ["fine"]
    assert [label for _, label, _ in seen.applied(tenant.id)] == ["rule fine"]
