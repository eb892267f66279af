"""The Documents page's grid view: the List | Grid toggle kept in the query string (next page
and filters too), lazily loaded pictures whose alt text is the title, a placeholder while a
thumbnail is made, and the picture itself scoped to the tenant with safe headers."""

from __future__ import annotations

import re

from tests.support import stored_document
from tests.thumbnails.files import png


def test_the_grid_shows_thumbnails_and_remembers_itself(app, admin_client, tenant, work):
    ready = stored_document(app, tenant.id, png(60, 40), "ready.png", title="Ready <one>")
    work()
    pending = stored_document(
        app, tenant.id, b"later\n", "later.txt", title="Later", schedule=False
    )

    page = admin_client.get("/documents?view=grid&tag=")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'id="documents-grid"' in html and 'id="documents-table"' not in html
    img = re.search(rf'<img src="/documents/{ready}/thumbnail"[^>]*>', html)
    assert img is not None
    assert 'loading="lazy"' in img.group(0) and 'alt="Ready &lt;one&gt;"' in img.group(0)
    assert f'id="card-{pending}"' in html and "Thumbnail being made" in html
    assert '<input type="hidden" name="view" value="grid">' in html  # the filters keep it
    assert 'href="/documents?view=grid"' in html and 'href="/documents"' in html
    assert "Clear</a>" not in html  # the view is no filter

    listed = admin_client.get("/documents").get_data(as_text=True)
    assert 'id="documents-table"' in listed and 'id="documents-grid"' not in listed

    picture = admin_client.get(f"/documents/{ready}/thumbnail")
    assert picture.status_code == 200 and picture.mimetype == "image/webp"
    assert picture.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in picture.headers["Content-Security-Policy"]
    etag = picture.headers["ETag"]
    assert (
        admin_client.get(
            f"/documents/{ready}/thumbnail", headers={"If-None-Match": etag}
        ).status_code
        == 304
    )

    work()  # the grid page queued the pending one's job
    assert admin_client.get(f"/documents/{pending}/thumbnail").status_code == 200


def test_the_grid_pages_keep_the_view(app, admin_client, tenant):
    for n in range(26):
        stored_document(app, tenant.id, f"doc {n}\n".encode(), f"d{n}.txt", schedule=False)
    html = admin_client.get("/documents?view=grid").get_data(as_text=True)
    following = re.search(r'href="([^"]*cursor=[^"]*)" rel="next"', html)
    assert following is not None and "view=grid" in following.group(1)


def test_another_tenants_thumbnail_is_not_found(app, admin_client, other_tenant, work):
    theirs = stored_document(app, other_tenant.id, png(10, 10), "x.png")
    work()
    assert admin_client.get(f"/documents/{theirs}/thumbnail").status_code == 404
