"""SQLite: document_search_ids, each FTS5 row's document and tenant by its rowid, so ranking
finds a match's document without reading the FTS5 row (docs/search.md, "What to expect from
SQLite at 100,000 documents")

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-26 14:05:00

Ranking a match needs its document id, an UNINDEXED column of `document_search`: FTS5 reads
the whole stored row for it, text included, about 4 µs a row; this table's row by rowid, 1.4
µs. The bounded path reads 1,000 candidates (3 ms saved), the exact path every match (a
common word's page at 100,000 documents: 159 ms instead of 281; bench/RESULTS.md,
"Search"). A row's document and tenant never change (the rowid is a hash of the document id),
so the table is only written where FTS5 rows are (services/search/indexing.py).

PostgreSQL: nothing (its rank vector sits in the row of document_texts it ranks).
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(
        "CREATE TABLE document_search_ids ("
        " fts_rowid INTEGER PRIMARY KEY, document_id TEXT NOT NULL, tenant_id TEXT NOT NULL)"
    )
    op.execute(
        "INSERT INTO document_search_ids (fts_rowid, document_id, tenant_id)"
        " SELECT rowid, document_id, tenant_id FROM document_search"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TABLE document_search_ids")
