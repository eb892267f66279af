"""The sqlite-vec engine (SQLite): a `vec0` virtual table per vector length,
`passage_vectors_d<N>`, partitioned by tenant, with cosine distance; created the first time
vectors of that length are stored. The extension is loaded into every connection by
`load_extension` (app.py) when embeddings are on and the sqlite3 driver can load extensions
(this Python's built-in one cannot: config.sqlite_driver_with_extensions picks pysqlite3).

vec0 tables have no foreign keys: the passages a document loses keep their vectors until the
document is embedded again; `nearest` only answers passages that still exist."""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import text

from extensions import db

PREFIX = "passage_vectors_d"
_TABLE_NAME = re.compile(r"passage_vectors_d(\d+)")


def load_extension(dbapi_connection) -> bool:
    """Load sqlite-vec into a new connection; False when the driver or package cannot."""
    if not hasattr(dbapi_connection, "enable_load_extension"):
        return False
    try:
        import sqlite_vec
    except ImportError:
        return False
    dbapi_connection.enable_load_extension(True)
    try:
        sqlite_vec.load(dbapi_connection)
    finally:
        dbapi_connection.enable_load_extension(False)
    return True


def available() -> tuple[bool, str]:
    try:
        version = db.session.execute(text("SELECT vec_version()")).scalar()
    except Exception:
        db.session.rollback()
        return False, (
            "sqlite-vec is not loaded: the sqlite3 driver cannot load extensions "
            "(install pysqlite3-binary and sqlite-vec, and turn embeddings on)"
        )
    return True, f"sqlite-vec {version}"


def _tables() -> list[tuple[str, int]]:
    names = db.session.execute(
        text("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE :p"),
        {"p": PREFIX + "%"},
    ).scalars()
    found = []
    for name in names:
        match = _TABLE_NAME.fullmatch(name)
        if match:
            found.append((name, int(match.group(1))))
    return found


def _ensure_table(dimensions: int) -> str:
    name = f"{PREFIX}{int(dimensions)}"
    db.session.execute(
        text(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING vec0("
            "passage_id text primary key, tenant_id text partition key, model text, "
            f"document_id text, embedded_at text, embedding float[{int(dimensions)}] "
            "distance_metric=cosine)"
        )
    )
    return name


def _blob(vector: Sequence[float]) -> bytes:
    return struct.pack(f"{len(vector)}f", *vector)


def store(
    rows: Sequence[tuple[str, str, str]],
    vectors: Sequence[Sequence[float]],
    model: str,
    when: datetime,
) -> None:
    if not rows:
        return
    name = _ensure_table(len(vectors[0]))
    ids = [passage_id for passage_id, _, _ in rows]
    for table, _ in _tables():  # a vector of another length may be there from another model
        db.session.execute(
            text(f"DELETE FROM {table} WHERE passage_id IN (SELECT value FROM json_each(:ids))"),  # noqa: S608
            {"ids": _json(ids)},
        )
    db.session.execute(
        text(
            f"INSERT INTO {name} (passage_id, tenant_id, model, document_id, embedded_at, "  # noqa: S608
            "embedding) VALUES (:passage_id, :tenant_id, :model, :document_id, :embedded_at, "
            ":embedding)"
        ),
        [
            {
                "passage_id": passage_id,
                "tenant_id": tenant_id,
                "model": model,
                "document_id": document_id,
                "embedded_at": when.isoformat(),
                "embedding": _blob(vector),
            }
            for (passage_id, tenant_id, document_id), vector in zip(rows, vectors, strict=True)
        ],
    )


def _json(values: Sequence[str]) -> str:
    return json.dumps(list(values))


def remove_document(document_id: str) -> None:
    for table, _ in _tables():
        db.session.execute(text(f"DELETE FROM {table} WHERE document_id = :d"), {"d": document_id})  # noqa: S608


def document_vectors(tenant_id: str, document_id: str, model: str) -> list[list[float]]:
    found: list[list[float]] = []
    for table, dims in _tables():
        blobs = db.session.execute(
            text(
                f"SELECT embedding FROM {table} WHERE tenant_id = :t AND document_id = :d "  # noqa: S608
                "AND model = :m ORDER BY passage_id"
            ),
            {"t": tenant_id, "d": document_id, "m": model},
        ).scalars()
        found.extend(list(struct.unpack(f"{dims}f", blob)) for blob in blobs)
    return found


def nearest(
    tenant_id: str, model: str, vector: Sequence[float], k: int, before: datetime
) -> list[tuple[str, str, float]]:
    name = f"{PREFIX}{len(vector)}"
    if name not in {table for table, _ in _tables()}:
        return []
    rows = db.session.execute(
        text(
            f"SELECT passage_id, document_id, distance FROM {name} WHERE embedding MATCH :q "  # noqa: S608
            "AND k = :k AND tenant_id = :t AND model = :m AND embedded_at <= :before "
            "ORDER BY distance"
        ),
        {"q": _blob(vector), "k": int(k), "t": tenant_id, "m": model, "before": before.isoformat()},
    ).all()
    return [(r.passage_id, r.document_id, 1.0 - float(r.distance)) for r in rows]
