"""Knowledge-graph resource (CONTRACT §4, §9): entities, relationships and an entity's
neighbourhood. Routes only: the work is in services/graph (docs/graph.md)."""

from __future__ import annotations

from flask import url_for

from api.auth import current_credential, require_scope
from api.blueprint import bp
from api.envelope import ok, ok_list
from api.idempotency import idempotent
from api.openapi_rules import operation
from api.pagination import id_position
from api.validation import json_body, query_args, responds
from errors import DomainError
from services.core.cursors import binding_of, decode_cursor, encode_cursor
from services.core.transaction import transactional
from services.graph import entities, mentions, neighbors, relationships, suggestions, wire
from services.graph.wire import (
    EntityCreate,
    EntityListQuery,
    EntityOut,
    EntityPatch,
    MentionListQuery,
    MentionOut,
    NeighborhoodOut,
    NeighborsQuery,
    RelationshipCreate,
    RelationshipListQuery,
    RelationshipOut,
    SuggestionsOut,
    SuggestQuery,
)
from tenancy import current_tenant


def _name_position(cursor: str | None, binding: str) -> list | None:
    """The (name, id) an entity page ended at."""
    if cursor is None:
        return None
    position = decode_cursor(cursor, binding)
    if len(position) != 2 or not all(isinstance(p, str) for p in position):
        raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    return position


@bp.post("/knowledge-graph/entities")
@require_scope("knowledge-graph:write")
@idempotent()
@json_body(EntityCreate)
@responds(EntityOut, status=201)
def create_entity(body: EntityCreate):
    """Create an entity (a person, organization, project, location or a custom type) with
    its aliases and properties. Accepts Idempotency-Key."""
    entity = entities.create_entity(
        current_tenant.id,
        current_credential.actor(),
        type=body.type,
        name=body.name,
        aliases=body.aliases,
        properties=body.properties,
    )
    location = url_for("api.get_entity", entity_id=entity.id)
    return ok(wire.entity_data(entity), status=201, headers={"Location": location})


@bp.get("/knowledge-graph/entities")
@require_scope("knowledge-graph:read")
@query_args(EntityListQuery)
@responds(EntityOut, many=True)
def list_entities(query: EntityListQuery):
    """By name; `q` matches the start of a name or an alias, case-insensitively."""
    binding = binding_of(current_tenant.id, resource="entities", type=query.type, q=query.q)
    rows, more = entities.list_entities(
        current_tenant.id,
        query.limit,
        _name_position(query.cursor, binding),
        type=query.type,
        q=query.q,
    )
    next_cursor = encode_cursor(binding, [rows[-1].name, rows[-1].id]) if more else None
    return ok_list(wire.entities_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.post("/knowledge-graph/entities/suggest")
@require_scope("knowledge-graph:read", "documents:read")
@query_args(SuggestQuery)
@responds(SuggestionsOut)
@operation(takes_body=False)
def suggest_entities(query: SuggestQuery):
    """Propose entities from a document's extracted text: capitalised multi-word names
    ("Acme Widget Corporation", "Maria Lopez") that are not yet a name or alias of an entity,
    most frequent first. Creates nothing (create the ones you want with POST
    …/entities). 409 CONFLICT while the document has no extracted text."""
    found = suggestions.suggest(current_tenant.id, query.document_id, query.limit)
    return ok(wire.suggestions_data(found))


@bp.get("/knowledge-graph/entities/<entity_id>")
@require_scope("knowledge-graph:read")
@responds(EntityOut)
def get_entity(entity_id: str):
    return ok(wire.entity_data(entities.get_entity(current_tenant.id, entity_id)))


@bp.patch("/knowledge-graph/entities/<entity_id>")
@require_scope("knowledge-graph:write")
@transactional
@json_body(EntityPatch)
@responds(EntityOut)
def update_entity(entity_id: str, body: EntityPatch):
    """Change fields; new names or aliases re-read the documents they may be found in."""
    entity = entities.get_entity(current_tenant.id, entity_id)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    entities.update_entity(entity, changes, current_credential.actor())
    return ok(wire.entity_data(entity))


@bp.delete("/knowledge-graph/entities/<entity_id>")
@require_scope("knowledge-graph:write")
@transactional
@responds(EntityOut)
def delete_entity(entity_id: str):
    """Delete the entity with its relationships and mentions; answers with what was deleted."""
    entity = entities.get_entity(current_tenant.id, entity_id)
    data = wire.entity_data(entity)
    entities.delete_entity(entity, current_credential.actor())
    return ok(data)


@bp.get("/knowledge-graph/entities/<entity_id>/neighbors")
@require_scope("knowledge-graph:read")
@query_args(NeighborsQuery)
@responds(NeighborhoodOut)
def list_entity_neighbors(entity_id: str, query: NeighborsQuery):
    """The entities within `depth` relationships (either direction), nearest first, each
    once, with the relationships between them; at most 500 entities (`truncated` says so)."""
    entity = entities.get_entity(current_tenant.id, entity_id)
    found = neighbors.neighborhood(entity, query.depth, query.type)
    return ok(wire.neighborhood_data(found))


@bp.get("/knowledge-graph/entities/<entity_id>/documents")
@require_scope("knowledge-graph:read")
@query_args(MentionListQuery)
@responds(MentionOut, many=True)
def list_entity_documents(entity_id: str, query: MentionListQuery):
    """The documents (not in the trash) whose text mentions the entity, newest first, with
    how often and where first. Found by a job after each extraction and each change of the
    entity's names, so a moment behind the latest change."""
    entity = entities.get_entity(current_tenant.id, entity_id)
    binding = binding_of(current_tenant.id, resource="entity-documents", entity=entity.id)
    rows, more = mentions.list_documents(entity, query.limit, id_position(query.cursor, binding))
    next_cursor = encode_cursor(binding, [rows[-1][1].id]) if more else None
    return ok_list(wire.mentions_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.post("/knowledge-graph/relationships")
@require_scope("knowledge-graph:write")
@idempotent()
@json_body(RelationshipCreate)
@responds(RelationshipOut, status=201)
def create_relationship(body: RelationshipCreate):
    """A typed relationship from source to target, both entities of this tenant (404
    otherwise); one of a type per pair (409 CONFLICT). Accepts Idempotency-Key."""
    relationship = relationships.create_relationship(
        current_tenant.id,
        current_credential.actor(),
        type=body.type,
        source_id=body.source_id,
        target_id=body.target_id,
        properties=body.properties,
    )
    location = url_for("api.get_relationship", relationship_id=relationship.id)
    return ok(wire.relationship_data(relationship), status=201, headers={"Location": location})


@bp.get("/knowledge-graph/relationships")
@require_scope("knowledge-graph:read")
@query_args(RelationshipListQuery)
@responds(RelationshipOut, many=True)
def list_relationships(query: RelationshipListQuery):
    binding = binding_of(
        current_tenant.id, resource="relationships", entity=query.entity_id, type=query.type
    )
    rows, more = relationships.list_relationships(
        current_tenant.id,
        query.limit,
        id_position(query.cursor, binding),
        entity_id=query.entity_id,
        type=query.type,
    )
    next_cursor = encode_cursor(binding, [rows[-1].id]) if more else None
    return ok_list(wire.relationships_data(rows), limit=query.limit, next_cursor=next_cursor)


@bp.get("/knowledge-graph/relationships/<relationship_id>")
@require_scope("knowledge-graph:read")
@responds(RelationshipOut)
def get_relationship(relationship_id: str):
    found = relationships.get_relationship(current_tenant.id, relationship_id)
    return ok(wire.relationship_data(found))


@bp.delete("/knowledge-graph/relationships/<relationship_id>")
@require_scope("knowledge-graph:write")
@transactional
@responds(RelationshipOut)
def delete_relationship(relationship_id: str):
    """Delete one relationship; answers with what was deleted."""
    found = relationships.get_relationship(current_tenant.id, relationship_id)
    data = wire.relationship_data(found)
    relationships.delete_relationship(found, current_credential.actor())
    return ok(data)
