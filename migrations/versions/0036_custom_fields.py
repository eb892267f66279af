"""Custom fields: a tenant's typed fields and the documents' values of them

Revision ID: 0036
Revises: 0035
Create Date: 2026-11-28 09:00:00

custom_fields: names unique per tenant ignoring case (name_key, the casefolded name).
custom_field_values: one row per document and field; value_json is the value as the API shows
it, the typed columns are what customFieldQuery compares, each indexed as (tenant_id,
field_id, value, document_id) so that a condition on one field walks one index
(docs/customfields.md).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0036"
down_revision = "0035"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "custom_fields",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("name_key", sa.String(length=128), nullable=False),
        sa.Column("data_type", sa.String(length=16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.String(length=60), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_custom_fields_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_custom_fields")),
        sa.UniqueConstraint(
            "tenant_id", "name_key", name=op.f("uq_custom_fields_tenant_id_name_key")
        ),
    )
    with op.batch_alter_table("custom_fields", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_custom_fields_tenant_id"), ["tenant_id"], unique=False)

    op.create_table(
        "custom_field_values",
        sa.Column("document_id", sa.String(length=40), nullable=False),
        sa.Column("field_id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.Column("value_json", sa.Text(), nullable=False),
        sa.Column("value_text", sa.String(length=500), nullable=True),
        sa.Column("value_int", sa.BigInteger(), nullable=True),
        sa.Column("value_num", sa.Float(), nullable=True),
        sa.Column("value_date", sa.Date(), nullable=True),
        sa.Column("value_bool", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_custom_field_values_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["field_id"],
            ["custom_fields.id"],
            name=op.f("fk_custom_field_values_field_id_custom_fields"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("document_id", "field_id", name=op.f("pk_custom_field_values")),
    )
    with op.batch_alter_table("custom_field_values", schema=None) as batch_op:
        for name, column in (
            ("text", "value_text"),
            ("int", "value_int"),
            ("num", "value_num"),
            ("date", "value_date"),
        ):
            batch_op.create_index(
                f"ix_custom_field_values_{name}",
                ["tenant_id", "field_id", column, "document_id"],
                unique=False,
            )


def downgrade() -> None:
    op.drop_table("custom_field_values")
    with op.batch_alter_table("custom_fields", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_custom_fields_tenant_id"))
    op.drop_table("custom_fields")
