"""What each data type accepts as a value and how it is kept: a value as the API gives it,
checked, becomes a `Typed` (its JSON text as every answer shows it, and the typed column a
filter compares). A refusal is a ValueError whose message names what was expected."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from models.customfields import CustomField, CustomFieldType
from services.customfields.currencies import ISO_4217

MAX_STRING = 500
MAX_LINKS = 50
MIN_INT64, MAX_INT64 = -(2**63), 2**63 - 1
# At most 13 digits before the point and 2 after: 15 significant digits, which a double
# (value_num) holds exactly enough that comparing amounts never orders two of them wrongly.
AMOUNT_RE = re.compile(r"-?(0|[1-9][0-9]{0,12})(\.[0-9]{1,2})?")
DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
DOCUMENT_ID_RE = re.compile(r"doc_[0-9a-z]{26}")
_CENTS = Decimal("0.01")


@dataclass(frozen=True)
class Typed:
    """A checked value: `json` as answers show it, and the column filters compare."""

    json: str
    text: str | None = None
    int_: int | None = None
    num: float | None = None
    date_: date | None = None
    bool_: bool | None = None
    links: tuple[str, ...] = ()


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def check_string(raw: Any) -> str:
    if not isinstance(raw, str):
        raise ValueError("a string is expected")
    if len(raw) > MAX_STRING:
        raise ValueError(f"at most {MAX_STRING} characters")
    if "\x00" in raw:
        raise ValueError("a string may not hold NUL characters")
    return raw


def check_integer(raw: Any) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise ValueError("an integer is expected")
    if not MIN_INT64 <= raw <= MAX_INT64:
        raise ValueError("an integer of at most 64 bits is expected")
    return raw


def check_number(raw: Any) -> float:
    if not isinstance(raw, int | float) or isinstance(raw, bool):
        raise ValueError("a number is expected")
    try:
        value = float(raw)
    except OverflowError:
        raise ValueError("a number in the range of a double is expected") from None
    if not math.isfinite(value):
        raise ValueError("a finite number is expected")
    return value


def check_amount(raw: Any, numbers: bool = False) -> Decimal:
    """A decimal string (with `numbers`, as filters take it, a JSON number too) with at most
    13 digits before the point and 2 after, as a Decimal to the cent."""
    if numbers and isinstance(raw, int | float) and not isinstance(raw, bool):
        raw = str(raw) if math.isfinite(raw) else ""
    if not isinstance(raw, str) or not AMOUNT_RE.fullmatch(raw):
        raise ValueError(
            "amount: a decimal string with at most 13 digits before the point and 2 after "
            '(e.g. "123.45") is expected'
        )
    amount = Decimal(raw).quantize(_CENTS)
    return amount if amount != 0 else Decimal("0.00")  # no "-0.00"


def check_currency(raw: Any) -> str:
    if not isinstance(raw, str) or raw not in ISO_4217:
        raise ValueError("currency: an ISO 4217 code in capitals (e.g. EUR) is expected")
    return raw


def check_date(raw: Any) -> date:
    if not isinstance(raw, str) or not DATE_RE.fullmatch(raw):
        raise ValueError("a date written YYYY-MM-DD is expected")
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise ValueError(f"{raw} is not a day of the calendar") from None


def check_option(field: CustomField, raw: Any) -> str:
    if not isinstance(raw, str) or raw not in {o["id"] for o in field.options}:
        raise ValueError("the id of one of the field's options is expected")
    return raw


def check_document_id(raw: Any) -> str:
    if not isinstance(raw, str) or not DOCUMENT_ID_RE.fullmatch(raw):
        raise ValueError("document ids (doc_…) are expected")
    return raw


def typed(field: CustomField, raw: Any) -> Typed:
    """`raw` (not null) checked against the field's data type. A documentLink's ids are
    checked for shape here; that they are the tenant's documents, by the caller."""
    kind = CustomFieldType(field.data_type)
    if kind is CustomFieldType.STRING:
        value = check_string(raw)
        return Typed(_dumps(value), text=value)
    if kind is CustomFieldType.INTEGER:
        number = check_integer(raw)
        return Typed(_dumps(number), int_=number)
    if kind is CustomFieldType.NUMBER:
        real = check_number(raw)
        return Typed(_dumps(real), num=real)
    if kind is CustomFieldType.MONETARY:
        if not isinstance(raw, dict) or set(raw) != {"currency", "amount"}:
            raise ValueError('an object {"currency": "EUR", "amount": "123.45"} is expected')
        currency, amount = check_currency(raw["currency"]), check_amount(raw["amount"])
        shown = {"currency": currency, "amount": str(amount)}
        return Typed(_dumps(shown), text=currency, num=float(amount))
    if kind is CustomFieldType.BOOLEAN:
        if not isinstance(raw, bool):
            raise ValueError("true or false is expected")
        return Typed(_dumps(raw), bool_=raw)
    if kind is CustomFieldType.DATE:
        day = check_date(raw)
        return Typed(_dumps(day.isoformat()), date_=day)
    if kind is CustomFieldType.SELECT:
        option = check_option(field, raw)
        return Typed(_dumps(option), text=option)
    if not isinstance(raw, list) or not raw:
        raise ValueError("a non-empty list of document ids (doc_…) is expected")
    links = tuple(dict.fromkeys(check_document_id(item) for item in raw))
    if len(links) > MAX_LINKS:
        raise ValueError(f"at most {MAX_LINKS} documents")
    return Typed(_dumps(list(links)), links=links)
