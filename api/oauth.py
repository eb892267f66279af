"""The OAuth endpoints machines call (CONTRACT §4 and §9): /oauth/token (authorization code
with PKCE, refresh), /oauth/revoke (RFC 7009) and the RFC 8414 metadata. They answer plain RFC
6749 JSON (`error`, `error_description`), not the envelope, and the OpenAPI document describes
them so (form-encoded bodies, RFC 6749 answers). The page a person sees, /oauth/authorize, is
the portal's (portal/oauth.py)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, g, jsonify, request, url_for

import tenancy
from api.openapi_rules import operation
from api.validation import operation_documented
from models import SCOPES
from services.accounts import tokens as access_tokens
from services.accounts.wire import TokenOut
from services.core.transaction import transactional
from services.oauth import server as oauth_server

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


bp = Blueprint("oauth", __name__)


def _for_this_host() -> None:
    """What the authorization server needs of the request's host: the tenant it names (an
    app serves only its own) and the issuer of the tokens it issues and revokes."""
    host = tenancy.host_tenant()
    g.oauth_host_tenant = host.id if host is not None else None
    g.oauth_issuer = access_tokens.issuer(request.host_url)


def _invalid_request():
    # authlib cannot word an error about a parameter holding characters it refuses to echo
    # (a grant_type of control characters raises ValueError): still invalid_request.
    body = {"error": "invalid_request", "error_description": "A parameter holds characters "
            "that are not allowed."}  # fmt: skip
    return jsonify(body), 400, {"Cache-Control": "no-store"}


@bp.post("/oauth/token")
@operation_documented(TOKEN)
@transactional  # a refused reuse still commits the family it revoked
@operation("issueOauthToken")
def token():
    """authorization_code (with code_verifier) or refresh_token; form-encoded."""
    _for_this_host()
    try:
        return oauth_server.server().create_token_response()
    except ValueError:
        return _invalid_request()


@bp.post("/oauth/revoke")
@operation_documented(REVOKE)
@transactional
@operation("revokeOauthToken")
def revoke():
    """RFC 7009: revokes the token's whole family; 200 for unknown tokens too."""
    _for_this_host()
    try:
        return oauth_server.server().create_endpoint_response("revocation")
    except ValueError:
        return _invalid_request()


@bp.get("/.well-known/oauth-authorization-server")
@operation_documented(METADATA)
@operation("getOauthServerMetadata")
def metadata():
    """RFC 8414: where the endpoints are and what this server supports (S256 only)."""
    issuer = access_tokens.issuer(request.host_url)  # also every access token's `iss`
    return jsonify(
        {
            "issuer": issuer,
            "authorization_endpoint": url_for("portal.oauth_authorize", _external=True),
            "token_endpoint": url_for("oauth.token", _external=True),
            "revocation_endpoint": url_for("oauth.revoke", _external=True),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": [
                "client_secret_basic", "client_secret_post", "none",
            ],
            "revocation_endpoint_auth_methods_supported": [
                "client_secret_basic", "client_secret_post", "none",
            ],
            "scopes_supported": sorted(SCOPES),
            "service_documentation": url_for("docs.reference", _external=True),
        }
    )  # fmt: skip


def mount(app: Flask) -> None:
    oauth_server.init_app(app)
    app.register_blueprint(bp)
