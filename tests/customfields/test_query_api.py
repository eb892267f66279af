"""The documents list's customFieldQuery: every op on every type it applies to, AND/OR/NOT,
beside the other filters, the sort and keyset pages; and its refusals (400
INVALID_PARAMETER): malformed, too long, too deep, too many conditions, a value that does not
fit the op or the field, a field of another tenant (by id or by name)."""

from __future__ import annotations

import json
import time

import pytest

from extensions import db
from services.customfields import query as custom_field_query

DOCS = "/api/v1/documents"


@pytest.fixture
def corpus(make_field, make_doc, patch_values):
    """Five documents with values of four fields; returns (fields by name, ids by title)."""
    fields = {
        "amount": make_field("Amount", "monetary"),
        "count": make_field("Count", "integer"),
        "due": make_field("Due", "date"),
        "ref": make_field("Reference"),
        "kind": make_field("Kind", "select", options=[{"label": "Invoice"}, {"label": "Bill"}]),
        "paid": make_field("Paid", "boolean"),
        "ratio": make_field("Ratio", "number"),
        "link": make_field("Link", "documentLink"),
    }
    invoice, bill = (o["id"] for o in fields["kind"]["options"])
    rows = {
        "a": {"amount": ("EUR", "10.00"), "count": 1, "due": "2025-01-15", "ref": "INV-001",
              "kind": invoice, "paid": True, "ratio": 0.5},
        "b": {"amount": ("EUR", "250.50"), "count": 5, "due": "2025-02-28", "ref": "inv-002",
              "kind": bill, "paid": False, "ratio": 1.5},
        "c": {"amount": ("USD", "250.50"), "count": 9, "due": "2025-03-01", "ref": "50% off_x",
              "kind": invoice},
        "d": {"count": 12},
        "e": {},
    }  # fmt: skip
    ids = {}
    for title, values in rows.items():
        ids[title] = make_doc(title)["id"]
        body = {}
        for name, value in values.items():
            if name == "amount":
                value = {"currency": value[0], "amount": value[1]}
            body[fields[name]["id"]] = value
        if title == "e":
            body[fields["link"]["id"]] = [ids["a"], ids["b"]]
        if body:
            assert patch_values(ids[title], body).status_code == 200
    return fields, ids


def _titles(client, headers, query, **params) -> list[str]:
    response = client.get(
        DOCS, query_string={"customFieldQuery": json.dumps(query), **params}, headers=headers
    )
    assert response.status_code == 200, response.get_json()
    return sorted(d["title"] for d in response.get_json()["data"])


def _refusal(client, headers, text: str) -> str:
    response = client.get(DOCS, query_string={"customFieldQuery": text}, headers=headers)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["errors"][0]
    assert error["code"] == "INVALID_PARAMETER" and error["field"] == "customFieldQuery"
    return error["message"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (["Amount", "exact", {"currency": "EUR", "amount": "250.50"}], ["b"]),
        (["Amount", "exact", "250.5"], ["b", "c"]),
        (["amount", "gt", "10"], ["b", "c"]),
        (["Amount", "range", ["10", 250.5]], ["a", "b", "c"]),
        (["Count", "gte", 5], ["b", "c", "d"]),
        (["Count", "lt", 5], ["a"]),
        (["Count", "in", [1, 12]], ["a", "d"]),
        (["Count", "range", [2, 9]], ["b", "c"]),
        (["Due", "lte", "2025-02-28"], ["a", "b"]),
        (["Due", "range", ["2025-02-01", "2025-03-31"]], ["b", "c"]),
        (["Due", "exact", "2025-03-01"], ["c"]),
        (["Reference", "exact", "INV-001"], ["a"]),
        (["REFERENCE", "icontains", "inv"], ["a", "b"]),
        (["Reference", "icontains", "50%"], ["c"]),
        (["Reference", "icontains", "_"], ["c"]),
        (["Reference", "in", ["inv-002", "nope"]], ["b"]),
        (["Kind", "icontains", "voi"], ["a", "c"]),
        (["Paid", "exact", False], ["b"]),
        (["Ratio", "gt", 1], ["b"]),
        (["Ratio", "exists", True], ["a", "b"]),
        (["Ratio", "isnull", True], ["c", "d", "e"]),
        (["Ratio", "exists", False], ["c", "d", "e"]),
        (["Ratio", "isnull", False], ["a", "b"]),
        (["AND", [["Count", "gte", 5], ["Amount", "exists", True]]], ["b", "c"]),
        (["OR", [["Count", "exact", 12], ["Paid", "exact", True]]], ["a", "d"]),
        (["NOT", ["Count", "gte", 5]], ["a", "e"]),
        (["NOT", ["NOT", ["Count", "gte", 5]]], ["b", "c", "d"]),
        (["OR", [["AND", [["Count", "gt", 0], ["NOT", ["Due", "exists", True]]]],
                 ["Kind", "icontains", "bill"]]], ["b", "d"]),
    ],
)  # fmt: skip
@pytest.mark.parametrize("few", [1_000, 0], ids=["few-matches-in", "many-matches-exists"])
def test_each_op_finds_what_it_says(client, headers, corpus, monkeypatch, query, expected, few):
    monkeypatch.setattr(custom_field_query, "FEW", few)
    assert _titles(client, headers, query) == expected


def test_the_shape_follows_how_many_documents_the_atoms_match(app, corpus, tenant, monkeypatch):
    """SQLite: few matches, IN (the database reads them and sorts); more, a correlated EXISTS
    (the list walks its order). Counted per atom up to FEW + 1; NOT counts as many.
    PostgreSQL: always IN, which its planner turns into either."""
    text = json.dumps(["Count", "gte", 5])
    with app.app_context():
        if db.engine.dialect.name == "postgresql":  # its planner chooses, from statistics
            monkeypatch.setattr(custom_field_query, "FEW", 0)
            assert " IN (SELECT" in str(custom_field_query.compile_query(tenant.id, text))
            return
        assert " IN (SELECT" in str(custom_field_query.compile_query(tenant.id, text))
        monkeypatch.setattr(custom_field_query, "FEW", 2)
        assert "EXISTS (SELECT" in str(custom_field_query.compile_query(tenant.id, text))
        narrow = json.dumps(["AND", [["Count", "gte", 5], ["Count", "exact", 12]]])
        assert " IN (SELECT" in str(custom_field_query.compile_query(tenant.id, narrow))
        negated = json.dumps(["NOT", ["Count", "exact", 12]])
        assert "EXISTS (SELECT" in str(custom_field_query.compile_query(tenant.id, negated))


def test_select_exact_and_document_links(client, headers, corpus):
    fields, ids = corpus
    invoice = fields["kind"]["options"][0]["id"]
    assert _titles(client, headers, [fields["kind"]["id"], "exact", invoice]) == ["a", "c"]
    assert _titles(client, headers, ["Link", "in", [ids["b"]]]) == ["e"]
    assert _titles(client, headers, ["Link", "in", [ids["c"]]]) == []


def test_it_goes_with_the_other_filters_the_sort_and_the_pages(
    client, headers, corpus, patch_values
):
    _fields, ids = corpus
    query = json.dumps(["Count", "gte", 1])
    assert (
        client.patch(f"{DOCS}/{ids['c']}", json={"tags": ["red"]}, headers=headers).status_code
        == 200
    )
    tagged = client.get(
        DOCS, query_string={"customFieldQuery": query, "tag": "red"}, headers=headers
    )
    assert [d["title"] for d in tagged.get_json()["data"]] == ["c"]
    seen, cursor = [], None
    while True:
        params = {"customFieldQuery": query, "limit": 1, "sort": "title"}
        if cursor:
            params["cursor"] = cursor
        page = client.get(DOCS, query_string=params, headers=headers).get_json()
        seen += [d["title"] for d in page["data"]]
        cursor = page["meta"]["pagination"].get("nextCursor")
        if not cursor:
            break
    assert seen == ["a", "b", "c", "d"]
    # the cursor is bound to the query: another query refuses it
    first = client.get(DOCS, query_string={"customFieldQuery": query, "limit": 1}, headers=headers)
    token = first.get_json()["meta"]["pagination"]["nextCursor"]
    other = json.dumps(["Count", "gte", 2])
    wrong = client.get(DOCS, query_string={"customFieldQuery": other, "cursor": token, "limit": 1},
                       headers=headers)  # fmt: skip
    assert wrong.status_code == 400 and wrong.get_json()["errors"][0]["code"] == "INVALID_CURSOR"


def _nested(depth: int) -> list:
    """`depth` expressions: NOTs around one atom (the atom counts)."""
    query: list = ["Count", "exists", True]
    for _ in range(depth - 1):
        query = ["NOT", query]
    return query


def test_depth_ten_is_allowed_and_eleven_is_not(client, headers, corpus):
    assert _titles(client, headers, _nested(10)) == ["e"]  # nine NOTs: an odd number
    assert "deeper than 10" in _refusal(client, headers, json.dumps(_nested(11)))
    and_nested: list = ["Count", "exists", True]
    for _ in range(10):
        and_nested = ["AND", [and_nested]]
    assert "deeper than 10" in _refusal(client, headers, json.dumps(and_nested))


def test_twenty_conditions_are_allowed_and_twenty_one_are_not(client, headers, corpus):
    atoms = [["Count", "exact", n] for n in range(21)]
    assert _titles(client, headers, ["OR", atoms[:20]]) == ["a", "b", "c", "d"]
    assert "at most 20 conditions" in _refusal(client, headers, json.dumps(["OR", atoms]))
    spread = ["AND", [["OR", atoms[:11]], ["OR", atoms[11:]]]]
    assert "at most 20 conditions" in _refusal(client, headers, json.dumps(spread))


def test_a_query_ten_thousand_characters_long_is_refused_at_once(client, headers, corpus):
    """Over 8,192 characters: 400 from the parameter's length. Past the URL's 16 KiB (ten
    thousand brackets, three bytes each once encoded): 414 before any view runs."""
    cases = [
        (json.dumps(["Reference", "exact", "x" * 9_974]), 400, "INVALID_PARAMETER"),
        ("[" * 10_000, 414, "URI_TOO_LONG"),
    ]
    for text, status, code in cases:
        assert len(text) >= 10_000
        started = time.perf_counter()
        response = client.get(DOCS, query_string={"customFieldQuery": text}, headers=headers)
        assert response.status_code == status
        assert response.get_json()["errors"][0]["code"] == code
        assert time.perf_counter() - started < 1
    # within the length, brackets nested past any valid query stop before the parser
    assert "deeper than 10" in _refusal(client, headers, "[" * 5_000)
    assert "deeper than 10" in _refusal(client, headers, '{"a":' * 1_000 + "1" + "}" * 1_000)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not json", "not valid JSON"),
        ('["Count", "gt", NaN]', "not valid JSON"),
        ("{}", "each expression is"),
        ('"Count"', "each expression is"),
        ('["Count", "gt"]', "is not AND, OR or NOT"),
        ('["XOR", [["Count", "gt", 1]]]', "is not AND, OR or NOT"),
        ('["AND", []]', "non-empty list"),
        ('["AND", ["Count", "gt", 1]]', "each expression is"),
        ('["Count", "contains", 1]', "is not one of"),
        ('[1, "gt", 1]', "by its id or its name"),
        ('["Nope", "gt", 1]', "no custom field 'Nope'"),
        ('["Count", "gt", "5"]', "an integer is expected"),
        ('["Count", "icontains", "5"]', "icontains does not apply"),
        ('["Reference", "gt", "a"]', "gt does not apply"),
        ('["Paid", "in", [true]]', "in does not apply"),
        ('["Link", "exact", []]', "exact does not apply"),
        ('["Link", "in", ["nope"]]', "document ids"),
        ('["Count", "range", [1]]', "[low, high]"),
        ('["Count", "in", []]', "a list of 1 to 100"),
        ('["Due", "gt", "2025-02-30"]', "not a day of the calendar"),
        ('["Amount", "gt", "12345678901234567890"]', "13 digits"),
        ('["Amount", "exact", {"currency": "XYZ", "amount": "1.00"}]', "ISO 4217"),
        ('["Kind", "exact", "opt_nope"]', "one of the field's options"),
        ('["Ratio", "exists", "yes"]', "true or false"),
        ('["Paid", "exact", 1]', "true or false"),
    ],
)
def test_refusals_say_why(client, headers, corpus, text, says):
    assert says in _refusal(client, headers, text)


def test_another_tenants_field_is_unknown_by_id_and_by_name(
    client, headers, corpus, make_field, other_headers, make_doc, patch_values
):
    theirs = make_field("Secret total", "integer", auth=other_headers)
    their_doc = make_doc("theirs", auth=other_headers)
    assert patch_values(their_doc["id"], {theirs["id"]: 7}, auth=other_headers).status_code == 200
    for reference in (theirs["id"], "Secret total"):
        message = _refusal(client, headers, json.dumps([reference, "exists", True]))
        assert "no custom field" in message
    # and our own fields never find their documents
    mine = _titles(client, headers, ["Count", "exists", True])
    assert "theirs" not in mine
    theirs_listed = client.get(
        DOCS, query_string={"customFieldQuery": json.dumps(["Count", "exists", False])},
        headers=other_headers,
    )  # fmt: skip
    assert theirs_listed.status_code == 400  # "Count" is not theirs
