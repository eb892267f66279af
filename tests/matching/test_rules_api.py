"""Matching rules through the API (CONTRACT §10): create, list in order, change, delete; every
check at save (a regex bomb, an oversized pattern, custom field and workflow ids of no or
another tenant, an auto rule without tags); scopes and roles; another tenant's rule is a 404."""

from __future__ import annotations

from tests.helpers import audit_actions, auth_headers, bearer
from tests.matching.conftest import RULES, errors_of


def test_a_rule_is_created_listed_in_order_changed_and_deleted(
    client, headers, make_rule, app, tenant
):
    late = make_rule("late", order=5, pattern="invoice")
    early = make_rule(
        "early", order=-1, pattern='"total due"', caseSensitive=True, **{"in": "title"}
    )
    assert late["id"].startswith("mrl_")
    assert early["match"] == {
        "algorithm": "any", "pattern": '"total due"', "caseSensitive": True, "in": "title",
    }  # fmt: skip
    assert early["actions"] == {
        "addTags": ["early"], "setMetadata": {}, "setCustomFields": {}, "startWorkflow": None,
    }  # fmt: skip

    listed = client.get(RULES, headers=headers).get_json()["data"]
    assert [r["name"] for r in listed] == ["early", "late"]
    first = client.get(f"{RULES}?limit=1", headers=headers).get_json()
    cursor = first["meta"]["pagination"]["nextCursor"]
    second = client.get(f"{RULES}?limit=1&cursor={cursor}", headers=headers).get_json()["data"]
    assert [r["name"] for r in second] == ["late"]

    patched = client.patch(
        f"{RULES}/{late['id']}", json={"order": -5, "enabled": False}, headers=headers
    )
    assert patched.status_code == 200 and patched.get_json()["data"]["enabled"] is False
    assert [r["name"] for r in client.get(RULES, headers=headers).get_json()["data"]] == [
        "late", "early",
    ]  # fmt: skip

    deleted = client.delete(f"{RULES}/{late['id']}", headers=headers)
    assert deleted.status_code == 200 and deleted.get_json()["data"]["id"] == late["id"]
    assert client.get(f"{RULES}/{late['id']}", headers=headers).status_code == 404


def test_another_tenants_rule_is_a_404_everywhere(client, make_rule, other_headers):
    rule = make_rule("mine", pattern="x")
    url = f"{RULES}/{rule['id']}"
    assert client.get(url, headers=other_headers).status_code == 404
    assert client.patch(url, json={"name": "x"}, headers=other_headers).status_code == 404
    assert client.delete(url, headers=other_headers).status_code == 404
    applied = client.post(f"{url}/apply", json={"documentIds": ["doc_x"]}, headers=other_headers)
    assert applied.status_code == 404
    assert client.get(RULES, headers=other_headers).get_json()["data"] == []


BOMBS = [r"^(a+)+$", r"(\w+\s?)*$", r"^(a|aa)+$", r"(.*,)*x"]


def test_a_regex_that_can_backtrack_exponentially_is_refused_at_save(make_rule, client, headers):
    for pattern in BOMBS:
        response = make_rule("bomb", status=422, algorithm="regex", pattern=pattern)
        assert "catastrophic backtracking" in errors_of(response)["match.pattern"]
    invalid = make_rule("bad", status=422, algorithm="regex", pattern="(unclosed")
    assert "not a valid regular expression" in errors_of(invalid)["match.pattern"]
    fine = make_rule("fine", algorithm="regex", pattern=r"INV-\d{4,8}")
    bomb = client.patch(
        f"{RULES}/{fine['id']}",
        json={"match": {"algorithm": "regex", "pattern": r"^(a|a)*$"}},
        headers=headers,
    )
    assert "match.pattern" in errors_of(bomb)


def test_oversized_and_empty_inputs_are_refused(make_rule, client, headers):
    too_long = make_rule("long", status=422, algorithm="exact", pattern="a" * 1001)
    assert "match.pattern" in errors_of(too_long)
    assert "match.pattern" in errors_of(make_rule("empty", status=422, algorithm="all"))
    nothing = make_rule("nothing", status=422, pattern="x", actions={})
    assert "actions" in errors_of(nothing)
    tags = make_rule("tags", status=422, pattern="x", actions={"addTags": ["t"] * 51})
    assert "actions.addTags" in errors_of(tags)
    nested = client.post(
        RULES,
        json={"name": "n", "match": {"algorithm": "any", "pattern": "x"},
              "actions": {"setMetadata": {"k": {"deep": ["x"] * 3}}}},
        headers=headers,
    )  # fmt: skip
    assert nested.status_code == 422


def test_an_auto_rule_needs_tags_and_no_pattern(make_rule):
    assert "actions.addTags" in errors_of(
        make_rule("auto", status=422, algorithm="auto", actions={"setMetadata": {"k": "v"}})
    )
    assert "match.pattern" in errors_of(
        make_rule("auto", status=422, algorithm="auto", pattern="x")
    )
    assert make_rule("auto", algorithm="auto")["match"]["algorithm"] == "auto"


def test_custom_field_values_are_checked_by_type_and_tenant(
    client, headers, other_headers, make_rule
):
    field = client.post(
        "/api/v1/custom-fields", json={"name": "Total", "dataType": "integer"}, headers=headers
    ).get_json()["data"]
    theirs = client.post(
        "/api/v1/custom-fields", json={"name": "Theirs", "dataType": "string"},
        headers=other_headers,
    ).get_json()["data"]  # fmt: skip
    ok = make_rule("cf", pattern="x", actions={"setCustomFields": {field["id"]: 12}})
    assert ok["actions"]["setCustomFields"] == {field["id"]: 12}
    wrong_type = make_rule(
        "cf", status=422, pattern="x", actions={"setCustomFields": {field["id"]: "twelve"}}
    )
    assert f"actions.setCustomFields.{field['id']}" in errors_of(wrong_type)
    other = make_rule(
        "cf", status=422, pattern="x", actions={"setCustomFields": {theirs["id"]: "v"}}
    )
    assert f"actions.setCustomFields.{theirs['id']}" in errors_of(other)
    unknown = make_rule("cf", status=422, pattern="x", actions={"setCustomFields": {"cfd_no": 1}})
    assert "actions.setCustomFields.cfd_no" in errors_of(unknown)


def test_a_workflow_definition_of_another_tenant_is_a_422(
    client, headers, other_headers, make_rule
):
    steps = [{"name": "A", "approvers": [{"role": "admin"}]}]
    theirs = client.post(
        "/api/v1/workflows", json={"name": "Theirs", "steps": steps}, headers=other_headers
    )
    assert theirs.status_code == 201, theirs.get_json()
    response = make_rule(
        "wf", status=422, pattern="x", actions={"startWorkflow": theirs.get_json()["data"]["id"]}
    )
    assert "actions.startWorkflow" in errors_of(response)


def test_writes_need_documents_write_and_workflows_write_for_a_workflow(
    client, tenant, create_key, make_rule
):
    read_only = auth_headers(create_key(tenant, ["documents:read"])[1], tenant.id)
    assert make_rule("r", status=403, pattern="x", auth=read_only).status_code == 403
    assert client.get(RULES, headers=read_only).status_code == 200
    writer = auth_headers(create_key(tenant, ["documents:read", "documents:write"])[1], tenant.id)
    make_rule("w", pattern="x", auth=writer)
    refused = make_rule("w", status=403, pattern="x", auth=writer,
                        actions={"startWorkflow": "wfd_x"})  # fmt: skip
    assert refused.get_json()["errors"][0]["code"] == "INSUFFICIENT_SCOPE"


def test_a_person_needs_the_admin_role_to_change_rules(app, tenant, member, admin, make_rule):
    as_member = make_rule("m", status=403, pattern="x", auth=bearer(app, tenant, member))
    assert as_member.get_json()["errors"][0]["code"] == "FORBIDDEN"
    make_rule("a", pattern="x", auth=bearer(app, tenant, admin))


def test_rule_changes_are_audited(app, tenant, client, headers, make_rule):
    rule = make_rule("audited", pattern="x")
    client.patch(f"{RULES}/{rule['id']}", json={"name": "renamed"}, headers=headers)
    client.delete(f"{RULES}/{rule['id']}", headers=headers)
    actions = [a for a in audit_actions(app, tenant.id) if a.startswith("matching_rule.")]
    assert actions == ["matching_rule.created", "matching_rule.updated", "matching_rule.deleted"]
