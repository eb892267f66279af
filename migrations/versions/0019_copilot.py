"""The copilot: conversations, their messages with citations, questions counted per tenant
and month, and an Enterprise tenant's own monthly number

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-23 14:16:04.647945

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('copilot_conversations',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('owner_type', sa.String(length=10), nullable=False),
    sa.Column('owner_id', sa.String(length=60), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('document_ids', sa.JSON(), nullable=False),
    sa.Column('message_count', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_copilot_conversations_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_copilot_conversations'))
    )
    with op.batch_alter_table('copilot_conversations', schema=None) as batch_op:
        batch_op.create_index('ix_copilot_conversations_owner', ['tenant_id', 'owner_id', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_copilot_conversations_tenant_id'), ['tenant_id'], unique=False)

    op.create_table('copilot_usage',
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.Column('month', sa.String(length=7), nullable=False),
    sa.Column('messages', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_copilot_usage_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('tenant_id', 'month', name=op.f('pk_copilot_usage'))
    )
    op.create_table('copilot_messages',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('conversation_id', sa.String(length=40), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('role', sa.String(length=10), nullable=False),
    sa.Column('content', sa.Text(), nullable=False),
    sa.Column('citations', sa.JSON(), nullable=False),
    sa.Column('generator', sa.String(length=20), nullable=True),
    sa.Column('generator_error', sa.String(length=300), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['conversation_id'], ['copilot_conversations.id'], name=op.f('fk_copilot_messages_conversation_id_copilot_conversations'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_copilot_messages_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_copilot_messages')),
    sa.UniqueConstraint('conversation_id', 'position', name=op.f('uq_copilot_messages_conversation_id_position'))
    )
    with op.batch_alter_table('copilot_messages', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_copilot_messages_tenant_id'), ['tenant_id'], unique=False)

    with op.batch_alter_table('tenants', schema=None) as batch_op:
        batch_op.add_column(sa.Column('copilot_monthly_messages', sa.Integer(), nullable=True))



def downgrade():
    with op.batch_alter_table('tenants', schema=None) as batch_op:
        batch_op.drop_column('copilot_monthly_messages')

    with op.batch_alter_table('copilot_messages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_copilot_messages_tenant_id'))

    op.drop_table('copilot_messages')
    op.drop_table('copilot_usage')
    with op.batch_alter_table('copilot_conversations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_copilot_conversations_tenant_id'))
        batch_op.drop_index('ix_copilot_conversations_owner')

    op.drop_table('copilot_conversations')
