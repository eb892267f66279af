"""A submission, its documents and the workflow it starts commit together or not at all;
the CSV export is streamed, has a column per field of any version and is safe to open in a
spreadsheet."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os

from sqlalchemy import func, select

from errors import DomainError
from tests.forms.conftest import EXPENSE_SCHEMA

VALID = {"name": "Ada", "amount": 12}


def _definition(client, headers) -> str:
    steps = [{"name": "Check", "mode": "any", "approvers": [{"role": "admin"}]}]
    response = client.post(
        "/api/v1/workflows", json={"name": "Expense approval", "steps": steps}, headers=headers
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def _with_file(client, headers, form_id, content=b"receipt bytes"):
    return client.post(
        f"/api/v1/forms/{form_id}/submissions",
        data={"data": json.dumps(VALID), "receipt": (io.BytesIO(content), "r.txt")},
        headers=headers,
        content_type="multipart/form-data",
    )


def _count(app, model) -> int:
    from extensions import db

    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_a_submission_starts_the_forms_workflow(client, headers, admin, make_form):
    definition = _definition(client, headers)
    form = make_form(workflowDefinitionId=definition)
    assert form["workflowDefinitionId"] == definition
    response = _with_file(client, headers, form["id"])
    assert response.status_code == 201, response.get_json()
    sub = response.get_json()["data"]
    instance = client.get(
        f"/api/v1/workflows/instances/{sub['workflowInstanceId']}", headers=headers
    ).get_json()["data"]
    assert instance["definitionId"] == definition
    assert instance["subject"] == {"type": "formSubmission", "id": sub["id"]}
    assert [a["email"] for a in instance["currentApprovers"]] == [admin.email]


def test_submission_documents_and_workflow_roll_back_together(
    app, client, headers, admin, make_form, monkeypatch
):
    from models import Document, FormSubmission, WorkflowInstance
    from services.workflows import instances

    form = make_form(workflowDefinitionId=_definition(client, headers))
    real_start = instances.start_instance

    def start_then_fail(*args, **kwargs):
        real_start(*args, **kwargs)  # the instance is flushed, then the unit of work fails
        raise DomainError(422, "VALIDATION_ERROR", "No such workflow definition.", "definitionId")

    monkeypatch.setattr(instances, "start_instance", start_then_fail)
    content = b"a receipt whose submission fails"
    response = _with_file(client, headers, form["id"], content)
    assert response.status_code == 422
    assert _count(app, FormSubmission) == _count(app, Document) == 0
    assert _count(app, WorkflowInstance) == 0
    root = os.path.join(app.config["DMS_STORAGE_DIR"], "acme")
    blobs = [f for _, _, files in os.walk(root) for f in files]
    assert hashlib.sha256(content).hexdigest() not in blobs


def test_a_deleted_workflow_definition_leaves_the_form_without_one(app, client, headers, make_form):
    from extensions import db
    from models import WorkflowDefinition

    definition = _definition(client, headers)
    form = make_form(workflowDefinitionId=definition)
    with app.app_context():
        db.session.delete(db.session.get(WorkflowDefinition, definition))
        db.session.commit()
    got = client.get(f"/api/v1/forms/{form['id']}", headers=headers).get_json()["data"]
    assert got["workflowDefinitionId"] is None
    response = client.post(
        f"/api/v1/forms/{form['id']}/submissions", json={"data": VALID}, headers=headers
    )
    assert response.status_code == 201
    assert response.get_json()["data"]["workflowInstanceId"] is None


def _csv(client, headers, form_id, query="", **kwargs):
    return client.get(f"/api/v1/forms/{form_id}/submissions.csv{query}", headers=headers, **kwargs)


def test_csv_export_is_streamed_with_a_column_per_field(client, headers, make_form):
    form = make_form()
    for data in (VALID, {**VALID, "category": "meals", "urgent": True}):
        client.post(f"/api/v1/forms/{form['id']}/submissions", json={"data": data}, headers=headers)
    schema = {
        **EXPENSE_SCHEMA,
        "properties": {"name": {"type": "string"}, "amount": {"type": "integer"}},
    }
    # Sent as text: the test client's JSON encoder would sort the keys, and order matters.
    client.patch(
        f"/api/v1/forms/{form['id']}",
        data=json.dumps({"schema": schema}),
        content_type="application/json",
        headers=headers,
    )
    response = _csv(client, headers, form["id"], buffered=False)
    assert response.status_code == 200 and response.is_streamed
    assert response.mimetype == "text/csv"
    assert 'filename="' in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    response.close()
    assert len(rows) == 2
    header = list(rows[0])
    assert header[:6] == [
        "id",
        "createdAt",
        "formVersion",
        "submittedBy",
        "documentIds",
        "workflowInstanceId",
    ]
    # The current schema's fields, then those only version 1 had.
    assert header[6:8] == ["name", "amount"] and "category" in header and "receipt" in header
    assert rows[0]["category"] == "meals" and rows[0]["urgent"] == "true"
    assert rows[1]["category"] == "" and rows[1]["amount"] == "12"


def test_csv_cells_cannot_become_formulas(client, headers, make_form):
    form = make_form(
        {
            "type": "object",
            "properties": {
                "note": {"type": "string"},
                "n": {"type": "number"},
                "=cmd": {"type": "string"},
            },
        }
    )
    for note in ('=HYPERLINK("http://evil")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "plain"):
        client.post(
            f"/api/v1/forms/{form['id']}/submissions",
            json={"data": {"note": note, "n": -5}},
            headers=headers,
        )
    text = _csv(client, headers, form["id"]).get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert "'=cmd" in rows[0]  # a field name is a cell too
    note, n = rows[0].index("note"), rows[0].index("n")
    notes = [r[note] for r in rows[1:]]
    assert notes == ["plain", "'\tx", "'@SUM(A1)", "'-2+3", "'+1+1", '\'=HYPERLINK("http://evil")']
    assert {r[n] for r in rows[1:]} == {"-5"}  # a number stays a number
    for row in rows:
        assert not any(cell.startswith(("=", "+", "@")) for cell in row)


def test_csv_export_takes_the_lists_filters_and_pages_past_a_batch(
    client, headers, make_form, monkeypatch
):
    from services.forms import export

    monkeypatch.setattr(export, "BATCH", 2)
    form = make_form()
    for i in range(5):
        client.post(
            f"/api/v1/forms/{form['id']}/submissions",
            json={"data": {**VALID, "amount": i + 1}},
            headers=headers,
        )
    rows = list(
        csv.DictReader(io.StringIO(_csv(client, headers, form["id"]).get_data(as_text=True)))
    )
    assert [r["amount"] for r in rows] == ["5", "4", "3", "2", "1"]
    none = _csv(client, headers, form["id"], "?submittedBy=public").get_data(as_text=True)
    assert len(none.strip().splitlines()) == 1
    assert _csv(client, headers, form["id"], "?limit=5").status_code == 400
