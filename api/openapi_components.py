"""The fixed parts of the OpenAPI document: the envelope and error responses, the rate-limit
headers, the security schemes (API key bearer, OAuth 2.0 authorization code with PKCE), the
Idempotency-Key parameter, binary downloads and the document's introduction."""

from __future__ import annotations

from typing import Any

from models import SCOPES
from services.core.idempotency import MAX_KEY_LENGTH
from services.lifecycle import deprecations

RATE_LIMIT_HEADERS = {
    "X-RateLimit-Limit": "The hourly quota in force for this caller.",
    "X-RateLimit-Remaining": "Requests left: the smallest remainder of the caller's windows.",
    "X-RateLimit-Reset": "Unix time at which that remainder next grows.",
    "X-Request-Id": "This request's id (echoed when the caller sent a safe one).",
}

ERRORS = {
    400: "Invalid parameter, cursor or tenant (INVALID_PARAMETER, INVALID_CURSOR, "
    "CURSOR_EXPIRED, TENANT_REQUIRED).",
    401: "Missing, invalid or revoked credential.",
    403: "Tenant mismatch, IP not allowed, or a missing scope.",
    404: "No such resource in this tenant.",
    409: "Conflict with the resource's state, an Idempotency-Key still in use, or NOT_READY: "
    "a derived resource (a thumbnail) is still being made (see Retry-After).",
    410: "ENDPOINT_SUNSET: the endpoint is past its sunset date.",
    413: "PAYLOAD_TOO_LARGE.",
    414: "URI_TOO_LONG: the path and query are over 16 KiB.",
    415: "UNSUPPORTED_MEDIA_TYPE.",
    422: "VALIDATION_ERROR: one error object per bad field.",
    429: "RATE_LIMIT_EXCEEDED: wait Retry-After seconds.",
    431: "HEADERS_TOO_LARGE: over 100 headers, one over 8 KiB, or 32 KiB in all.",
    500: "INTERNAL_ERROR (carries the request id).",
    503: "SERVICE_UNAVAILABLE: a dependency is down; retry shortly.",
}

SECURITY_SCHEMES: dict[str, Any] = {
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "An API key (`dms_…`) or an OAuth access token.",
    },
    "tenantId": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Tenant-Id",
        "description": "The tenant (optional with an OAuth access token, which names it).",
    },
    "oauth2": {
        "type": "oauth2",
        "description": "Authorization code with PKCE (S256 only; `plain` is refused). "
        "Register the app under OAuth apps in the portal; see docs/oauth.md.",
        "flows": {
            "authorizationCode": {
                "authorizationUrl": "/oauth/authorize",
                "tokenUrl": "/oauth/token",
                "refreshUrl": "/oauth/token",
                "scopes": dict(SCOPES),
            }
        },
    },
}

IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Makes the request safe to retry for 24 hours: the same key and request "
    "replay the stored response (`Idempotent-Replayed: true`); the same key with another "
    "request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409. Use a fresh "
    "random value (a UUID) per intended change.",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH,
               "pattern": "^[\\x21-\\x7e]+$"},
}  # fmt: skip


def headers_ref() -> dict[str, Any]:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS}


def binary_responses() -> dict[str, Any]:
    """A download: the stored bytes with the type sniffed at upload, ETag and Range."""
    binary = {"*/*": {"schema": {"type": "string", "format": "binary"}}}
    return {
        "200": {
            "description": "The content; `Content-Type` is the type read from the bytes.",
            "headers": headers_ref(),
            "content": binary,
        },
        "206": {
            "description": "The requested byte range (`Range: bytes=…`).",
            "headers": headers_ref(),
            "content": binary,
        },
        "304": {"description": "Not modified (`If-None-Match` matched the ETag)."},
    }


def error_responses() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for status, text in ERRORS.items():
        headers = headers_ref()
        if status in (429, 503):
            headers["Retry-After"] = {
                "description": "Seconds to wait before retrying.",
                "required": True,
                "schema": {"type": "string", "pattern": "^[0-9]+$"},
            }
        if status == 409:  # NOT_READY says when to ask again
            headers["Retry-After"] = {
                "description": "With NOT_READY: seconds to wait before asking again.",
                "required": False,
                "schema": {"type": "string", "pattern": "^[0-9]+$"},
            }
        if status == 401:
            headers["WWW-Authenticate"] = {"required": True, "schema": {"type": "string"}}
        out[f"E{status}"] = {
            "description": text,
            "headers": headers,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}
            },
        }
    return out


BASE_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {"type": "string", "examples": ["RATE_LIMIT_EXCEEDED"]},
            "message": {"type": "string"},
            "field": {"type": "string"},
        },
    },
    "ErrorEnvelope": {
        "type": "object",
        "required": ["success", "errors"],
        "properties": {
            "success": {"const": False},
            "errors": {
                "type": "array",
                "minItems": 1,
                "items": {"$ref": "#/components/schemas/Error"},
            },
        },
        "examples": [
            {
                "success": False,
                "errors": [
                    {"code": "NOT_FOUND", "message": "No such document."},
                ],
            }
        ],
    },
    "Pagination": {
        "type": "object",
        "required": ["limit", "hasMore"],
        "properties": {
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 720,
                "description": "The page size: the `limit` asked for (1-200, or the "
                "operation's default); for a series answered whole (`GET "
                "/api/v1/analytics/usage`), its number of points (up to 720).",
            },
            "hasMore": {"type": "boolean"},
            "nextCursor": {"type": "string"},
        },
    },
    "ListMeta": {
        "type": "object",
        "required": ["pagination"],
        "properties": {"pagination": {"$ref": "#/components/schemas/Pagination"}},
    },
    "Meta": {"type": "object", "description": "Facts about the response beside its data."},
}


def info() -> dict[str, Any]:
    changelog = "\n".join(
        f"- **{day} ({label})**: " + " ".join(changes)
        for day, label, changes in deprecations.CHANGELOG
    )
    sunsets = "\n".join(
        f"- `{d.label}`: deprecated {d.deprecated_at}, sunset {d.sunset}; use "
        f"`{d.replacement}` ([migration guide]({d.guide}))"
        for d in deprecations.REGISTRY
    )
    return {
        "title": "Document Management Service API",
        "version": "v1",
        "description": (
            "Every request sends `Authorization: Bearer <API key>` and `X-Tenant-Id` (or an "
            "OAuth access token, which names its tenant). Every response uses the envelope "
            "and carries the X-RateLimit-* headers.\n\n"
            "Operations are named verb + noun in camelCase (`listDocuments`, "
            "`uploadDocument`), tagged by capability, so generated clients read well; a "
            "Python client generated from this document ships in `clients/python/`.\n\n"
            "## Stability tiers\n- GA `/api/v1/*`: 18-month deprecation notice.\n"
            "- Beta `/api/v1/beta/*`: stable 30 days at a time (header `X-API-Tier`).\n"
            "- Internal `/internal/*`: not for customers.\n\n"
            f"## Deprecations\n{sunsets}\n\n## Changelog\n{changelog}\n"
        ),
    }
