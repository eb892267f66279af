"""A matching rule as it goes over the wire, both ways (CONTRACT §10; camelCase): the create
and PATCH bodies, `POST …/{id}/apply`'s request, the rule answered and carried by the
matching_rules.applied event, and a document's tag suggestions. What pydantic cannot see (a
regex's shape, the tenant's custom fields and workflow definitions) services/matching/rules.py
checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from models.matching import Algorithm, MatchField, MatchingRule
from services.bulk.wire import DOCUMENT_ID, MAX_DOCUMENT_IDS, DocumentSelection
from services.core.wire import PageQuery, Timestamp, Wire, absent, reject_null
from services.documents.wire import (
    MAX_METADATA_KEYS,
    MAX_TAGS,
    CustomFieldValues,
    MetadataKey,
    MetadataValue,
    Tag,
)

MAX_PATTERN = 1000  # characters of a rule's pattern
MAX_ORDER = 1_000_000
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=128)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class MatchingRuleMatchIn(_Body):
    """What a rule looks for, and where."""

    algorithm: Algorithm = Field(
        description='any: one of the pattern\'s words ("quoted phrases" count as one); all: '
        "every word; exact: the pattern as a whole phrase; regex: a regular expression "
        "(Python syntax, run with a timeout); fuzzy: the pattern approximately (rapidfuzz "
        "partial ratio ≥ 90); auto: the tenant's classifier predicts one of the rule's addTags."
    )
    pattern: str = Field("", max_length=MAX_PATTERN, description="Unused (empty) for auto.")
    case_sensitive: bool = False
    in_: MatchField = Field(
        MatchField.CONTENT, alias="in", description="content (extracted text), title or filename."
    )


class MatchingRuleActionsIn(_Body):
    """What a rule does to a document it matches."""

    add_tags: list[Tag] = Field(default_factory=list, max_length=MAX_TAGS)
    set_metadata: dict[MetadataKey, MetadataValue | None] = Field(
        default_factory=dict, max_length=MAX_METADATA_KEYS, description="Merged; null removes."
    )
    set_custom_fields: CustomFieldValues = Field(
        default_factory=dict, description='{"cfd_…": value | null}, checked by the field\'s type.'
    )
    start_workflow: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = Field(
        None, description="A workflow definition (wfd_…) of the tenant, started on the document."
    )

    def stored(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)

    @property
    def empty(self) -> bool:
        return not (
            self.add_tags or self.set_metadata or self.set_custom_fields or self.start_workflow
        )


class MatchingRuleCreate(_Body):
    """POST /matching-rules."""

    name: Name
    enabled: bool = True
    order: int = Field(0, ge=-MAX_ORDER, le=MAX_ORDER, description="Lower runs first.")
    match: MatchingRuleMatchIn
    actions: MatchingRuleActionsIn


class MatchingRulePatch(_Body):
    """PATCH /matching-rules/{id}: only the fields sent change; `match` and `actions` replace
    the rule's whole."""

    name: Name = absent()
    enabled: bool = absent()
    order: int = Field(
        default=None,
        ge=-MAX_ORDER,
        le=MAX_ORDER,
        json_schema_extra=lambda s: s.pop("default", None),
    )
    match: MatchingRuleMatchIn = absent()
    actions: MatchingRuleActionsIn = absent()

    @field_validator("name", "enabled", "order", "match", "actions", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class MatchingRuleListQuery(PageQuery):
    """GET /matching-rules: in the order they run."""


class MatchingRuleApply(_Body):
    """POST /matching-rules/{id}/apply: `documentIds` or `filter` (one of them)."""

    document_ids: list[DOCUMENT_ID] | None = Field(
        None,
        min_length=1,
        max_length=MAX_DOCUMENT_IDS,
        description="The documents (doc_…); an id the tenant does not have is that "
        "document's NOT_FOUND in the job's errors.",
    )
    filter: DocumentSelection | None = Field(
        None, description="The documents list's filters, resolved when the job starts."
    )

    @model_validator(mode="after")
    def _one_selection(self) -> MatchingRuleApply:
        if (self.document_ids is None) == (self.filter is None):
            raise ValueError("give documentIds or filter, one of them")
        return self

    def stored(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


# --- responses ---------------------------------------------------------------------------------


class MatchingRuleMatchOut(Wire):
    algorithm: str
    pattern: str
    case_sensitive: bool
    in_: str = Field(serialization_alias="in")


class MatchingRuleActionsOut(Wire):
    add_tags: list[str]
    set_metadata: dict[str, str | None]
    set_custom_fields: dict[str, Any]
    start_workflow: str | None


class MatchingRuleOut(Wire):
    id: str
    name: str
    enabled: bool
    order: int
    match: MatchingRuleMatchOut
    actions: MatchingRuleActionsOut
    created_at: Timestamp
    updated_at: Timestamp


class TagSuggestion(BaseModel):
    name: str
    score: float = Field(description="The classifier's probability, 0 to 1.")


class TagSuggestionsOut(BaseModel):
    tags: list[TagSuggestion] = Field(
        description="Tags the document does not have yet, best first; empty while the tenant "
        "has no trained classifier."
    )


def _actions(stored: dict[str, Any]) -> dict[str, Any]:
    return {
        "add_tags": stored.get("addTags", []),
        "set_metadata": stored.get("setMetadata", {}),
        "set_custom_fields": stored.get("setCustomFields", {}),
        "start_workflow": stored.get("startWorkflow"),
    }


def rules_data(rows: Sequence[MatchingRule]) -> list[dict[str, Any]]:
    return [
        MatchingRuleOut.model_validate(
            {
                "id": r.id,
                "name": r.name,
                "enabled": r.enabled,
                "order": r.order,
                "match": {
                    "algorithm": r.algorithm,
                    "pattern": r.pattern,
                    "case_sensitive": r.case_sensitive,
                    "in_": r.match_in,
                },
                "actions": _actions(r.actions or {}),
                "created_at": r.created_at,
                "updated_at": r.updated_at,
            }
        ).model_dump(mode="json", by_alias=True)
        for r in rows
    ]


def rule_data(rule: MatchingRule) -> dict[str, Any]:
    return rules_data([rule])[0]
