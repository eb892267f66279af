"""Entities: create, change, delete (with their relationships and mentions), read and list
with a type filter and a case-insensitive prefix search on names and aliases."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, exists

from errors import FieldError, validation_failed
from extensions import db
from models import Entity, EntityMention, EntityName, Relationship
from services.audit import audit_log
from services.core.actors import Actor
from services.core.paging import keyset_page
from services.graph import mentions
from services.graph.names import keys_of, name_key

TYPE_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
MAX_ALIASES = 50
MAX_PROPERTIES_BYTES = 16 * 1024
EDITABLE = ("type", "name", "aliases", "properties")


def get_entity(tenant_id: str, entity_id: str) -> Entity:
    """The tenant's entity, or 404 (another tenant's id included)."""
    return Entity.get_for_tenant(entity_id, tenant_id)


def _check(changes: dict[str, Any]) -> None:
    errors: list[FieldError] = []
    if "type" in changes and not TYPE_RE.fullmatch(changes["type"] or ""):
        errors.append(
            FieldError(
                "VALIDATION_ERROR",
                "type: one lowercase word (a-z, digits, - or _), at most 40 characters.",
                "type",
            )
        )
    if "name" in changes and not name_key(changes["name"] or ""):
        errors.append(FieldError("VALIDATION_ERROR", "name: may not be blank.", "name"))
    aliases = changes.get("aliases") or []
    if len(aliases) > MAX_ALIASES:
        errors.append(FieldError("VALIDATION_ERROR", f"aliases: at most {MAX_ALIASES}.", "aliases"))
    if any(not name_key(a) for a in aliases):
        errors.append(FieldError("VALIDATION_ERROR", "aliases: may not be blank.", "aliases"))
    if "properties" in changes and _size(changes["properties"]) > MAX_PROPERTIES_BYTES:
        errors.append(
            FieldError(
                "VALIDATION_ERROR",
                f"properties: at most {MAX_PROPERTIES_BYTES} bytes as JSON.",
                "properties",
            )
        )
    if errors:
        raise validation_failed(errors)


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")).encode())


def _tidy_aliases(name: str, aliases: list[str]) -> list[str]:
    """Aliases stripped, without repeats or a copy of the name (compared casefolded)."""
    seen = {name_key(name)}
    kept = []
    for alias in aliases:
        key = name_key(alias)
        if key not in seen:
            seen.add(key)
            kept.append(alias.strip())
    return kept


def _store_names(entity: Entity) -> None:
    db.session.execute(delete(EntityName).where(EntityName.entity_id == entity.id))
    for key in keys_of(entity.name, entity.aliases):
        db.session.add(EntityName(tenant_id=entity.tenant_id, entity_id=entity.id, key=key))


def create_entity(
    tenant_id: str,
    actor: Actor,
    *,
    type: str,
    name: str,
    aliases: list[str] | None = None,
    properties: dict[str, Any] | None = None,
) -> Entity:
    changes = {"type": type, "name": name, "aliases": aliases or [], "properties": properties}
    _check({k: v for k, v in changes.items() if v is not None})
    name = name.strip()
    entity = Entity(
        tenant_id=tenant_id,
        type=type,
        name=name,
        aliases=_tidy_aliases(name, aliases or []),
        properties=properties or {},
    )
    db.session.add(entity)
    db.session.flush()
    _store_names(entity)
    db.session.flush()
    audit_log.record(
        tenant_id,
        actor,
        "entity.created",
        target_type="entity",
        target_id=entity.id,
        details={"type": type, "name": name},
    )
    mentions.schedule_names_changed(entity, keys_of(entity.name, entity.aliases))
    return entity


def update_entity(entity: Entity, changes: dict[str, Any], actor: Actor) -> Entity:
    """Apply a PATCH of EDITABLE fields; new names or aliases rescan the documents they may
    change the mentions of (mentions.candidates_for_names)."""
    _check(changes)
    old_keys = keys_of(entity.name, entity.aliases)
    if "name" in changes:
        changes["name"] = changes["name"].strip()
    name = changes.get("name", entity.name)
    if "aliases" in changes or "name" in changes:
        changes["aliases"] = _tidy_aliases(name, changes.get("aliases", entity.aliases))
    diff: dict[str, Any] = {}
    for field in EDITABLE:
        if field in changes and changes[field] != getattr(entity, field):
            diff[field] = (
                "changed" if field == "properties" else [getattr(entity, field), changes[field]]
            )
            setattr(entity, field, changes[field])
    if not diff:
        return entity
    db.session.flush()
    names_changed = keys_of(entity.name, entity.aliases) != old_keys
    if names_changed:
        _store_names(entity)
        db.session.flush()
    audit_log.record(
        entity.tenant_id,
        actor,
        "entity.updated",
        target_type="entity",
        target_id=entity.id,
        details=diff,
    )
    if names_changed:
        mentions.schedule_names_changed(entity, keys_of(entity.name, entity.aliases))
    return entity


def delete_entity(entity: Entity, actor: Actor) -> None:
    """Delete the entity, every relationship it is an end of, its names and its mentions.
    The documents that mentioned it are rescanned: a name it held may have hidden a shorter
    one of another entity there."""
    mentioned_in = mentions.mentioning_documents(entity)
    removed = db.session.execute(
        delete(Relationship).where(
            Relationship.tenant_id == entity.tenant_id,
            (Relationship.source_id == entity.id) | (Relationship.target_id == entity.id),
        )
    ).rowcount
    db.session.execute(delete(EntityMention).where(EntityMention.entity_id == entity.id))
    db.session.execute(delete(EntityName).where(EntityName.entity_id == entity.id))
    audit_log.record(
        entity.tenant_id,
        actor,
        "entity.deleted",
        target_type="entity",
        target_id=entity.id,
        details={"type": entity.type, "name": entity.name, "relationships": removed},
    )
    db.session.delete(entity)
    db.session.flush()
    mentions.schedule_scan(entity.tenant_id, mentioned_in)


def like_prefix(text: str) -> str:
    """A LIKE pattern matching what starts with `text` (its wildcards escaped with \\)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "%"


def list_entities(
    tenant_id: str,
    limit: int,
    after: Sequence[Any] | None,
    *,
    type: str | None = None,
    q: str | None = None,
) -> tuple[list[Entity], bool]:
    """By name (then id), a page at a time; `q` matches the start of a name or an alias."""
    stmt = Entity.query_for_tenant(tenant_id)
    if type is not None:
        stmt = stmt.where(Entity.type == type)
    if q:
        stmt = stmt.where(
            exists().where(
                EntityName.entity_id == Entity.id,
                EntityName.tenant_id == tenant_id,
                EntityName.key.like(like_prefix(name_key(q)), escape="\\"),
            )
        )
    return keyset_page(stmt, [(Entity.name, False), (Entity.id, False)], limit, after)
