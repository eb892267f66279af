"""A form's JSON Schema: the rules a schema must meet to be saved (2020-12, an object of at
most 200 fields, local `$ref`s only, patterns that cannot hang the server) and the validation
of submitted data against it, with one error per failing field (docs/forms.md)."""

from __future__ import annotations

import contextvars
import json
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import regex
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, validators
from jsonschema.exceptions import SchemaError, relevance
from referencing import Registry
from referencing.exceptions import NoSuchResource, Unresolvable
from referencing.jsonschema import DRAFT202012

from errors import FieldError, validation_failed
from services.core import patterns as pattern_shapes
from services.core.messages import jsonschema_message

MAX_PROPERTIES = 200  # top-level fields of a form
MAX_SCHEMA_BYTES = 256 * 1024
MAX_SCHEMA_DEPTH = 32
MAX_PATTERN_CHARS = 1000
MAX_DATA_BYTES = 256 * 1024  # a submission's data, files aside
MAX_DATA_DEPTH = 32
MAX_MESSAGE_CHARS = 300
# Patterns run with the `regex` module's timeout (Python's `re` has none): one match may take
# PATTERN_TIMEOUT, one submission's matches together VALIDATION_BUDGET (docs/forms.md).
PATTERN_TIMEOUT = 0.05
VALIDATION_BUDGET = 0.5
PROBE_BUDGET = 1.0  # all of a schema's patterns tried against hostile strings, on save
DIALECT = "https://json-schema.org/draft/2020-12/schema"
FILE_KEYWORD = "x-dms-file"
SELF_REFERENCE = "The form's schema refers to itself endlessly."
# Forms have named fields; patternProperties would run client-chosen names through
# client-chosen regexes in code paths without a timeout (jsonschema's own `re`).
REFUSED_KEYWORDS = ("patternProperties", "$id", "$dynamicRef", "$dynamicAnchor", "$recursiveRef")

_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "form_validation_deadline", default=None
)


def _no_retrieval(uri: str):
    """The registry's fetcher: nothing outside the schema itself is ever loaded."""
    raise NoSuchResource(ref=uri)


REGISTRY: Registry = Registry(retrieve=_no_retrieval)  # type: ignore[call-arg]


def _pattern(validator, pattern: str, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """`pattern` with a time budget: a pattern that backtracks for too long fails the field
    with a clear message instead of holding a worker."""
    if not validator.is_type(instance, "string"):
        return
    deadline = _deadline.get()
    left = (
        PATTERN_TIMEOUT if deadline is None else min(PATTERN_TIMEOUT, deadline - time.monotonic())
    )
    try:
        if left <= 0:
            raise TimeoutError
        matched = regex.search(pattern, instance, timeout=left)
    except TimeoutError:
        yield ValidationError(
            "could not be checked against the form's pattern in time (the pattern is too "
            "complex); ask the form's owner to simplify it."
        )
        return
    except regex.error:
        yield ValidationError("the form's pattern is not a valid regular expression.")
        return
    if matched is None:
        yield ValidationError(f"does not match the pattern {pattern!r}.")


def _date_time(value: object) -> bool:
    """RFC 3339 date-time, checked without the optional rfc3339-validator package."""
    if not isinstance(value, str):
        return True
    if not regex.fullmatch(
        r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})", value
    ):
        return False
    try:
        datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


FORMATS = FormatChecker()
FORMATS.checks("date-time")(_date_time)

FormValidator = validators.extend(Draft202012Validator, {"pattern": _pattern})


# --- saving a schema ---------------------------------------------------------------------------


def _error(message: str) -> FieldError:
    return FieldError("VALIDATION_ERROR", f"schema: {message}"[:MAX_MESSAGE_CHARS], "schema")


def _walk(node: Any, path: str, depth: int = 0) -> Iterator[tuple[str, Any, int]]:
    yield path, node, depth
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, f"{path}/{escape_token(str(key))}", depth + 1)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{path}/{i}", depth + 1)


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def depth_of(value: Any, limit: int) -> int:
    """How deep `value` nests, counting no further than limit + 1 (iterative: no recursion)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        children = (
            node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        )
        stack.extend((child, depth + 1) for child in children)
    return deepest


def is_file_field(subschema: Any) -> bool:
    return isinstance(subschema, dict) and (
        subschema.get("format") == "binary" or subschema.get(FILE_KEYWORD) is True
    )


def file_fields(schema: dict) -> list[str]:
    """The top-level fields that take an uploaded file (format binary or x-dms-file)."""
    return [name for name, sub in (schema.get("properties") or {}).items() if is_file_field(sub)]


def check_schema(schema: Any) -> dict:
    """`schema` if a form may use it, else 422 on the field `schema` saying why."""
    if not isinstance(schema, dict):
        raise validation_failed([_error("must be a JSON object (a JSON Schema).")])
    if len(json.dumps(schema)) > MAX_SCHEMA_BYTES:
        raise validation_failed([_error(f"is larger than {MAX_SCHEMA_BYTES} bytes.")])
    if depth_of(schema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH:
        raise validation_failed([_error(f"nests deeper than {MAX_SCHEMA_DEPTH} levels.")])
    if schema.get("type") != "object":
        raise validation_failed([_error('the top level must have "type": "object".')])
    if schema.get("$schema", DIALECT) != DIALECT:
        raise validation_failed([_error(f"$schema, when given, must be {DIALECT}.")])
    try:
        FormValidator.check_schema(schema, format_checker=FormValidator.FORMAT_CHECKER)
    except SchemaError as exc:
        where = "/" + "/".join(escape_token(str(p)) for p in exc.absolute_path)
        message = f"not a valid JSON Schema at {where}: {exc.message}"
        raise validation_failed([_error(message)]) from None
    properties = schema.get("properties") or {}
    if len(properties) > MAX_PROPERTIES:
        raise validation_failed([_error(f"at most {MAX_PROPERTIES} properties (fields).")])
    errors = [_error(m) for m in _problems(schema)]
    if not errors and any(e.message == SELF_REFERENCE for e in data_errors(schema, {})):
        errors.append(_error("a $ref refers back to itself without end."))
    if errors:
        raise validation_failed(errors)
    return schema


def _problems(schema: dict) -> Iterator[str]:
    top_files = {f"/properties/{escape_token(n)}" for n in file_fields(schema)}
    patterns: list[tuple[str, str]] = []
    for path, node, _depth in _walk(schema, ""):
        if not isinstance(node, dict):
            continue
        for keyword in REFUSED_KEYWORDS:
            if keyword in node:
                yield f"{keyword} is not allowed in a form (at {path or '/'})."
        for keyword in ("$ref",):
            ref = node.get(keyword)
            if isinstance(ref, str) and not ref.startswith("#"):
                yield (
                    f"{keyword} {ref[:100]!r} at {path or '/'} points outside the schema; only "
                    "local references (#/$defs/...) are allowed, nothing is ever fetched."
                )
        if is_file_field(node) and path not in top_files:
            yield f"file fields must be top-level properties (at {path})."
        if is_file_field(node) and node.get("type", "string") != "string":
            yield f'a file field has "type": "string" (at {path}).'
        if isinstance(node.get("pattern"), str):
            patterns.append((path, node["pattern"]))
        if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#"):
            yield from _unresolved(schema, path, node["$ref"])
    yield from _pattern_problems(patterns)


def _unresolved(schema: dict, path: str, ref: str) -> Iterator[str]:
    resolver = REGISTRY.with_resource("", DRAFT202012.create_resource(schema)).resolver()
    try:
        resolver.lookup(ref)
    except Unresolvable:
        yield f"$ref {ref[:100]!r} at {path} points to nothing in the schema."


def _pattern_problems(patterns: list[tuple[str, str]]) -> Iterator[str]:
    deadline = time.monotonic() + PROBE_BUDGET
    for path, pattern in patterns:
        problem = pattern_shapes.problem(
            pattern, max_chars=MAX_PATTERN_CHARS, timeout=PATTERN_TIMEOUT, deadline=deadline
        )
        if problem:
            yield f"pattern at {path} {problem}"


# --- validating submitted data -----------------------------------------------------------------


def pointer(parts) -> str:
    return "".join(f"/{escape_token(str(p))}" for p in parts)


def _field_errors(error: ValidationError) -> list[FieldError]:
    """The field(s) one jsonschema error is about: a missing required property and an
    unexpected one are each reported at their own pointer, not at their parent."""
    base = pointer(error.absolute_path)
    instance = error.instance if isinstance(error.instance, dict) else {}
    if error.validator == "required":
        missing = [n for n in error.validator_value if n not in instance]
        name = next((n for n in missing if repr(n) in error.message), missing[:1] or [""])
        name = name if isinstance(name, str) else name[0]
        at = f"{base}/{escape_token(name)}"
        return [FieldError("VALIDATION_ERROR", "This is required.", at)]
    if error.validator == "additionalProperties" and error.validator_value is False:
        known = set(error.schema.get("properties") or {})
        return [
            FieldError(
                "VALIDATION_ERROR", "This is not a field of this form.", f"{base}/{escape_token(k)}"
            )
            for k in sorted(instance)
            if k not in known
        ]
    # Our words per rule (an e-mail's format, a minimum, a choice), not jsonschema's
    # "'x' is not a 'email'": the message reaches people on the public form page.
    message = jsonschema_message(str(error.validator), error.validator_value, error.instance)
    if error.validator == "pattern" and not error.message.startswith("does not match"):
        message = error.message[:1].upper() + error.message[1:]  # ours: `_pattern`'s timeout
    return [FieldError("VALIDATION_ERROR", message[:MAX_MESSAGE_CHARS], base)]


def check_data_shape(data: Any) -> None:
    """Bounds before any validation: a JSON object, not too deep, not too large."""
    if not isinstance(data, dict):
        raise validation_failed([FieldError("VALIDATION_ERROR", "must be a JSON object.", "")])
    if depth_of(data, MAX_DATA_DEPTH) > MAX_DATA_DEPTH:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", f"nests deeper than {MAX_DATA_DEPTH} levels.", "")]
        )
    if len(json.dumps(data)) > MAX_DATA_BYTES:
        raise validation_failed(
            [FieldError("VALIDATION_ERROR", f"is larger than {MAX_DATA_BYTES} bytes.", "")]
        )


def data_errors(schema: dict, data: Any) -> list[FieldError]:
    """Every failing field of `data`, one error each (the most relevant), in field order."""
    check_data_shape(data)
    validator = FormValidator(schema, registry=REGISTRY, format_checker=FORMATS)
    token = _deadline.set(time.monotonic() + VALIDATION_BUDGET)
    try:
        found = sorted(validator.iter_errors(data), key=relevance)
    except RecursionError:  # a $ref loop that this data reaches (docs/forms.md)
        return [FieldError("VALIDATION_ERROR", SELF_REFERENCE, "")]
    finally:
        _deadline.reset(token)
    by_field: dict[str, FieldError] = {}
    for error in found:
        for item in _field_errors(error):
            by_field.setdefault(item.field or "", item)
    return sorted(by_field.values(), key=lambda e: e.field or "")


def validate_data(schema: dict, data: Any) -> None:
    """422 with one error per failing field (`field` is its JSON pointer), or nothing."""
    errors = data_errors(schema, data)
    if errors:
        raise validation_failed(errors)
