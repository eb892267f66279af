"""The portal's Approvals inbox, an instance's page (decide with a comment, htmx or plain form;
cancel), and the Workflows pages where admins define steps as JSON. CSRF on every form;
another person's or tenant's instance is not theirs to act on."""

from __future__ import annotations

import json

from tests.helpers import csrf_token, post, sign_in

HTMX = {"HX-Request": "true"}


def start(flow, people, document_id, mode="any", who=("ann",)) -> str:
    definition = flow.define(
        [{"name": "Review", "mode": mode, "approvers": [{"user": people[n].id} for n in who]}]
    )
    return flow.start(definition["id"], document_id).get_json()["data"]["id"]


def test_the_inbox_shows_what_waits_with_a_preview(client, tenant, flow, people, document_id):
    wfi = start(flow, people, document_id)
    sign_in(client, tenant.id, people["ann"].email)
    page = client.get("/approvals").get_data(as_text=True)
    assert "Waiting for you (1)" in page and f"/approvals/{wfi}" in page
    assert "invoice.txt" in page or "invoice" in page
    sign_in(client, tenant.id, people["bob"].email)
    assert "Waiting for you (0)" in client.get("/approvals").get_data(as_text=True)


def test_approve_with_a_comment_by_htmx(client, tenant, flow, people, document_id):
    wfi = start(flow, people, document_id)
    sign_in(client, tenant.id, people["ann"].email)
    detail = client.get(f"/approvals/{wfi}").get_data(as_text=True)
    assert "Your decision" in detail
    token = csrf_token(client, f"/approvals/{wfi}")
    answer = client.post(
        f"/approvals/{wfi}/approve",
        data={"comment": "Checked the <b>amount</b>", "csrf_token": token},
        headers=HTMX,
    )
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "Approved." in html
    assert 'id="instance-state">approved' in html
    assert "Checked the &lt;b&gt;amount&lt;/b&gt;" in html  # the comment is text, not markup
    assert flow.get(wfi)["history"][1]["comment"] == "Checked the <b>amount</b>"


def test_refusals_are_shown_not_crashed(client, tenant, flow, people, document_id):
    wfi = start(flow, people, document_id)
    sign_in(client, tenant.id, people["bob"].email)  # not an approver
    assert "Your decision" not in client.get(f"/approvals/{wfi}").get_data(as_text=True)
    refused = post(client, f"/approvals/{wfi}/approve")
    assert refused.status_code == 403
    assert "not among who can act" in refused.get_data(as_text=True)
    assert client.post(f"/approvals/{wfi}/approve").status_code == 400  # no CSRF token
    assert flow.get(wfi)["state"] == "pending"
    cancel = post(client, f"/approvals/{wfi}/cancel")  # bob neither started it nor is admin
    assert cancel.status_code == 403
    sign_in(client, tenant.id, people["dee"].email)  # an admin
    done = post(client, f"/approvals/{wfi}/cancel", follow_redirects=True)
    assert done.status_code == 200 and "Cancelled." in done.get_data(as_text=True)
    assert flow.get(wfi)["state"] == "cancelled"
    again = post(client, f"/approvals/{wfi}/cancel")
    assert again.status_code == 409


def test_another_tenants_instance_is_not_found(
    client, flow, people, document_id, other_tenant, create_user
):
    wfi = start(flow, people, document_id)
    stranger = create_user(other_tenant, "admin", email="boss@globex.example")
    sign_in(client, other_tenant.id, stranger.email)
    assert client.get(f"/approvals/{wfi}").status_code == 404
    assert post(client, f"/approvals/{wfi}/cancel").status_code == 404


def test_a_subject_is_previewed_only_from_the_instances_tenant(
    app, client, tenant, flow, people, document_id, other_tenant, store_document, work
):
    """Even an instance whose subject names another tenant's document (no service writes one)
    shows nothing of that document: the previews are read inside the instance's tenant."""
    from extensions import db
    from models import WorkflowInstance

    wfi = start(flow, people, document_id)
    theirs = store_document(other_tenant, b"their secret terms", "secret.txt", title="Globex deal")
    work()  # their text is extracted: a preview could show it
    with app.app_context():
        db.session.get(WorkflowInstance, wfi).subject_id = theirs
        db.session.commit()
    sign_in(client, tenant.id, people["ann"].email)
    for page in (client.get("/approvals"), client.get(f"/approvals/{wfi}")):
        assert page.status_code == 200
        assert "Globex deal" not in page.get_data(as_text=True)
        assert "their secret terms" not in page.get_data(as_text=True)


def test_admins_define_workflows_as_json(client, tenant, people, flow):
    sign_in(client, tenant.id, people["dee"].email)
    form = client.get("/workflows/new").get_data(as_text=True)
    assert "Steps (JSON)" in form and "dueInHours" in form
    bad = post(client, "/workflows/new", {"name": "Pay", "steps": '[{"name": "x"}]'})
    assert bad.status_code == 422 and "approvers" in bad.get_data(as_text=True)
    unknown = post(
        client,
        "/workflows/new",
        {"name": "Pay", "steps": json.dumps([{"name": "x", "approvers": [{"user": "usr_no"}]}])},
    )
    assert unknown.status_code == 422 and "steps.0.approvers.0" in unknown.get_data(as_text=True)
    steps = [{"name": "Finance", "approvers": [{"email": people["ann"].email}]}]
    saved = post(client, "/workflows/new", {"name": "Pay", "steps": json.dumps(steps)})
    assert saved.status_code == 302
    listing = client.get("/workflows").get_data(as_text=True)
    assert "Pay" in listing and "Finance" in listing
    [definition] = flow.client.get("/api/v1/workflows", headers=flow.key_headers).get_json()["data"]
    steps[0]["name"] = "Finance team"
    edited = post(
        client,
        f"/workflows/{definition['id']}/edit",
        {"name": "Pay", "steps": json.dumps(steps)},
    )
    assert edited.status_code == 302
    assert (
        flow.client.get(
            f"/api/v1/workflows/{definition['id']}", headers=flow.key_headers
        ).get_json()["data"]["version"]
        == 2
    )
    sign_in(client, tenant.id, people["ann"].email)  # a member: no Workflows pages
    assert client.get("/workflows").status_code == 403
    assert post(client, "/workflows/new", {"name": "x", "steps": "[]"}).status_code == 403


def test_the_document_page_shows_its_workflow(client, tenant, flow, people, document_id):
    sign_in(client, tenant.id, people["ann"].email)
    before = client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert 'id="document-workflow"' not in before
    wfi = start(flow, people, document_id)
    flow.act(wfi, "approve", people["ann"], "looks right")
    page = client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert 'id="document-workflow"' in page and f"/approvals/{wfi}" in page
    assert "“looks right”" in page and 'data-action="step_completed"' in page


def test_a_definitions_instances_are_one_click_away(client, tenant, flow, people, document_id):
    first = start(flow, people, document_id)
    other = start(flow, people, document_id)  # a second definition
    definition_id = flow.get(first)["definitionId"]
    sign_in(client, tenant.id, people["dee"].email)
    listing = client.get("/workflows").get_data(as_text=True)
    assert f"/approvals?definition={definition_id}" in listing
    page = client.get(f"/approvals?definition={definition_id}").get_data(as_text=True)
    assert f"/approvals/{first}" in page and f"/approvals/{other}" not in page
    assert client.get("/approvals?definition=wfd_nope").status_code == 404
