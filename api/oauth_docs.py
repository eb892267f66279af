"""How the OAuth endpoints are described in the OpenAPI document: form-encoded bodies and RFC
6749 answers (`error`, `error_description`), not the envelope."""

from __future__ import annotations

from typing import Any

from api.schemas.accounts import TokenOut

OAUTH_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {"type": "string", "examples": ["invalid_grant"]},
        "error_description": {"type": "string"},
    },
}


def _form(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "required": True,
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {"type": "object", "required": required, "properties": properties}
            }
        },
    }


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_STRING = {"type": "string"}
_ERRORS = {
    "400": _json(OAUTH_ERROR, "RFC 6749 §5.2 error (invalid_request, invalid_grant, ...)."),
    "401": _json(OAUTH_ERROR, "invalid_client: the client failed to authenticate."),
}

TOKEN = {
    "requestBody": _form(
        {
            "grant_type": {"type": "string", "enum": ["authorization_code", "refresh_token"]},
            "code": _STRING,
            "redirect_uri": _STRING,
            "client_id": _STRING,
            "client_secret": {**_STRING, "description": "Confidential clients (or Basic auth)."},
            "code_verifier": {"type": "string", "pattern": "^[A-Za-z0-9._~-]{43,128}$"},
            "refresh_token": _STRING,
        },
        ["grant_type"],
    ),
    "responses": {
        "200": _json(TokenOut.model_json_schema(), "The tokens (RFC 6749 §5.1)."),
        **_ERRORS,
    },
}

REVOKE = {
    "requestBody": _form(
        {
            "token": _STRING,
            "token_type_hint": {"type": "string", "enum": ["refresh_token", "access_token"]},
            "client_id": _STRING,
            "client_secret": _STRING,
        },
        ["token"],
    ),
    "responses": {"200": _json({"type": "object"}, "Revoked (or unknown: RFC 7009)."), **_ERRORS},
}

METADATA = {
    "responses": {"200": _json({"type": "object"}, "RFC 8414 authorization server metadata.")}
}

_HTML = {"text/html": {"schema": {"type": "string"}}}
AUTHORIZE = {
    "parameters": [
        {"name": name, "in": "query", "required": name != "state", "schema": schema}
        for name, schema in (
            ("response_type", {"type": "string", "enum": ["code"]}),
            ("client_id", _STRING),
            ("redirect_uri", _STRING),
            ("scope", {**_STRING, "description": "Space-separated scopes."}),
            ("code_challenge", {"type": "string", "pattern": "^[A-Za-z0-9._~-]{43,128}$"}),
            ("code_challenge_method", {"type": "string", "enum": ["S256"]}),
            ("state", _STRING),
        )
    ],
    "responses": {
        "200": {"description": "The sign-in or consent page.", "content": _HTML},
        "302": {"description": "Back to the app's redirect URI with `code` (or `error`) and "
                "`state`, or to the sign-in page."},
        "400": {"description": "An unknown app or unregistered redirect URI (never redirected),"
                " or a refused form.", "content": _HTML},
        "403": {"description": "The app belongs to another workspace.", "content": _HTML},
    },
}  # fmt: skip
