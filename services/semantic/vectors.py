"""Owns vector storage behind one interface, with a maintained engine per database: pgvector on
PostgreSQL (services/semantic/pgvector.py), sqlite-vec on SQLite (services/semantic/sqlitevec.py).
Where the database has no vector engine, `status()` says why and semantic search stays off."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from types import ModuleType

from flask import g

from extensions import db
from services.semantic import pgvector, sqlitevec


def engine() -> ModuleType:
    return pgvector if db.session.get_bind().dialect.name == "postgresql" else sqlitevec


def engine_name() -> str:
    return "pgvector" if engine() is pgvector else "sqlite-vec"


def status() -> tuple[bool, str]:
    """(available, detail) of this database's vector engine, checked once per request."""
    cached = g.get("dms_vector_status")
    if cached is None:
        cached = g.dms_vector_status = engine().available()
    return cached


def store(
    rows: Sequence[tuple[str, str, str]],
    vectors: Sequence[Sequence[float]],
    model: str,
    when: datetime,
) -> None:
    engine().store(rows, vectors, model, when)


def remove_document(document_id: str) -> None:
    if status()[0]:
        engine().remove_document(document_id)


def document_vectors(tenant_id: str, document_id: str, model: str) -> list[list[float]]:
    return engine().document_vectors(tenant_id, document_id, model)


def nearest(
    tenant_id: str, model: str, vector: Sequence[float], k: int, before: datetime
) -> list[tuple[str, str, float]]:
    return engine().nearest(tenant_id, model, vector, k, before)
