"""Matching rules in the portal (admins): the rules in the order they run, each with its
match and actions; create, edit, enable or disable, delete, and apply one to every document
of the workspace as a job (its progress on the job's page); the classifier's state, with a
button that trains it now. The same services as the API: services/matching."""

from __future__ import annotations

import json
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from pydantic import ValidationError
from sqlalchemy import select

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models.matching import Algorithm, MatchField, MatchingRule, TagClassifier
from models.workflows import WorkflowDefinition
from portal.access import ADMIN, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.layout import field_errors
from services.core.transaction import transactional
from services.customfields import fields
from services.matching import apply, rules, training
from services.matching.wire import MatchingRuleActionsIn, MatchingRuleApply, MatchingRuleMatchIn

ALGORITHM_LABELS = {
    Algorithm.ANY: "Any word",
    Algorithm.ALL: "All words",
    Algorithm.EXACT: "Exact phrase",
    Algorithm.REGEX: "Regular expression",
    Algorithm.FUZZY: "Fuzzy (approximate)",
    Algorithm.AUTO: "Auto (the classifier)",
}
FIELD_LABELS = {
    MatchField.CONTENT: "Text",
    MatchField.TITLE: "Title",
    MatchField.FILENAME: "File name",
}
MAX_FORM_TEXT = 20_000


def _blank() -> dict[str, Any]:
    return {
        "name": "", "order": "0", "enabled": True, "algorithm": "any", "pattern": "",
        "case_sensitive": False, "in": "content", "add_tags": "", "set_metadata": "",
        "set_custom_fields": "", "start_workflow": "",
    }  # fmt: skip


def _form_of(rule: MatchingRule) -> dict[str, Any]:
    actions = rule.actions or {}
    return {
        "name": rule.name,
        "order": str(rule.order),
        "enabled": rule.enabled,
        "algorithm": rule.algorithm,
        "pattern": rule.pattern,
        "case_sensitive": rule.case_sensitive,
        "in": rule.match_in,
        "add_tags": ", ".join(actions.get("addTags") or []),
        "set_metadata": "\n".join(
            f"{k}={'' if v is None else v}" for k, v in (actions.get("setMetadata") or {}).items()
        ),
        "set_custom_fields": "\n".join(
            f"{k}={json.dumps(v)}" for k, v in (actions.get("setCustomFields") or {}).items()
        ),
        "start_workflow": actions.get("startWorkflow") or "",
    }


def _submitted() -> dict[str, Any]:
    form = request.form
    return {
        "name": form.get("name", "").strip()[:128],
        "order": form.get("order", "0").strip()[:12],
        "enabled": form.get("enabled") == "on",
        "algorithm": form.get("algorithm", ""),
        "pattern": form.get("pattern", "")[:MAX_FORM_TEXT],
        "case_sensitive": form.get("case_sensitive") == "on",
        "in": form.get("in", "content"),
        "add_tags": form.get("add_tags", "")[:MAX_FORM_TEXT],
        "set_metadata": form.get("set_metadata", "")[:MAX_FORM_TEXT],
        "set_custom_fields": form.get("set_custom_fields", "")[:MAX_FORM_TEXT],
        "start_workflow": form.get("start_workflow", "").strip(),
    }


def _pairs(text: str) -> list[tuple[str, str]]:
    return [
        (key.strip(), value.strip())
        for key, _, value in (line.partition("=") for line in text.splitlines() if line.strip())
    ]


def _parsed(
    submitted: dict[str, Any],
) -> tuple[dict[str, Any], MatchingRuleMatchIn, MatchingRuleActionsIn]:
    """The form as the API's shapes; a 422 naming the inputs whose values do not fit."""
    values: dict[str, Any] = {}
    for key, value in _pairs(submitted["set_custom_fields"]):
        try:
            values[key] = json.loads(value) if value else None
        except ValueError:
            values[key] = value
    raw_actions = {
        "addTags": [t.strip() for t in submitted["add_tags"].split(",") if t.strip()],
        "setMetadata": {k: (v or None) for k, v in _pairs(submitted["set_metadata"])},
        "setCustomFields": values,
        "startWorkflow": submitted["start_workflow"] or None,
    }
    raw_match = {
        "algorithm": submitted["algorithm"],
        "pattern": submitted["pattern"],
        "caseSensitive": submitted["case_sensitive"],
        "in": submitted["in"],
    }
    errors: list[FieldError] = []
    try:
        order = int(submitted["order"] or 0)
    except ValueError:
        order = 0
        errors.append(FieldError("VALIDATION_ERROR", "order: a whole number.", "order"))
    if not submitted["name"]:
        errors.append(FieldError("VALIDATION_ERROR", "name: give it a name.", "name"))
    match = actions = None
    for prefix, model, raw in (
        ("match", MatchingRuleMatchIn, raw_match),
        ("actions", MatchingRuleActionsIn, raw_actions),
    ):
        try:
            parsed = model.model_validate(raw)
        except ValidationError as exc:
            for item in exc.errors():
                where = ".".join(str(p) for p in item["loc"][:1])
                field = f"{prefix}.{where}" if where else prefix
                errors.append(FieldError("VALIDATION_ERROR", f"{field}: {item['msg']}", field))
            continue
        if prefix == "match":
            match = parsed
        else:
            actions = parsed
    if errors or match is None or actions is None:
        raise validation_failed(errors)
    return (
        {"name": submitted["name"], "order": order, "enabled": submitted["enabled"]},
        match,
        actions,
    )


def _classifier(tenant_id: str):
    return db.session.execute(
        select(TagClassifier.trained_at, TagClassifier.documents, TagClassifier.tags).where(
            TagClassifier.tenant_id == tenant_id
        )
    ).first()


def _render(
    form: dict[str, Any], errors: dict, status: int = 200, rule: MatchingRule | None = None
):
    tenant_id = portal_tenant().id
    definitions = list(
        db.session.scalars(
            WorkflowDefinition.query_for_tenant(tenant_id).order_by(WorkflowDefinition.name)
        )
    )
    return render_template(
        "portal/matching/index.html" if rule is None else "portal/matching/edit.html",
        rows=rules.all_rules(tenant_id) if rule is None else [],
        rule=rule,
        form=form,
        errors=errors,
        algorithms=ALGORITHM_LABELS,
        field_labels=FIELD_LABELS,
        definitions=definitions,
        custom_fields=fields.all_fields(tenant_id),
        classifier=_classifier(tenant_id) if rule is None else None,
    ), status


@bp.get("/matching-rules")
@roles_required(*ADMIN)
def matching_rules_page():
    return _render(_blank(), {})


@bp.post("/matching-rules")
@roles_required(*ADMIN)
@transactional
def create_matching_rule_page():
    submitted = _submitted()
    try:
        basics, match, actions = _parsed(submitted)
        rule = rules.create_rule(
            portal_tenant().id, portal_actor(), match=match, actions=actions, **basics
        )
    except DomainError as error:
        db.session.rollback()
        if error.status != 422:
            raise
        return _render(submitted, field_errors(error), 422)
    flash(f"Created the matching rule {rule.name}.", "success")
    return redirect(url_for("portal.matching_rules_page"))


@bp.get("/matching-rules/<rule_id>")
@roles_required(*ADMIN)
def edit_matching_rule(rule_id: str):
    rule = rules.get_rule(portal_tenant().id, rule_id)
    return _render(_form_of(rule), {}, rule=rule)


@bp.post("/matching-rules/<rule_id>")
@roles_required(*ADMIN)
@transactional
def update_matching_rule_page(rule_id: str):
    rule = rules.get_rule(portal_tenant().id, rule_id)
    submitted = _submitted()
    try:
        basics, match, actions = _parsed(submitted)
        rules.update_rule(rule, {**basics, "match": match, "actions": actions}, portal_actor())
    except DomainError as error:
        db.session.rollback()
        if error.status != 422:
            raise
        return _render(
            submitted, field_errors(error), 422, rules.get_rule(portal_tenant().id, rule_id)
        )
    flash(f"Saved {rule.name}.", "success")
    return redirect(url_for("portal.matching_rules_page"))


@bp.post("/matching-rules/<rule_id>/toggle")
@roles_required(*ADMIN)
@transactional
def toggle_matching_rule_page(rule_id: str):
    rule = rules.get_rule(portal_tenant().id, rule_id)
    rules.update_rule(rule, {"enabled": not rule.enabled}, portal_actor())
    flash(f"{'Enabled' if rule.enabled else 'Disabled'} {rule.name}.", "success")
    return redirect(url_for("portal.matching_rules_page"))


@bp.post("/matching-rules/<rule_id>/delete")
@roles_required(*ADMIN)
@transactional
def delete_matching_rule_page(rule_id: str):
    rule = rules.get_rule(portal_tenant().id, rule_id)
    name = rule.name
    rules.delete_rule(rule, portal_actor())
    flash(f"Deleted the matching rule {name}.", "success")
    return redirect(url_for("portal.matching_rules_page"))


@bp.post("/matching-rules/<rule_id>/apply")
@roles_required(*ADMIN)
@transactional
def apply_matching_rule_page(rule_id: str):
    """Run the rule over the workspace's active documents (optionally those with a tag)."""
    rule = rules.get_rule(portal_tenant().id, rule_id)
    selection: dict[str, Any] = {"status": ["active"]}
    tag = request.form.get("tag", "").strip()[:100]
    if tag:
        selection["tag"] = [tag]
    job = apply.request_apply(
        rule, MatchingRuleApply.model_validate({"filter": selection}), portal_actor()
    )
    return redirect(url_for("portal.job_page", job_id=job.id))


@bp.post("/matching-rules/classifier/train")
@roles_required(*ADMIN)
def train_classifier_page():
    training.enqueue(portal_tenant().id)
    flash("The classifier is being trained; suggestions use it once it is done.", "success")
    return redirect(url_for("portal.matching_rules_page"))
