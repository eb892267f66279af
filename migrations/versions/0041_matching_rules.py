"""Matching rules and each tenant's tag classifier (docs/matching.md)

Revision ID: 0041
Revises: 0040
Create Date: 2026-11-28 14:00:00

- `matching_rules`: one row per rule (`mrl_…`): what it looks for, in which field, and
  what it does, run in `order` after each extraction.
- `tag_classifiers`: one row per tenant, its fitted tag classifier (an .npz archive).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0041"
down_revision = "0040"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matching_rules",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("enabled", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("order", sa.Integer(), nullable=False),
        sa.Column("algorithm", sa.String(length=10), nullable=False),
        sa.Column("pattern", sa.String(length=1000), nullable=False),
        sa.Column("case_sensitive", sa.Boolean(), nullable=False),
        sa.Column("match_in", sa.String(length=10), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"],
            name=op.f("fk_matching_rules_tenant_id_tenants"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matching_rules")),
    )  # fmt: skip
    with op.batch_alter_table("matching_rules", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_matching_rules_tenant_id"), ["tenant_id"], unique=False
        )
        batch_op.create_index(
            "ix_matching_rules_tenant_order", ["tenant_id", "order", "id"], unique=False
        )
    op.create_table(
        "tag_classifiers",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column("model", sa.LargeBinary(), nullable=False),
        sa.Column("documents", sa.Integer(), nullable=False),
        sa.Column("trained_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("trained_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"],
            name=op.f("fk_tag_classifiers_tenant_id_tenants"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tag_classifiers")),
        sa.UniqueConstraint("tenant_id", name=op.f("uq_tag_classifiers_tenant_id")),
    )  # fmt: skip
    with op.batch_alter_table("tag_classifiers", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tag_classifiers_tenant_id"), ["tenant_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tag_classifiers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tag_classifiers_tenant_id"))
    op.drop_table("tag_classifiers")
    with op.batch_alter_table("matching_rules", schema=None) as batch_op:
        batch_op.drop_index("ix_matching_rules_tenant_order")
        batch_op.drop_index(batch_op.f("ix_matching_rules_tenant_id"))
    op.drop_table("matching_rules")
