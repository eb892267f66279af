"""Patterns a form may keep: the catastrophic ones (nested or overlapping repetition) are
refused when the form is saved, with a 422 on `schema` that names the pattern's place;
everyday patterns are kept."""

from __future__ import annotations

import time

import pytest

from tests.forms.conftest import errors_of

CATASTROPHIC = [
    r"^(a+)+$",
    r"^(\w+\s?)*$",
    r"(x+x+)+y",
    r"^([a-zA-Z0-9_\.\-])+\@(([a-zA-Z0-9\-])+\.)+([a-zA-Z0-9]{2,4})+$",  # the classic e-mail
    r"^(a|aa)+$",
    r"^(a|a)*$",
    r"(\d|\d\d)+x",
    r"^(([a-z])+.)+[A-Z]([a-z])+$",
    r"(.*,)*x",
    r"^(a*)*$",
    r"^(\d+|[a-z]+)+$",
    r"^(?:a+){2,50}$",
    r"^(?i:(a|A+))+$",
]

EVERYDAY = [
    r"^[A-Z]{2}\d{4}$",
    r"^\+?[0-9 ]{6,20}$",
    r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
    r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$",
    r"^\d{5}(-\d{4})?$",
    r"^([A-Z][a-z]*)( [A-Z][a-z]*)*$",
    r"^[a-z0-9]+(-[a-z0-9]+)*$",
    r"^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$",
    r"^https?://[\w.-]+(/[\w./-]*)?$",
    r"^(\s*\w+\s*,)*\s*\w+\s*$",
    r"^(?:[A-Z]{3}-)+\d+$",
    r"^(Mr|Mrs|Ms|Dr)\.? [A-Z][a-z]+$",
    r"^(ab|ac)+$",
    r"^#[0-9a-fA-F]{6}$",
]


def _save(client, headers, pattern: str):
    code = {"type": "string", "pattern": pattern}
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "address": {"type": "object", "properties": {"code": code}},
        },
    }
    return client.post(
        "/api/v1/forms", json={"name": "Patterns", "schema": schema}, headers=headers
    )


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_catastrophic_patterns_are_refused_on_save(client, headers, pattern):
    started = time.monotonic()
    response = _save(client, headers, pattern)
    assert time.monotonic() - started < 2
    assert response.status_code == 422, response.get_json()
    message = errors_of(response)["schema"]
    assert "/properties/address/properties/code" in message
    assert "catastrophic backtracking" in message


@pytest.mark.parametrize("pattern", EVERYDAY)
def test_everyday_patterns_are_kept(client, headers, pattern):
    response = _save(client, headers, pattern)
    assert response.status_code == 201, response.get_json()
