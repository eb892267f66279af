"""An entity's neighbourhood: breadth-first over relationships in either direction, to a
depth of 1-3, each entity once at its shortest distance, with the relationships between the
entities found. One recursive CTE (the same SQL on PostgreSQL and SQLite); cycles end
because the walk is bounded by depth and UNION drops (entity, depth) pairs already seen."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, literal, select, union_all

from extensions import db
from models import Entity, Relationship

MAX_DEPTH = 3
MAX_NODES = 500
MAX_EDGES = 2000


@dataclass
class Neighborhood:
    entities: list[tuple[Entity, int]]  # (entity, depth), the start at depth 0
    relationships: list[Relationship]
    truncated: bool


def neighborhood(start: Entity, depth: int, relationship_type: str | None = None) -> Neighborhood:
    tenant_id = start.tenant_id
    rel = Relationship.__table__
    conditions = [rel.c.tenant_id == tenant_id]
    if relationship_type is not None:
        conditions.append(rel.c.type == relationship_type)
    # Every relationship as two arcs, so the walk follows it both ways.
    arcs = union_all(
        select(rel.c.source_id.label("a"), rel.c.target_id.label("b")).where(*conditions),
        select(rel.c.target_id.label("a"), rel.c.source_id.label("b")).where(*conditions),
    ).cte("arcs")
    walk = select(
        literal(start.id, Entity.id.type).label("entity_id"), literal(0).label("depth")
    ).cte("walk", recursive=True)
    walk = walk.union(
        select(arcs.c.b, walk.c.depth + 1).where(arcs.c.a == walk.c.entity_id, walk.c.depth < depth)
    )
    nearest = (
        select(walk.c.entity_id, func.min(walk.c.depth).label("depth"))
        .group_by(walk.c.entity_id)
        .order_by(func.min(walk.c.depth), walk.c.entity_id)
        .limit(MAX_NODES + 1)
    )
    found = [(row.entity_id, row.depth) for row in db.session.execute(nearest)]
    truncated = len(found) > MAX_NODES
    found = found[:MAX_NODES]
    depths = dict(found)
    rows = {
        e.id: e
        for e in db.session.scalars(
            select(Entity).where(Entity.tenant_id == tenant_id, Entity.id.in_(list(depths)))
        )
    }
    entities = [(rows[i], d) for i, d in found if i in rows]
    edges_stmt = (
        select(Relationship)
        .where(
            Relationship.tenant_id == tenant_id,
            Relationship.source_id.in_(list(depths)),
            Relationship.target_id.in_(list(depths)),
        )
        .order_by(Relationship.id)
        .limit(MAX_EDGES + 1)
    )
    if relationship_type is not None:
        edges_stmt = edges_stmt.where(Relationship.type == relationship_type)
    edges = list(db.session.scalars(edges_stmt))
    if len(edges) > MAX_EDGES:
        truncated, edges = True, edges[:MAX_EDGES]
    return Neighborhood(entities, edges, truncated)
