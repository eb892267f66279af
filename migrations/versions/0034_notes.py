"""Notes on documents, and SQLite's index gains their column (docs/notes.md)

Revision ID: 0034
Revises: 0033
Create Date: 2026-11-28 09:00:00

- `notes`: a document's notes (purged with it: ON DELETE CASCADE);
- SQLite: `document_search` is made again with a `notes` column after the others, so that
  a word only in a note finds the document; bm25 weighs it 0 (services/search/fts5_rows.py),
  so a note never lifts a document above one whose own fields match. FTS5 cannot add a
  column: the rows are copied into a new table under the same rowids (the common words'
  lists and `document_search_ids` name rowids, and stay right), which then takes the old
  name; the vocabulary view over it and the usermerge option (migration 0030) are made again.

PostgreSQL: nothing here; a document's notes join its `search_vector` (weight D, never its
`rank_vector`) at its next index refresh: adding or deleting a note refreshes it.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0034"
down_revision = "0033"
branch_labels = None
depends_on = None

_TOKENIZE = "tokenize = 'porter unicode61 remove_diacritics 2'"
_FIELDS = "title, keywords, body, document_id UNINDEXED, tenant_id UNINDEXED"


def _rebuild_index(with_notes: bool) -> None:
    columns = "title, keywords, body, document_id, tenant_id"
    fields = f"{_FIELDS}, notes" if with_notes else _FIELDS
    op.execute("DROP TABLE document_search_vocab")
    op.execute(f"CREATE VIRTUAL TABLE document_search_next USING fts5({fields}, {_TOKENIZE})")
    target = f"rowid, {columns}, notes" if with_notes else f"rowid, {columns}"
    source = f"rowid, {columns}, ''" if with_notes else f"rowid, {columns}"
    op.execute(
        f"INSERT INTO document_search_next ({target}) SELECT {source} FROM document_search"
    )
    op.execute("DROP TABLE document_search")
    op.execute("ALTER TABLE document_search_next RENAME TO document_search")
    op.execute("INSERT INTO document_search (document_search, rank) VALUES ('usermerge', 2)")
    op.execute("CREATE VIRTUAL TABLE document_search_vocab USING fts5vocab(document_search, row)")


def upgrade() -> None:
    op.create_table(
        "notes",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("document_id", sa.String(length=40), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("author_type", sa.String(length=16), nullable=False),
        sa.Column("author_id", sa.String(length=60), nullable=False),
        sa.Column("author_email", sa.String(length=254), nullable=True),
        sa.Column("author_name", sa.String(length=200), nullable=True),
        sa.Column("mentions", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"], ["documents.id"],
            name=op.f("fk_notes_document_id_documents"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"],
            name=op.f("fk_notes_tenant_id_tenants"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notes")),
    )
    with op.batch_alter_table("notes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notes_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_notes_document", ["document_id", "id"], unique=False)
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_index(with_notes=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_index(with_notes=False)
    with op.batch_alter_table("notes", schema=None) as batch_op:
        batch_op.drop_index("ix_notes_document")
        batch_op.drop_index(batch_op.f("ix_notes_tenant_id"))
    op.drop_table("notes")
