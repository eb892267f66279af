"""Relationships: typed, directed edges between two entities of one tenant, with properties;
one of a type per (source, target) pair."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from errors import DomainError, FieldError, conflict, validation_failed
from extensions import db
from models import Entity, Relationship
from services.audit import audit_log
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.graph.entities import MAX_PROPERTIES_BYTES, TYPE_RE, _size


def get_relationship(tenant_id: str, relationship_id: str) -> Relationship:
    return Relationship.get_for_tenant(relationship_id, tenant_id)


def _end(tenant_id: str, entity_id: str, field: str) -> str:
    """The id of an end inside the tenant; a missing or foreign end is a 404 that names it."""
    found = db.session.scalar(
        select(Entity.id).where(Entity.id == entity_id, Entity.tenant_id == tenant_id)
    )
    if found is None:
        raise DomainError(404, "NOT_FOUND", f"{field}: entity not found.", field)
    return found


def create_relationship(
    tenant_id: str,
    actor: Actor,
    *,
    type: str,
    source_id: str,
    target_id: str,
    properties: dict[str, Any] | None = None,
) -> Relationship:
    errors = []
    if not TYPE_RE.fullmatch(type):
        errors.append(
            FieldError(
                "VALIDATION_ERROR",
                "type: one lowercase word (a-z, digits, - or _), at most 40 characters.",
                "type",
            )
        )
    if _size(properties or {}) > MAX_PROPERTIES_BYTES:
        errors.append(
            FieldError(
                "VALIDATION_ERROR",
                f"properties: at most {MAX_PROPERTIES_BYTES} bytes as JSON.",
                "properties",
            )
        )
    if errors:
        raise validation_failed(errors)
    _end(tenant_id, source_id, "sourceId")
    _end(tenant_id, target_id, "targetId")
    duplicate = db.session.scalar(
        select(Relationship.id).where(
            Relationship.tenant_id == tenant_id,
            Relationship.type == type,
            Relationship.source_id == source_id,
            Relationship.target_id == target_id,
        )
    )
    if duplicate is not None:
        raise conflict(
            f"A {type!r} relationship from {source_id} to {target_id} exists: {duplicate}."
        )
    relationship = Relationship(
        tenant_id=tenant_id,
        type=type,
        source_id=source_id,
        target_id=target_id,
        properties=properties or {},
    )
    db.session.add(relationship)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "relationship.created",
        target_type="relationship",
        target_id=relationship.id,
        details={"type": type, "sourceId": source_id, "targetId": target_id},
    )
    return relationship


def delete_relationship(relationship: Relationship, actor: Actor) -> None:
    audit_log.record(
        relationship.tenant_id,
        actor,
        "relationship.deleted",
        target_type="relationship",
        target_id=relationship.id,
        details={
            "type": relationship.type,
            "sourceId": relationship.source_id,
            "targetId": relationship.target_id,
        },
    )
    db.session.delete(relationship)
    db.session.flush()


def list_relationships(
    tenant_id: str,
    limit: int,
    after: Sequence[Any] | None,
    *,
    entity_id: str | None = None,
    type: str | None = None,
) -> tuple[list[Relationship], bool]:
    """Newest first; `entity_id` keeps the relationships it is either end of."""
    stmt = Relationship.query_for_tenant(tenant_id)
    if entity_id is not None:
        stmt = stmt.where(
            (Relationship.source_id == entity_id) | (Relationship.target_id == entity_id)
        )
    if type is not None:
        stmt = stmt.where(Relationship.type == type)
    return keyset_page(stmt, [(Relationship.id, True)], limit, after)
