"""The OAuth endpoints machines call (CONTRACT §4 and §9): /oauth/token (authorization code
with PKCE, refresh), /oauth/revoke (RFC 7009) and the RFC 8414 metadata. They answer plain RFC
6749 JSON (`error`, `error_description`), not the envelope. The page a person sees,
/oauth/authorize, is the portal's (portal/oauth.py)."""

from __future__ import annotations

from flask import Blueprint, Flask, g, jsonify, request, url_for

import tenancy
from api import oauth_docs
from api.openapi_rules import operation
from api.validation import operation_documented
from models import SCOPES
from services.core.transaction import transactional
from services.oauth import server as oauth_server

bp = Blueprint("oauth", __name__)


def _for_this_host() -> None:
    host = tenancy.host_tenant()
    g.oauth_host_tenant = host.id if host is not None else None


def _invalid_request():
    # authlib cannot word an error about a parameter holding characters it refuses to echo
    # (a grant_type of control characters raises ValueError): still invalid_request.
    body = {"error": "invalid_request", "error_description": "A parameter holds characters "
            "that are not allowed."}  # fmt: skip
    return jsonify(body), 400, {"Cache-Control": "no-store"}


@bp.post("/oauth/token")
@operation_documented(oauth_docs.TOKEN)
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
@operation_documented(oauth_docs.REVOKE)
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
@operation_documented(oauth_docs.METADATA)
@operation("getOauthServerMetadata")
def metadata():
    """RFC 8414: where the endpoints are and what this server supports (S256 only)."""
    issuer = request.host_url.rstrip("/")
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


def init_app(app: Flask) -> None:
    oauth_server.init_app(app)
    app.register_blueprint(bp)
