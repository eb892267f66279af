"""SQLite: each common word's best matches, listed ahead of time (services/search/common_words.py;
docs/search.md, "Common words on SQLite: the listed matches")

Revision ID: 0031
Revises: 0030
Create Date: 2026-11-27 08:00:00

- `document_search_ids.written`: a write sequence (the counter in `document_search_writes`,
  which only grows), set by a trigger on every insert (FTS5 rows are rewritten under the same
  rowid, and the trigger numbers any writer's rows, this code's or an older one's), so a
  search knows which rows changed after a word's list was made;
- `document_search_common`: a common word's (term's) LIST_SIZE best rowids by bm25 when its
  list was made; `document_search_common_terms`: per term, the write sequence the list is
  good through, the best ratio a match left out had, and the average row length then;
- `document_search_vocab`: FTS5's own vocabulary (fts5vocab, 'row'), which finds the common
  terms; it stores nothing.

PostgreSQL: nothing (its common words have their tiers, migration 0027).
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("ALTER TABLE document_search_ids ADD COLUMN written INTEGER NOT NULL DEFAULT 0")
    op.execute("CREATE INDEX ix_document_search_ids_written ON document_search_ids (written)")
    # A counter of its own, not max(written) + 1: deleting the row written last would lower
    # that max, and the next write would take a number a list already accounts for.
    op.execute("CREATE TABLE document_search_writes (id INTEGER PRIMARY KEY, count INTEGER NOT NULL)")
    op.execute("INSERT INTO document_search_writes (id, count) VALUES (1, 0)")
    op.execute(
        "CREATE TRIGGER document_search_ids_written AFTER INSERT ON document_search_ids BEGIN"
        " UPDATE document_search_writes SET count = count + 1 WHERE id = 1;"
        " UPDATE document_search_ids"
        " SET written = (SELECT count FROM document_search_writes WHERE id = 1)"
        " WHERE fts_rowid = NEW.fts_rowid; END"
    )
    op.execute(
        "CREATE TABLE document_search_common ("
        " term TEXT NOT NULL, fts_rowid INTEGER NOT NULL, PRIMARY KEY (term, fts_rowid)"
        ") WITHOUT ROWID"
    )
    op.execute(
        "CREATE TABLE document_search_common_terms ("
        " term TEXT PRIMARY KEY, listed_through INTEGER NOT NULL,"
        " ratio_ceiling REAL NOT NULL, average_length REAL NOT NULL,"
        " listed_at TEXT NOT NULL)"
    )
    op.execute("CREATE VIRTUAL TABLE document_search_vocab USING fts5vocab(document_search, row)")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TABLE document_search_vocab")
    op.execute("DROP TABLE document_search_common_terms")
    op.execute("DROP TABLE document_search_common")
    op.execute("DROP TRIGGER document_search_ids_written")
    op.execute("DROP TABLE document_search_writes")
    op.execute("DROP INDEX ix_document_search_ids_written")
    op.execute("ALTER TABLE document_search_ids DROP COLUMN written")
