"""Request bodies of passkey registration and sign-in (WebAuthn, CONTRACT §4). The credentials
inside them, the options and the passkey answered are services/passkeys/wire.py's, which the
portal's script shares."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from services.passkeys.credentials import NAME_MAX
from services.passkeys.wire import (
    AuthenticationCredentialJSON,
    ChallengeId,
    RegistrationCredentialJSON,
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class PasskeyRegistrationVerifyBody(_Body):
    challenge_id: ChallengeId = Field(alias="challengeId")
    credential: RegistrationCredentialJSON
    name: str | None = Field(
        None, min_length=1, max_length=NAME_MAX, description="A label; default 'Passkey added …'."
    )


class PasskeyAuthenticationOptionsBody(_Body):
    email: str | None = Field(
        None,
        min_length=3,
        max_length=254,
        description="Lists only this person's passkeys; leave out to let the authenticator "
        "offer its discoverable passkeys for this site.",
    )


class PasskeyAuthenticationVerifyBody(_Body):
    challenge_id: ChallengeId = Field(alias="challengeId")
    credential: AuthenticationCredentialJSON
