"""An entity's neighbourhood: breadth-first over relationships in either direction, to a
depth of 1-3, each entity once at its shortest distance, with the relationships between the
entities found. One recursive CTE (the same SQL on PostgreSQL and SQLite); cycles end
because the walk is bounded by depth and UNION drops (entity, depth) pairs already seen."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, literal, or_, select

from extensions import db
from models import Entity, Relationship
from models.base import in_tenant

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
    walk = select(
        literal(start.id, Entity.id.type).label("entity_id"), literal(0).label("depth")
    ).cte("walk", recursive=True)
    # Each relationship followed both ways: one join on either end, so both engines answer
    # it from the source and target indexes (a union of arcs would scan every relationship).
    other_end = case((rel.c.source_id == walk.c.entity_id, rel.c.target_id), else_=rel.c.source_id)
    step = (
        select(other_end, walk.c.depth + 1)
        .join(
            rel,
            or_(rel.c.source_id == walk.c.entity_id, rel.c.target_id == walk.c.entity_id),
        )
        .where(walk.c.depth < depth)
    )
    if relationship_type is not None:
        step = step.where(rel.c.type == relationship_type)
    walk = walk.union(step)
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
    # A relationship only ever joins two entities of one tenant (relationships.
    # create_relationship), so the walk stays in the start's tenant; the rows are checked
    # against it all the same, each row found by id (in_tenant).
    rows = Entity.get_many_for_tenant(list(depths), tenant_id)
    entities = [(rows[i], d) for i, d in found if i in rows]
    edges_stmt = select(Relationship).where(
        Relationship.source_id.in_(list(rows)),
        Relationship.target_id.in_(list(rows)),
        in_tenant(Relationship, tenant_id),
    )
    if relationship_type is not None:
        edges_stmt = edges_stmt.where(Relationship.type == relationship_type)
    edges = sorted(db.session.scalars(edges_stmt), key=lambda r: r.id)
    if len(edges) > MAX_EDGES:
        truncated, edges = True, edges[:MAX_EDGES]
    return Neighborhood(entities, edges, truncated)
