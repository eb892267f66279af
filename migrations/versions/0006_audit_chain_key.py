"""audit entries: the key that sealed each entry (a keyed chain)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22 23:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    # NULL: an entry sealed before the chain was keyed (plain SHA-256).
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key_id', sa.String(length=40), nullable=True))


def downgrade():
    with op.batch_alter_table('audit_entries', schema=None) as batch_op:
        batch_op.drop_column('key_id')
