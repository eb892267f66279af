"""The knowledge graph (docs/graph.md): entities with their names, typed directed
relationships between two entities of one tenant, and the documents that mention an entity."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

import clock
from extensions import db
from models.base import TenantScoped, UTCDateTime, created_at_column, id_column

_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """The form names are compared in (EntityName.key): NFKC, casefolded, inner whitespace
    as one space. Here, below every capability, so that the graph stores it and search
    looks names up in it alike."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()


class Entity(TenantScoped, db.Model):
    __tablename__ = "entities"
    __not_found_label__ = "Entity"
    __table_args__ = (Index("ix_entities_tenant_type", "tenant_id", "type", "id"),)

    id: Mapped[str] = id_column("ent")
    type: Mapped[str] = mapped_column(String(40), nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    aliases: Mapped[list[str]] = mapped_column(JSON, nullable=False, default=list)
    properties: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    # Documents that mention it, kept by the mention job (services/graph/mentions.py).
    mention_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False
    )

    def __repr__(self) -> str:
        return f"<Entity {self.id} {self.type} {self.name!r}>"


class EntityName(db.Model):
    """One name or alias of an entity, casefolded: what `q` prefix-searches and what the
    mention matcher looks for."""

    __tablename__ = "entity_names"
    __table_args__ = (
        UniqueConstraint("entity_id", "key"),
        Index("ix_entity_names_tenant_key", "tenant_id", "key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), nullable=False
    )
    entity_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("entities.id", ondelete="CASCADE"), nullable=False
    )
    key: Mapped[str] = mapped_column(String(200), nullable=False)


class Relationship(TenantScoped, db.Model):
    __tablename__ = "relationships"
    __not_found_label__ = "Relationship"
    __table_args__ = (
        UniqueConstraint("tenant_id", "type", "source_id", "target_id"),
        Index("ix_relationships_source", "source_id"),
        Index("ix_relationships_target", "target_id"),
    )

    id: Mapped[str] = id_column("rel")
    type: Mapped[str] = mapped_column(String(40), nullable=False)
    source_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("entities.id", ondelete="CASCADE"), nullable=False
    )
    target_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("entities.id", ondelete="CASCADE"), nullable=False
    )
    properties: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        UTCDateTime(), default=clock.now, onupdate=clock.now, nullable=False
    )

    def __repr__(self) -> str:
        return f"<Relationship {self.id} {self.source_id} -{self.type}-> {self.target_id}>"


class EntityMention(db.Model):
    """An entity found in a document's extracted text: how often, and where first."""

    __tablename__ = "entity_mentions"
    __table_args__ = (
        Index("ix_entity_mentions_document", "document_id"),
        Index("ix_entity_mentions_tenant_entity", "tenant_id", "entity_id", "document_id"),
    )

    entity_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("entities.id", ondelete="CASCADE"), primary_key=True
    )
    document_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(
        String(63), ForeignKey("tenants.id", ondelete="CASCADE"), nullable=False
    )
    count: Mapped[int] = mapped_column(Integer, nullable=False)
    # Character offsets of the first few matches in the text.
    positions: Mapped[list[int]] = mapped_column(JSON, nullable=False, default=list)
