"""The rules that make the document generate a readable SDK (docs/sdk.md), checked over every
operation, those of capabilities still landing included: a unique camelCase verb + noun
operationId, a capability tag, a summary and a description, a request body wherever one is
taken, a modelled success, and a retired catch-all listed once."""

from __future__ import annotations

import re

import pytest

from api.openapi import PAGES
from api.openapi_rules import OPERATION_ID_RE, VERBS, camel_case, humanize, tag_of

BODY_METHODS = {"post", "put", "patch"}


@pytest.fixture(scope="module")
def spec(app):
    response = app.test_client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def _operations(spec):
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            yield method, path, op


def _docs_by_operation(app, spec) -> dict[tuple[str, str], dict]:
    """(method, path) -> what the view declared (`api_doc`, and the portal pages' entries)."""
    out = {}
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        doc = {**(getattr(view, "api_doc", None) or {}), **PAGES.get(rule.endpoint, {})}
        path = re.sub(r"<(?:[a-z]+(?:\([^)]*\))?:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            out[(method.lower(), path)] = doc
    return out


def test_every_operation_id_is_a_unique_camel_case_verb_and_noun(spec):
    ids = [op["operationId"] for _, _, op in _operations(spec)]

    assert len(ids) == len(set(ids))
    for op_id in ids:
        assert OPERATION_ID_RE.fullmatch(op_id), f"{op_id}: camelCase, one capital per word"
        assert not op_id[-1].isdigit(), f"{op_id}: two views share a name; add @operation(...)"
        words = re.findall(r"[A-Z]?[a-z0-9]+", op_id)
        assert words[0] in VERBS and len(words) >= 2, f"{op_id}: verb + noun (VERBS)"
    assert {"listDocuments", "uploadDocument", "getDocumentContent", "searchDocuments"} <= set(ids)


def test_every_operation_has_a_tag_a_summary_and_a_description(spec):
    declared = {tag["name"] for tag in spec["tags"]}

    for method, path, op in _operations(spec):
        where = f"{method.upper()} {path}"
        assert op["tags"] == [op["tags"][0]] and op["tags"][0] in declared, where
        assert op["summary"].strip() and op["description"].strip(), where
    assert {"documents", "search", "webhooks", "sign-in", "oauth"} <= declared


def test_a_request_body_is_described_wherever_one_is_taken(app, spec):
    declared = _docs_by_operation(app, spec)

    for method, path, op in _operations(spec):
        if "requestBody" in op:  # a body the view may go without is not required
            optional = declared[(method, path)].get("body_optional", False)
            assert op["requestBody"]["required"] is not optional, f"{method.upper()} {path}"
        if method not in BODY_METHODS or "requestBody" in op:
            continue
        assert declared[(method, path)].get("takes_body") is False, (
            f"{method.upper()} {path} documents no request body: describe it (@json_body, "
            "@form_body, @body_documented) or say it takes none (@operation(takes_body=False))"
        )
    upload = spec["paths"]["/api/v1/documents"]["post"]["requestBody"]["content"]
    fields = upload["multipart/form-data"]["schema"]["properties"]
    assert {"file", "title", "tags", "metadata"} <= set(fields)
    version = spec["paths"]["/api/v1/documents/{document_id}/versions"]["post"]
    assert "file" in version["requestBody"]["content"]["multipart/form-data"]["schema"]["required"]


def test_successes_are_modelled_and_errors_use_the_envelope(spec):
    for method, path, op in _operations(spec):
        responses = op["responses"]
        assert "default" not in responses, f"{method.upper()} {path}: model its success"
        assert all(
            r.get("$ref", "").startswith("#/components/responses/E")
            for status, r in responses.items()
            if status.startswith(("4", "5")) and path.startswith("/api/")
        ), f"{method.upper()} {path}"
        if op.get("deprecated"):
            continue
        assert any(s.startswith(("2", "3")) for s in responses), f"{method.upper()} {path}"


def test_creating_operations_take_an_idempotency_key(spec):
    upload = spec["paths"]["/api/v1/documents"]["post"]
    (key,) = [p for p in upload["parameters"] if p["name"] == "Idempotency-Key"]
    assert key["in"] == "header" and key["required"] is False


def test_retired_and_deprecated_operations_are_marked_and_listed_once(spec):
    retired = [
        (method, path, op)
        for method, path, op in _operations(spec)
        if path == "/api/v1/entities" or path.startswith("/api/v1/entities/")
    ]
    assert [(m, p) for m, p, _ in retired] == [("get", "/api/v1/entities")]
    assert retired[0][2]["deprecated"] is True
    assert "410" in retired[0][2]["responses"]


def test_scoped_operations_accept_an_api_key_or_an_oauth_token_with_the_scope(spec):
    listing = spec["paths"]["/api/v1/documents"]["get"]
    assert listing["security"] == [
        {"bearerAuth": [], "tenantId": []},
        {"oauth2": ["documents:read"]},
    ]
    flow = spec["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]
    assert set(flow["scopes"]) >= {"documents:read", "documents:write"}


def test_the_naming_rule():
    assert camel_case("get_document_content") == "getDocumentContent"
    assert humanize("getOauthServerMetadata") == "Get oauth server metadata"
    assert tag_of("/api/v1/workflows/instances/{id}/approve") == "workflows"
    assert tag_of("/api/v1/beta/copilot/conversations") == "copilot"
    assert tag_of("/.well-known/oauth-authorization-server") == "oauth"
