"""Our own words for a validation library's complaint: one message per rule, written for a
person filling in a form, so no pydantic or jsonschema text (nor a pydantic.dev link) reaches
the portal or a public form."""

from __future__ import annotations

from typing import Any

EMAIL_EXAMPLE = "name@example.com"

# jsonschema's `format` names, in words a person knows.
FORMATS = {
    "email": f"Enter an e-mail address such as {EMAIL_EXAMPLE}.",
    "idn-email": f"Enter an e-mail address such as {EMAIL_EXAMPLE}.",
    "date": "Enter a date such as 2026-11-21.",
    "date-time": "Enter a date and time such as 2026-11-21T10:00:00Z.",
    "time": "Enter a time such as 10:00:00.",
    "uri": "Enter a web address such as https://example.com.",
    "url": "Enter a web address such as https://example.com.",
    "ipv4": "Enter an IPv4 address such as 192.0.2.10.",
    "ipv6": "Enter an IPv6 address such as 2001:db8::1.",
    "uuid": "Enter a UUID such as 123e4567-e89b-12d3-a456-426614174000.",
}

_JSON_TYPES = {
    "string": "Enter text.",
    "integer": "Enter a whole number.",
    "number": "Enter a number.",
    "boolean": "Choose yes or no.",
    "array": "Give a list.",
    "object": "Give a group of fields.",
    "null": "Leave this empty.",
}


def _plural(n: Any, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _choices(expected: str) -> str:
    """pydantic's "'a', 'b' or 'c'" as "a, b, c"."""
    return expected.replace("'", "").replace(" or ", ", ")


def pydantic_message(error: dict[str, Any]) -> str:
    """One pydantic error (an item of `ValidationError.errors()`) in our words."""
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "This is required."
    if kind == "extra_forbidden":
        return "This field is not one we know; remove it."
    if kind in ("string_too_short", "too_short"):
        n = ctx.get("min_length", 1)
        if kind == "string_too_short":
            return "This is required." if n == 1 else f"Enter at least {_plural(n, 'character')}."
        return f"Add at least {n}." if n != 1 else "Add at least one."
    if kind == "string_too_long":
        return f"Shorten this to {_plural(ctx.get('max_length'), 'character')} or fewer."
    if kind == "too_long":
        return f"Give at most {ctx.get('max_length')}."
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return "Enter a whole number."
    if kind in ("float_parsing", "float_type", "decimal_parsing", "decimal_type"):
        return "Enter a number."
    if kind in ("greater_than_equal", "greater_than"):
        limit = ctx.get("ge", ctx.get("gt"))
        return (
            f"Enter {limit} or more."
            if kind == "greater_than_equal"
            else f"Enter more than {limit}."
        )
    if kind in ("less_than_equal", "less_than"):
        limit = ctx.get("le", ctx.get("lt"))
        return (
            f"Enter {limit} or less." if kind == "less_than_equal" else f"Enter less than {limit}."
        )
    if kind in ("literal_error", "enum"):
        return f"Choose one of: {_choices(str(ctx.get('expected', '')))}."
    if kind in ("bool_parsing", "bool_type"):
        return "Choose yes or no."
    if kind in ("string_type", "string_unicode"):
        return "Enter text."
    if kind in ("list_type", "tuple_type", "set_type"):
        return "Give a list."
    if kind in ("dict_type", "model_type", "model_attributes_type", "dataclass_type"):
        return "Give a group of fields."
    if kind in ("date_parsing", "date_from_datetime_parsing", "date_type"):
        return "Enter a date such as 2026-11-21."
    if kind in ("datetime_parsing", "datetime_from_date_parsing", "datetime_type"):
        return "Enter a date and time such as 2026-11-21T10:00:00Z."
    if kind in ("url_parsing", "url_scheme", "url_type"):
        return "Enter a web address such as https://example.com."
    if kind == "json_invalid":
        return "This is not valid JSON; check the brackets, quotes and commas."
    if kind == "string_pattern_mismatch":
        return "This is not in the expected form."
    if kind in ("value_error", "assertion_error"):
        return _sentence(str(error.get("msg", "")).removeprefix("Value error, "))
    return "This value is not accepted."


def _sentence(text: str) -> str:
    text = text.strip() or "This value is not accepted"
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def jsonschema_message(validator: str, validator_value: Any, instance: Any) -> str:
    """One jsonschema error (its `validator` keyword, the keyword's value, the bad value) in
    our words; `format` and `type` name what to enter, the limits say the limit."""
    if validator == "format":
        return FORMATS.get(str(validator_value), "This is not in the expected form.")
    if validator == "type":
        kinds = validator_value if isinstance(validator_value, list) else [validator_value]
        kinds = [k for k in kinds if k != "null"] or kinds
        return _JSON_TYPES.get(str(kinds[0]), "This value is not accepted.")
    if validator == "required":
        return "This is required."
    if validator == "minLength":
        return (
            "This is required."
            if validator_value == 1
            else (f"Enter at least {_plural(validator_value, 'character')}.")
        )
    if validator == "maxLength":
        return f"Shorten this to {_plural(validator_value, 'character')} or fewer."
    if validator == "minimum":
        return f"Enter {validator_value} or more."
    if validator == "maximum":
        return f"Enter {validator_value} or less."
    if validator == "exclusiveMinimum":
        return f"Enter more than {validator_value}."
    if validator == "exclusiveMaximum":
        return f"Enter less than {validator_value}."
    if validator == "multipleOf":
        return f"Enter a multiple of {validator_value}."
    if validator in ("enum", "const"):
        options = validator_value if isinstance(validator_value, list) else [validator_value]
        return f"Choose one of: {', '.join(str(o) for o in options[:20])}."
    if validator == "pattern":
        return "This is not in the expected form."
    if validator == "minItems":
        return (
            "Choose at least one."
            if validator_value == 1
            else (f"Choose at least {validator_value}.")
        )
    if validator == "maxItems":
        return f"Choose at most {validator_value}."
    if validator == "uniqueItems":
        return "Each choice may appear once."
    if validator == "additionalProperties":
        return "This is not a field of this form."
    return "This value is not accepted."
