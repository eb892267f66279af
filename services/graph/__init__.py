"""The knowledge graph: entities, relationships, neighbourhoods, mentions in documents, and
suggestions (docs/graph.md)."""
