"""Knowledge graph: entities, their casefolded names, relationships and mentions

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-23 13:48:08.152813

entity_names holds every name and alias casefolded, for the `q` prefix search and the
mention matcher; entity_mentions one row per (entity, document) found by the mention job.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('entities',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('type', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('aliases', sa.JSON(), nullable=False),
    sa.Column('properties', sa.JSON(), nullable=False),
    sa.Column('mention_count', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_entities_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_entities'))
    )
    with op.batch_alter_table('entities', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entities_tenant_id'), ['tenant_id'], unique=False)
        batch_op.create_index('ix_entities_tenant_type', ['tenant_id', 'type', 'id'], unique=False)

    op.create_table('entity_mentions',
    sa.Column('entity_id', sa.String(length=40), nullable=False),
    sa.Column('document_id', sa.String(length=40), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('positions', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], name=op.f('fk_entity_mentions_document_id_documents'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['entity_id'], ['entities.id'], name=op.f('fk_entity_mentions_entity_id_entities'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_entity_mentions_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('entity_id', 'document_id', name=op.f('pk_entity_mentions'))
    )
    with op.batch_alter_table('entity_mentions', schema=None) as batch_op:
        batch_op.create_index('ix_entity_mentions_document', ['document_id'], unique=False)
        batch_op.create_index('ix_entity_mentions_tenant_entity', ['tenant_id', 'entity_id', 'document_id'], unique=False)

    op.create_table('entity_names',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.Column('entity_id', sa.String(length=40), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.ForeignKeyConstraint(['entity_id'], ['entities.id'], name=op.f('fk_entity_names_entity_id_entities'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_entity_names_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_entity_names')),
    sa.UniqueConstraint('entity_id', 'key', name=op.f('uq_entity_names_entity_id_key'))
    )
    with op.batch_alter_table('entity_names', schema=None) as batch_op:
        batch_op.create_index('ix_entity_names_tenant_key', ['tenant_id', 'key'], unique=False)

    op.create_table('relationships',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('type', sa.String(length=40), nullable=False),
    sa.Column('source_id', sa.String(length=40), nullable=False),
    sa.Column('target_id', sa.String(length=40), nullable=False),
    sa.Column('properties', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['source_id'], ['entities.id'], name=op.f('fk_relationships_source_id_entities'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['target_id'], ['entities.id'], name=op.f('fk_relationships_target_id_entities'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_relationships_tenant_id_tenants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_relationships')),
    sa.UniqueConstraint('tenant_id', 'type', 'source_id', 'target_id', name=op.f('uq_relationships_tenant_id_type_source_id_target_id'))
    )
    with op.batch_alter_table('relationships', schema=None) as batch_op:
        batch_op.create_index('ix_relationships_source', ['source_id'], unique=False)
        batch_op.create_index('ix_relationships_target', ['target_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_relationships_tenant_id'), ['tenant_id'], unique=False)



def downgrade():
    with op.batch_alter_table('relationships', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_relationships_tenant_id'))
        batch_op.drop_index('ix_relationships_target')
        batch_op.drop_index('ix_relationships_source')

    op.drop_table('relationships')
    with op.batch_alter_table('entity_names', schema=None) as batch_op:
        batch_op.drop_index('ix_entity_names_tenant_key')

    op.drop_table('entity_names')
    with op.batch_alter_table('entity_mentions', schema=None) as batch_op:
        batch_op.drop_index('ix_entity_mentions_tenant_entity')
        batch_op.drop_index('ix_entity_mentions_document')

    op.drop_table('entity_mentions')
    with op.batch_alter_table('entities', schema=None) as batch_op:
        batch_op.drop_index('ix_entities_tenant_type')
        batch_op.drop_index(batch_op.f('ix_entities_tenant_id'))

    op.drop_table('entities')
