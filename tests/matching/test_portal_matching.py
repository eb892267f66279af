"""The portal's matching rules page (admins): rules listed in the order they run, create with
errors beside the fields (a regex bomb among them), edit, disable and enable, delete, apply
to every document as a job, train the classifier; CSRF on every form, roles, and another
tenant's rules answering 404."""

from __future__ import annotations

import re

from sqlalchemy import select

from extensions import db
from models import Document, Job, MatchingRule
from tests.helpers import audit_actions, auth_headers, post, sign_in


def _rule(app, name: str) -> MatchingRule | None:
    with app.app_context():
        rule = db.session.scalar(select(MatchingRule).where(MatchingRule.name == name))
        if rule is not None:
            db.session.expunge(rule)
        return rule


def _form(name: str, **extra) -> dict:
    form = {"name": name, "order": "0", "enabled": "on", "algorithm": "any",
            "pattern": "invoice", "in": "content", "add_tags": "invoice, finance"}  # fmt: skip
    return {**form, **extra}


def test_admins_create_edit_toggle_and_delete_rules_listed_in_order(app, admin_client, tenant):
    assert admin_client.get("/matching-rules").status_code == 200
    assert post(admin_client, "/matching-rules", _form("Later", order="9")).status_code == 302
    assert post(admin_client, "/matching-rules", _form("Sooner", order="1",
                set_metadata="kind=invoice")).status_code == 302  # fmt: skip
    html = admin_client.get("/matching-rules").get_data(as_text=True)
    assert html.index("Sooner") < html.index("Later")
    sooner = _rule(app, "Sooner")
    assert sooner.actions["addTags"] == ["invoice", "finance"]
    assert sooner.actions["setMetadata"] == {"kind": "invoice"}

    page = admin_client.get(f"/matching-rules/{sooner.id}").get_data(as_text=True)
    assert 'value="Sooner"' in page and "kind=invoice" in page
    saved = post(admin_client, f"/matching-rules/{sooner.id}",
                 _form("Soonest", order="20", algorithm="exact", pattern="total due"))  # fmt: skip
    assert saved.status_code == 302
    changed = _rule(app, "Soonest")
    assert (changed.order, changed.algorithm, changed.pattern) == (20, "exact", "total due")

    assert post(admin_client, f"/matching-rules/{sooner.id}/toggle").status_code == 302
    assert _rule(app, "Soonest").enabled is False
    assert "disabled" in admin_client.get("/matching-rules").get_data(as_text=True)
    assert post(admin_client, f"/matching-rules/{sooner.id}/delete").status_code == 302
    assert _rule(app, "Later") is not None
    with app.app_context():
        assert db.session.get(MatchingRule, sooner.id) is None
    assert [a for a in audit_actions(app, tenant.id) if a.startswith("matching_rule.")] == [
        "matching_rule.created", "matching_rule.created", "matching_rule.updated",
        "matching_rule.updated", "matching_rule.deleted",
    ]  # fmt: skip


def test_errors_show_beside_the_fields_and_a_regex_bomb_is_refused(admin_client):
    bomb = post(admin_client, "/matching-rules",
                _form("Bomb", algorithm="regex", pattern=r"^(a+)+$"))  # fmt: skip
    assert bomb.status_code == 422
    html = bomb.get_data(as_text=True)
    assert 'id="match.pattern-errors"' in html and "catastrophic backtracking" in html
    assert 'value="Bomb"' in html  # what was typed stays
    unknown = post(admin_client, "/matching-rules",
                   _form("CF", set_custom_fields='cfd_nope="x"'))  # fmt: skip
    assert unknown.status_code == 422 and "no such custom field" in unknown.get_data(as_text=True)
    nameless = post(admin_client, "/matching-rules", _form(""))
    assert nameless.status_code == 422 and 'id="name-errors"' in nameless.get_data(as_text=True)


def test_apply_runs_the_rule_as_a_job_and_shows_its_page(
    app, admin_client, tenant, store_document, work
):
    document = store_document(tenant, b"an invoice for you")
    work()
    post(admin_client, "/matching-rules", _form("Invoices"))
    rule = _rule(app, "Invoices")
    response = post(admin_client, f"/matching-rules/{rule.id}/apply")
    assert response.status_code == 302
    job_id = re.search(r"/jobs/(job_\w+)", response.headers["Location"]).group(1)
    work()
    page = admin_client.get(f"/jobs/{job_id}").get_data(as_text=True)
    assert "Matching rule applied" in page
    with app.app_context():
        assert db.session.get(Job, job_id).status == "succeeded"
        assert db.session.get(Document, document).tag_names == ["finance", "invoice"]


def test_train_now_enqueues_a_training(app, admin_client):
    response = post(admin_client, "/matching-rules/classifier/train")
    assert response.status_code == 302
    assert "Not trained yet" in admin_client.get("/matching-rules").get_data(as_text=True)


def test_forms_need_csrf_and_members_are_kept_out(app, client, admin_client, tenant, member):
    assert admin_client.post("/matching-rules", data=_form("NoToken")).status_code == 400
    assert _rule(app, "NoToken") is None
    admin_client.post("/logout", data={})
    other = app.test_client()
    sign_in(other, tenant.id, member.email)
    assert other.get("/matching-rules").status_code == 403


def test_another_tenants_rule_is_a_404(app, admin_client, other_tenant, create_key, client):
    headers = auth_headers(create_key(other_tenant)[1], other_tenant.id)
    theirs = client.post(
        "/api/v1/matching-rules",
        json={"name": "theirs", "match": {"algorithm": "any", "pattern": "x"},
              "actions": {"addTags": ["x"]}},
        headers=headers,
    ).get_json()["data"]  # fmt: skip
    assert admin_client.get(f"/matching-rules/{theirs['id']}").status_code == 404
    assert post(admin_client, f"/matching-rules/{theirs['id']}/delete").status_code == 404
    assert post(admin_client, f"/matching-rules/{theirs['id']}/apply").status_code == 404
    assert _rule(app, "theirs") is not None
