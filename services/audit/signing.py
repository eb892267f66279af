"""Documents that leave the installation, signed with its audit key: a tenant archive's
manifest (docs/tenant-archive.md, "Signature"), and the fingerprints by which another
installation tells whether the audit keys it holds are the ones that signed and sealed."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from flask import current_app

from services.audit.audit_log import sealing_key_id

SIGNATURE = "signature"
_FINGERPRINT_LABEL = b"dms-audit-key-fingerprint"


def fingerprint(secret: bytes) -> str:
    """Names a secret without giving it away: an HMAC of a fixed label under it."""
    return hmac.new(secret, _FINGERPRINT_LABEL, hashlib.sha256).hexdigest()[:32]


def fingerprints(key_ids: Iterable[str]) -> dict[str, str]:
    """key id -> fingerprint, for those of `key_ids` configured here."""
    keys = current_app.config["DMS_AUDIT_KEYS"]
    return {key_id: fingerprint(keys[key_id]) for key_id in sorted(set(key_ids)) if key_id in keys}


def matching_keys(declared: Mapping[str, str] | None, *, by_id: bool) -> dict[str, bytes]:
    """The audit keys configured here that are the ones a document declares (id and
    fingerprint); with `by_id`, also those it does not list, matched by their id alone."""
    declared = declared if isinstance(declared, Mapping) else {}
    return {
        key_id: secret
        for key_id, secret in current_app.config["DMS_AUDIT_KEYS"].items()
        if (key_id in declared and declared[key_id] == fingerprint(secret))
        or (by_id and key_id not in declared)
    }


def sign(document: dict) -> dict:
    """The signature of `document` (without its own `signature`) under the sealing key."""
    key_id = sealing_key_id()
    secret = current_app.config["DMS_AUDIT_KEYS"][key_id]
    return {"keyId": key_id, "hmac": _mac(secret, document)}


@dataclass(frozen=True)
class SignatureCheck:
    """`verified`; `forged` (a key here that should have made it did not); `unsigned`; or
    `foreign` (signed with a key not configured here, so it cannot be checked)."""

    status: str
    key_id: str | None = None


def check(document: dict, keys: Mapping[str, bytes]) -> SignatureCheck:
    signature = document.get(SIGNATURE)
    if signature is None:
        return SignatureCheck("unsigned")
    key_id = signature.get("keyId") if isinstance(signature, dict) else None
    given = signature.get("hmac") if isinstance(signature, dict) else None
    if not isinstance(key_id, str) or not isinstance(given, str):
        return SignatureCheck("forged", str(key_id))
    secret = keys.get(key_id)
    if secret is None:
        return SignatureCheck("foreign", key_id)
    ok = hmac.compare_digest(_mac(secret, document), given)
    return SignatureCheck("verified" if ok else "forged", key_id)


def _mac(secret: bytes, document: dict) -> str:
    unsigned = {k: v for k, v in document.items() if k != SIGNATURE}
    canonical = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(secret, canonical.encode(), hashlib.sha256).hexdigest()
