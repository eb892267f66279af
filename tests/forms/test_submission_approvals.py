"""An approver sees what they approve for a form submission too: the Approvals inbox and the
instance page name the form and show the answers."""

from __future__ import annotations

from tests.forms.test_workflow_and_export import _definition, _with_file
from tests.helpers import sign_in


def test_the_inbox_shows_the_forms_answers(client, headers, tenant, admin, make_form):
    form = make_form(workflowDefinitionId=_definition(client, headers))
    submission = _with_file(client, headers, form["id"]).get_json()["data"]
    sign_in(client, tenant.id, admin.email)
    inbox = client.get("/approvals").get_data(as_text=True)
    assert f"Expense claim: submission {submission['id']}" in inbox
    assert "name: Ada" in inbox and "amount: 12" in inbox
    page = client.get(f"/approvals/{submission['workflowInstanceId']}").get_data(as_text=True)
    assert "Your decision" in page and "name: Ada" in page
