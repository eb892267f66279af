"""Passkeys' wire shapes, both ways, one pydantic model each: the credentials browsers send
(`PublicKeyCredential.toJSON()`, binary fields base64url; shared by the API and the portal's
script), the API's registration and sign-in bodies that carry them (WebAuthn, CONTRACT §4),
the options answered and the passkey as we show it (its key and counter stay on the server).
The models validate the requests and describe them in OpenAPI."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AliasGenerator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
)
from pydantic.alias_generators import to_camel

from models import Passkey
from services.core.wire import Timestamp
from services.passkeys.credentials import NAME_MAX

# --- requests ----------------------------------------------------------------------------------


_BASE64URL = re.compile(r"^[A-Za-z0-9_-]*={0,2}$")


def _is_base64url(value: str) -> str:
    if not _BASE64URL.match(value):
        raise ValueError("not base64url (A-Z a-z 0-9 - _)")
    return value


def _b64url(max_length: int, min_length: int = 1) -> Any:
    # Checked by a validator rather than a schema `pattern`: fuzzers choke on a pattern
    # folded with a length of tens of thousands of characters.
    return Annotated[
        str,
        StringConstraints(min_length=min_length, max_length=max_length),
        AfterValidator(_is_base64url),
        WithJsonSchema(
            {
                "type": "string",
                "minLength": min_length,
                "maxLength": max_length,
                "description": "base64url, without padding as browsers send it",
            }
        ),
    ]


CredentialId = _b64url(1400)
ClientData = _b64url(16_384)
AuthenticatorData = _b64url(16_384)
AttestationObject = _b64url(65_536)  # room for attestation certificates
Signature = _b64url(2048)
UserHandle = _b64url(128, 0)
ChallengeId = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Attachment = Literal["platform", "cross-platform"]


class _Browser(BaseModel):
    # Browsers add fields over the years (publicKey, publicKeyAlgorithm, ...): ignored.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    def browser_json(self) -> dict[str, Any]:
        """In the browser's own field names, as py_webauthn reads it."""
        return self.model_dump(by_alias=True, exclude_none=True)


class AttestationResponseJSON(_Browser):
    client_data_json: ClientData = Field(alias="clientDataJSON")
    attestation_object: AttestationObject = Field(alias="attestationObject")
    transports: list[Annotated[str, StringConstraints(max_length=32)]] = Field(
        default_factory=list, max_length=10
    )


class RegistrationCredentialJSON(_Browser):
    """What navigator.credentials.create() resolved to, as JSON."""

    id: CredentialId
    raw_id: CredentialId = Field(alias="rawId")
    type: Literal["public-key"]
    response: AttestationResponseJSON
    authenticator_attachment: Attachment | None = Field(None, alias="authenticatorAttachment")


class AssertionResponseJSON(_Browser):
    client_data_json: ClientData = Field(alias="clientDataJSON")
    authenticator_data: AuthenticatorData = Field(alias="authenticatorData")
    signature: Signature
    user_handle: UserHandle | None = Field(None, alias="userHandle")


class AuthenticationCredentialJSON(_Browser):
    """What navigator.credentials.get() resolved to, as JSON."""

    id: CredentialId
    raw_id: CredentialId = Field(alias="rawId")
    type: Literal["public-key"]
    response: AssertionResponseJSON
    authenticator_attachment: Attachment | None = Field(None, alias="authenticatorAttachment")


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


# --- responses ---------------------------------------------------------------------------------


class PasskeyOptionsOut(BaseModel):
    """Options for the browser, and the id of the server-side challenge they carry."""

    challengeId: str = Field(description="Send back to verify; single use, valid 5 minutes.")
    publicKey: dict[str, Any] = Field(
        description="PublicKeyCredentialCreationOptionsJSON (registration) or "
        "PublicKeyCredentialRequestOptionsJSON (authentication): give it to "
        "PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON."
    )


class PasskeyOut(BaseModel):
    model_config = ConfigDict(
        from_attributes=True, alias_generator=AliasGenerator(serialization_alias=to_camel)
    )

    id: str
    name: str
    transports: list[str]
    created_at: Timestamp
    last_used_at: Timestamp | None


def passkey_json(passkey: Passkey) -> dict[str, Any]:
    return PasskeyOut.model_validate(passkey).model_dump(by_alias=True)
