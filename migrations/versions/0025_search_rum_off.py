"""PostgreSQL: the RUM indexes of migrations 0023 and 0024 give way to GIN on the full search
vector, because RUM crashes the server on a word whose every entry was deleted and vacuumed
(postgrespro/rum#183, open; docs/search.md, "Indexes")

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-25 21:50:00

A document's text replaced (a new version) or purged leaves dead index entries; once VACUUM
has removed the last entries of a word, a search for that word crashes the backend
(signal 11) and the postmaster resets every connection of the server, every tenant's. Any
tenant can bring that about (upload a unique word, trash, wait for the purge, search for it).
Until a rum release fixes it the indexes are GIN: every search takes the exact path, slower
for common words; the code still uses RUM where an operator creates the indexes
(docs/search.md says how and what it risks). The extension itself is left installed.

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

GIN = "ix_document_texts_search_vector"
RUM_RANK = "ix_document_texts_rank_rum"
RUM_SEARCH = "ix_document_texts_search_rum"


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"CREATE INDEX IF NOT EXISTS {GIN} ON document_texts USING gin (search_vector)")
    op.execute(f"DROP INDEX IF EXISTS {RUM_SEARCH}")
    op.execute(f"DROP INDEX IF EXISTS {RUM_RANK}")


def downgrade():
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    if not bind.execute(sa.text("SELECT 1 FROM pg_extension WHERE extname = 'rum'")).first():
        return
    op.execute(
        f"CREATE INDEX IF NOT EXISTS {RUM_RANK} ON document_texts "
        "USING rum (rank_vector rum_tsvector_ops)"
    )
    op.execute(
        f"CREATE INDEX IF NOT EXISTS {RUM_SEARCH} ON document_texts "
        "USING rum (search_vector rum_tsvector_ops)"
    )
    op.execute(f"DROP INDEX IF EXISTS {GIN}")
