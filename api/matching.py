"""Matching rules resource (CONTRACT §10): a tenant's rules, run in order after each
extraction; `POST …/{id}/apply` runs one over existing documents as a job (`GET /jobs/{id}`);
`GET /documents/{id}/suggestions` answers the tenant's classifier's tags. Reading needs
documents:read; saving, changing, deleting and applying need documents:write (and
workflows:write for a rule that starts a workflow), and a person's token also the admin
role, as the portal's page does. Routes only: services/matching works (docs/matching.md)."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent
from api.openapi_rules import operation
from api.validation import json_body, query_args, responds
from errors import DomainError
from services.bulk import wire as job_wire
from services.bulk.wire import JobOut
from services.core.cursors import binding_of, decode_cursor, encode_cursor
from services.core.transaction import transactional
from services.documents import documents
from services.matching import apply, predictions, rules, wire
from services.matching.wire import (
    MatchingRuleActionsIn,
    MatchingRuleApply,
    MatchingRuleCreate,
    MatchingRuleListQuery,
    MatchingRuleOut,
    MatchingRulePatch,
    TagSuggestionsOut,
)
from tenancy import current_tenant


def _may_write(actions: MatchingRuleActionsIn | None = None) -> None:
    """A person needs the admin role; a rule that starts a workflow needs workflows:write."""
    if current_credential.kind == "user" and not current_credential.is_admin:
        raise DomainError(403, "FORBIDDEN", "Only an admin changes the tenant's matching rules.")
    if (
        actions is not None
        and actions.start_workflow
        and "workflows:write" not in current_credential.scopes
    ):
        raise DomainError(
            403, "INSUFFICIENT_SCOPE", "A rule that starts a workflow needs workflows:write."
        )


@bp.post("/matching-rules")
@require_scope("documents:write")
@idempotent()
@json_body(MatchingRuleCreate)
@responds(MatchingRuleOut, status=201)
@operation("createMatchingRule", tag="matching")
def create_matching_rule(body: MatchingRuleCreate):
    """Create a rule. Its pattern (a regex is checked for catastrophic backtracking and
    probed with a timeout), custom field values and workflow definition are checked now:
    422 naming the field. Accepts Idempotency-Key."""
    _may_write(body.actions)
    rule = rules.create_rule(
        current_tenant.id,
        current_credential.actor(),
        name=body.name,
        enabled=body.enabled,
        order=body.order,
        match=body.match,
        actions=body.actions,
    )
    location = url_for("api.get_matching_rule", rule_id=rule.id)
    return ok(wire.rule_data(rule), status=201, headers={"Location": location})


@bp.get("/matching-rules")
@require_scope("documents:read")
@query_args(MatchingRuleListQuery)
@responds(MatchingRuleOut, many=True)
@operation("listMatchingRules", tag="matching")
def list_matching_rules(query: MatchingRuleListQuery):
    """The tenant's rules in the order they run (`order`, then creation)."""
    binding = binding_of(current_tenant.id, resource="matching-rules")
    position = None
    if query.cursor is not None:
        position = decode_cursor(query.cursor, binding)
        if (
            len(position) != 2
            or not isinstance(position[0], int)
            or isinstance(position[0], bool)
            or not isinstance(position[1], str)
        ):
            raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    rows, more = rules.list_rules(current_tenant.id, query.limit, position)
    next_cursor = encode_cursor(binding, [rows[-1].order, rows[-1].id]) if more else None
    return ok_list(wire.rules_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/matching-rules/<rule_id>")
@require_scope("documents:read")
@responds(MatchingRuleOut)
@operation("getMatchingRule", tag="matching")
def get_matching_rule(rule_id: str):
    return ok(wire.rule_data(rules.get_rule(current_tenant.id, rule_id)))


@bp.patch("/matching-rules/<rule_id>")
@require_scope("documents:write")
@transactional
@json_body(MatchingRulePatch)
@responds(MatchingRuleOut)
@operation("updateMatchingRule", tag="matching")
def update_matching_rule(rule_id: str, body: MatchingRulePatch):
    """Change a rule: only the fields sent; `match` and `actions` replace the rule's own and
    are checked as on create."""
    _may_write(body.actions)
    rule = rules.get_rule(current_tenant.id, rule_id)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    rules.update_rule(rule, changes, current_credential.actor())
    return ok(wire.rule_data(rule))


@bp.delete("/matching-rules/<rule_id>")
@require_scope("documents:write")
@transactional
@responds(MatchingRuleOut)
@operation("deleteMatchingRule", tag="matching")
def delete_matching_rule(rule_id: str):
    """Delete a rule (what it did to documents stays); answers the rule as it was."""
    _may_write()
    rule = rules.get_rule(current_tenant.id, rule_id)
    data = wire.rule_data(rule)
    rules.delete_rule(rule, current_credential.actor())
    return ok(data)


@bp.post("/matching-rules/<rule_id>/apply")
@require_scope("documents:write")
@idempotent()
@json_body(MatchingRuleApply)
@responds(JobOut, status=202)
@operation("applyMatchingRule", tag="matching")
def apply_matching_rule(rule_id: str, body: MatchingRuleApply):
    """Run the rule (enabled or not) over documents named by id or matching the documents
    list's filters. Answers 202 with a job (`GET /jobs/{id}`); another tenant's document is
    that document's NOT_FOUND in the job's errors. Accepts Idempotency-Key."""
    rule = rules.get_rule(current_tenant.id, rule_id)
    _may_write(MatchingRuleActionsIn.model_validate(rule.actions or {}))
    job = apply.request_apply(rule, body, current_credential.actor())
    location = url_for("api.get_job", job_id=job.id)
    return ok(job_wire.job_data(job), status=202, headers={"Location": location})


@bp.get("/documents/<document_id>/suggestions")
@require_scope("documents:read")
@responds(TagSuggestionsOut)
@operation("suggestDocumentTags", tag="matching")
def suggest_document_tags(document_id: str):
    """Tags the tenant's classifier suggests for the document (those it does not have yet,
    best first, score 0 to 1); an empty list until the classifier has been trained."""
    document = documents.get_document(current_tenant.id, document_id)
    return ok({"tags": predictions.suggestions(document)})
