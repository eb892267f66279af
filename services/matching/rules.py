"""A tenant's matching rules: create, change, delete, list in the order they run. Everything
a rule will need is checked when it is saved, each refusal a 422 naming its field: the
pattern (a regex through services/core/patterns.py's static and timed check, as forms
check theirs), the custom field values (services/customfields, by each field's type), the
workflow definition (the tenant's own), and what an `auto` rule needs. Every change is
audited (matching_rule.created, matching_rule.updated, matching_rule.deleted)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import regex
from sqlalchemy import func, select

import clock
from errors import DomainError, FieldError, validation_failed
from extensions import db
from models.matching import Algorithm, MatchingRule
from models.workflows import WorkflowDefinition
from services.audit import audit_log
from services.core import patterns
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.customfields import values as custom_field_values
from services.matching import engine
from services.matching.wire import MAX_PATTERN, MatchingRuleActionsIn, MatchingRuleMatchIn

MAX_RULES = 500  # per tenant
# A rule's regex is probed at save against hostile inputs for at most this long in all.
PROBE_BUDGET = 1.0


def get_rule(tenant_id: str, rule_id: str) -> MatchingRule:
    """The tenant's rule, or 404 (another tenant's id included)."""
    return MatchingRule.get_for_tenant(rule_id, tenant_id)


def list_rules(
    tenant_id: str, limit: int, after: Sequence[Any] | None
) -> tuple[list[MatchingRule], bool]:
    """In the order they run, a page at a time."""
    stmt = MatchingRule.query_for_tenant(tenant_id)
    return keyset_page(stmt, [(MatchingRule.order, False), (MatchingRule.id, False)], limit, after)


def all_rules(tenant_id: str, *, enabled_only: bool = False) -> list[MatchingRule]:
    """Every rule of the tenant in the order they run (at most MAX_RULES)."""
    stmt = MatchingRule.query_for_tenant(tenant_id)
    if enabled_only:
        stmt = stmt.where(MatchingRule.enabled.is_(True))
    return list(db.session.scalars(stmt.order_by(MatchingRule.order, MatchingRule.id)))


def has_enabled_rules(tenant_id: str) -> bool:
    stmt = select(MatchingRule.id).where(
        MatchingRule.tenant_id == tenant_id, MatchingRule.enabled.is_(True)
    )
    return db.session.scalar(stmt.limit(1)) is not None


def _error(field: str, message: str) -> FieldError:
    return FieldError("VALIDATION_ERROR", f"{field}: {message}", field)


def check(
    tenant_id: str, match: MatchingRuleMatchIn, actions: MatchingRuleActionsIn
) -> list[FieldError]:
    """Every problem of a rule's `match` and `actions` in this tenant."""
    errors: list[FieldError] = []
    algorithm, pattern = match.algorithm, match.pattern
    if algorithm == Algorithm.AUTO:
        if pattern.strip():
            errors.append(_error("match.pattern", "an auto rule has no pattern (leave it empty)."))
        if not actions.add_tags:
            errors.append(
                _error("actions.addTags", "an auto rule adds the tags the classifier predicts.")
            )
    elif not pattern.strip():
        errors.append(_error("match.pattern", "give something to look for."))
    elif algorithm == Algorithm.REGEX:
        flags = 0 if match.case_sensitive else regex.IGNORECASE
        problem = patterns.problem(
            pattern,
            max_chars=MAX_PATTERN,
            timeout=engine.REGEX_TIMEOUT,
            deadline=time.monotonic() + PROBE_BUDGET,
            flags=flags,
        )
        if problem:
            errors.append(_error("match.pattern", f"the pattern {problem}"))
    if actions.empty:
        errors.append(_error("actions", "give at least one action."))
    if actions.set_custom_fields:
        try:
            custom_field_values.check_values(tenant_id, actions.set_custom_fields)
        except DomainError as exc:
            errors.extend(
                FieldError(e.code, e.message, f"actions.setCustomFields.{_after_dot(e.field)}")
                for e in exc.errors
            )
    definition = actions.start_workflow
    if definition and WorkflowDefinition.find_for_tenant(definition, tenant_id) is None:
        errors.append(_error("actions.startWorkflow", "no such workflow definition."))
    return errors


def _after_dot(field: str | None) -> str:
    """`customFields.cfd_x` -> `cfd_x`."""
    return (field or "").partition(".")[2] or (field or "")


def _raise_if(errors: list[FieldError]) -> None:
    if errors:
        raise validation_failed(errors)


def create_rule(
    tenant_id: str,
    actor: Actor,
    *,
    name: str,
    enabled: bool,
    order: int,
    match: MatchingRuleMatchIn,
    actions: MatchingRuleActionsIn,
) -> MatchingRule:
    _raise_if(check(tenant_id, match, actions))
    count = db.session.scalar(
        select(func.count()).select_from(MatchingRule).where(MatchingRule.tenant_id == tenant_id)
    )
    if count >= MAX_RULES:
        raise DomainError(
            409, "CONFLICT", f"A tenant has at most {MAX_RULES} matching rules; delete one first."
        )
    now = clock.now()
    rule = MatchingRule(
        tenant_id=tenant_id, name=name, enabled=enabled, order=order,
        created_at=now, updated_at=now,
    )  # fmt: skip
    _set_match(rule, match, actions)
    db.session.add(rule)
    db.session.flush()
    _record(rule, actor, "matching_rule.created", {"name": name})
    return rule


def _set_match(
    rule: MatchingRule, match: MatchingRuleMatchIn, actions: MatchingRuleActionsIn
) -> None:
    rule.algorithm = match.algorithm.value
    rule.pattern = match.pattern
    rule.case_sensitive = match.case_sensitive
    rule.match_in = match.in_.value
    rule.actions = actions.stored()


def update_rule(rule: MatchingRule, changes: dict[str, Any], actor: Actor) -> MatchingRule:
    """Apply a PATCH's fields: `match` and `actions` replace the rule's whole, and are
    checked together as the rule will run."""
    match = changes.get("match") or MatchingRuleMatchIn.model_validate(
        {"algorithm": rule.algorithm, "pattern": rule.pattern,
         "caseSensitive": rule.case_sensitive, "in": rule.match_in}
    )  # fmt: skip
    actions = changes.get("actions") or MatchingRuleActionsIn.model_validate(rule.actions or {})
    if "match" in changes or "actions" in changes:
        _raise_if(check(rule.tenant_id, match, actions))
    before = {"name": rule.name, "enabled": rule.enabled, "order": rule.order,
              "match": _match_of(rule), "actions": rule.actions}  # fmt: skip
    for name in ("name", "enabled", "order"):
        if name in changes:
            setattr(rule, name, changes[name])
    _set_match(rule, match, actions)
    after = {"name": rule.name, "enabled": rule.enabled, "order": rule.order,
             "match": _match_of(rule), "actions": rule.actions}  # fmt: skip
    changed = sorted(k for k in before if before[k] != after[k])
    if changed:
        rule.updated_at = clock.now()
        db.session.flush()
        _record(rule, actor, "matching_rule.updated", {"changes": changed})
    return rule


def _match_of(rule: MatchingRule) -> tuple:
    return (rule.algorithm, rule.pattern, rule.case_sensitive, rule.match_in)


def delete_rule(rule: MatchingRule, actor: Actor) -> None:
    db.session.delete(rule)
    db.session.flush()
    _record(rule, actor, "matching_rule.deleted", {"name": rule.name})


def _record(rule: MatchingRule, actor: Actor, action: str, details: dict[str, Any]) -> None:
    audit_log.record(
        rule.tenant_id, actor, action, target_type="matching_rule", target_id=rule.id,
        details=details,
    )  # fmt: skip
