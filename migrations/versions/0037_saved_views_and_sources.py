"""Saved views of the documents list, and where each document came from (docs/views.md)

Revision ID: 0037
Revises: 0036
Create Date: 2026-11-28 11:00:00

- `saved_views`: a tenant's named filters, sort and columns, personal or shared;
- `documents.source`: `{"type": "api" | "portal" | "mail" | "folder" | "form" | "import", …}`;
  every existing row came in through the API or a form. Rows a form's submission made (their
  metadata names the form) become `form`, the rest `api`.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0037"
down_revision = "0036"
branch_labels = None
depends_on = None

_API = '\'{"type": "api"}\''


def upgrade() -> None:
    op.create_table(
        "saved_views",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("filters", sa.JSON(), nullable=False),
        sa.Column("sort", sa.String(length=20), nullable=False),
        sa.Column("columns", sa.JSON(), nullable=False),
        sa.Column("shared", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("owner_type", sa.String(length=16), nullable=False),
        sa.Column("owner_id", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_saved_views_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_views")),
    )
    with op.batch_alter_table("saved_views", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_saved_views_tenant_id"), ["tenant_id"], unique=False)
    with op.batch_alter_table("documents") as batch:
        batch.add_column(
            sa.Column("source", sa.JSON(), server_default=sa.text(_API), nullable=False)
        )
    # A form's submission wrote formId and submissionId into the metadata of its files.
    bind = op.get_bind()
    documents = sa.table(
        "documents",
        sa.column("id", sa.String),
        sa.column("metadata", sa.JSON),
        sa.column("source", sa.JSON),
    )
    form_id = documents.c.metadata["formId"].as_string()
    submission_id = documents.c.metadata["submissionId"].as_string()
    rows = bind.execute(
        sa.select(documents.c.id, form_id, submission_id).where(
            form_id.is_not(None), submission_id.is_not(None)
        )
    ).all()
    for ident, form, submission in rows:
        bind.execute(
            documents.update()
            .where(documents.c.id == ident)
            .values(source={"type": "form", "formId": form, "submissionId": submission})
        )


def downgrade() -> None:
    with op.batch_alter_table("documents") as batch:
        batch.drop_column("source")
    with op.batch_alter_table("saved_views", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_saved_views_tenant_id"))
    op.drop_table("saved_views")
