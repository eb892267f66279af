"""Running rules on a document: after its text is stored (each new document and version) a
follow-up job runs every enabled rule of the tenant in order; `POST …/{id}/apply` runs one
rule over existing documents (services/matching/apply.py) with the same `apply_rules`.

The rules run in their own job, not inside the extraction's unit of work: extraction
commits what it found whatever the rules do, and a rule's failure (a custom field deleted
since the rule was saved, a trashed document) rolls back that rule's changes only. What the
rules did in one run is one audit entry on the document ("tagged by rule …", each rule
named with what it did) and one matching_rules.applied event; the changes themselves go
through services/documents, services/customfields and services/workflows as a person's
would, with their own events."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy import select, update

from errors import DomainError
from extensions import db
from models.documents import Document, DocumentStatus
from models.matching import Algorithm, MatchField, MatchingRule
from models.search import DocumentText
from services.audit import audit_log
from services.bulk import bulk
from services.core import events, queue, transaction
from services.core.actors import Actor
from services.customfields import values as custom_field_values
from services.documents import documents
from services.matching import engine, predictions, rules

log = logging.getLogger(__name__)

RUN_RULES = "jobs.matching.run_rules"
APPLIED = "matching_rules.applied"
# The classifier's probability at or above which an `auto` rule adds a tag.
AUTO_THRESHOLD = 0.5


@dataclass
class Reading:
    """One document as the rules read it: its three texts, the cleaned text fuzzy compares
    and the classifier's scores, each computed once for all the rules."""

    document: Document
    _content: str | None = None
    _texts: dict[str, engine.Text] = field(default_factory=dict)
    _scores: dict[str, float] | None = None

    @property
    def content(self) -> str:
        if self._content is None:
            self._content = (
                db.session.scalar(
                    select(DocumentText.text).where(
                        DocumentText.document_id == self.document.id,
                        DocumentText.tenant_id == self.document.tenant_id,
                    )
                )
                or ""
            )
        return self._content

    def text(self, where: str) -> engine.Text:
        if where not in self._texts:
            if where == MatchField.TITLE:
                raw = self.document.title or ""
            elif where == MatchField.FILENAME:
                raw = self.document.filename or ""
            else:
                raw = self.content
            self._texts[where] = engine.Text(raw)
        return self._texts[where]

    @property
    def scores(self) -> dict[str, float]:
        if self._scores is None:
            self._scores = predictions.scores(
                self.document.tenant_id, self.document.title or "", self.content
            )
        return self._scores


def schedule(document: Document) -> None:
    """After the extraction's commit, run the tenant's rules on `document`, in one job with
    the other documents of the same unit of work (an extraction's batch); nothing to do,
    and no job, when the tenant has no enabled rule."""
    tenant_id = document.tenant_id
    if not transaction.memo(
        ("matching-rules", tenant_id), lambda: rules.has_enabled_rules(tenant_id)
    ):
        return
    transaction.after_commit_collect(
        f"matching.run.{tenant_id}", document.id, lambda ids: _enqueue(tenant_id, ids)
    )


def _enqueue(tenant_id: str, document_ids: list[str]) -> None:
    try:
        queue.enqueue(RUN_RULES, tenant_id, document_ids)
    except RedisError as exc:  # POST /matching-rules/{id}/apply repairs what a lost job left
        log.warning(
            "could not enqueue the matching rules",
            extra={"document_ids": document_ids[:20], "error": str(exc)},
        )


def run_rules(tenant_id: str, document_id: str) -> list[str]:
    """Run every enabled rule of the tenant on the document, in order; the ids of the rules
    that changed it. The rules that match are applied together (one change of the document,
    one audit entry and event per rule); if that is refused (a custom field deleted since a
    rule was saved, too many tags), each is applied on its own, so the others still are."""
    lock_document(tenant_id, document_id)
    document = Document.find_for_tenant(document_id, tenant_id)
    if document is None or document.status != DocumentStatus.ACTIVE.value:
        return []
    reading = Reading(document)
    matched = [r for r in rules.all_rules(tenant_id, enabled_only=True) if matches(r, reading)]
    if not matched:
        return []
    try:
        with db.session.begin_nested():
            return apply_rules(matched, reading)
    except DomainError:
        pass
    applied = []
    for rule in matched:
        try:
            with db.session.begin_nested():
                applied += apply_rules([rule], reading)
        except DomainError as exc:
            log.warning(
                "a matching rule could not change a document",
                extra={"rule_id": rule.id, "document_id": document_id, "error": exc.message},
            )
    return applied


def lock_document(tenant_id: str, document_id: str) -> None:
    """Write the document's row first in the unit of work: two runs on one document wait
    for each other, and each rule's savepoint opens inside the transaction (pysqlite begins
    one only before a write; see services/bulk/bulk.py's `claim`)."""
    db.session.execute(
        update(Document)
        .where(Document.id == document_id, Document.tenant_id == tenant_id)
        .values(current_version=Document.current_version)
        .execution_options(synchronize_session=False)
    )


def matches(rule: MatchingRule, reading: Reading) -> bool:
    if rule.algorithm == Algorithm.AUTO:
        wanted = (rule.actions or {}).get("addTags") or []
        return any(reading.scores.get(tag, 0.0) >= AUTO_THRESHOLD for tag in wanted)
    return engine.matches(
        rule.algorithm, rule.pattern, rule.case_sensitive, reading.text(rule.match_in), rule.id
    )


def rule_actor(rule: MatchingRule) -> Actor:
    return Actor.system(f"rule {rule.name}")


def apply_rules(
    matched: list[MatchingRule], reading: Reading, *, job_id: str | None = None
) -> list[str]:
    """Make the changes of `matched` (rules known to match, in order) to the document as one
    change: tags added in order, metadata and custom field values merged in order (a later
    rule's value wins), then each rule's workflow. Each rule that changed something gets its
    audit entry and event, naming only what it did; the ids of those rules."""
    document = reading.document
    before_tags, before_meta = document.tag_names, dict(document.meta or {})
    tags = list(before_tags)
    added: dict[str, list[str]] = {}
    metadata: dict[str, str | None] = {}
    values: dict[str, Any] = {}
    owner: dict[tuple[str, str], str] = {}  # ("metadata"|"field", key) -> the last rule's id
    for rule in matched:
        actions = rule.actions or {}
        add = list(actions.get("addTags") or [])
        if rule.algorithm == Algorithm.AUTO:
            add = [t for t in add if reading.scores.get(t, 0.0) >= AUTO_THRESHOLD]
        added[rule.id] = [t for t in dict.fromkeys(add) if t not in tags]
        tags += added[rule.id]
        for key, value in (actions.get("setMetadata") or {}).items():
            metadata[key] = value
            owner["metadata", key] = rule.id
        for field_id, value in (actions.get("setCustomFields") or {}).items():
            values[field_id] = value
            owner["field", field_id] = rule.id
    actor = rule_actor(matched[0]) if len(matched) == 1 else Actor.system("matching rules")
    changes: dict[str, Any] = {}
    if tags != before_tags:
        changes["tags"] = tags
    if metadata:
        changes["metadata"] = metadata
    fields_changed: list[str] = []
    also = None
    if values:

        def also(changed: Document) -> bool:
            fields_changed.extend(custom_field_values.set_values(changed, values, actor))
            return bool(fields_changed)

    if changes or also is not None:
        documents.update_document(document, changes, actor, also)
    after_meta = document.meta or {}
    done: list[tuple[MatchingRule, dict[str, Any]]] = []
    for rule in matched:
        did: dict[str, Any] = {}
        if added[rule.id]:
            did["addedTags"] = added[rule.id]
        keys = sorted(
            k for k in metadata
            if owner["metadata", k] == rule.id and before_meta.get(k) != after_meta.get(k)
        )  # fmt: skip
        if keys:
            did["metadata"] = keys
        fields = sorted(f for f in fields_changed if owner["field", f] == rule.id)
        if fields:
            did["customFields"] = fields
        definition = (rule.actions or {}).get("startWorkflow")
        if definition and bulk.start_workflow_once(document, definition, rule_actor(rule)):
            did["startedWorkflow"] = definition
        if did:
            done.append((rule, did))
    if done:
        _record(document, done, job_id)
    return [rule.id for rule, _ in done]


def summary(rule_name: str, did: dict[str, Any]) -> str:
    """ "tagged by rule Invoices: invoice, finance; set metadata quarter": what the audit
    entry says in words."""
    parts = []
    if did.get("addedTags"):
        parts.append(f"tagged by rule {rule_name}: {', '.join(did['addedTags'])}")
    else:
        parts.append(f"changed by rule {rule_name}")
    if did.get("metadata"):
        parts.append(f"set metadata {', '.join(did['metadata'])}")
    if did.get("customFields"):
        parts.append(f"set custom fields {', '.join(did['customFields'])}")
    if did.get("startedWorkflow"):
        parts.append(f"started workflow {did['startedWorkflow']}")
    return "; ".join(parts)


def _record(
    document: Document, done: list[tuple[MatchingRule, dict[str, Any]]], job_id: str | None
) -> None:
    """One audit entry and one event for the rules that changed the document in this run,
    each rule named with what it did (a run of several rules costs one entry, not several)."""
    rules_done = [{"ruleId": rule.id, "ruleName": rule.name, **did} for rule, did in done]
    details: dict[str, Any] = {
        "summary": "; ".join(summary(rule.name, did) for rule, did in done),
        "rules": rules_done,
    }
    if job_id:
        details["jobId"] = job_id
    actor = rule_actor(done[0][0]) if len(done) == 1 else Actor.system("matching rules")
    audit_log.record(
        document.tenant_id, actor, APPLIED, target_type="document", target_id=document.id,
        details=details,
    )  # fmt: skip
    events.emit(
        document.tenant_id,
        APPLIED,
        {
            "documentId": document.id,
            "rules": [{"id": rule.id, "name": rule.name, "actions": did} for rule, did in done],
        },
    )
