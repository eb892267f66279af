"""The OpenAPI 3.1 contract, generated from the app's routes and the pydantic models that
validate them (`view.api_doc`, `view.api_scopes`, `view.api_public`), served at
/api/v1/openapi.json (portal/reference.py renders it at /docs). Names and tags follow
api/openapi_rules.py; the fixed parts are in api/openapi_components.py."""

from __future__ import annotations

import inspect
import re
from typing import Any

from flask import Flask, current_app, jsonify
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from api import oauth
from api.auth import public
from api.blueprint import bp
from api.openapi_components import (
    BASE_SCHEMAS,
    IDEMPOTENCY_KEY,
    RATE_LIMIT_HEADERS,
    SECURITY_SCHEMES,
    error_responses,
    headers_ref,
    info,
)
from api.openapi_rules import humanize, operation, operation_id, tag_of, tags
from api.validation import operation_documented
from services.lifecycle import deprecations
from tenancy import classify

__all__ = ["RATE_LIMIT_HEADERS", "document", "openapi_document"]

_CONVERTER_RE = re.compile(r"<(?:(?P<converter>[a-z]+)(?:\([^)]*\))?:)?(?P<name>\w+)>")
_CONVERTER_TYPES = {"int": {"type": "integer"}, "float": {"type": "number"}}
_BODY_METHODS = ("POST", "PUT", "PATCH")

# Pages the portal serves that belong in the API's reference (the OAuth authorization page),
# with the names the portal's views cannot give themselves (portal never imports api).
PAGES = {
    "portal.oauth_authorize": {
        "operation": oauth.AUTHORIZE,
        "summary": "Authorization page: sign in, consent, back to the app with a code",
        "operation_id": {"GET": "getOauthAuthorization", "POST": "submitOauthAuthorization"},
        "takes_body": False,
    }
}

_DOCUMENT_RESPONSE = {
    "description": "This document (OpenAPI 3.1, not in the envelope).",
    "headers": headers_ref(),
    "content": {"application/json": {"schema": {"type": "object"}}},
}


@bp.get("/openapi.json")
@public
@operation("getOpenapiDocument", summary="Get this OpenAPI document")
@operation_documented({"responses": {"200": _DOCUMENT_RESPONSE}})
def openapi_document():
    """The OpenAPI 3.1 description of this API, from which clients are generated."""
    return jsonify(document(current_app))


def document(app: Flask) -> dict[str, Any]:
    """Built once per app (routes do not change after start-up)."""
    cached = app.extensions.get("dms.openapi")
    if cached is None:
        cached = app.extensions["dms.openapi"] = OpenAPIBuilder(app).build()
    return cached


class ContractSchema(GenerateJsonSchema):
    """pydantic's JSON Schema, saying two checks its validators make that it leaves out, so
    a request the document allows is one the server takes: a stripped string with a minimum
    length must hold a non-blank character, and a dict whose keys have a pattern takes no
    other key."""

    def str_schema(self, schema: core_schema.StringSchema) -> JsonSchemaValue:
        out = super().str_schema(schema)
        if schema.get("strip_whitespace") and schema.get("min_length", 0) > 0:
            out.setdefault("pattern", r"\S")
        return out

    def dict_schema(self, schema: core_schema.DictSchema) -> JsonSchemaValue:
        """Keys with a pattern as `propertyNames` beside `additionalProperties` (the values),
        not `patternProperties`, which allows any other key and which generators skip (the
        SDK's class would drop every key)."""
        out = super().dict_schema(schema)
        patterns = out.get("patternProperties") or {}
        if len(patterns) == 1 and "additionalProperties" not in out:
            ((pattern, values),) = patterns.items()
            del out["patternProperties"]
            out["propertyNames"] = {"pattern": pattern}
            out["additionalProperties"] = values
        return out


class OpenAPIBuilder:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.schemas: dict[str, Any] = dict(BASE_SCHEMAS)
        self.operation_ids: set[str] = set()

    def build(self) -> dict[str, Any]:
        paths: dict[str, dict[str, Any]] = {}
        for rule in sorted(self.app.url_map.iter_rules(), key=lambda r: r.rule):
            if not classify(rule.rule).documented or "<path:" in rule.rule:
                continue
            view = self.app.view_functions[rule.endpoint]
            doc = {**(getattr(view, "api_doc", None) or {}), **PAGES.get(rule.endpoint, {})}
            path, params = _openapi_path(rule.rule)
            methods = (rule.methods or set()) - {"HEAD", "OPTIONS"}
            for method in sorted(methods):
                listed = doc.get("listed")
                if listed is not None and tuple(listed) != (method, path):
                    continue  # a catch-all documented once, as its listed operation
                operation = self.operation(rule, view, doc, method, methods, path, params)
                paths.setdefault(path, {})[method.lower()] = operation
        used_tags = {op["tags"][0] for ops in paths.values() for op in ops.values()}
        return _rename_out_schemas(
            {
                "openapi": "3.1.0",
                "info": info(),
                "servers": [{"url": "/"}],
                "paths": paths,
                "components": {
                    "schemas": self.schemas,
                    "responses": error_responses(),
                    "headers": {
                        name: {"description": text, "schema": {"type": "string"}, "required": True}
                        for name, text in RATE_LIMIT_HEADERS.items()
                    },
                    "securitySchemes": SECURITY_SCHEMES,
                },
                "security": [{"bearerAuth": [], "tenantId": []}, {"oauth2": []}],
                "tags": tags(used_tags),
            }
        )

    def operation(self, rule, view, doc, method, methods, path, params) -> dict[str, Any]:
        scopes = list(getattr(view, "api_scopes", ()))
        is_public = bool(getattr(view, "api_public", False))
        item = _deprecation(method, rule.rule)
        op_id = self._unique(operation_id(rule.endpoint, method, methods, doc))
        summary = doc.get("summary") or humanize(op_id)
        description = inspect.cleandoc(view.__doc__ or "") or f"{summary}."
        if scopes:
            description = f"Requires the scope {' and '.join(scopes)}.\n\n{description}"
        op: dict[str, Any] = {
            "operationId": op_id,
            "summary": summary,
            "description": description,
            "tags": [doc.get("tag") or tag_of(path)],
            "parameters": list(params),
            "responses": {},
        }
        if scopes:
            op["x-required-scopes"] = scopes
            op["security"] = [{"bearerAuth": [], "tenantId": []}, {"oauth2": scopes}]
        if is_public:
            op["security"] = []
        if doc.get("deprecated") or item is not None:
            op["deprecated"] = True
        if getattr(view, "api_idempotent", False):
            op["parameters"].append(dict(IDEMPOTENCY_KEY))
        if doc.get("query") is not None:
            op["parameters"] += self.query_parameters(doc["query"])
        if doc.get("body") is not None:
            op["requestBody"] = {
                "required": not doc.get("body_optional", False),
                "content": {"application/json": {"schema": self.schema_ref(doc["body"])}},
            }
        if doc.get("form") is not None:
            op["requestBody"] = self.multipart_body(doc["form"]["model"], doc["form"]["files"])
        op["responses"].update(self.success(doc.get("response")))
        for status in _error_statuses(op, method, is_public, item):
            op["responses"][str(status)] = {"$ref": f"#/components/responses/E{status}"}
        written = doc.get("operation")
        if written is not None:  # endpoints with their own wire format (OAuth, HTML pages)
            op["parameters"] += written.get("parameters", [])
            if "requestBody" in written:
                op["requestBody"] = written["requestBody"]
            op["responses"] = {**op["responses"], **written["responses"]}
            op["responses"].pop("default", None)
        for status in doc.get("errors", ()):
            op["responses"][str(status)] = {"$ref": f"#/components/responses/E{status}"}
        op["responses"] = dict(sorted(op["responses"].items()))
        return op

    def _unique(self, candidate: str) -> str:
        """Two views with one name get a numeric suffix, which tests/openapi refuses: give one of
        them `@operation("…")`."""
        base, n = candidate, 2
        while candidate in self.operation_ids:
            candidate, n = f"{base}{n}", n + 1
        self.operation_ids.add(candidate)
        return candidate

    def schema_ref(self, model: type[BaseModel], mode: str = "validation") -> dict[str, Any]:
        schema = model.model_json_schema(
            ref_template="#/components/schemas/{model}",
            schema_generator=ContractSchema,
            mode=mode,  # type: ignore[arg-type]
        )
        for name, sub in schema.pop("$defs", {}).items():
            self.schemas.setdefault(name, sub)
        self.schemas.setdefault(model.__name__, schema)
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    def multipart_body(self, model: type[BaseModel] | None, files: dict[str, str]) -> dict:
        """multipart/form-data: the file parts (binary, required) beside the model's fields.
        Array fields are sent as repeated parts, object fields as JSON text."""
        properties: dict[str, Any] = {
            name: {"type": "string", "format": "binary", "description": text}
            for name, text in files.items()
        }
        encoding: dict[str, Any] = {}
        if model is not None:
            schema = model.model_json_schema(
                ref_template="#/components/schemas/{model}", schema_generator=ContractSchema
            )
            for name, sub in schema.pop("$defs", {}).items():
                self.schemas.setdefault(name, sub)
            for name, prop in schema.get("properties", {}).items():
                prop = _without_null(prop)
                properties[name] = prop
                if prop.get("type") == "array":
                    encoding[name] = {"style": "form", "explode": True}
                # An object field is JSON by OpenAPI's default; said explicitly, Swagger UI
                # sends it as a file part (a Blob), which uploads refuse.
        media: dict[str, Any] = {
            "schema": {
                "type": "object",
                "required": list(files),
                "properties": properties,
                "additionalProperties": False,  # uploads refuse any other part
            }
        }
        if encoding:
            media["encoding"] = encoding
        return {"required": True, "content": {"multipart/form-data": media}}

    def query_parameters(self, model: type[BaseModel]) -> list[dict[str, Any]]:
        schema = model.model_json_schema(
            ref_template="#/components/schemas/{model}", schema_generator=ContractSchema
        )
        for name, sub in schema.pop("$defs", {}).items():
            self.schemas.setdefault(name, sub)
        required = set(schema.get("required", []))
        out = []
        for name, prop in schema.get("properties", {}).items():
            param: dict[str, Any] = {
                "name": name,
                "in": "query",
                "required": name in required,
                "schema": {k: v for k, v in prop.items() if k not in ("title", "description")},
            }
            if prop.get("description"):
                param["description"] = prop["description"]
            if _is_array(prop):
                param["style"], param["explode"] = "form", True
            out.append(param)
        return out

    def success(self, response: dict | None) -> dict[str, Any]:
        if response is None:
            # Undocumented success (redirects): any status and media type.
            return {"default": {"description": "Success (not modelled).", "headers": headers_ref()}}
        model, status, many = response["model"], response["status"], response["many"]
        return {
            str(status): {
                "description": "Success.",
                "headers": headers_ref(),
                "content": {"application/json": {"schema": self.envelope_ref(model, many)}},
            }
        }

    def envelope_ref(self, model: type[BaseModel] | None, many: bool) -> dict[str, Any]:
        """`{success, data, meta}` as a named component (`DocumentEnvelope`,
        `DocumentListEnvelope`), so generated clients get readable class names."""
        data: dict[str, Any] = {} if model is None else self.schema_ref(model, "serialization")
        base = "Empty" if model is None else model.__name__.removesuffix("Out")
        name = f"{base}ListEnvelope" if many else f"{base}Envelope"
        envelope: dict[str, Any] = {
            "type": "object",
            "required": ["success", "data"],
            "properties": {
                "success": {"const": True},
                "data": data,
                "meta": {"$ref": "#/components/schemas/Meta"},
            },
        }
        if many:
            envelope["properties"]["data"] = {"type": "array", "items": data}
            envelope["properties"]["meta"] = {"$ref": "#/components/schemas/ListMeta"}
            envelope["required"].append("meta")
        self.schemas.setdefault(name, envelope)
        return {"$ref": f"#/components/schemas/{name}"}


def _openapi_path(rule: str) -> tuple[str, list[dict[str, Any]]]:
    params = []

    def replace(match: re.Match) -> str:
        schema = _CONVERTER_TYPES.get(match.group("converter") or "", {"type": "string"})
        params.append({"name": match.group("name"), "in": "path", "required": True,
                       "schema": dict(schema)})  # fmt: skip
        return "{" + match.group("name") + "}"

    return _CONVERTER_RE.sub(replace, rule), params


def _deprecation(method: str, rule: str) -> deprecations.Deprecation | None:
    """The item deprecating the whole operation; a deprecated request variant (a content type)
    leaves the operation itself current."""
    for item in deprecations.REGISTRY:
        if (
            item.content_type is None
            and item.method in ("*", method)
            and (rule == item.path or (item.subpaths and rule.startswith(item.path + "/")))
        ):
            return item
    return None


def _without_null(prop: dict) -> dict:
    """A form field is sent or left out, never null: drop the null alternative."""
    options = [p for p in prop.get("anyOf", []) if p.get("type") != "null"]
    if len(options) != 1:
        return prop
    rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    return {**options[0], **rest}


def _is_array(prop: dict) -> bool:
    if prop.get("type") == "array":
        return True
    return any(p.get("type") == "array" for p in prop.get("anyOf", []))


def _error_statuses(op: dict, method: str, is_public: bool, item) -> list[int]:
    statuses = [400, 404, 414, 429, 431, 500, 503]
    if not is_public:
        statuses += [401, 403]
    if item is not None:
        statuses.append(410)
    if "requestBody" in op or method in _BODY_METHODS:
        statuses += [409, 413, 415, 422]
    return sorted(set(statuses))


def _rename_out_schemas(spec: dict[str, Any]) -> dict[str, Any]:
    """Response models are named `…Out` in Python; integrators read `Document`, not
    `DocumentOut`. Renamed where the short name is free."""
    schemas = spec["components"]["schemas"]
    renames = {
        f"#/components/schemas/{name}": f"#/components/schemas/{name[:-3]}"
        for name in schemas
        if name.endswith("Out") and len(name) > 3 and name[:-3] not in schemas
    }

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: (renames.get(v, v) if k == "$ref" and isinstance(v, str) else walk(v))
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    spec = walk(spec)
    spec["components"]["schemas"] = {
        renames.get(f"#/components/schemas/{name}", f"/{name}").rsplit("/", 1)[1]: (
            {**schema, "title": name[:-3]}
            if f"#/components/schemas/{name}" in renames and schema.get("title") == name
            else schema
        )
        for name, schema in spec["components"]["schemas"].items()
    }
    return spec
