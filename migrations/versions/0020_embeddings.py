"""Semantic search: each document's embedding status, and on PostgreSQL with the
pgvector extension available, the `passage_vectors` table (one vector per passage).

The HNSW index (cosine distance) is created per vector length by the app when vectors of that
length are first stored (services/semantic/pgvector.py): the length is the model's. Where the
extension is not available (or may not be created by this role), no table is made and search
stays keyword-only; /internal/health says so. Installed pgvector later? Run
`flask db downgrade 0019 && flask db upgrade` (the statuses go; `flask documents embed`).
On SQLite, sqlite-vec's tables are made by the app (they need the extension loaded).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-23 13:56:53.191062

"""

import logging

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade():
    op.create_table(
        "document_embeddings",
        sa.Column("document_id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=True),
        sa.Column("dimensions", sa.Integer(), nullable=True),
        sa.Column("passages", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.String(length=300), nullable=True),
        sa.Column("job_id", sa.String(length=80), nullable=True),
        sa.Column("embedded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_document_embeddings_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_document_embeddings_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("document_id", name=op.f("pk_document_embeddings")),
    )
    with op.batch_alter_table("document_embeddings", schema=None) as batch_op:
        batch_op.create_index("ix_document_embeddings_status", ["status", "model"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_document_embeddings_tenant_id"), ["tenant_id"], unique=False
        )
    bind = op.get_bind()
    if bind.dialect.name == "postgresql" and _pgvector(bind):
        op.execute(
            "CREATE TABLE passage_vectors ("
            "passage_id varchar(40) PRIMARY KEY "
            "CONSTRAINT fk_passage_vectors_passage_id_passages "
            "REFERENCES passages (id) ON DELETE CASCADE, "
            "tenant_id varchar(63) NOT NULL, "
            "document_id varchar(40) NOT NULL, "
            "model varchar(200) NOT NULL, "
            "dimensions integer NOT NULL, "
            "embedding vector NOT NULL, "
            "embedded_at timestamp with time zone NOT NULL)"
        )
        op.execute("CREATE INDEX ix_passage_vectors_document_id ON passage_vectors (document_id)")


def _pgvector(bind) -> bool:
    """Create the extension if the server has it and this role may; False otherwise."""
    offered = bind.execute(
        sa.text("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
    ).scalar()
    if not offered:
        log.info("pgvector is not available on this server: semantic search stays off")
        return False
    try:
        with bind.begin_nested():
            bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS vector"))
    except sa.exc.DBAPIError as exc:
        log.warning("pgvector not created (%s): semantic search stays off", exc.orig)
        return False
    return True


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TABLE IF EXISTS passage_vectors")
    with op.batch_alter_table("document_embeddings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_document_embeddings_tenant_id"))
        batch_op.drop_index("ix_document_embeddings_status")
    op.drop_table("document_embeddings")
