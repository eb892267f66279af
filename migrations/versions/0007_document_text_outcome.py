"""documents: why text extraction failed, and whether the text was cut

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22 23:31:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.add_column(sa.Column('text_error', sa.String(length=300), nullable=True))
        batch_op.add_column(sa.Column('text_truncated', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table('documents', schema=None) as batch_op:
        batch_op.drop_column('text_truncated')
        batch_op.drop_column('text_error')
