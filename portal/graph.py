"""Knowledge-graph pages: the entity browser (a list with a type filter and a name search), an
entity's page (aliases, properties, relationships, the documents that mention it, and its
neighbourhood drawn as SVG on the server beside a table of the same: the entity in the centre,
each depth on its own circle, nodes spread evenly in id order, relationships as lines), and,
for admins, create, edit and delete of entities and relationships. Every form is a plain POST."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from flask import flash, redirect, render_template, request, url_for
from sqlalchemy import select

from errors import DomainError, FieldError, validation_failed
from extensions import db
from models import Entity
from portal.access import ADMIN, TENANT_ROLES, portal_actor, portal_tenant, roles_required
from portal.blueprint import bp
from portal.layout import field_errors
from services.core.transaction import transactional
from services.graph import entities, mentions, neighbors, relationships
from services.graph.neighbors import Neighborhood

SIZE = 560
MARGIN = 60  # room for the outer ring's labels
LABEL_CHARS = 18


@dataclass(frozen=True)
class Node:
    id: str
    label: str
    title: str
    type: str
    depth: int
    x: float
    y: float


@dataclass(frozen=True)
class Edge:
    type: str
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class GraphView:
    size: int
    nodes: list[Node]
    edges: list[Edge]
    rings: list[float]


def layout(found: Neighborhood) -> GraphView:
    centre = SIZE / 2
    by_depth: dict[int, list] = {}
    for entity, depth in found.entities:
        by_depth.setdefault(depth, []).append(entity)
    ring = (centre - MARGIN) / max(max(by_depth, default=1), 1)  # the rings fill the picture
    nodes: dict[str, Node] = {}
    for depth, members in sorted(by_depth.items()):
        radius = depth * ring
        offset = depth * 0.5  # turn each ring a little so labels of rings do not line up
        for i, entity in enumerate(members):
            angle = offset + 2 * math.pi * i / len(members)
            label = entity.name if len(entity.name) <= LABEL_CHARS else entity.name[:17] + "…"
            nodes[entity.id] = Node(
                id=entity.id,
                label=label,
                title=f"{entity.name} ({entity.type})",
                type=entity.type,
                depth=depth,
                x=round(centre + radius * math.cos(angle), 1),
                y=round(centre + radius * math.sin(angle), 1),
            )
    edges = [
        Edge(r.type, a.x, a.y, b.x, b.y)
        for r in found.relationships
        if (a := nodes.get(r.source_id)) is not None and (b := nodes.get(r.target_id)) is not None
    ]
    rings = [d * ring for d in sorted(by_depth) if d]
    return GraphView(SIZE, list(nodes.values()), edges, rings)


PAGE_SIZE = 25
TARGET_CHOICES = 200  # entities offered as a relationship's target
COMMON_TYPES = ("person", "organization", "project", "location")


def _load(entity_id: str) -> Entity:
    return entities.get_entity(portal_tenant().id, entity_id)


def _fields() -> dict:
    return {
        "type": request.form.get("type", "").strip()[:40],
        "name": request.form.get("name", "").strip()[:200],
        "aliases_text": request.form.get("aliases", "")[:20_000],
        "properties_text": request.form.get("properties", "").strip()[:20_000] or "{}",
    }


def _changes(fields: dict) -> dict:
    """The service's arguments from the form; 422 with the fields at fault."""
    problems = []
    if not fields["name"]:
        problems.append(FieldError("VALIDATION_ERROR", "Give the entity a name.", "name"))
    try:
        properties = json.loads(fields["properties_text"])
    except ValueError:
        properties = None
    if not isinstance(properties, dict):
        problems.append(FieldError("VALIDATION_ERROR", "properties: a JSON object.", "properties"))
    if problems:
        raise validation_failed(problems)
    aliases = [a.strip() for a in fields["aliases_text"].splitlines() if a.strip()]
    return {
        "type": fields["type"],
        "name": fields["name"],
        "aliases": aliases,
        "properties": properties,
    }


@bp.get("/entities")
@roles_required(*TENANT_ROLES)
def entities_page():
    tenant = portal_tenant()
    type_ = request.args.get("type", "").strip()[:40] or None
    q = request.args.get("q", "").strip()[:200] or None
    after_name, after_id = request.args.get("after_name"), request.args.get("after_id")
    position = [after_name, after_id] if after_name is not None and after_id else None
    rows, more = entities.list_entities(tenant.id, PAGE_SIZE, position, type=type_, q=q)
    types = sorted(
        set(COMMON_TYPES)
        | set(
            db.session.scalars(select(Entity.type).where(Entity.tenant_id == tenant.id).distinct())
        )
    )
    return render_template(
        "portal/graph/index.html",
        rows=rows,
        types=types,
        type=type_,
        q=q or "",
        next_page=(rows[-1].name, rows[-1].id) if more and rows else None,
    )


def _render_new(fields: dict, errors: dict, status: int = 200):
    return render_template(
        "portal/graph/new.html", fields=fields, errors=errors, types=COMMON_TYPES
    ), status


@bp.get("/entities/new")
@roles_required(*ADMIN)
def new_entity():
    empty = {"type": "organization", "name": "", "aliases_text": "", "properties_text": "{}"}
    return _render_new(empty, {})


@bp.post("/entities/new")
@roles_required(*ADMIN)
@transactional
def create_entity_page():
    fields = _fields()
    try:
        entity = entities.create_entity(portal_tenant().id, portal_actor(), **_changes(fields))
    except DomainError as error:
        db.session.rollback()
        return _render_new(fields, field_errors(error), 422)
    flash(f"Created {entity.name}.", "success")
    return redirect(url_for("portal.entity_page", entity_id=entity.id))


def _render_detail(entity: Entity, fields: dict, errors: dict, status: int = 200):
    tenant_id = entity.tenant_id
    found = neighbors.neighborhood(entity, 2)
    names = {e.id: e for e, _ in found.entities}
    rels, _more = relationships.list_relationships(tenant_id, 100, None, entity_id=entity.id)
    missing = {r.source_id for r in rels} | {r.target_id for r in rels}
    missing -= set(names)
    if missing:
        names.update(Entity.get_many_for_tenant(list(missing), tenant_id))
    documents, more_documents = mentions.list_documents(entity, PAGE_SIZE, None)
    targets = db.session.scalars(
        select(Entity)
        .where(Entity.tenant_id == tenant_id)
        .order_by(Entity.name)
        .limit(TARGET_CHOICES)
    ).all()
    return render_template(
        "portal/graph/detail.html",
        entity=entity,
        fields=fields,
        errors=errors,
        types=COMMON_TYPES,
        graph=layout(found),
        neighbourhood=found,
        relationships=rels,
        names=names,
        documents=documents,
        more_documents=more_documents,
        targets=targets,
    ), status


def _entity_fields(entity: Entity) -> dict:
    return {
        "type": entity.type,
        "name": entity.name,
        "aliases_text": "\n".join(entity.aliases),
        "properties_text": json.dumps(entity.properties, indent=2, ensure_ascii=False),
    }


@bp.get("/entities/<entity_id>")
@roles_required(*TENANT_ROLES)
def entity_page(entity_id: str):
    entity = _load(entity_id)
    return _render_detail(entity, _entity_fields(entity), {})


@bp.post("/entities/<entity_id>")
@roles_required(*ADMIN)
@transactional
def update_entity_page(entity_id: str):
    entity = _load(entity_id)
    fields = _fields()
    try:
        entities.update_entity(entity, _changes(fields), portal_actor())
    except DomainError as error:
        db.session.rollback()
        return _render_detail(_load(entity_id), fields, field_errors(error), 422)
    flash(f"Saved {entity.name}.", "success")
    return redirect(url_for("portal.entity_page", entity_id=entity.id))


@bp.post("/entities/<entity_id>/delete")
@roles_required(*ADMIN)
@transactional
def delete_entity_page(entity_id: str):
    entity = _load(entity_id)
    name = entity.name
    entities.delete_entity(entity, portal_actor())
    flash(f"Deleted {name} with its relationships.", "success")
    return redirect(url_for("portal.entities_page"))


@bp.post("/entities/<entity_id>/relationships")
@roles_required(*ADMIN)
@transactional
def create_relationship_page(entity_id: str):
    entity = _load(entity_id)
    target = request.form.get("target_id", "")[:40]
    type_ = request.form.get("type", "").strip()[:40]
    source, target = (
        (target, entity.id) if request.form.get("direction") == "in" else (entity.id, target)
    )
    try:
        relationships.create_relationship(
            entity.tenant_id, portal_actor(), type=type_, source_id=source, target_id=target
        )
    except DomainError as error:
        db.session.rollback()
        flash(f"The relationship was not added: {error.message}", "error")
        return redirect(url_for("portal.entity_page", entity_id=entity_id))
    flash("Added the relationship.", "success")
    return redirect(url_for("portal.entity_page", entity_id=entity_id))


@bp.post("/relationships/<relationship_id>/delete")
@roles_required(*ADMIN)
@transactional
def delete_relationship_page(relationship_id: str):
    found = relationships.get_relationship(portal_tenant().id, relationship_id)
    back = request.form.get("entity_id") or found.source_id
    relationships.delete_relationship(found, portal_actor())
    flash("Deleted the relationship.", "success")
    if back not in (found.source_id, found.target_id):
        back = found.source_id
    return redirect(url_for("portal.entity_page", entity_id=back))
