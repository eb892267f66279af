"""Entities, relationships and neighbourhoods as they go over the wire (CONTRACT §9): one
pydantic model each, which produces the JSON and describes it in OpenAPI."""

from __future__ import annotations

from typing import Any

from pydantic import Field, TypeAdapter

from models import Document, Entity, EntityMention, Relationship
from services.core.wire import Timestamp, Wire
from services.documents.wire import DocumentOut
from services.graph.neighbors import Neighborhood


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
