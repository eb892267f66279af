"""Share links: expiring, revocable links to one document, and the tenant's switch

Revision ID: 0033
Revises: 0032
Create Date: 2026-11-28 09:00:00

`share_links` keeps only the SHA-256 of each token (unique: the public page finds a link by
it) and an Argon2 hash of its password; `sharing_settings` holds a tenant's switch (no row:
share links are on).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0033"
down_revision = "0032"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "share_links",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("document_id", sa.String(length=40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("max_downloads", sa.Integer(), nullable=True),
        sa.Column("downloads", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=60), nullable=True),
        sa.Column("last_downloaded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.String(length=60), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_share_links_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_share_links_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_share_links")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_share_links_token_digest")),
    )
    with op.batch_alter_table("share_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_share_links_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_share_links_document", ["document_id", "id"], unique=False)

    op.create_table(
        "sharing_settings",
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.Column("share_links_enabled", sa.Boolean(), nullable=False),
        sa.Column("updated_by", sa.String(length=60), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_sharing_settings_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", name=op.f("pk_sharing_settings")),
    )


def downgrade():
    op.drop_table("sharing_settings")
    with op.batch_alter_table("share_links", schema=None) as batch_op:
        batch_op.drop_index("ix_share_links_document")
        batch_op.drop_index(batch_op.f("ix_share_links_tenant_id"))
    op.drop_table("share_links")
