"""PostgreSQL with the RUM extension: a RUM index on document_texts.rank_vector, so common
words rank a bounded set of candidates (docs/search.md, "Common words")

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-23 14:20:00

Where RUM is not installed (or the migrating role may not create extensions, as on many
managed services) nothing is created and every search takes the exact path; /internal/health
says which. Installing it later: `CREATE EXTENSION rum;` then the CREATE INDEX below.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None

INDEX = 'ix_document_texts_rank_rum'


def _rum_possible(bind) -> bool:
    if bind.execute(sa.text("SELECT 1 FROM pg_extension WHERE extname = 'rum'")).first():
        return True
    available = bind.execute(
        sa.text("SELECT 1 FROM pg_available_extensions WHERE name = 'rum'")
    ).first()
    superuser = bind.execute(
        sa.text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
    ).scalar()
    return bool(available and superuser)


def upgrade():
    bind = op.get_bind()
    if bind.dialect.name != 'postgresql' or not _rum_possible(bind):
        return
    op.execute('CREATE EXTENSION IF NOT EXISTS rum')
    op.execute(
        f'CREATE INDEX IF NOT EXISTS {INDEX} ON document_texts USING rum (rank_vector rum_tsvector_ops)'
    )


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(f'DROP INDEX IF EXISTS {INDEX}')
