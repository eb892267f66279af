"""`@email` mentions: the tenant's active people are notified (note.mention, once per note,
never the author); an address of another tenant's person, of nobody, or of someone inactive
is left as text, and the answer does not tell them apart."""

from __future__ import annotations

from sqlalchemy import select

from tests.helpers import bearer, notifications_of


def test_a_mentioned_person_of_the_tenant_is_notified_once(
    app, tenant, create_user, document, write_note
):
    ann = create_user(tenant, "member", email="ann@acme.example")
    response = write_note(document, "@Ann@Acme.example see p.3, and again @ann@acme.example.")
    note = response.get_json()["data"]
    assert note["mentions"] == [ann.id]
    assert notifications_of(app, ann) == [
        (
            "note.mention",
            notifications_of(app, ann)[0][1],
            {"documentId": document, "noteId": note["id"]},
        )
    ]
    assert "“Q3”" in notifications_of(app, ann)[0][1]


def test_the_author_is_not_notified_of_their_own_mention(
    app, tenant, create_user, document, write_note
):
    bob = create_user(tenant, "member", email="bob@acme.example")
    note = write_note(document, "note to self @bob@acme.example", bearer(app, tenant, bob))
    assert note.get_json()["data"]["mentions"] == [bob.id]
    assert notifications_of(app, bob) == []


def test_addresses_of_nobody_here_are_ignored_alike(
    app, tenant, other_tenant, create_user, document, write_note
):
    """Another tenant's person and an unknown address give the same answer: a note cannot
    tell whether an address has an account in another tenant."""
    stranger = create_user(other_tenant, "admin", email="eve@globex.example")
    gone = create_user(tenant, "member", email="gone@acme.example")
    with app.app_context():
        from extensions import db
        from models import User

        db.session.get(User, gone.id).is_active_user = False
        db.session.commit()

    other = write_note(document, "ping @eve@globex.example").get_json()["data"]
    nobody = write_note(document, "ping @zed@globex.example").get_json()["data"]
    inactive = write_note(document, "ping @gone@acme.example").get_json()["data"]
    assert other["mentions"] == nobody["mentions"] == inactive["mentions"] == []
    assert notifications_of(app, stranger) == [] and notifications_of(app, gone) == []


def test_an_address_inside_a_word_or_another_address_mentions_nobody(
    app, tenant, create_user, document, write_note
):
    create_user(tenant, "member", email="ann@acme.example")
    body = "mail me@ann@acme.example or x@@ann@acme.example or foo@ann@acme.example"
    assert write_note(document, body).get_json()["data"]["mentions"] == []


def test_a_note_full_of_mentions_reads_at_most_fifty_addresses(
    app, tenant, create_user, document, write_note
):
    from extensions import db
    from models import Notification

    people = [create_user(tenant, "member", email=f"p{n}@acme.example") for n in range(52)]
    body = " ".join(f"@p{n}@acme.example" for n in range(52))
    note = write_note(document, body).get_json()["data"]
    assert note["mentions"] == [p.id for p in people[:50]]
    with app.app_context():
        notified = db.session.scalars(
            select(Notification.user_id).where(Notification.type == "note.mention")
        ).all()
        assert len(notified) == 50


def test_a_mention_is_announced_like_any_notification_and_pushed_from_there(
    app, tenant, create_user, document, write_note
):
    from extensions import db
    from models import Event

    ann = create_user(tenant, "member", email="ann@acme.example")
    write_note(document, "@ann@acme.example")
    with app.app_context():
        created = db.session.scalars(
            select(Event).where(Event.type == "notification.created")
        ).all()
        assert [e.data["notification"]["userId"] for e in created] == [ann.id]
        assert created[0].data["notification"]["type"] == "note.mention"
