"""The geometry of an entity's neighbourhood drawn as SVG on the server (no script, no
CDN): the entity in the centre and each depth on its own circle (the rings spread to fill
the picture), nodes spread evenly round it in id order, relationships as lines.
templates/portal/entities/_graph.html draws it."""

from __future__ import annotations

import math
from dataclasses import dataclass

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
