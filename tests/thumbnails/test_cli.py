"""`flask documents thumbnails`: the upgrade path makes the thumbnail of every document that
has none for its current version (stored before thumbnails, or whose job was lost)."""

from __future__ import annotations

from sqlalchemy import delete, func, select

from extensions import db
from models.thumbnails import DocumentThumbnail
from tests.thumbnails.files import png


def test_inline_makes_every_missing_thumbnail(app, cli, tenant, other_tenant, store_document):
    ids = [
        store_document(tenant, b"older text\n", "a.txt", schedule=False),
        store_document(tenant, png(50, 50), "b.png", schedule=False),
        store_document(other_tenant, b"theirs\n", "c.txt", schedule=False),
    ]
    with app.app_context():
        db.session.execute(delete(DocumentThumbnail))
        db.session.commit()

    result = cli("documents", "thumbnails", "--tenant", tenant.id, "--inline")
    assert result.exit_code == 0, result.output
    assert "made 2 thumbnails" in result.output

    with app.app_context():
        kinds = dict(
            db.session.execute(select(DocumentThumbnail.document_id, DocumentThumbnail.kind)).all()
        )
    assert kinds == {ids[0]: "text", ids[1]: "image"}

    again = cli("documents", "thumbnails", "--inline")  # only the other tenant's is left
    assert "made 1 thumbnails" in again.output
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(DocumentThumbnail)) == 3


def test_without_inline_it_enqueues_the_jobs(app, cli, tenant, store_document, work):
    document_id = store_document(tenant, b"queued\n", "q.txt", schedule=False)
    result = cli("documents", "thumbnails")
    assert result.exit_code == 0, result.output
    assert "enqueued 1 thumbnails" in result.output
    work()
    with app.app_context():
        assert db.session.get(DocumentThumbnail, document_id).kind == "text"
