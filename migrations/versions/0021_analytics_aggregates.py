"""Analytics aggregates: counters per hour and day, running totals

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-23 14:10:00

Counters and totals are written in the transaction of each change; `origin` separates what
a rebuild recomputes from the records from what it keeps (no record left). The index on
workflow_instances serves the median cycle time of recently finished instances.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('analytics_counters',
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.Column('metric', sa.String(length=40), nullable=False),
    sa.Column('dimension', sa.String(length=200), nullable=False),
    sa.Column('granularity', sa.String(length=4), nullable=False),
    sa.Column('bucket', sa.DateTime(timezone=True), nullable=False),
    sa.Column('origin', sa.String(length=8), nullable=False),
    sa.Column('value', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_analytics_counters_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tenant_id', 'metric', 'dimension', 'granularity', 'bucket', 'origin', name=op.f('pk_analytics_counters'))
    )
    op.create_table('analytics_totals',
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.Column('metric', sa.String(length=40), nullable=False),
    sa.Column('dimension', sa.String(length=200), nullable=False),
    sa.Column('value', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_analytics_totals_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tenant_id', 'metric', 'dimension', name=op.f('pk_analytics_totals'))
    )
    with op.batch_alter_table('workflow_instances', schema=None) as batch_op:
        batch_op.create_index('ix_workflow_instances_tenant_completed', ['tenant_id', 'completed_at'], unique=False)



def downgrade():
    with op.batch_alter_table('workflow_instances', schema=None) as batch_op:
        batch_op.drop_index('ix_workflow_instances_tenant_completed')

    op.drop_table('analytics_totals')
    op.drop_table('analytics_counters')
