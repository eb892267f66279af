"""Our words for a validation library's complaints: each rule has its message, none carries the
library's text or a pydantic.dev link, and an unknown rule still gets a sentence of ours."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, ValidationError

from services.core.messages import jsonschema_message, pydantic_message


class _Sample(BaseModel):
    name: str = Field(min_length=2, max_length=5)
    hours: int = Field(ge=1, le=10)
    mode: str = Field(pattern="^(any|all)$")


@pytest.mark.parametrize(
    ("data", "field", "expected"),
    [
        ({"hours": 1, "mode": "any"}, "name", "This is required."),
        ({"name": "a", "hours": 1, "mode": "any"}, "name", "Enter at least 2 characters."),
        ({"name": "abcdefg", "hours": 1, "mode": "any"}, "name",
         "Shorten this to 5 characters or fewer."),
        ({"name": "ab", "hours": "soon", "mode": "any"}, "hours", "Enter a whole number."),
        ({"name": "ab", "hours": 0, "mode": "any"}, "hours", "Enter 1 or more."),
        ({"name": "ab", "hours": 11, "mode": "any"}, "hours", "Enter 10 or less."),
        ({"name": "ab", "hours": 1, "mode": "most"}, "mode", "This is not in the expected form."),
    ],
)  # fmt: skip
def test_pydantic_rules_in_our_words(data, field, expected):
    with pytest.raises(ValidationError) as caught:
        _Sample.model_validate(data)
    [error] = [e for e in caught.value.errors() if e["loc"] == (field,)]
    message = pydantic_message(error)
    assert message == expected
    assert "pydantic" not in message and "Input should" not in message


def test_a_value_error_keeps_our_own_text_without_the_prefix():
    error = {"type": "value_error", "msg": "Value error, give exactly one of user, email or role"}
    assert pydantic_message(error) == "Give exactly one of user, email or role."
    assert pydantic_message({"type": "something_new", "msg": "x"}) == "This value is not accepted."


@pytest.mark.parametrize(
    ("validator", "value", "expected"),
    [
        ("format", "email", "Enter an e-mail address such as name@example.com."),
        ("format", "date", "Enter a date such as 2026-11-21."),
        ("type", ["integer", "null"], "Enter a whole number."),
        ("minimum", 1, "Enter 1 or more."),
        ("maxLength", 1, "Shorten this to 1 character or fewer."),
        ("enum", ["a", "b"], "Choose one of: a, b."),
        ("minItems", 1, "Choose at least one."),
        ("oneOf", [], "This value is not accepted."),
    ],
)
def test_jsonschema_rules_in_our_words(validator, value, expected):
    assert jsonschema_message(validator, value, "not-an-email") == expected
