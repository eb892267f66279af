"""document texts and the full-text search index

PostgreSQL: a tsvector column on document_texts under a GIN index.
SQLite: an FTS5 virtual table, document_search (porter stemming over unicode61).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 04:00:00

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('document_texts',
    sa.Column('document_id', sa.String(length=40), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('version_number', sa.Integer(), nullable=True),
    sa.Column('job_id', sa.String(length=60), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('error', sa.String(length=300), nullable=True),
    sa.Column('enqueued_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], name=op.f('fk_document_texts_document_id_documents'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_document_texts_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('document_id', name=op.f('pk_document_texts'))
    )
    with op.batch_alter_table('document_texts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_document_texts_tenant_id'), ['tenant_id'], unique=False)

    if op.get_bind().dialect.name == 'postgresql':
        op.add_column('document_texts', sa.Column('search_vector', postgresql.TSVECTOR(), nullable=True))
        op.create_index('ix_document_texts_search_vector', 'document_texts', ['search_vector'], postgresql_using='gin')
        # Ranking reads a small vector (title, tags, metadata, the lead of the text) kept
        # inline in the row, so ranking thousands of matches never detoasts the full vector.
        op.add_column('document_texts', sa.Column('rank_vector', postgresql.TSVECTOR(), nullable=True))
        op.execute("ALTER TABLE document_texts ALTER COLUMN rank_vector SET STORAGE MAIN")
    else:
        # rowid is derived from the document id (services/search/fts5_rows.rowid).
        op.execute(
            "CREATE VIRTUAL TABLE document_search USING fts5("
            "title, keywords, body, document_id UNINDEXED, tenant_id UNINDEXED, "
            "tokenize = 'porter unicode61 remove_diacritics 2')"
        )


def downgrade():
    if op.get_bind().dialect.name == 'postgresql':
        op.drop_index('ix_document_texts_search_vector', table_name='document_texts')
    else:
        op.execute("DROP TABLE IF EXISTS document_search")
    with op.batch_alter_table('document_texts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_document_texts_tenant_id'))

    op.drop_table('document_texts')
