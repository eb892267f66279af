"""Entities, relationships, mentions and neighbourhoods as they go over the wire, both ways
(CONTRACT §9; camelCase): one pydantic model each, which validates the requests or produces
the JSON, and describes it in OpenAPI. What a type may be and how big properties may grow is
the service's rule (services/graph/entities.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    WithJsonSchema,
    field_validator,
)
from pydantic.alias_generators import to_camel

from models import Document, Entity, EntityMention, Relationship
from services.core.wire import PageQuery, Timestamp, Wire, absent, fits_json_answers, reject_null
from services.documents.wire import DocumentOut
from services.graph.entities import TYPE_RE
from services.graph.neighbors import Neighborhood

# --- requests ----------------------------------------------------------------------------------


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
# The pattern is the document's; entities.py and relationships.py check it with their message.
TypeWord = Annotated[
    str,
    StringConstraints(min_length=1, max_length=40),
    WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 40, "pattern": TYPE_RE.pattern}),
]
Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]


# A JSON object of the caller's; what it holds must be answerable again (64-bit integers).
Properties = Annotated[dict[str, Any], AfterValidator(fits_json_answers)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class EntityCreate(_Body):
    """POST /knowledge-graph/entities."""

    type: TypeWord = Field(
        description="person, organization, project, location, or a custom lowercase word."
    )
    name: Name
    aliases: list[Name] = Field(default_factory=list, max_length=50)
    properties: Properties = Field(default_factory=dict)


class EntityPatch(_Body):
    """PATCH /knowledge-graph/entities/{id}: only the fields sent change."""

    type: TypeWord = absent()
    name: Name = absent()
    aliases: list[Name] = Field(
        default=None, max_length=50, json_schema_extra=lambda s: s.pop("default", None)
    )
    properties: Properties = absent()

    @field_validator("type", "name", "aliases", "properties", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class EntityListQuery(PageQuery):
    """GET /knowledge-graph/entities: by name."""

    type: TypeWord | None = Field(None, description="Only entities of this type.")
    q: Annotated[str, StringConstraints(max_length=200)] | None = Field(
        None, description="Start of a name or alias, case-insensitive."
    )


class NeighborsQuery(BaseModel):
    """GET /knowledge-graph/entities/{id}/neighbors."""

    model_config = {"extra": "forbid"}

    depth: int = Field(1, ge=1, le=3, description="How many relationships away, 1-3.")
    type: TypeWord | None = Field(None, description="Follow only relationships of this type.")


class RelationshipCreate(_Body):
    """POST /knowledge-graph/relationships: from source to target, both of this tenant."""

    type: TypeWord = Field(description="A lowercase word, e.g. works_for.")
    source_id: Id
    target_id: Id
    properties: Properties = Field(default_factory=dict)


class RelationshipListQuery(PageQuery):
    """GET /knowledge-graph/relationships: newest first."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    entity_id: Id | None = Field(
        None, alias="entityId", description="Only those this entity is an end of."
    )
    type: TypeWord | None = None


class MentionListQuery(PageQuery):
    """GET /knowledge-graph/entities/{id}/documents."""


class SuggestQuery(BaseModel):
    """POST /knowledge-graph/entities/suggest."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    document_id: Id = Field(alias="documentId", description="The document to read (doc_…).")
    limit: int = Field(50, ge=1, le=100, description="At most this many suggestions, 1-100.")


# --- responses ---------------------------------------------------------------------------------


class EntityOut(Wire):
    id: str
    type: str = Field(description="person, organization, project, location or a custom word.")
    name: str
    aliases: list[str] = Field(description="Other names it is found by in documents.")
    properties: dict[str, Any]
    mention_count: int = Field(description="How many documents mention it.")
    created_at: Timestamp
    updated_at: Timestamp


class RelationshipOut(Wire):
    id: str
    type: str = Field(description="A lowercase word, e.g. works_for (directed: source to target).")
    source_id: str
    target_id: str
    properties: dict[str, Any]
    created_at: Timestamp
    updated_at: Timestamp


class NeighborOut(EntityOut):
    depth: int = Field(description="Relationships between it and the start (0: the start).")


class NeighborhoodOut(Wire):
    entities: list[NeighborOut] = Field(description="Nearest first, each entity once.")
    relationships: list[RelationshipOut] = Field(
        description="The relationships between the entities listed."
    )
    truncated: bool = Field(description="True when the node or edge cap cut the answer.")


class MentionOut(Wire):
    """A document that mentions an entity, with how often and where first."""

    document_id: str
    title: str
    count: int = Field(description="How many times its names and aliases occur.")
    positions: list[int] = Field(description="Character offsets of the first ten, in the text.")


class DocumentEntityOut(Wire):
    """An entity a document mentions."""

    id: str
    type: str
    name: str
    count: int = Field(description="How many times the document names it.")


class DocumentWithEntitiesOut(DocumentOut):
    entities: list[DocumentEntityOut] | None = Field(
        None,
        description="The entities its text mentions, most often first (for callers with "
        "knowledge-graph:read; null for others).",
    )


class SuggestionOut(Wire):
    """A name the text uses that is no entity of the tenant yet."""

    name: str = Field(description="As first written in the text, whitespace as one space.")
    type: str | None = Field(
        description="organization, person or location when a fixed word rule says so "
        '("… Corporation", "Dr …", "… Street"), else null.'
    )
    count: int = Field(description="How many times the text uses it.")
    positions: list[int] = Field(description="Character offsets of the first ten, in the text.")


class SuggestionsOut(Wire):
    document_id: str
    suggestions: list[SuggestionOut] = Field(
        description="Most frequent first, then first seen; at most `limit`."
    )
    total: int = Field(description="How many names were found before the limit cut the list.")


_ENTITIES = TypeAdapter(list[EntityOut])
_RELATIONSHIPS = TypeAdapter(list[RelationshipOut])


def entity_data(entity: Entity) -> dict[str, Any]:
    return EntityOut.model_validate(entity).model_dump(mode="json", by_alias=True)


def entities_data(rows: list[Entity]) -> list[dict[str, Any]]:
    models = _ENTITIES.validate_python(rows, from_attributes=True)
    return _ENTITIES.dump_python(models, mode="json", by_alias=True)


def relationship_data(relationship: Relationship) -> dict[str, Any]:
    return RelationshipOut.model_validate(relationship).model_dump(mode="json", by_alias=True)


def relationships_data(rows: list[Relationship]) -> list[dict[str, Any]]:
    models = _RELATIONSHIPS.validate_python(rows, from_attributes=True)
    return _RELATIONSHIPS.dump_python(models, mode="json", by_alias=True)


def neighborhood_data(found: Neighborhood) -> dict[str, Any]:
    return {
        "entities": [{**entity_data(entity), "depth": depth} for entity, depth in found.entities],
        "relationships": relationships_data(found.relationships),
        "truncated": found.truncated,
    }


def mentions_data(rows: list[tuple[EntityMention, Document]]) -> list[dict[str, Any]]:
    return [
        MentionOut(
            document_id=document.id,
            title=document.title,
            count=mention.count,
            positions=mention.positions,
        ).model_dump(mode="json", by_alias=True)
        for mention, document in rows
    ]


def suggestions_data(found: dict[str, Any]) -> dict[str, Any]:
    return SuggestionsOut.model_validate(found, from_attributes=True).model_dump(
        mode="json", by_alias=True
    )
