"""Second factors, invitations and e-mailed notifications (docs/mfa.md, docs/accounts.md)

Revision ID: 0040
Revises: 0039
Create Date: 2026-11-28 14:00:00

- `mfa_totp`: a person's TOTP authenticator, its secret encrypted, the last step accepted.
- `mfa_recovery_codes`: keyed digests of single-use recovery codes.
- `mfa_challenges`: the `mfaToken` of a password sign-in awaiting its second factor.
- `mfa_settings`: a tenant's `requireMfa`.
- `invitations`: an admin's invitation by e-mail with a role (the token's digest only).
- `notification_settings`: whether a person's notifications are also e-mailed.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0040"
down_revision = "0039"
branch_labels = None
depends_on = None


def _tenant(table: str) -> list:
    return [
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"],
            name=op.f(f"fk_{table}_tenant_id_tenants"), ondelete="CASCADE",
        ),
    ]  # fmt: skip


def _user(table: str, **kwargs) -> list:
    return [
        sa.Column("user_id", sa.String(length=40), nullable=False, **kwargs),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"],
            name=op.f(f"fk_{table}_user_id_users"), ondelete="CASCADE",
        ),
    ]  # fmt: skip


def _tenant_index(table: str) -> None:
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.create_index(batch_op.f(f"ix_{table}_tenant_id"), ["tenant_id"], unique=False)


def upgrade() -> None:
    op.create_table(
        "mfa_totp",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("secret_encrypted", sa.Text(), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_used_step", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *_user("mfa_totp"),
        *_tenant("mfa_totp"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mfa_totp")),
        sa.UniqueConstraint("user_id", name=op.f("uq_mfa_totp_user_id")),
    )
    _tenant_index("mfa_totp")
    op.create_table(
        "mfa_recovery_codes",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("code_digest", sa.String(length=64), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *_user("mfa_recovery_codes"),
        *_tenant("mfa_recovery_codes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mfa_recovery_codes")),
    )
    _tenant_index("mfa_recovery_codes")
    with op.batch_alter_table("mfa_recovery_codes", schema=None) as batch_op:
        batch_op.create_index("ix_mfa_recovery_codes_user", ["user_id", "used_at"], unique=False)
    op.create_table(
        "mfa_challenges",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *_user("mfa_challenges"),
        *_tenant("mfa_challenges"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mfa_challenges")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_mfa_challenges_token_digest")),
    )
    _tenant_index("mfa_challenges")
    op.create_table(
        "mfa_settings",
        sa.Column("tenant_id", sa.String(length=63), nullable=False),
        sa.Column("require_mfa", sa.Boolean(), nullable=False),
        sa.Column("updated_by", sa.String(length=60), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"],
            name=op.f("fk_mfa_settings_tenant_id_tenants"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", name=op.f("pk_mfa_settings")),
    )  # fmt: skip
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("user_id", sa.String(length=40), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.String(length=60), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *_tenant("invitations"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invitations")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_invitations_token_digest")),
    )
    _tenant_index("invitations")
    with op.batch_alter_table("invitations", schema=None) as batch_op:
        batch_op.create_index("ix_invitations_tenant_email", ["tenant_id", "email"], unique=False)
    op.create_table(
        "notification_settings",
        sa.Column("email", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        *_user("notification_settings"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_notification_settings")),
    )


def downgrade() -> None:
    op.drop_table("notification_settings")
    with op.batch_alter_table("invitations", schema=None) as batch_op:
        batch_op.drop_index("ix_invitations_tenant_email")
        batch_op.drop_index(batch_op.f("ix_invitations_tenant_id"))
    op.drop_table("invitations")
    op.drop_table("mfa_settings")
    for table in ("mfa_challenges", "mfa_recovery_codes", "mfa_totp"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            if table == "mfa_recovery_codes":
                batch_op.drop_index("ix_mfa_recovery_codes_user")
            batch_op.drop_index(batch_op.f(f"ix_{table}_tenant_id"))
        op.drop_table(table)
