"""The copilot in the portal: asking on the Ask page, follow-ups, who reads which
conversation, the plan notice, CSRF, and the dashboard's questions per month."""

from __future__ import annotations

from tests.copilot.test_copilot_api import HARBOUR, LIGHTHOUSE
from tests.helpers import post, sign_in


def test_a_member_asks_and_sees_the_cited_passages(client, tenant, member, documents):
    ids = documents(tenant, harbour=HARBOUR, lighthouse=LIGHTHOUSE)
    sign_in(client, tenant.id, member.email)
    assert client.get("/ask").status_code == 200

    question = {"message": "What is the notice period of the Harbour contract?"}
    response = post(client, "/ask", question)

    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "90 days" in page and f"/documents/{ids['harbour']}" in page
    follow = post(client, response.headers["Location"], {"message": "And the termination penalty?"})
    page = client.get(follow.headers["Location"]).get_data(as_text=True)
    assert "2,000 euros" in page


def test_the_form_needs_its_csrf_token(client, tenant, member):
    sign_in(client, tenant.id, member.email)
    assert client.post("/ask", data={"message": "hello"}).status_code == 400


def test_errors_are_shown_on_the_page(client, tenant, member, other_tenant, documents):
    theirs = documents(other_tenant, harbour=HARBOUR)
    sign_in(client, tenant.id, member.email)
    response = post(client, "/ask", {"message": "notice", "document_ids": theirs["harbour"]})
    assert response.status_code == 404 and "Document not found." in response.get_data(as_text=True)
    empty = post(client, "/ask", {"message": "  "})
    assert empty.status_code == 422


def test_admins_read_everyones_conversations_members_only_their_own(
    client, app, tenant, member, admin, create_user, documents
):
    documents(tenant, harbour=HARBOUR)
    sign_in(client, tenant.id, member.email)
    location = post(client, "/ask", {"message": "notice period"}).headers["Location"]

    other = app.test_client()
    sign_in(other, tenant.id, admin.email)
    assert other.get(location).status_code == 200
    assert "notice period" in other.get("/ask").get_data(as_text=True)
    # An admin reads, but does not continue, someone else's conversation.
    assert post(other, location, {"message": "more?"}).status_code == 404

    bob = create_user(tenant, "member", email="bob@acme.example")
    third = app.test_client()
    sign_in(third, tenant.id, bob.email)
    assert third.get(location).status_code == 404


def test_another_tenants_conversation_is_404(
    client, app, tenant, member, other_tenant, create_user, documents
):
    documents(tenant, harbour=HARBOUR)
    sign_in(client, tenant.id, member.email)
    location = post(client, "/ask", {"message": "notice period"}).headers["Location"]

    their_admin = create_user(other_tenant, "admin", email="boss@globex.example")
    theirs = app.test_client()
    sign_in(theirs, other_tenant.id, their_admin.email)
    assert theirs.get(location).status_code == 404
    assert post(theirs, location, {"message": "more?"}).status_code == 404
    assert "notice period" not in theirs.get("/ask").get_data(as_text=True)


def test_the_owners_named_are_the_tenants_people_only(
    client, app, tenant, admin, other_tenant, create_user
):
    """Even a conversation whose owner id names another tenant's person (no service writes
    one) does not show who that is: the names are read inside the tenant."""
    from extensions import db
    from models import Conversation

    stranger = create_user(other_tenant, "member", email="stranger@globex.example")
    with app.app_context():
        db.session.add(
            Conversation(
                tenant_id=tenant.id, owner_type="user", owner_id=stranger.id, title="forged"
            )
        )
        db.session.commit()
    sign_in(client, tenant.id, admin.email)
    page = client.get("/ask").get_data(as_text=True)
    assert "forged" in page and "stranger@globex.example" not in page


def test_a_plan_without_the_copilot_says_so(client, create_tenant, create_user):
    tenant = create_tenant(plan="starter")
    user = create_user(tenant, "member", email="sam@starter.example")
    sign_in(client, tenant.id, user.email)
    assert "Business and Enterprise plans" in client.get("/ask").get_data(as_text=True)
    response = post(client, "/ask", {"message": "hello"})
    assert response.status_code == 403


def test_the_dashboard_shows_questions_per_month(client, tenant, admin, documents):
    sign_in(client, tenant.id, admin.email)
    post(client, "/ask", {"message": "anything at all"})
    page = client.get("/").get_data(as_text=True)
    assert 'id="copilot-usage"' in page and 'id="copilot-used">1<' in page
    assert "of 2,000 questions" in page
