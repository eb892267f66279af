"""A small software authenticator for tests: an EC P-256 key (`cryptography`), its COSE form
and a "none" attestation (`cbor2`), and assertions signed with ECDSA over authenticatorData +
SHA-256(clientDataJSON), as a browser and a platform authenticator would produce them.

`create(options)` and `get(options)` take the `publicKey` options the server sent and answer
with the JSON a browser's `PublicKeyCredential.toJSON()` gives; keyword arguments forge what
a test needs forged (origin, RP id, challenge, counter)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40  # flags: user present, user verified, attested data follows
AAGUID = bytes(16)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftwareAuthenticator:
    def __init__(
        self,
        origin: str = "http://localhost:5000",
        *,
        uses_counter: bool = True,
        user_verified: bool = True,
    ) -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.sign_count = 0
        self.uses_counter = uses_counter
        self.user_verified = user_verified
        self.user_handle: bytes | None = None

    @property
    def id(self) -> str:
        return b64url(self.credential_id)

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,  # kty: EC2
                3: -7,  # alg: ES256
                -1: 1,  # crv: P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def _auth_data(self, rp_id: str, counter: int, attested: bool) -> bytes:
        flags = UP | (UV if self.user_verified else 0) | (AT if attested else 0)
        data = hashlib.sha256(rp_id.encode()).digest() + bytes([flags])
        data += struct.pack(">I", counter)
        if attested:
            data += AAGUID + struct.pack(">H", len(self.credential_id)) + self.credential_id
            data += self.cose_key()
        return data

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        body = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**body, "crossOrigin": False}).encode()

    def create(
        self,
        options: dict,
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        challenge: str | None = None,
    ) -> dict:
        """The answer of navigator.credentials.create() to these options."""
        self.user_handle = unb64url(options["user"]["id"])
        client_data = self._client_data(
            "webauthn.create", challenge or options["challenge"], origin
        )
        auth_data = self._auth_data(rp_id or options["rp"]["id"], self.sign_count, True)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal", "hybrid"],
            },
        }

    def get(
        self,
        options: dict,
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        challenge: str | None = None,
        counter: int | None = None,
    ) -> dict:
        """The answer of navigator.credentials.get(): the counter moves on unless given."""
        if counter is None:
            if self.uses_counter:
                self.sign_count += 1
            counter = self.sign_count
        client_data = self._client_data("webauthn.get", challenge or options["challenge"], origin)
        auth_data = self._auth_data(rp_id or options["rpId"], counter, False)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(self.user_handle) if self.user_handle else None,
            },
        }
