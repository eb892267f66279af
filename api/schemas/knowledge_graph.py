"""Request models of the knowledge-graph resource (camelCase on the wire); the responses are
services/graph/wire.py's. What a type may be and how big properties may grow is the
service's rule (services/graph/entities.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic.alias_generators import to_camel

from api.pagination import PageQuery
from api.schemas.fields import absent, reject_null

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
TypeWord = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class EntityCreate(_Body):
    """POST /knowledge-graph/entities."""

    type: TypeWord = Field(
        description="person, organization, project, location, or a custom lowercase word."
    )
    name: Name
    aliases: list[Name] = Field(default_factory=list, max_length=50)
    properties: dict[str, Any] = Field(default_factory=dict)


class EntityPatch(_Body):
    """PATCH /knowledge-graph/entities/{id}: only the fields sent change."""

    type: TypeWord = absent()
    name: Name = absent()
    aliases: list[Name] = Field(
        default=None, max_length=50, json_schema_extra=lambda s: s.pop("default", None)
    )
    properties: dict[str, Any] = absent()

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
    properties: dict[str, Any] = Field(default_factory=dict)


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
