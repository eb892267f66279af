"""Passages: each document's extracted text cut into 200-400 word pieces with their
character offsets

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-23 13:52:11.032650

Texts extracted before this revision get their passages from `flask documents passages`
(or the next extraction of the document).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('passages',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('document_id', sa.String(length=40), nullable=False),
    sa.Column('version_number', sa.Integer(), nullable=True),
    sa.Column('ordinal', sa.Integer(), nullable=False),
    sa.Column('start_char', sa.Integer(), nullable=False),
    sa.Column('end_char', sa.Integer(), nullable=False),
    sa.Column('word_count', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], name=op.f('fk_passages_document_id_documents'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_passages_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_passages')),
    sa.UniqueConstraint('document_id', 'ordinal', name=op.f('uq_passages_document_id_ordinal'))
    )
    with op.batch_alter_table('passages', schema=None) as batch_op:
        batch_op.create_index('ix_passages_tenant_document', ['tenant_id', 'document_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_passages_tenant_id'), ['tenant_id'], unique=False)



def downgrade():
    with op.batch_alter_table('passages', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_passages_tenant_id'))
        batch_op.drop_index('ix_passages_tenant_document')

    op.drop_table('passages')
