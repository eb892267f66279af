"""Push subscriptions per person and the delivery of notifications to them

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23 10:40:32.556599

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('push_subscriptions',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('user_id', sa.String(length=40), nullable=False),
    sa.Column('platform', sa.String(length=10), nullable=False),
    sa.Column('token', sa.Text(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('token_hint', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_delivered_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_push_subscriptions_tenant_id_tenants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_push_subscriptions_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_push_subscriptions')),
    sa.UniqueConstraint('tenant_id', 'token_hash', name=op.f('uq_push_subscriptions_tenant_id_token_hash'))
    )
    with op.batch_alter_table('push_subscriptions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_push_subscriptions_tenant_id'), ['tenant_id'], unique=False)
        batch_op.create_index('ix_push_subscriptions_user', ['user_id', 'id'], unique=False)

    op.create_table('push_deliveries',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('notification_id', sa.String(length=40), nullable=False),
    sa.Column('subscription_id', sa.String(length=40), nullable=True),
    sa.Column('push_channel', sa.String(length=10), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('attempt_count', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('error', sa.String(length=500), nullable=True),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True),
    sa.Column('job_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['notification_id'], ['notifications.id'], name=op.f('fk_push_deliveries_notification_id_notifications'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['subscription_id'], ['push_subscriptions.id'], name=op.f('fk_push_deliveries_subscription_id_push_subscriptions'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_push_deliveries_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_push_deliveries')),
    sa.UniqueConstraint('notification_id', 'subscription_id', name=op.f('uq_push_deliveries_notification_id_subscription_id'))
    )
    with op.batch_alter_table('push_deliveries', schema=None) as batch_op:
        batch_op.create_index('ix_push_deliveries_due', ['status', 'next_attempt_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_push_deliveries_subscription_id'), ['subscription_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_push_deliveries_tenant_id'), ['tenant_id'], unique=False)



def downgrade():
    with op.batch_alter_table('push_deliveries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_push_deliveries_tenant_id'))
        batch_op.drop_index(batch_op.f('ix_push_deliveries_subscription_id'))
        batch_op.drop_index('ix_push_deliveries_due')

    op.drop_table('push_deliveries')
    with op.batch_alter_table('push_subscriptions', schema=None) as batch_op:
        batch_op.drop_index('ix_push_subscriptions_user')
        batch_op.drop_index(batch_op.f('ix_push_subscriptions_tenant_id'))

    op.drop_table('push_subscriptions')
