"""Operator records: the operator's own log of what was done to whole tenants

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-23 14:03:16.637885

A tenant's deletion is recorded here, not in the deleted tenant's audit log; no foreign key
to tenants, so the record outlives the tenant it is about.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('operator_records',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('action', sa.String(length=60), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.Column('operator', sa.String(length=200), nullable=False),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_operator_records'))
    )
    with op.batch_alter_table('operator_records', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_operator_records_tenant_id'), ['tenant_id'], unique=False)



def downgrade():
    with op.batch_alter_table('operator_records', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_operator_records_tenant_id'))

    op.drop_table('operator_records')
