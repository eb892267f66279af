"""Owns the document filters and sort orders of CONTRACT §4, shared by the list and search.

`DocumentFilters` is the query model (camelCase aliases, `metadata.<key>=<value>` pairs
gathered into `metadata`); `apply_filters(stmt, tenant_id, filters)` narrows a select over
`Document` to the tenant and the filters; `sort_columns` and `position_of` give the keyset."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from sqlalchemy import BindParameter, ColumnElement, Select, exists, func, select

from models.base import as_utc
from models.documents import Document, DocumentStatus, DocumentTag, SourceType

METADATA_PREFIX = "metadata."
METADATA_KEY_RE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
MAX_METADATA_FILTERS = 10
MAX_TAG_FILTERS = 10
MAX_METADATA_VALUE = 1000
# The query form generated clients and /docs send: `metadata=dept:sales`, repeated.
METADATA_PAIRS_SCHEMA = {
    "type": "array",
    "items": {
        "type": "string",
        "pattern": f"^{METADATA_KEY_RE.pattern}:[\\s\\S]{{0,{MAX_METADATA_VALUE}}}$",
    },
    "maxItems": MAX_METADATA_FILTERS,
}

SortOrder = Literal["createdAt", "-createdAt", "updatedAt", "-updatedAt", "title", "-title"]
DEFAULT_SORT: SortOrder = "-createdAt"

_SORT_COLUMNS = {
    "createdAt": Document.created_at,
    "updatedAt": Document.updated_at,
    "title": Document.title,
}
_DATETIME_SORTS = {"createdAt", "updatedAt"}
_ATTRIBUTES = {"createdAt": "created_at", "updatedAt": "updated_at"}


class DocumentFilters(BaseModel):
    """The document filter parameters; unknown parameters are refused (INVALID_PARAMETER)."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    status: list[DocumentStatus] = Field(
        default_factory=list,
        description="active, archived or deleted (the trash); repeat or comma-separate. "
        "Default: active and archived.",
    )
    tag: list[str] = Field(
        default_factory=list, description="Documents carrying every tag given (repeatable)."
    )
    source: list[SourceType] = Field(
        default_factory=list,
        description="Where documents came from (api, portal, mail, folder, form, import); "
        "repeat or comma-separate: any of them.",
    )
    content_type: str | None = Field(
        None, max_length=200, description="Exact type (application/pdf) or family (image/*)."
    )
    created_after: datetime | None = Field(None, description="createdAt >= this instant.")
    created_before: datetime | None = Field(None, description="createdAt < this instant.")
    updated_after: datetime | None = Field(None, description="updatedAt >= this instant.")
    updated_before: datetime | None = Field(None, description="updatedAt < this instant.")
    title: str | None = Field(
        None, min_length=1, max_length=500, description="Case-insensitive substring of the title."
    )
    metadata: Annotated[dict[str, str], WithJsonSchema(METADATA_PAIRS_SCHEMA)] = Field(
        default_factory=dict,
        description="Exact metadata values, as `<key>:<value>` (`dept:sales`); repeat the "
        "parameter for several pairs, all of which must match (up to "
        f"{MAX_METADATA_FILTERS}). The value is everything after the first colon, commas "
        "included. `metadata.<key>=<value>` is accepted too.",
    )
    sort: SortOrder = Field(DEFAULT_SORT, description="Order; '-' means descending.")

    # Given once per value, never comma-split (a value may hold commas): api/validation.py.
    REPEATED_PARAMETERS: ClassVar[frozenset[str]] = frozenset({"metadata"})

    @model_validator(mode="before")
    @classmethod
    def _gather_metadata_pairs(cls, raw: Any) -> Any:
        """`metadata.<key>=<value>` parameters join the `metadata=<key>:<value>` ones, as
        (key, value) pairs that `_pairs_to_dict` checks."""
        if not isinstance(raw, dict) or not any(n.startswith(METADATA_PREFIX) for n in raw):
            return raw
        out: dict[str, Any] = {}
        pairs: list[Any] = []
        for name, value in raw.items():
            if name.startswith(METADATA_PREFIX):
                pairs.append((name[len(METADATA_PREFIX) :], value))
            elif name == "metadata":
                given = value.items() if isinstance(value, dict) else value
                pairs.extend([given] if isinstance(given, str) else given)
            else:
                out[name] = value
        out["metadata"] = pairs
        return out

    @field_validator("metadata", mode="before")
    @classmethod
    def _pairs_to_dict(cls, value: Any) -> Any:
        """`<key>:<value>` strings (the value is all after the first colon) and (key, value)
        pairs into one dict; a key given twice with two values is refused rather than one
        value silently winning."""
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            return value
        pairs = []
        for item in value:
            if isinstance(item, str):
                key, colon, rest = item.partition(":")
                if not colon:
                    raise ValueError("give each pair as <key>:<value>")
                item = (key, rest)
            elif not (isinstance(item, tuple) and len(item) == 2):
                raise ValueError("give each pair as <key>:<value>")
            pairs.append(item)
        merged: dict[Any, Any] = {}
        for key, given in pairs:
            if merged.setdefault(key, given) != given:
                raise ValueError(f"metadata key {key!r} is given twice, with two values")
        return merged

    @field_validator("metadata")
    @classmethod
    def _check_metadata(cls, pairs: dict[str, str]) -> dict[str, str]:
        if len(pairs) > MAX_METADATA_FILTERS:
            raise ValueError(f"at most {MAX_METADATA_FILTERS} metadata filters")
        for key, value in pairs.items():
            if not METADATA_KEY_RE.fullmatch(key):
                raise ValueError(f"metadata key {key!r} must match {METADATA_KEY_RE.pattern}")
            if len(value) > MAX_METADATA_VALUE:
                raise ValueError(f"metadata.{key} is longer than {MAX_METADATA_VALUE} characters")
        return pairs

    @field_validator("tag")
    @classmethod
    def _check_tags(cls, tags: list[str]) -> list[str]:
        if len(tags) > MAX_TAG_FILTERS:
            raise ValueError(f"at most {MAX_TAG_FILTERS} tags")
        if any(len(t) > 100 for t in tags):
            raise ValueError("a tag is at most 100 characters")
        return tags

    @field_validator("created_after", "created_before", "updated_after", "updated_before")
    @classmethod
    def _assume_utc(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value

    def binding(self) -> dict[str, Any]:
        """What a cursor is bound to: every filter and the sort (JSON-safe, canonical)."""
        fields = set(DocumentFilters.model_fields)
        data = self.model_dump(mode="json", by_alias=True, include=fields)
        data["status"] = sorted(data["status"])
        data["tag"] = sorted(set(data["tag"]))
        data["source"] = sorted(set(data["source"]))
        return data


_NO_FILTERS = DocumentFilters()
_NARROWING = set(DocumentFilters.model_fields) - {"status", "sort"}


def status_only(filters: DocumentFilters) -> tuple[str, ...] | None:
    """The status filter's values when no other filter is set (sort aside), else None: the
    shape the documents list and search build their statements once for, with bind
    parameters (listing.py, search.py)."""
    if any(getattr(filters, name) != getattr(_NO_FILTERS, name) for name in _NARROWING):
        return None
    return tuple(status.value for status in filters.status)


def apply_filters(stmt: Select, tenant_id: str | BindParameter, filters: DocumentFilters) -> Select:
    """`stmt` (a select over Document) narrowed to the tenant (a value, or a bind parameter
    in a statement built once: listing) and every filter given."""
    stmt = stmt.where(Document.tenant_id == tenant_id)
    if filters.status:
        stmt = stmt.where(Document.status.in_([s.value for s in filters.status]))
    else:
        stmt = stmt.where(Document.status != DocumentStatus.DELETED.value)
    for tag in dict.fromkeys(filters.tag):
        stmt = stmt.where(
            exists(
                select(DocumentTag.document_id).where(
                    DocumentTag.tenant_id == tenant_id,
                    DocumentTag.tag == tag,
                    DocumentTag.document_id == Document.id,
                )
            )
        )
    if filters.source:
        types = sorted({source.value for source in filters.source})
        stmt = stmt.where(Document.source["type"].as_string().in_(types))
    if filters.content_type:
        stmt = stmt.where(_content_type_clause(filters.content_type.strip().lower()))
    if filters.created_after is not None:
        stmt = stmt.where(Document.created_at >= filters.created_after)
    if filters.created_before is not None:
        stmt = stmt.where(Document.created_at < filters.created_before)
    if filters.updated_after is not None:
        stmt = stmt.where(Document.updated_at >= filters.updated_after)
    if filters.updated_before is not None:
        stmt = stmt.where(Document.updated_at < filters.updated_before)
    if filters.title:
        stmt = stmt.where(
            func.lower(Document.title).contains(filters.title.lower(), autoescape=True)
        )
    for key, value in filters.metadata.items():
        stmt = stmt.where(Document.meta[key].as_string() == value)
    return stmt


def _content_type_clause(value: str) -> ColumnElement[bool]:
    if value.endswith("/*"):
        return Document.content_type.startswith(value[:-1], autoescape=True)
    return Document.content_type == value


def sort_columns(sort: str) -> list[tuple[ColumnElement, bool]]:
    """(column, descending) pairs for keyset pagination; the id breaks ties."""
    descending = sort.startswith("-")
    column = _SORT_COLUMNS[sort.lstrip("-")]
    return [(column, descending), (Document.id, descending)]


def position_of(document: Document, sort: str) -> list[Any]:
    """The JSON-safe keyset position of `document` in `sort` order."""
    name = sort.lstrip("-")
    value = getattr(document, _ATTRIBUTES.get(name, name))
    if isinstance(value, datetime):  # listing's rows carry the driver's own value
        value = as_utc(value).isoformat()
    return [value, document.id]


def parse_position(position: list[Any], sort: str) -> list[Any] | None:
    """A decoded cursor position back in column types; None when it does not fit `sort`."""
    if len(position) != 2 or not all(isinstance(p, str) for p in position):
        return None
    value, ident = position
    if sort.lstrip("-") in _DATETIME_SORTS:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return None
        if parsed.tzinfo is None:
            return None
        return [parsed, ident]
    return [value, ident]
