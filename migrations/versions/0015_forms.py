"""eForms: forms, their live versions' schemas and submissions

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-23 10:52:20.088624

A form's current schema is on the form; each version that went live keeps its schema in
form_versions, so a submission is always read against the schema it answered.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('forms',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('description', sa.String(length=2000), nullable=True),
    sa.Column('schema', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('workflow_definition_id', sa.String(length=40), nullable=True),
    sa.Column('public', sa.Boolean(), nullable=False),
    sa.Column('created_by', sa.String(length=60), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_forms_tenant_id_tenants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['workflow_definition_id'], ['workflow_definitions.id'], name=op.f('fk_forms_workflow_definition_id_workflow_definitions'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_forms'))
    )
    with op.batch_alter_table('forms', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_forms_tenant_id'), ['tenant_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_forms_workflow_definition_id'), ['workflow_definition_id'], unique=False)

    op.create_table('form_submissions',
    sa.Column('id', sa.String(length=40), nullable=False),
    sa.Column('form_id', sa.String(length=40), nullable=False),
    sa.Column('form_version', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('submitted_by', sa.String(length=60), nullable=False),
    sa.Column('document_ids', sa.JSON(), nullable=False),
    sa.Column('workflow_instance_id', sa.String(length=40), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tenant_id', sa.String(length=63), nullable=False),
    sa.ForeignKeyConstraint(['form_id'], ['forms.id'], name=op.f('fk_form_submissions_form_id_forms'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_form_submissions_tenant_id_tenants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['workflow_instance_id'], ['workflow_instances.id'], name=op.f('fk_form_submissions_workflow_instance_id_workflow_instances'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_form_submissions'))
    )
    with op.batch_alter_table('form_submissions', schema=None) as batch_op:
        batch_op.create_index('ix_form_submissions_form', ['form_id', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_form_submissions_tenant_id'), ['tenant_id'], unique=False)

    op.create_table('form_versions',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('form_id', sa.String(length=40), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('schema', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['form_id'], ['forms.id'], name=op.f('fk_form_versions_form_id_forms'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_form_versions')),
    sa.UniqueConstraint('form_id', 'version', name=op.f('uq_form_versions_form_id_version'))
    )


def downgrade():
    op.drop_table('form_versions')
    with op.batch_alter_table('form_submissions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_form_submissions_tenant_id'))
        batch_op.drop_index('ix_form_submissions_form')

    op.drop_table('form_submissions')
    with op.batch_alter_table('forms', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_forms_workflow_definition_id'))
        batch_op.drop_index(batch_op.f('ix_forms_tenant_id'))

    op.drop_table('forms')
