"""deprecation usage and notices: who still calls deprecated items, and the daily notice record

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21 03:16:23.051526

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('deprecation_notices',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('item', sa.String(length=60), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('event_id', sa.String(length=40), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_deprecation_notices_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deprecation_notices')),
    sa.UniqueConstraint('tenant_id', 'item', 'day', name=op.f('uq_deprecation_notices_tenant_id_item_day'))
    )
    with op.batch_alter_table('deprecation_notices', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deprecation_notices_tenant_id'), ['tenant_id'], unique=False)

    op.create_table('deprecation_usages',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('item', sa.String(length=60), nullable=False),
    sa.Column('credential_id', sa.String(length=40), nullable=False),
    sa.Column('credential_kind', sa.String(length=10), nullable=False),
    sa.Column('credential_label', sa.String(length=320), nullable=False),
    sa.Column('first_used_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_deprecation_usages_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deprecation_usages')),
    sa.UniqueConstraint('tenant_id', 'item', 'credential_id', name=op.f('uq_deprecation_usages_tenant_id_item_credential_id'))
    )
    with op.batch_alter_table('deprecation_usages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deprecation_usages_tenant_id'), ['tenant_id'], unique=False)



def downgrade():
    with op.batch_alter_table('deprecation_usages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deprecation_usages_tenant_id'))

    op.drop_table('deprecation_usages')
    with op.batch_alter_table('deprecation_notices', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deprecation_notices_tenant_id'))

    op.drop_table('deprecation_notices')
