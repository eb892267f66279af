"""Declarative request validation with pydantic: `@query_args(Model)` and `@json_body(Model)`.

The models are also recorded on the view (`view.api_doc`) so the OpenAPI document is built
from the same schemas that validate requests."""

from __future__ import annotations

import typing
from collections.abc import Callable
from functools import wraps
from typing import Any

import pydantic_core
from flask import current_app, request
from pydantic import BaseModel, ValidationError

from errors import DomainError, FieldError, invalid_parameter

# pydantic's JSON parser refuses anything nested deeper (its recursion limit); documented.
MAX_JSON_DEPTH = 200


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


def parse_query(model: type[BaseModel], base: dict[str, object] | None = None) -> BaseModel:
    """Validate request.args: unknown or repeated scalar parameters are 400 INVALID_PARAMETER.
    A list parameter repeats or comma-separates; one the model names in
    `REPEATED_PARAMETERS` only repeats (its values may hold commas). `base` holds parameters
    (by alias) the request's own replace, one name at a time."""
    aliases = {(f.alias or n): n for n, f in model.model_fields.items()}
    repeated = getattr(model, "REPEATED_PARAMETERS", frozenset())
    raw: dict[str, object] = dict(base or {})
    for key in request.args:
        values = request.args.getlist(key)
        name = aliases.get(key, key)
        for given in [k for k in raw if aliases.get(k, k) == name]:
            del raw[given]
        if name in repeated:
            raw[key] = values
        elif _is_list_field(model, name):
            raw[key] = [v for value in values for v in value.split(",") if v != ""]
        elif len(values) > 1:
            raise invalid_parameter(f"Query parameter {key!r} is given more than once.", key)
        else:
            raw[key] = values[0]
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = [field_error(e, "INVALID_PARAMETER", query=True) for e in exc.errors()]
        first, *rest = errors
        raise DomainError(400, first.code, first.message, first.field, rest) from None


def parse_json_text(text: str | bytes) -> Any:
    """A JSON value the client sent inside another format (a multipart field), parsed by
    pydantic's parser: nesting is bounded (no RecursionError), and the error says why."""
    try:
        return pydantic_core.from_json(text)
    except ValueError as exc:
        if "recursion limit" in str(exc):
            raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels.") from None
        raise ValueError("not valid JSON.") from None


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
        errors = [field_error(e, "VALIDATION_ERROR") for e in exc.errors()]
        invalid = [e for e in exc.errors() if e["type"] == "json_invalid"]
        if invalid:
            deep = "recursion limit" in str(invalid[0].get("ctx", {}).get("error", ""))
            message = (
                f"The request body is nested deeper than {MAX_JSON_DEPTH} levels."
                if deep
                else "The request body is not valid JSON."
            )
            raise DomainError(400, "INVALID_JSON", message) from None
        first, *rest = errors
        raise DomainError(422, first.code, first.message, first.field, rest) from None


def field_error(error: dict, code: str, *, query: bool = False, form: bool = False) -> FieldError:
    """One error object for one pydantic error. `field` names what the client sent: the
    query parameter, the path into a JSON body (`metadata.k`), or, for multipart forms, the
    form field (`metadata`, which holds the whole JSON object)."""
    parts = [str(p) for p in error.get("loc", ()) if p != "__root__"]
    loc = ".".join(parts)
    name = (parts[0] if parts else None) if form else (loc or None)
    if error["type"] == "extra_forbidden":
        kind = "query parameter" if query else "field"
        return FieldError(code, f"Unknown {kind} {loc!r}.", name)
    message = f"{loc}: {error['msg']}" if loc else error["msg"]
    return FieldError(code, message, name)


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


def json_body(model: type[BaseModel], *, optional: bool = False) -> Callable:
    """Parse the JSON body into `model` and pass it to the view as `body=`. An `optional` body
    may be left out altogether (no Content-Type needed): the model's defaults are used."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(*args, **kwargs):
            if optional and not request.content_length and not request.get_data(cache=True):
                kwargs["body"] = model()
            else:
                kwargs["body"] = parse_json(model)
            return view(*args, **kwargs)

        _doc(wrapper)["body"] = model
        if optional:
            _doc(wrapper)["body_optional"] = True  # OpenAPI: requestBody.required false
        return wrapper

    return decorator


def operation_documented(operation: dict) -> Callable:
    """Document an endpoint with a wire format of its own (OAuth's form bodies and RFC 6749
    errors, HTML pages): `parameters`, `requestBody` and `responses` as OpenAPI writes them."""

    def decorator(view: Callable) -> Callable:
        _doc(view)["operation"] = operation
        return view

    return decorator


def body_documented(model: type[BaseModel], *, errors: tuple[int, ...] = ()) -> Callable:
    """Document a JSON body that the view parses itself (it also takes another format), and
    error statuses beyond the usual ones."""

    def decorator(view: Callable) -> Callable:
        _doc(view)["body"] = model
        _doc(view)["errors"] = errors
        return view

    return decorator


def also_answers(*statuses: int) -> Callable:
    """Document error statuses beyond the usual ones of a view without a JSON body (a DELETE
    that answers 409 on a trashed document)."""

    def decorator(view: Callable) -> Callable:
        _doc(view)["errors"] = statuses
        return view

    return decorator


def form_body(model: type[BaseModel] | None, *, files: dict[str, str]) -> Callable:
    """Document a multipart/form-data body: the file parts (name -> description, each
    required) and the form fields of `model`. The view parses the stream itself (uploads are
    streamed, never buffered), so this has no runtime effect."""

    def decorator(view: Callable) -> Callable:
        _doc(view)["form"] = {"model": model, "files": files}
        return view

    return decorator


def responds(model: type[BaseModel] | None, *, status: int = 200, many: bool = False) -> Callable:
    """Document the success response (used by the OpenAPI builder; no runtime effect)."""

    def decorator(view: Callable) -> Callable:
        _doc(view)["response"] = {"model": model, "status": status, "many": many}
        return view

    return decorator
