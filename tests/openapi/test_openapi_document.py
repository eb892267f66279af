"""The generated OpenAPI 3.1 document: valid, complete and built from the validating models."""

from __future__ import annotations

import re

from openapi_spec_validator import validate
from openapi_spec_validator.validation import OpenAPIV31SpecValidator


def _spec(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert "X-RateLimit-Limit" in response.headers  # public, limited per IP
    return response.get_json()


def test_the_document_validates_as_openapi_3_1(client):
    spec = _spec(client)

    assert spec["openapi"] == "3.1.0"
    validate(spec, cls=OpenAPIV31SpecValidator)


def test_every_public_route_is_documented_with_its_errors(app, client):
    spec = _spec(client)
    documented = {(method.upper(), path) for path, ops in spec["paths"].items() for method in ops}
    expected = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(("/api/", "/oauth/", "/.well-known/")):
            continue
        if "<path:" in rule.rule:
            continue
        if "listed" in getattr(app.view_functions[rule.endpoint], "api_doc", {}):
            continue  # a catch-all documented once (tests/openapi checks it is)
        path = re.sub(r"<(?:[a-z]+(?:\([^)]*\))?:)?(\w+)>", r"{\1}", rule.rule)
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            expected.add((method, path))
    assert expected
    assert expected <= documented
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for status in ("400", "404", "429", "500"):
                assert status in op["responses"], (method, path, status)
            if op.get("security") != []:
                assert {"401", "403"} <= set(op["responses"]), (method, path)


def test_operations_come_from_the_validating_models(client):
    spec = _spec(client)
    listing = spec["paths"]["/api/v1/documents"]["get"]

    names = {p["name"] for p in listing["parameters"]}
    assert {"limit", "cursor"} <= names
    limit = next(p for p in listing["parameters"] if p["name"] == "limit")
    assert limit["schema"]["minimum"] == 1  # from PageQuery: ge=1 (above 200 is clamped)
    assert listing["x-required-scopes"] == ["documents:read"]
    ref = listing["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref == "#/components/schemas/DocumentListEnvelope"
    ok = spec["components"]["schemas"]["DocumentListEnvelope"]
    assert ok["properties"]["data"]["type"] == "array"
    assert ok["properties"]["meta"] == {"$ref": "#/components/schemas/ListMeta"}


def test_the_envelope_and_rate_limit_errors_are_components(client):
    spec = _spec(client)
    components = spec["components"]

    assert components["schemas"]["ErrorEnvelope"]["required"] == ["success", "errors"]
    too_many = components["responses"]["E429"]
    assert too_many["headers"]["Retry-After"]["required"] is True
    assert "X-RateLimit-Remaining" in too_many["headers"]
    assert set(components["securitySchemes"]) == {"bearerAuth", "tenantId", "oauth2"}
    flow = components["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]
    assert (flow["authorizationUrl"], flow["tokenUrl"]) == ("/oauth/authorize", "/oauth/token")


def test_deprecated_and_public_operations_are_marked(client):
    spec = _spec(client)

    entities = spec["paths"]["/api/v1/entities"]["get"]
    assert entities["deprecated"] is True
    assert "410" in entities["responses"]
    assert spec["paths"]["/api/v1/openapi.json"]["get"]["security"] == []


def test_the_reference_page_boots_the_vendored_renderer(client):
    response = client.get("/docs")

    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-spec-url="/api/v1/openapi.json"' in html
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in html
    assert "https://" not in html  # nothing from a CDN
    assert "script-src 'self';" in response.headers["Content-Security-Policy"]
    for asset in ("vendor/swagger-ui/swagger-ui-bundle.js", "js/api-docs.js"):
        served = client.get(f"/static/{asset}")
        assert served.status_code == 200
        served.close()


def test_uploads_document_their_multipart_body(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    upload = paths["/api/v1/documents"]["post"]["requestBody"]["content"]["multipart/form-data"]
    schema = upload["schema"]
    assert schema["required"] == ["file"]
    assert schema["properties"]["file"] == {
        "type": "string",
        "format": "binary",
        "description": "The document's content (the type is read from it).",
    }
    assert {"title", "tags", "metadata"} <= set(schema["properties"])
    assert "metadata" not in upload["encoding"]  # JSON, OpenAPI's default for an object
    assert upload["encoding"]["tags"] == {"style": "form", "explode": True}
    version = paths["/api/v1/documents/{document_id}/versions"]["post"]["requestBody"]
    assert list(version["content"]["multipart/form-data"]["schema"]["properties"]) == ["file"]


def test_the_patch_body_declares_nothing_nullable_that_the_server_refuses(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    patch = schemas["DocumentPatch"]["properties"]
    for name in ("title", "tags", "status", "metadata"):
        assert "anyOf" not in patch[name] and "default" not in patch[name], name
    # null still removes a metadata key (RFC 7386): that null is allowed, and documented.
    assert patch["metadata"]["propertyNames"] == {"pattern": "^[A-Za-z0-9_.-]{1,64}$"}
    assert {"type": "null"} in patch["metadata"]["additionalProperties"]["anyOf"]


def test_options_allows_what_the_document_lists_for_the_path(client, headers):
    """OPTIONS answers `Allow` with the methods of the route the path resolves to, never
    those of a parameterised sibling it also fits (/webhooks/event-types is no
    /webhooks/{webhook_id})."""
    spec = _spec(client)
    for path, operations in spec["paths"].items():
        if any(op.get("deprecated") for op in operations.values()):
            continue  # retired catch-alls answer every method by design
        documented = {method.upper() for method in operations} | {"OPTIONS"}
        if "GET" in documented:
            documented.add("HEAD")
        url = re.sub(r"\{\w+\}", "x1", path)
        response = client.options(url, headers=headers)
        allowed = {m.strip() for m in response.headers.get("Allow", "").split(",") if m.strip()}
        assert allowed == documented, (path, response.status_code, sorted(allowed))


def _schema_accepts(spec: dict, schema: dict, value) -> bool:
    from jsonschema import Draft202012Validator

    return Draft202012Validator({"components": spec["components"], **schema}).is_valid(value)


def _body_schema(spec: dict, method: str, path: str) -> dict:
    return spec["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]


def _parameter_schema(spec: dict, path: str, name: str) -> dict:
    (param,) = [p for p in spec["paths"][path]["get"]["parameters"] if p["name"] == name]
    return param["schema"]


def test_the_document_states_the_rules_the_server_enforces(app, client):
    """What the server refuses with 400 or 422 the document refuses too, where a schema can
    say it, so that a request built to the document is one the server takes."""
    from services.core.cursors import encode_cursor

    spec = _spec(client)
    cursor = _parameter_schema(spec, "/api/v1/documents", "cursor")
    with app.test_request_context():
        issued = encode_cursor("binding", ["2026-11-21T10:00:00+00:00", "doc_1"])
    assert _schema_accepts(spec, cursor, issued)
    assert not _schema_accepts(spec, cursor, "0000")

    pairs = _parameter_schema(spec, "/api/v1/documents", "metadata")
    assert _schema_accepts(spec, pairs, ["dept:sales", "note:a,b:c"])
    assert not _schema_accepts(spec, pairs, ["dept"])
    assert not _schema_accepts(spec, pairs, ["bad key:x"])

    patch = _body_schema(spec, "patch", "/api/v1/documents/{document_id}")
    assert _schema_accepts(spec, patch, {"metadata": {"dept": "ops", "gone": None}})
    assert not _schema_accepts(spec, patch, {"metadata": {"bad key": "x"}})
    assert not _schema_accepts(spec, patch, {"metadata": {f"k{i}": "v" for i in range(51)}})
    assert not _schema_accepts(spec, patch, {"title": "   "})

    step = {"name": "Review", "approvers": [{"role": "admin"}]}
    workflow = _body_schema(spec, "post", "/api/v1/workflows")
    assert _schema_accepts(spec, workflow, {"name": "Invoices", "steps": [step]})
    for approver in ({}, {"role": "admin", "email": "a@b.example"}, {"role": None}):
        bad = {"name": "Invoices", "steps": [{**step, "approvers": [approver]}]}
        assert not _schema_accepts(spec, workflow, bad), approver

    form = _body_schema(spec, "post", "/api/v1/forms")
    assert _schema_accepts(spec, form, {"name": "Leave", "schema": {"type": "object"}})
    assert not _schema_accepts(spec, form, {"name": "Leave", "schema": {"type": "array"}})
    assert not _schema_accepts(spec, form, {"name": "Leave", "schema": {}})

    entity = _body_schema(spec, "post", "/api/v1/knowledge-graph/entities")
    assert _schema_accepts(spec, entity, {"type": "works_for", "name": "Acme"})
    assert not _schema_accepts(spec, entity, {"type": "Works For", "name": "Acme"})

    hook = _body_schema(spec, "post", "/api/v1/webhooks")
    assert _schema_accepts(spec, hook, {"url": "https://hooks.example/in", "events": ["*"]})
    assert not _schema_accepts(spec, hook, {"url": "ftp://hooks.example/in", "events": ["*"]})

    version = spec["paths"]["/api/v1/documents/{document_id}/versions"]["post"]["requestBody"]
    form_data = version["content"]["multipart/form-data"]["schema"]
    assert not _schema_accepts(spec, form_data, {"file": "x", "cursor": "x"})

    question = _body_schema(spec, "post", "/api/v1/copilot/conversations")
    assert _schema_accepts(spec, question, {"message": "What changed in Q3?"})
    assert not _schema_accepts(spec, question, {"message": " \n\t"})
