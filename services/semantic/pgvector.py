"""The pgvector engine (PostgreSQL): one `passage_vectors` row per passage, created by migration
0020 when the `vector` extension is available, and an HNSW index (cosine distance) per vector
length, created the first time vectors of that length are stored (the length is the model's,
unknown to a migration): a partial index on `embedding::vector(N)` where `dimensions = N`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import text

from extensions import db

TABLE = "passage_vectors"
# Candidates the HNSW scan keeps (pgvector's ef_search): above the k we ask for.
EF_SEARCH = 200


def available() -> tuple[bool, str]:
    """Whether the extension is installed in this database and the table exists."""
    row = db.session.execute(
        text(
            "SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector'), "
            "to_regclass(:table) IS NOT NULL"
        ),
        {"table": TABLE},
    ).one()
    if row[0] is None:
        return False, "the PostgreSQL extension `vector` (pgvector) is not installed"
    if not row[1]:
        return (
            False,
            "pgvector is installed but `passage_vectors` is missing: run `flask db upgrade`",
        )
    return True, f"pgvector {row[0]}"


def literal(vector: Sequence[float]) -> str:
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


def ensure_index(dimensions: int) -> None:
    """The HNSW index for vectors of this length (idempotent; concurrent callers serialise on
    a transaction-level advisory lock)."""
    dims = int(dimensions)
    db.session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": TABLE})
    db.session.execute(
        text(
            f"CREATE INDEX IF NOT EXISTS ix_passage_vectors_hnsw_{dims} ON {TABLE} "
            f"USING hnsw ((embedding::vector({dims})) vector_cosine_ops) "
            f"WHERE dimensions = {dims}"
        )
    )


def store(
    rows: Sequence[tuple[str, str, str]],
    vectors: Sequence[Sequence[float]],
    model: str,
    when: datetime,
) -> None:
    """Upsert one vector per (passage_id, tenant_id, document_id)."""
    if not rows:
        return
    ensure_index(len(vectors[0]))
    db.session.execute(
        text(
            f"INSERT INTO {TABLE} (passage_id, tenant_id, document_id, model, dimensions, "  # noqa: S608
            "embedding, embedded_at) VALUES (:passage_id, :tenant_id, :document_id, :model, "
            ":dimensions, CAST(:embedding AS vector), :embedded_at) "
            "ON CONFLICT (passage_id) DO UPDATE SET model = excluded.model, "
            "dimensions = excluded.dimensions, embedding = excluded.embedding, "
            "embedded_at = excluded.embedded_at"
        ),
        [
            {
                "passage_id": passage_id,
                "tenant_id": tenant_id,
                "document_id": document_id,
                "model": model,
                "dimensions": len(vector),
                "embedding": literal(vector),
                "embedded_at": when,
            }
            for (passage_id, tenant_id, document_id), vector in zip(rows, vectors, strict=True)
        ],
    )


def remove_document(document_id: str) -> None:
    db.session.execute(text(f"DELETE FROM {TABLE} WHERE document_id = :d"), {"d": document_id})  # noqa: S608


def document_vectors(tenant_id: str, document_id: str, model: str) -> list[list[float]]:
    rows = db.session.execute(
        text(
            f"SELECT embedding::text FROM {TABLE} WHERE tenant_id = :t AND document_id = :d "  # noqa: S608
            "AND model = :m ORDER BY passage_id"
        ),
        {"t": tenant_id, "d": document_id, "m": model},
    ).scalars()
    return [[float(x) for x in row.strip("[]").split(",")] for row in rows]


def nearest(
    tenant_id: str, model: str, vector: Sequence[float], k: int, before: datetime
) -> list[tuple[str, str, float]]:
    """The `k` passages of the tenant nearest to `vector` (model's vectors stored before
    `before`), as (passage_id, document_id, cosine similarity), nearest first."""
    dims = len(vector)
    db.session.execute(text(f"SET LOCAL hnsw.ef_search = {max(EF_SEARCH, int(k))}"))
    # pgvector >= 0.8: keep scanning the graph until k rows pass the tenant and model filters.
    db.session.execute(
        text(
            "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true) "
            "WHERE EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector' "
            "AND string_to_array(extversion, '.')::int[] >= ARRAY[0, 8])"
        )
    )
    distance = f"embedding::vector({dims}) <=> CAST(:q AS vector({dims}))"
    rows = db.session.execute(
        text(
            f"SELECT passage_id, document_id, {distance} AS distance FROM {TABLE} "  # noqa: S608
            f"WHERE dimensions = {dims} AND tenant_id = :t AND model = :m "
            f"AND embedded_at <= :before ORDER BY {distance} LIMIT :k"
        ),
        {"q": literal(vector), "t": tenant_id, "m": model, "k": int(k), "before": before},
    ).all()
    hits = [(r.passage_id, r.document_id, 1.0 - float(r.distance)) for r in rows]
    return sorted(hits, key=lambda hit: -hit[2])
