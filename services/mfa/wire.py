"""Second factors as they go over the wire (CONTRACT §10; camelCase): the status, TOTP set-up
and confirmation, the second step of the sign-in and the tenant's `requireMfa`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

from services.core.wire import Wire, absent, reject_null


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


class TotpCodeBody(_Body):
    """POST /me/mfa/totp/confirm and DELETE /me/mfa/totp."""

    code: str = Field(
        min_length=6,
        max_length=32,
        description="The six digits the authenticator app shows now (turning off also takes "
        "a recovery code).",
    )


class MfaLoginBody(_Body):
    """POST /login/mfa: the token of the password step and one second factor."""

    mfa_token: str = Field(min_length=8, max_length=200)
    code: str | None = Field(None, min_length=6, max_length=16, description="A TOTP code.")
    recovery_code: str | None = Field(
        None, min_length=8, max_length=32, description="One of the recovery codes (single-use)."
    )

    @model_validator(mode="after")
    def _one_factor(self) -> MfaLoginBody:
        if (self.code is None) == (self.recovery_code is None):
            raise ValueError("Send either `code` or `recoveryCode`.")
        return self


class MfaStatusOut(Wire):
    totp: bool = Field(description="TOTP is on.")
    passkeys: int = Field(description="Passkeys registered.")
    recovery_codes_left: int


class TotpSetupOut(Wire):
    secret: str = Field(description="Base32; for apps that cannot scan the URI's QR code.")
    otpauth_uri: str


class RecoveryCodesOut(Wire):
    recovery_codes: list[str] = Field(description="Ten single-use codes, shown only now.")


class MfaRequiredOut(Wire):
    mfa_token: str = Field(description="For POST /login/mfa within 5 minutes; single-use.")


class MfaSettingsOut(Wire):
    require_mfa: bool = Field(
        description="People without a second factor set one up at their next portal sign-in."
    )


class MfaSettingsPatch(_Body):
    """PATCH /mfa-settings."""

    require_mfa: bool = absent()

    @field_validator("require_mfa", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


def dump(model: type[Wire], **fields: Any) -> dict[str, Any]:
    return model.model_validate(fields).model_dump(mode="json", by_alias=True)
