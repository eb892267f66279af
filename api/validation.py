"""Declarative request validation with pydantic: `@query_args(Model)` and `@json_body(Model)`.

The models are also recorded on the view (`view.api_doc`) so the OpenAPI document is built
from the same schemas that validate requests."""

from __future__ import annotations

import typing
from collections.abc import Callable
from functools import wraps

from flask import current_app, request
from pydantic import BaseModel, ValidationError

from errors import DomainError, FieldError, invalid_parameter


def _doc(view: Callable) -> dict:
    if not hasattr(view, "api_doc"):
        view.api_doc = {}  # type: ignore[attr-defined]
    return view.api_doc  # type: ignore[attr-defined]


def _is_list_field(model: type[BaseModel], name: str) -> bool:
    info = model.model_fields.get(name)
    if info is None:
        return False
    origin = typing.get_origin(info.annotation)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return any(typing.get_origin(a) is list for a in typing.get_args(info.annotation))
    return origin is list


def parse_query(model: type[BaseModel]) -> BaseModel:
    """Validate request.args: unknown or repeated scalar parameters are 400 INVALID_PARAMETER."""
    aliases = {(f.alias or n): n for n, f in model.model_fields.items()}
    raw: dict[str, object] = {}
    for key in request.args:
        values = request.args.getlist(key)
        name = aliases.get(key, key)
        if _is_list_field(model, name):
            raw[key] = [v for value in values for v in value.split(",") if v != ""]
        elif len(values) > 1:
            raise invalid_parameter(f"Query parameter {key!r} is given more than once.", key)
        else:
            raw[key] = values[0]
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = [_field_error(e, "INVALID_PARAMETER", query=True) for e in exc.errors()]
        first, *rest = errors
        raise DomainError(400, first.code, first.message, first.field, rest) from None


def parse_json(model: type[BaseModel]) -> BaseModel:
    mimetype = request.mimetype or ""
    if not (mimetype == "application/json" or mimetype.endswith("+json")):
        raise DomainError(
            415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON (Content-Type: application/json)."
        )
    limit = current_app.config["DMS_MAX_JSON_BYTES"]
    if (request.content_length or 0) > limit:
        raise DomainError(413, "PAYLOAD_TOO_LARGE", f"JSON bodies are limited to {limit} bytes.")
    data = request.get_data(cache=True)
    if len(data) > limit:
        raise DomainError(413, "PAYLOAD_TOO_LARGE", f"JSON bodies are limited to {limit} bytes.")
    try:
        return model.model_validate_json(data or b"{}")
    except ValidationError as exc:
        errors = [_field_error(e, "VALIDATION_ERROR") for e in exc.errors()]
        if any(e["type"] == "json_invalid" for e in exc.errors()):
            raise DomainError(400, "INVALID_JSON", "The request body is not valid JSON.") from None
        first, *rest = errors
        raise DomainError(422, first.code, first.message, first.field, rest) from None


def _field_error(error: dict, code: str, query: bool = False) -> FieldError:
    loc = ".".join(str(p) for p in error.get("loc", ()) if p != "__root__")
    if error["type"] == "extra_forbidden":
        kind = "query parameter" if query else "field"
        return FieldError(code, f"Unknown {kind} {loc!r}.", loc or None)
    message = error["msg"]
    if loc:
        message = f"{loc}: {message}"
    return FieldError(code, message, loc or None)


def query_args(model: type[BaseModel]) -> Callable:
    """Parse request.args into `model` and pass it to the view as `query=`."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(*args, **kwargs):
            kwargs["query"] = parse_query(model)
            return view(*args, **kwargs)

        _doc(wrapper)["query"] = model
        return wrapper

    return decorator


def json_body(model: type[BaseModel]) -> Callable:
    """Parse the JSON body into `model` and pass it to the view as `body=`."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(*args, **kwargs):
            kwargs["body"] = parse_json(model)
            return view(*args, **kwargs)

        _doc(wrapper)["body"] = model
        return wrapper

    return decorator


def responds(model: type[BaseModel] | None, *, status: int = 200, many: bool = False) -> Callable:
    """Document the success response (used by the OpenAPI builder; no runtime effect)."""

    def decorator(view: Callable) -> Callable:
        _doc(view)["response"] = {"model": model, "status": status, "many": many}
        return view

    return decorator
