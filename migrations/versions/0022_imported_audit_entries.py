"""Imported audit entries: a tenant's chain as sealed by the installation it came from

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-23 14:17:47.198579

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('imported_audit_entries',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('import_id', sa.String(length=40), nullable=False),
    sa.Column('entry_id', sa.String(length=40), nullable=False),
    sa.Column('source_tenant_id', sa.String(length=63), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('actor_type', sa.String(length=20), nullable=False),
    sa.Column('actor_id', sa.String(length=60), nullable=True),
    sa.Column('actor_label', sa.String(length=254), nullable=True),
    sa.Column('action', sa.String(length=60), nullable=False),
    sa.Column('target_type', sa.String(length=40), nullable=True),
    sa.Column('target_id', sa.String(length=60), nullable=True),
    sa.Column('ip', sa.String(length=45), nullable=True),
    sa.Column('user_agent', sa.String(length=300), nullable=True),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('prev_hash', sa.String(length=64), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.Column('key_id', sa.String(length=40), nullable=True),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_imported_audit_entries_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_imported_audit_entries')),
    sa.UniqueConstraint('tenant_id', 'import_id', 'seq', name=op.f('uq_imported_audit_entries_tenant_id_import_id_seq'))
    )
    with op.batch_alter_table('imported_audit_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_imported_audit_entries_import_id'), ['import_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_imported_audit_entries_tenant_id'), ['tenant_id'], unique=False)



def downgrade():
    with op.batch_alter_table('imported_audit_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_imported_audit_entries_tenant_id'))
        batch_op.drop_index(batch_op.f('ix_imported_audit_entries_import_id'))

    op.drop_table('imported_audit_entries')
