"""The OpenAPI 3.1 contract, generated from the app's routes and the pydantic models that
validate them (`view.api_doc`, `view.api_scopes`, `view.api_public`), served at
/api/v1/openapi.json (portal/reference.py renders it at /docs)."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, current_app, jsonify
from pydantic import BaseModel

from api import oauth_docs
from api.auth import public
from api.blueprint import bp
from services.platform import deprecations
from tenancy import classify

_CONVERTER_RE = re.compile(r"<(?:(?P<converter>[a-z]+)(?:\([^)]*\))?:)?(?P<name>\w+)>")
_CONVERTER_TYPES = {"int": {"type": "integer"}, "float": {"type": "number"}}

# Pages the portal serves that belong in the API's reference (the OAuth authorization page).
PAGES = {"portal.oauth_authorize": oauth_docs.AUTHORIZE}
PAGES_SUMMARY = "Authorization page: sign in, consent, back to the app with a code"

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
    409: "Conflict with the resource's state, or an Idempotency-Key still in use.",
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


@bp.get("/openapi.json")
@public
def openapi_document():
    """This document."""
    return jsonify(document(current_app))


def document(app: Flask) -> dict[str, Any]:
    """Built once per app (routes do not change after start-up)."""
    cached = app.extensions.get("dms.openapi")
    if cached is None:
        cached = app.extensions["dms.openapi"] = OpenAPIBuilder(app).build()
    return cached


class OpenAPIBuilder:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.schemas: dict[str, Any] = dict(_BASE_SCHEMAS)
        self.operation_ids: set[str] = set()

    def build(self) -> dict[str, Any]:
        paths: dict[str, dict[str, Any]] = {}
        for rule in sorted(self.app.url_map.iter_rules(), key=lambda r: r.rule):
            if not classify(rule.rule).documented or "<path:" in rule.rule:
                continue
            view = self.app.view_functions[rule.endpoint]
            path, params = _openapi_path(rule.rule)
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                operation = self.operation(rule, view, method, path, params)
                paths.setdefault(path, {})[method.lower()] = operation
        return {
            "openapi": "3.1.0",
            "info": _info(),
            "servers": [{"url": "/"}],
            "paths": paths,
            "components": {
                "schemas": self.schemas,
                "responses": _error_responses(),
                "headers": {
                    name: {"description": text, "schema": {"type": "string"}, "required": True}
                    for name, text in RATE_LIMIT_HEADERS.items()
                },
                "securitySchemes": {
                    "bearerAuth": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "An API key (dms_…) or an OAuth access token.",
                    },
                    "tenantId": {"type": "apiKey", "in": "header", "name": "X-Tenant-Id"},
                },
            },
            "security": [{"bearerAuth": [], "tenantId": []}],
            "tags": [],
        }

    def operation(self, rule, view, method: str, path: str, params: list) -> dict[str, Any]:
        doc = getattr(view, "api_doc", {}) or {}
        if rule.endpoint in PAGES:  # a page of the portal, described from here
            doc = {**doc, "operation": PAGES[rule.endpoint], "summary": PAGES_SUMMARY}
        scopes = list(getattr(view, "api_scopes", ()))
        is_public = bool(getattr(view, "api_public", False))
        item = _deprecation(method, rule.rule)
        description = (view.__doc__ or "").strip()
        if scopes:
            description = f"Requires the scope {' and '.join(scopes)}.\n\n{description}".strip()
        op: dict[str, Any] = {
            "operationId": self._operation_id(rule.endpoint, method),
            "summary": doc.get("summary") or description.split("\n")[0] or rule.endpoint,
            "tags": [_tag(path)],
            "parameters": list(params),
            "responses": {},
        }
        if description:
            op["description"] = description
        if scopes:
            op["x-required-scopes"] = scopes
        if is_public:
            op["security"] = []
        if doc.get("deprecated") or item is not None:
            op["deprecated"] = True
        if doc.get("query") is not None:
            op["parameters"] += self.query_parameters(doc["query"])
        if doc.get("body") is not None:
            op["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": self.schema_ref(doc["body"])}},
            }
        if doc.get("form") is not None:
            op["requestBody"] = self.multipart_body(doc["form"]["model"], doc["form"]["files"])
        op["responses"].update(self.success(doc.get("response"), method))
        for status in _error_statuses(op, is_public, item, path_params=bool(params)):
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
        return op

    def _operation_id(self, endpoint: str, method: str) -> str:
        base = re.sub(r"\W+", "_", f"{endpoint}_{method.lower()}")
        candidate, n = base, 2
        while candidate in self.operation_ids:
            candidate, n = f"{base}_{n}", n + 1
        self.operation_ids.add(candidate)
        return candidate

    def schema_ref(self, model: type[BaseModel], mode: str = "validation") -> dict[str, Any]:
        schema = model.model_json_schema(
            ref_template="#/components/schemas/{model}",
            mode=mode,  # type: ignore[arg-type]
        )
        for name, sub in schema.pop("$defs", {}).items():
            self.schemas.setdefault(name, sub)
        self.schemas.setdefault(model.__name__, schema)
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    def multipart_body(self, model: type[BaseModel] | None, files: dict[str, str]) -> dict:
        """multipart/form-data: the file parts (binary, required) beside the model's fields.
        Array fields are sent as repeated parts, object fields as a JSON part."""
        properties: dict[str, Any] = {
            name: {"type": "string", "format": "binary", "description": text}
            for name, text in files.items()
        }
        encoding: dict[str, Any] = {}
        if model is not None:
            schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            for name, sub in schema.pop("$defs", {}).items():
                self.schemas.setdefault(name, sub)
            for name, prop in schema.get("properties", {}).items():
                prop = _without_null(prop)
                properties[name] = prop
                if prop.get("type") == "array":
                    encoding[name] = {"style": "form", "explode": True}
                elif prop.get("type") == "object":
                    encoding[name] = {"contentType": "application/json"}
        media: dict[str, Any] = {
            "schema": {"type": "object", "required": list(files), "properties": properties}
        }
        if encoding:
            media["encoding"] = encoding
        return {"required": True, "content": {"multipart/form-data": media}}

    def query_parameters(self, model: type[BaseModel]) -> list[dict[str, Any]]:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
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

    def success(self, response: dict | None, method: str) -> dict[str, Any]:
        headers = {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS}
        if response is None:
            # Undocumented success (downloads, redirects): any status and media type.
            return {"default": {"description": "Success (not modelled).", "headers": headers}}
        model, status, many = response["model"], response["status"], response["many"]
        data: dict[str, Any] = {} if model is None else self.schema_ref(model, "serialization")
        envelope: dict[str, Any] = {
            "type": "object",
            "required": ["success", "data"],
            "properties": {"success": {"const": True}, "meta": {"type": "object"}},
        }
        if many:
            envelope["properties"]["data"] = {"type": "array", "items": data}
            envelope["properties"]["meta"] = {"$ref": "#/components/schemas/ListMeta"}
            envelope["required"].append("meta")
        else:
            envelope["properties"]["data"] = data
        return {
            str(status): {
                "description": "Success.",
                "headers": headers,
                "content": {"application/json": {"schema": envelope}},
            }
        }


def _openapi_path(rule: str) -> tuple[str, list[dict[str, Any]]]:
    params = []

    def replace(match: re.Match) -> str:
        schema = _CONVERTER_TYPES.get(match.group("converter") or "", {"type": "string"})
        params.append({"name": match.group("name"), "in": "path", "required": True,
                       "schema": dict(schema)})  # fmt: skip
        return "{" + match.group("name") + "}"

    return _CONVERTER_RE.sub(replace, rule), params


def _tag(path: str) -> str:
    parts = [p for p in path.split("/") if p and not p.startswith("{")]
    if parts[:2] == ["api", "v1"]:
        parts = parts[2:]
    return parts[0] if parts else "api"


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


def _error_statuses(op: dict, is_public: bool, item, path_params: bool) -> list[int]:
    statuses = [400, 404, 414, 429, 431, 500, 503]
    if not is_public:
        statuses += [401, 403]
    if item is not None:
        statuses.append(410)
    if "requestBody" in op or op["operationId"].endswith(("_post", "_put", "_patch")):
        statuses += [409, 413, 415, 422]
    return sorted(set(statuses))


def _error_responses() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for status, text in ERRORS.items():
        headers: dict[str, Any] = {
            name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS
        }
        if status in (429, 503):
            headers["Retry-After"] = {
                "description": "Seconds to wait before retrying.",
                "required": True,
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


_BASE_SCHEMAS: dict[str, Any] = {
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
    },
    "Pagination": {
        "type": "object",
        "required": ["limit", "hasMore"],
        "properties": {
            "limit": {"type": "integer", "minimum": 1, "maximum": 200},
            "hasMore": {"type": "boolean"},
            "nextCursor": {"type": "string"},
        },
    },
    "ListMeta": {
        "type": "object",
        "required": ["pagination"],
        "properties": {"pagination": {"$ref": "#/components/schemas/Pagination"}},
    },
}


def _info() -> dict[str, Any]:
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
            "Every request sends `Authorization: Bearer <API key>` and `X-Tenant-Id`. Every "
            "response uses the envelope and carries the X-RateLimit-* headers.\n\n"
            "## Stability tiers\n- GA `/api/v1/*`: 18-month deprecation notice.\n"
            "- Beta `/api/v1/beta/*`: stable 30 days at a time (header `X-API-Tier`).\n"
            "- Internal `/internal/*`: not for customers.\n\n"
            f"## Deprecations\n{sunsets}\n\n## Changelog\n{changelog}\n"
        ),
    }
