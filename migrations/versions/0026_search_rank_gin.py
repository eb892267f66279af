"""PostgreSQL: a GIN index on document_texts.rank_vector, so the bounded search path that is
exact by proof (the documents whose lead matches, ranked; docs/search.md) runs without RUM

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-25 22:05:00

Without an index on the rank vector, finding the documents whose lead matches would read every
document's rank vector; with it, a common word or a phrase ranks the lead's matches rather
than every match of the full text (bench/RESULTS.md, "Search").

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

INDEX = "ix_document_texts_rank_gin"


def upgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON document_texts USING gin (rank_vector)")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP INDEX IF EXISTS {INDEX}")
