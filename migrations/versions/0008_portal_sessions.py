"""portal sessions, revocable on the server

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-22 23:32:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('portal_sessions',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('principal_id', sa.String(length=40), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=True),
    sa.Column('ip', sa.String(length=45), nullable=True),
    sa.Column('user_agent', sa.String(length=300), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('revoked_reason', sa.String(length=40), nullable=True),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_portal_sessions_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_portal_sessions'))
    )
    with op.batch_alter_table('portal_sessions', schema=None) as batch_op:
        batch_op.create_index('ix_portal_sessions_principal', ['principal_id', 'revoked_at'], unique=False)


def downgrade():
    with op.batch_alter_table('portal_sessions', schema=None) as batch_op:
        batch_op.drop_index('ix_portal_sessions_principal')
    op.drop_table('portal_sessions')
