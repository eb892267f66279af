"""The portal's Approvals inbox, an instance's page (decide with a comment, htmx or plain form;
cancel), and the Workflows pages where admins define steps in a form (JSON as an advanced
view). CSRF on every form; another person's or tenant's instance is not theirs to act on."""

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


def _step(i: int, name: str, approvers: list[str], **more: str) -> dict[str, object]:
    return {f"steps-{i}-name": name, f"steps-{i}-approvers": approvers,
            **{f"steps-{i}-{k}": v for k, v in more.items()}}  # fmt: skip


def test_admins_define_workflows_in_a_form_of_steps(client, tenant, people, flow):
    sign_in(client, tenant.id, people["dee"].email)
    form = client.get("/workflows/new").get_data(as_text=True)
    assert 'id="steps-0-name"' in form and "Add a step" in form and "Steps (JSON)" in form
    assert people["ann"].email in form  # approvers are picked from the people
    # Errors in words, each tied to its field; no library's text.
    bad = post(
        client,
        "/workflows/new",
        {"name": "", "step_count": "1", **_step(0, "", [], dueInHours="soon")},
    )
    text = bad.get_data(as_text=True)
    assert bad.status_code == 422
    assert 'id="name-errors"' in text and "Give the workflow a name." in text
    assert 'id="steps-0-name-errors"' in text and 'id="steps-0-approvers-errors"' in text
    assert 'id="steps-0-dueInHours-errors"' in text and "Enter a whole number." in text
    assert "pydantic" not in text and "Input should" not in text
    unknown = post(
        client,
        "/workflows/new",
        {"name": "Pay", "step_count": "1", **_step(0, "x", [], emails="nobody@acme.example")},
    )
    text = unknown.get_data(as_text=True)
    assert unknown.status_code == 422 and 'id="steps-0-approvers-errors"' in text
    assert "Approver 1: No user of this tenant has this e-mail address." in text
    saved = post(
        client,
        "/workflows/new",
        {
            "name": "Pay",
            "step_count": "1",
            **_step(0, "Finance", [f"user:{people['ann'].id}", "role:admin"], mode="all",
                    dueInHours="48", escalateTo=f"user:{people['dee'].id}"),
        },
    )  # fmt: skip
    assert saved.status_code == 302
    listing = client.get("/workflows").get_data(as_text=True)
    assert "Pay" in listing and "Finance" in listing
    [definition] = flow.client.get("/api/v1/workflows", headers=flow.key_headers).get_json()["data"]
    [step] = definition["steps"]
    assert (step["name"], step["mode"], step["dueInHours"]) == ("Finance", "all", 48)
    assert [a["user"] or a["role"] for a in step["approvers"]] == [people["ann"].id, "admin"]
    assert step["escalateTo"]["user"] == people["dee"].id
    editor = client.get(f"/workflows/{definition['id']}/edit").get_data(as_text=True)
    assert f'value="user:{people["ann"].id}" selected' in editor
    edited = post(
        client,
        f"/workflows/{definition['id']}/edit",
        {"name": "Pay", "step_count": "1", **_step(0, "Finance team", ["role:admin"])},
    )
    assert edited.status_code == 302
    again = flow.client.get(f"/api/v1/workflows/{definition['id']}", headers=flow.key_headers)
    assert again.get_json()["data"]["version"] == 2
    sign_in(client, tenant.id, people["ann"].email)  # a member: no Workflows pages
    assert client.get("/workflows").status_code == 403
    assert post(client, "/workflows/new", {"name": "x", "step_count": "0"}).status_code == 403


def test_the_editor_adds_removes_and_reorders_steps_without_saving(client, tenant, people, flow):
    sign_in(client, tenant.id, people["dee"].email)
    two = {"name": "Pay", "step_count": "2", **_step(0, "First", ["role:admin"]),
           **_step(1, "Second", ["role:member"])}  # fmt: skip
    added = post(client, "/workflows/new", {**two, "op": "add"}).get_data(as_text=True)
    assert 'name="step_count" value="3"' in added and 'id="steps-2-name"' in added
    moved = post(client, "/workflows/new", {**two, "op": "up-1"}).get_data(as_text=True)
    assert moved.index('value="Second"') < moved.index('value="First"')
    removed = post(client, "/workflows/new", {**two, "op": "remove-0"}).get_data(as_text=True)
    assert 'value="First"' not in removed and 'name="step_count" value="1"' in removed
    # A tampered count or index changes nothing and breaks nothing.
    for op in ("remove-99", "up-x", "down-1"):
        assert post(client, "/workflows/new", {**two, "op": op}).status_code == 200
    huge = post(client, "/workflows/new", {"name": "x", "step_count": "100000", "op": "add"})
    assert huge.status_code == 200 and "at most 20 steps" in huge.get_data(as_text=True)
    listed = flow.client.get("/api/v1/workflows", headers=flow.key_headers).get_json()["data"]
    assert listed == []  # nothing was saved


def test_the_json_view_loads_into_the_form_with_human_errors(client, tenant, people):
    sign_in(client, tenant.id, people["dee"].email)
    base = {"name": "Pay", "step_count": "0", "op": "json"}
    broken = post(client, "/workflows/new", {**base, "steps_json": "[{"})
    text = broken.get_data(as_text=True)
    assert broken.status_code == 422 and "not valid JSON" in text
    assert "pydantic.dev" not in text and "json_invalid" not in text
    wrong = post(
        client, "/workflows/new", {**base, "steps_json": '[{"name": "x", "mode": "most"}]'}
    )
    text = wrong.get_data(as_text=True)
    assert "Step 1, mode: Choose one of: any, all." in text
    assert "Step 1, approvers: This is required." in text and "pydantic" not in text
    good = json.dumps([{"name": "Legal", "approvers": [{"role": "admin"}]}])
    loaded = post(client, "/workflows/new", {**base, "steps_json": good}).get_data(as_text=True)
    assert 'id="steps-0-name"' in loaded and 'value="Legal"' in loaded


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
