"""A form's submissions as CSV, produced a page of rows at a time (a generator: the export of
100,000 submissions never sits in memory), one column per top-level field of any version,
every text cell made safe to open in a spreadsheet (no formula injection)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import clock
from models import Form, FormSubmission
from services.forms import forms
from services.forms.submissions import SubmissionFilters, list_submissions

BATCH = 500
FIXED_COLUMNS = (
    "id",
    "createdAt",
    "formVersion",
    "submittedBy",
    "documentIds",
    "workflowInstanceId",
)
# OWASP's list: a cell starting with one of these is read as a formula (or DDE) by
# spreadsheets; a leading apostrophe makes it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> str | int | float:
    """One CSV cell: numbers as numbers, booleans as true/false, objects and lists as JSON,
    and text starting like a formula prefixed with an apostrophe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value  # a JSON number cannot carry a formula; -5 stays a number
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def columns(form: Form) -> list[str]:
    """The top-level fields of the current schema in order, then those only older versions
    had (their submissions still carry them)."""
    names = list((form.schema.get("properties") or {}).keys())
    for version in forms.versions(form):
        names += [n for n in (version.schema.get("properties") or {}) if n not in names]
    return names


def _row(submission: FormSubmission, fields: list[str]) -> list[Any]:
    fixed = [
        submission.id,
        clock.rfc3339(submission.created_at),
        submission.form_version,
        submission.submitted_by,
        " ".join(submission.document_ids),
        submission.workflow_instance_id,
    ]
    return [safe_cell(v) for v in fixed] + [safe_cell(submission.data.get(n)) for n in fields]


def csv_lines(form: Form, filters: SubmissionFilters) -> Iterator[str]:
    """The CSV, header first, newest submission first, a batch of rows per chunk."""
    fields = columns(form)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([*FIXED_COLUMNS, *(safe_cell(n) for n in fields)])
    yield buffer.getvalue()
    after = None
    while True:
        rows, more = list_submissions(form, filters, BATCH, after)
        buffer.seek(0)
        buffer.truncate()
        for submission in rows:
            writer.writerow(_row(submission, fields))
        if rows:
            yield buffer.getvalue()
        if not more:
            return
        after = [rows[-1].id]
