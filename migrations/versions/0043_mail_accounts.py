"""Mail accounts: a tenant's IMAP mailboxes polled for documents, and the messages taken

Revision ID: 0043
Revises: 0042
Create Date: 2026-11-28 14:00:00

`mail_accounts` keeps the password encrypted (like webhook secrets) and each account's poll
state; `mail_messages` records each message taken (unique Message-ID digest per account) in
the same transaction as its documents, with the after-import action still to do.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0043"
down_revision = "0042"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "mail_accounts",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("imap_host", sa.String(length=255), nullable=False),
        sa.Column("imap_port", sa.Integer(), nullable=False),
        sa.Column("security", sa.String(length=10), nullable=False),
        sa.Column("username", sa.String(length=320), nullable=False),
        sa.Column("password_encrypted", sa.Text(), nullable=False),
        sa.Column("folder", sa.String(length=255), nullable=False),
        sa.Column("poll_minutes", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("uid_validity", sa.BigInteger(), nullable=True),
        sa.Column("last_uid", sa.BigInteger(), nullable=False),
        sa.Column("last_polled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("last_error_code", sa.String(length=40), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("next_poll_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.String(length=60), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_mail_accounts_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_accounts")),
    )
    with op.batch_alter_table("mail_accounts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_mail_accounts_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index("ix_mail_accounts_due", ["enabled", "next_poll_at"], unique=False)

    op.create_table(
        "mail_messages",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("account_id", sa.String(length=40), nullable=False),
        sa.Column("message_key", sa.String(length=64), nullable=False),
        sa.Column("message_id", sa.String(length=500), nullable=False),
        sa.Column("uid", sa.BigInteger(), nullable=False),
        sa.Column("uid_validity", sa.BigInteger(), nullable=True),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("parts", sa.JSON(), nullable=False),
        sa.Column("pending_action", sa.String(length=20), nullable=True),
        sa.Column("move_to", sa.String(length=255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["mail_accounts.id"],
            name=op.f("fk_mail_messages_account_id_mail_accounts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_mail_messages_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_messages")),
        sa.UniqueConstraint("account_id", "message_key", name="uq_mail_messages_account_key"),
    )
    with op.batch_alter_table("mail_messages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_mail_messages_tenant_id"), ["tenant_id"], unique=False)
        batch_op.create_index(
            "ix_mail_messages_pending", ["account_id", "pending_action"], unique=False
        )


def downgrade():
    with op.batch_alter_table("mail_messages", schema=None) as batch_op:
        batch_op.drop_index("ix_mail_messages_pending")
        batch_op.drop_index(batch_op.f("ix_mail_messages_tenant_id"))
    op.drop_table("mail_messages")
    with op.batch_alter_table("mail_accounts", schema=None) as batch_op:
        batch_op.drop_index("ix_mail_accounts_due")
        batch_op.drop_index(batch_op.f("ix_mail_accounts_tenant_id"))
    op.drop_table("mail_accounts")
