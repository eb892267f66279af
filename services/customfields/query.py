"""customFieldQuery: the documents list's filter on custom field values, in paperless-ngx's
JSON shape, compiled to one SQL condition on `documents.id`.

    query := [field, op, value] | ["AND" | "OR", [query, ...]] | ["NOT", query]

`field` is a field's id (cfd_…) or its name (ignoring case), of the caller's tenant: any
other is unknown. Every atom selects the documents whose value of one field meets the op,
from the index (tenant_id, field_id, value_…, document_id) of the op's typed column; AND, OR
and NOT combine them in one condition on `documents.id`, beside the list's other filters, sort
and keyset (`FEW` says which of two SQL shapes each atom takes). Every refusal is 400
INVALID_PARAMETER naming customFieldQuery; the depth (every expression counts, an atom too)
and the number of atoms are bounded as paperless-ngx bounds them, and the text's nesting is
checked before it is parsed, so no input costs more than its length."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, false, func, not_, or_, select, union

from errors import DomainError, invalid_parameter
from extensions import db
from models.customfields import CustomField, CustomFieldType, CustomFieldValue
from models.documents import Document
from services.customfields import types
from services.customfields.fields import name_key

PARAMETER = "customFieldQuery"
MAX_DEPTH = 10
MAX_ATOMS = 20
MAX_IN_VALUES = 100
# Brackets deeper than any query of MAX_DEPTH can nest: `["AND", [` is two per level, an
# atom one, its value one more (a list of in or range, a monetary object).
MAX_BRACKETS = 2 * MAX_DEPTH + 2
LOGICAL = {"AND", "OR", "NOT"}

V = CustomFieldValue
_COLUMN = {
    CustomFieldType.STRING: V.value_text,
    CustomFieldType.SELECT: V.value_text,
    CustomFieldType.INTEGER: V.value_int,
    CustomFieldType.NUMBER: V.value_num,
    CustomFieldType.MONETARY: V.value_num,
    CustomFieldType.DATE: V.value_date,
    CustomFieldType.BOOLEAN: V.value_bool,
}
_COMPARABLE = {
    CustomFieldType.INTEGER,
    CustomFieldType.NUMBER,
    CustomFieldType.MONETARY,
    CustomFieldType.DATE,
}
_OPS: dict[str, set[CustomFieldType]] = {
    "exists": set(CustomFieldType),
    "isnull": set(CustomFieldType),
    "exact": set(CustomFieldType) - {CustomFieldType.DOCUMENT_LINK},
    "in": set(CustomFieldType) - {CustomFieldType.BOOLEAN, CustomFieldType.MONETARY},
    "icontains": {CustomFieldType.STRING, CustomFieldType.SELECT},
    **{op: _COMPARABLE for op in ("gt", "gte", "lt", "lte", "range")},
}


# The order a form offers the ops in.
OPERATOR_ORDER = ("exact", "icontains", "gt", "gte", "lt", "lte", "range", "in", "exists", "isnull")


def operators_for(data_type: str) -> list[str]:
    """The ops that apply to a field of this data type, in OPERATOR_ORDER."""
    kind = CustomFieldType(data_type)
    return [op for op in OPERATOR_ORDER if kind in _OPS[op]]


def _refuse(message: str) -> DomainError:
    return invalid_parameter(f"{PARAMETER}: {message}", PARAMETER)


def check_nesting(text: str) -> None:
    """Refuse brackets nested deeper than any valid query, before a JSON parser recurses."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_BRACKETS:
                raise _refuse(f"nested deeper than {MAX_DEPTH} expressions.")
        elif char in "]}":
            depth -= 1


@dataclass
class _Parsed:
    """The query checked for shape, its field references still names or ids."""

    tree: Any
    references: set[str]


def parse(text: str) -> _Parsed:
    check_nesting(text)
    try:
        tree = json.loads(text, parse_constant=_no_constant)
    except ValueError as exc:
        raise _refuse(f"not valid JSON ({exc}).") from None
    references: set[str] = set()
    atoms = _walk(tree, 1, references)
    if atoms > MAX_ATOMS:
        raise _refuse(f"at most {MAX_ATOMS} conditions.")
    return _Parsed(tree, references)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _walk(expr: Any, depth: int, references: set[str]) -> int:
    """The number of atoms in `expr`, its shape and depth checked."""
    if depth > MAX_DEPTH:
        raise _refuse(f"nested deeper than {MAX_DEPTH} expressions.")
    if not isinstance(expr, list) or len(expr) not in (2, 3):
        raise _refuse('each expression is [field, op, value], ["AND"|"OR", [...]] or ["NOT", q].')
    if len(expr) == 2:
        operator, operand = expr
        if operator == "NOT":
            return _walk(operand, depth + 1, references)
        if operator not in ("AND", "OR"):
            raise _refuse(f"{operator!r} is not AND, OR or NOT.")
        if not isinstance(operand, list) or not operand:
            raise _refuse(f"{operator} takes a non-empty list of queries.")
        total = 0
        for item in operand:
            total += _walk(item, depth + 1, references)
            if total > MAX_ATOMS:
                raise _refuse(f"at most {MAX_ATOMS} conditions.")
        return total
    reference, op, _value = expr
    if not isinstance(reference, str) or not reference or len(reference) > 128:
        raise _refuse("a field is named by its id or its name (a string).")
    if op not in _OPS:
        raise _refuse(f"{op!r} is not one of {', '.join(sorted(_OPS))}.")
    references.add(reference)
    return 1


def compile_query(tenant_id: str, text: str) -> ColumnElement[bool]:
    """The condition on Document that `text` asks for, in `tenant_id`; 400 when it is
    malformed, too deep or too long, names a field the tenant does not have, or gives an op
    a value that does not fit the field's type."""
    parsed = parse(text)
    fields = _resolve(tenant_id, parsed.references)
    plan = _Compiler(tenant_id, fields).expression(parsed.tree)
    if db.session.get_bind().dialect.name == "postgresql":
        return _render(plan, tenant_id, few=True)  # its planner weighs both from statistics
    few = _estimate(plan, _counts(tenant_id, plan)) <= FEW
    return _render(plan, tenant_id, few)


def _resolve(tenant_id: str, references: set[str]) -> dict[str, CustomField]:
    """Each reference's field: an id of the tenant's, else a name (ignoring case)."""
    keys = {name_key(r) for r in references}
    rows = db.session.scalars(
        select(CustomField).where(
            CustomField.tenant_id == tenant_id,
            or_(CustomField.id.in_(sorted(references)), CustomField.name_key.in_(sorted(keys))),
        )
    ).all()
    by_id = {f.id: f for f in rows}
    by_name = {f.name_key: f for f in rows}
    found = {}
    for reference in references:
        field = by_id.get(reference) or by_name.get(name_key(reference))
        if field is None:
            raise _refuse(f"no custom field {reference[:128]!r}.")
        found[reference] = field
    return found


# --- the plan: what each atom selects, then one of two SQL shapes for it ----------------------

# When the query matches at most this many documents (by its atoms' counts, each capped at
# FEW + 1), each atom is `documents.id IN (the atom's documents)`: the database reads those
# few and sorts them. More, and each atom is a correlated EXISTS on the values' primary key
# (document_id, field_id): the list walks the documents in its order and stops at a page.
# Each shape is slow where the other is fast (IN reads every match before sorting, EXISTS
# walks the list until a page is full), and SQLite's planner does not choose between them.
# PostgreSQL's does, from its statistics, given IN: it gets IN, and no counting.
FEW = 1_000


@dataclass(frozen=True, eq=False)
class _Atom:
    field: CustomField
    conditions: tuple


@dataclass(frozen=True)
class _Not:
    inner: Any


@dataclass(frozen=True)
class _All:
    parts: tuple


@dataclass(frozen=True)
class _Any:
    parts: tuple


class _Nothing:
    """An atom no value can meet (icontains matching no option's label)."""


def _atoms(plan: Any) -> list[_Atom]:
    if isinstance(plan, _Atom):
        return [plan]
    if isinstance(plan, _Not):
        return _atoms(plan.inner)
    if isinstance(plan, _All | _Any):
        return [a for part in plan.parts for a in _atoms(part)]
    return []


def _atom_filter(tenant_id: str, atom: _Atom) -> tuple:
    return (V.tenant_id == tenant_id, V.field_id == atom.field.id, *atom.conditions)


def _counts(tenant_id: str, plan: Any) -> dict[int, int]:
    """Each atom's number of documents, counted up to FEW + 1 on its index, in one query."""
    atoms = _atoms(plan)
    if not atoms:
        return {}
    counted = [
        select(func.count())
        .select_from(
            select(V.document_id).where(*_atom_filter(tenant_id, a)).limit(FEW + 1).subquery()
        )
        .scalar_subquery()
        for a in atoms
    ]
    row = db.session.execute(select(*counted)).one()
    return {id(a): n for a, n in zip(atoms, row, strict=True)}


def _estimate(plan: Any, counts: dict[int, int]) -> int:
    """At most how many documents `plan` matches, as far as FEW + 1 tells."""
    if isinstance(plan, _Atom):
        return counts[id(plan)]
    if isinstance(plan, _All):
        return min(_estimate(part, counts) for part in plan.parts)
    if isinstance(plan, _Any):
        return sum(_estimate(part, counts) for part in plan.parts)
    if isinstance(plan, _Not):
        return FEW + 1  # the documents without: as many as there are
    return 0


def _render(plan: Any, tenant_id: str, few: bool) -> ColumnElement[bool]:
    if isinstance(plan, _Atom):
        found = select(V.document_id).where(*_atom_filter(tenant_id, plan))
        if few:
            return Document.id.in_(found)
        return found.where(V.document_id == Document.id).exists()
    if isinstance(plan, _Not):
        return not_(_render(plan.inner, tenant_id, few))
    if few and isinstance(plan, _Any) and all(isinstance(p, _Atom) for p in plan.parts):
        # one set of the atoms' documents: an OR of IN subqueries is a walk on PostgreSQL
        found = [select(V.document_id).where(*_atom_filter(tenant_id, p)) for p in plan.parts]
        return Document.id.in_(union(*found))
    if isinstance(plan, _All | _Any):
        parts = [_render(part, tenant_id, few) for part in plan.parts]
        return and_(*parts) if isinstance(plan, _All) else or_(*parts)
    return false()


class _Compiler:
    """The query's tree as a plan of atoms (each: a field and the conditions on its value)."""

    def __init__(self, tenant_id: str, fields: dict[str, CustomField]) -> None:
        self.tenant_id = tenant_id
        self.fields = fields

    def expression(self, expr: list) -> Any:
        if len(expr) == 2:
            operator, operand = expr
            if operator == "NOT":
                return _Not(self.expression(operand))
            parts = tuple(self.expression(item) for item in operand)
            return _All(parts) if operator == "AND" else _Any(parts)
        reference, op, value = expr
        return self.atom(self.fields[reference], op, value)

    def _having(self, field: CustomField, *conditions) -> _Atom:
        """Documents with a value of `field` that meets `conditions`."""
        return _Atom(field, conditions)

    def atom(self, field: CustomField, op: str, value: Any) -> Any:
        kind = CustomFieldType(field.data_type)
        if kind not in _OPS[op]:
            raise _refuse(f"{op} does not apply to the {kind} field {field.name!r}.")
        try:
            return self._atom(field, kind, op, value)
        except ValueError as exc:
            raise _refuse(f"{field.name!r} {op}: {exc}.") from None

    def _atom(self, field: CustomField, kind: CustomFieldType, op: str, value: Any) -> Any:
        if op in ("exists", "isnull"):
            if not isinstance(value, bool):
                raise ValueError("true or false is expected")
            present = self._having(field)
            return present if value == (op == "exists") else _Not(present)
        if kind is CustomFieldType.DOCUMENT_LINK:  # `in`: links any of the documents
            ids = self._list(value, types.check_document_id)
            like = [V.value_json.like(f'%"{ident}"%') for ident in ids]
            return self._having(field, or_(*like))
        if kind is CustomFieldType.MONETARY and op == "exact":
            if isinstance(value, dict):
                money = types.typed(field, value)
                return self._having(field, V.value_text == money.text, V.value_num == money.num)
            return self._having(field, V.value_num == self._scalar(field, kind, value))
        column = _COLUMN[kind]
        if op == "icontains":
            return self._icontains(field, kind, value)
        if op == "in":
            values = self._list(value, lambda item: self._scalar(field, kind, item))
            return self._having(field, column.in_(values))
        if op == "range":
            if not isinstance(value, list) or len(value) != 2:
                raise ValueError("[low, high] is expected")
            low, high = (self._scalar(field, kind, item) for item in value)
            return self._having(field, column.between(low, high))
        scalar = self._scalar(field, kind, value)
        compare: dict[str, Callable[[Any], Any]] = {
            "exact": column.__eq__,
            "gt": column.__gt__,
            "gte": column.__ge__,
            "lt": column.__lt__,
            "lte": column.__le__,
        }
        return self._having(field, compare[op](scalar))

    def _scalar(self, field: CustomField, kind: CustomFieldType, value: Any) -> Any:
        """One value in the column's type (a monetary comparison takes an amount)."""
        if kind is CustomFieldType.MONETARY:
            return float(types.check_amount(value, numbers=True))
        if kind is CustomFieldType.STRING:
            return types.check_string(value)
        if kind is CustomFieldType.SELECT:
            return types.check_option(field, value)
        if kind is CustomFieldType.INTEGER:
            return types.check_integer(value)
        if kind is CustomFieldType.NUMBER:
            return types.check_number(value)
        if kind is CustomFieldType.DATE:
            return types.check_date(value)
        if not isinstance(value, bool):
            raise ValueError("true or false is expected")
        return value

    @staticmethod
    def _list(value: Any, check: Callable[[Any], Any]) -> list:
        if not isinstance(value, list) or not value or len(value) > MAX_IN_VALUES:
            raise ValueError(f"a list of 1 to {MAX_IN_VALUES} values is expected")
        return [check(item) for item in value]

    def _icontains(self, field: CustomField, kind: CustomFieldType, value: Any):
        """A string's value, or a select's option label, containing `value` (any case)."""
        text = types.check_string(value).lower()
        if kind is CustomFieldType.SELECT:
            chosen = [o["id"] for o in field.options if text in o["label"].lower()]
            return self._having(field, V.value_text.in_(chosen)) if chosen else _Nothing()
        lowered = func.lower(V.value_text)
        return self._having(field, lowered.contains(text, autoescape=True))
