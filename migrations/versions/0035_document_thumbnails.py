"""thumbnails: each document's WebP thumbnail and the record of the job that makes it

Revision ID: 0035
Revises: 0034
Create Date: 2026-11-28 10:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0035"
down_revision = "0034"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'document_thumbnails',
        sa.Column('document_id', sa.String(length=40), nullable=False),
        sa.Column('tenant_id', sa.String(length=63), nullable=False),
        sa.Column('version_number', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=True),
        sa.Column('image', sa.LargeBinary(), nullable=True),
        sa.Column('etag', sa.String(length=64), nullable=True),
        sa.Column('width', sa.Integer(), nullable=True),
        sa.Column('height', sa.Integer(), nullable=True),
        sa.Column('error', sa.String(length=300), nullable=True),
        sa.Column('job_id', sa.String(length=100), nullable=True),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('enqueued_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('document_id'),
    )
    with op.batch_alter_table('document_thumbnails', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_document_thumbnails_tenant_id'), ['tenant_id'], unique=False)


def downgrade():
    with op.batch_alter_table('document_thumbnails', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_document_thumbnails_tenant_id'))
    op.drop_table('document_thumbnails')
