"""Webhook deliveries remember where a replay restarted their schedule

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23 08:35:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('schedule_from', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('schedule_base', sa.Integer(), nullable=False,
                                      server_default='0'))


def downgrade():
    with op.batch_alter_table('webhook_deliveries', schema=None) as batch_op:
        batch_op.drop_column('schedule_base')
        batch_op.drop_column('schedule_from')
