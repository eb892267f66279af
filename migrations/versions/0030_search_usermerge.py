"""SQLite: FTS5's usermerge option at 2, so a positive 'merge' merges any level holding two
segments (services/search/index_merge.tidy; docs/search.md, "Merging SQLite's index")

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-26 14:20:00

FTS5 keeps its options in the index's own %_config table. With the default, 4, a level is
merged only once it holds four segments, so up to three a level stay between two full
merges; at 2 the recovery job's tidy leaves one a level. PostgreSQL: nothing.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def _usermerge(value: int) -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "INSERT INTO document_search (document_search, rank)"
            f" VALUES ('usermerge', {int(value)})"
        )


def upgrade() -> None:
    _usermerge(2)


def downgrade() -> None:
    _usermerge(4)  # FTS5's default
