"""The portal's layout in a real headless Chromium, at a laptop's 1280 px and a phone's 390 px:
no page scrolls sideways (long ids and SHA-256 values wrap, wide tables scroll inside their own
box or stack on a phone), chart text stays readable (at least 11 CSS pixels, in HTML rather
than in a stretched SVG) and chart legends' text has enough contrast."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from extensions import db
from models import ApiKey
from services.core.actors import Actor
from services.keys import api_keys
from tests.browser.browser_support import (
    BROWSER_TEST,
    axe_violations,
    screenshot,
    serving,
    sign_in,
    watched_page,
)
from tests.forms.conftest import EXPENSE_SCHEMA
from tests.helpers import PASSWORD, auth_headers, bearer

pytestmark = BROWSER_TEST

WIDTHS = (1280, 390)


def _fill(app, client, tenant, create_user, create_key, store_document) -> dict[str, str]:
    """A tenant with something on every main page: a document (long id and SHA-256), keys,
    a webhook endpoint, a workflow waiting for the admin, audit entries, notifications."""
    admin = create_user(tenant, "admin", email="dee@acme.example", password=PASSWORD)
    create_key(tenant, name="a key with a rather long name for a phone's narrow screen")
    revoked, _ = create_key(tenant, name="an old key")
    _key, secret = create_key(tenant)
    headers = auth_headers(secret, tenant.id)
    with app.app_context():
        api_keys.revoke_key(db.session.get(ApiKey, revoked.id), Actor.system("tests"))
        db.session.commit()
    document_id = store_document(tenant, b"Invoice 42\nTotal: 1,200 EUR\n", "invoice-42.txt")
    client.post(
        "/api/v1/webhooks",
        json={
            "url": "https://hooks.example.com/a/very/long/path/for/the/receiver",
            "events": ["*"],
        },
        headers=headers,
    )
    definition = client.post(
        "/api/v1/workflows",
        json={
            "name": "Invoice approval",
            "steps": [{"name": "Check", "approvers": [{"user": admin.id}]}],
        },
        headers=headers,
    ).get_json()["data"]
    instance = client.post(
        "/api/v1/workflows/instances",
        json={"definitionId": definition["id"], "documentId": document_id},
        headers=headers,
    ).get_json()["data"]
    people = [
        client.post(
            "/api/v1/knowledge-graph/entities",
            json={"type": kind, "name": name},
            headers=headers,
        ).get_json()["data"]["id"]
        for kind, name in (("person", "Ada Lovelace"), ("organization", "Analytical Engines Ltd"))
    ]
    client.post(
        "/api/v1/knowledge-graph/relationships",
        json={"type": "works_for", "sourceId": people[0], "targetId": people[1]},
        headers=headers,
    )
    return {
        "document": document_id,
        "instance": instance["id"],
        "definition": definition["id"],
        "entity": people[0],
    }


WIDEST = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.right > window.innerWidth + 1 && el.children.length === 0) {
      let chain = [];
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        const r = a.getBoundingClientRect();
        chain.push(a.tagName.toLowerCase() + '.' + a.className + ':' + Math.round(r.right)
                   + ':' + getComputedStyle(a).display);
      }
      out.push(chain.join(' < '));
    }
  }
  return out.slice(0, 1);
}"""


def _widest(page) -> list[str]:
    """The innermost elements reaching past the right edge: what to fix."""
    return page.evaluate(WIDEST)


def test_no_page_scrolls_sideways_at_1280_or_390(
    app, client, tenant, create_user, create_key, store_document
):
    ids = _fill(app, client, tenant, create_user, create_key, store_document)
    pages = [
        "/",
        "/documents",
        f"/documents/{ids['document']}",
        "/audit",
        "/keys",
        "/notifications",
        "/approvals",
        f"/approvals/{ids['instance']}",
        "/workflows",
        "/workflows/new",
        f"/workflows/{ids['definition']}/edit",
        "/webhooks",
        "/forms",
        "/users",
        "/custom-fields",
        "/entities",
        f"/entities/{ids['entity']}",
        "/deprecations",
    ]
    wide: list[str] = []
    with serving(app) as base, watched_page() as (_browser, page):
        sign_in(page, base, "dee@acme.example")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            for path in pages:
                response = page.goto(f"{base}{path}")
                assert response.status == 200, path
                scroll, inner = page.evaluate(
                    "[document.documentElement.scrollWidth, window.innerWidth]"
                )
                if scroll > inner:
                    wide.append(f"{path} at {width} px: {scroll} > {inner}: {_widest(page)}")
            page.goto(f"{base}/documents/{ids['document']}")
            screenshot(page, f"layout-document-detail-{width}")
            page.goto(f"{base}/keys")
            screenshot(page, f"layout-keys-{width}")
            page.goto(f"{base}/audit")
            screenshot(page, f"layout-audit-{width}")
        assert wide == [], "\n".join(wide)
        assert page.problems == []


def test_chart_text_is_readable_and_legends_have_contrast(
    app, client, tenant, create_user, create_key, store_document
):
    _fill(app, client, tenant, create_user, create_key, store_document)
    with serving(app) as base, watched_page() as (_browser, page):
        sign_in(page, base, "dee@acme.example")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{base}/")
            ticks = page.locator("#chart-requests .chart-ticks span")
            expect(ticks.first).to_be_visible()
            sizes = ticks.evaluate_all(
                "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
            )
            assert sizes and min(sizes) >= 11, sizes
            legend_colours = page.locator(".legend-item").evaluate_all(
                "els => els.map(e => getComputedStyle(e).color)"
            )
            # Legend text is the body's colour; the swatch beside it carries the series' colour.
            assert set(legend_colours) <= {"rgb(28, 35, 48)"}, legend_colours
            screenshot(page, f"layout-dashboard-charts-{width}")
        assert page.problems == []


# axe-core is not vendored and cannot be installed here, so the colour-contrast rule it runs
# (WCAG 2 AA 1.4.3) is approximated: every visible element with text of its own, its colour
# against the first opaque background behind it, opacity of its ancestors blended in.
CONTRAST = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = c => {
    const v = c.slice(0, 3).map(x => {
      x /= 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const blend = (fg, bg, a) => fg.slice(0, 3).map((x, i) => x * a + bg[i] * (1 - a));
  const out = [];
  for (const el of document.querySelectorAll('main *, header.topbar *, nav *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || box.width === 0 || box.height === 0) continue;
    const hidden = '.visually-hidden, [aria-hidden="true"], svg, .skip-link, '
      + 'details:not([open]) > :not(summary)';
    if (el.closest(hidden)) continue;
    let bg = null, opacity = 1;
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      opacity *= parseFloat(s.opacity);
      if (s.backgroundImage !== 'none' && !bg) { bg = 'image'; break; }
      const c = rgb(s.backgroundColor);
      if (!bg && c.length >= 3 && (c.length === 3 || c[3] > 0.9)) bg = c;
    }
    if (bg === 'image') continue;
    bg = bg || [255, 255, 255];
    let fg = rgb(style.color);
    const alpha = (fg.length > 3 ? fg[3] : 1) * opacity;
    fg = blend(fg, bg, alpha);
    const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) {
      const text = el.textContent.trim().slice(0, 30);
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${text}" ${ratio.toFixed(2)}`);
    }
  }
  return out.slice(0, 8);
}"""


def test_text_contrast_on_the_main_pages(
    app, client, tenant, create_user, create_key, store_document
):
    ids = _fill(app, client, tenant, create_user, create_key, store_document)
    pages = ["/", "/keys", "/audit", "/approvals", f"/documents/{ids['document']}",
             "/workflows/new", "/notifications", "/webhooks", "/entities",
             f"/entities/{ids['entity']}"]  # fmt: skip
    low: list[str] = []
    with serving(app) as base, watched_page(axe=False) as (_browser, page):
        sign_in(page, base, "dee@acme.example")
        for path in pages:
            page.goto(f"{base}{path}")
            low += [f"{path}: {problem}" for problem in page.evaluate(CONTRAST)]
        assert low == [], "\n".join(low)
        # The check can fail: pale grey text on white is found.
        page.evaluate(
            "() => { const p = document.createElement('p'); p.textContent = 'faint';"
            " p.style.color = '#bbbbbb'; document.querySelector('main').append(p); }"
        )
        assert any('"faint"' in problem for problem in page.evaluate(CONTRAST))


def test_axe_finds_no_wcag2_a_or_aa_violations(
    app, client, tenant, create_user, create_key, store_document
):
    ids = _fill(app, client, tenant, create_user, create_key, store_document)
    pages = ["/", "/documents", f"/documents/{ids['document']}", "/keys", "/audit",
             "/approvals", f"/approvals/{ids['instance']}", "/workflows/new", "/notifications",
             "/webhooks", "/users", "/custom-fields", "/entities", f"/entities/{ids['entity']}",
             "/deprecations", "/documents/upload", f"/documents/{ids['document']}/edit",
             "/matching-rules", "/mail-accounts", "/mfa", "/mfa/settings", "/keys/new",
             "/passkeys", "/sharing", "/forms", "/forms/new", "/ask", "/authorized-apps",
             "/oauth-apps", "/entities/new", "/workflows"]  # fmt: skip
    found: list[str] = []
    with serving(app) as base, watched_page(axe=False) as (_browser, page):
        sign_in(page, base, "dee@acme.example")
        for path in pages:
            page.goto(f"{base}{path}")
            found += [f"{path}: {violation}" for violation in axe_violations(page)]
        assert found == [], "\n".join(found)
        # The check can fail: an image without a text alternative is a violation.
        page.evaluate(
            "() => { const i = document.createElement('img'); i.src = '/static/none.png';"
            " document.querySelector('main').append(i); }"
        )
        assert any(v.startswith("image-alt") for v in axe_violations(page))


def test_axe_finds_no_wcag2_a_or_aa_violations_on_the_public_pages(
    app, client, tenant, create_user, create_key, store_document
):
    """What people without a portal account see: sign-in, a public form, a share link's
    password page and an invitation's accept page."""
    ids = _fill(app, client, tenant, create_user, create_key, store_document)
    _key, secret = create_key(tenant)
    headers = auth_headers(secret, tenant.id)
    form = {"name": "Expense claim", "schema": EXPENSE_SCHEMA, "status": "published"}
    form = client.post("/api/v1/forms", json={**form, "public": True}, headers=headers)
    link = client.post(
        f"/api/v1/documents/{ids['document']}/share-links",
        json={"password": "open sesame"},
        headers=headers,
    )
    inviter = create_user(tenant, "admin", email="inviter@acme.example", password=PASSWORD)
    invitation = client.post(
        "/api/v1/users/invitations",
        json={"email": "new@acme.example", "role": "member"},
        headers=bearer(app, tenant, inviter),
    )
    assert (form.status_code, link.status_code, invitation.status_code) == (201, 201, 201)
    found: list[str] = []
    with serving(app) as base, watched_page() as (_browser, page):
        pages = [
            f"{base}/login",
            f"{base}/f/{form.get_json()['data']['id']}",
            link.get_json()["data"]["url"].replace("http://localhost", base),
            invitation.get_json()["data"]["acceptUrl"].replace("http://localhost", base),
        ]
        for url in pages:
            response = page.goto(url)
            assert response.status == 200, url
            found += [f"{url}: {violation}" for violation in axe_violations(page)]
        assert found == [], "\n".join(found)


def test_every_browser_test_leaves_pages_axe_finds_nothing_on(app):
    """watched_page runs axe on the state each page was left in: a violation left there fails
    the test that left it."""
    left_behind = (
        "() => { const i = document.createElement('img'); i.src = '/static/none.png';"
        " document.body.append(i); }"
    )
    with (
        pytest.raises(AssertionError, match="image-alt"),
        serving(app) as base,
        watched_page() as (_browser, page),
    ):
        page.goto(f"{base}/login")
        page.evaluate(left_behind)


def test_axe_sees_the_states_htmx_swaps_in(app, tenant, create_user):
    create_user(tenant, "admin", email="dee@acme.example", password=PASSWORD)
    with serving(app) as base, watched_page() as (_browser, page):
        sign_in(page, base, "dee@acme.example")
        page.goto(f"{base}/documents")
        before = page.axe_watch.settled
        with page.expect_response(lambda r: "/documents?" in r.url):
            page.fill("#q", "invoice")
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        page.wait_for_timeout(300)
        assert page.axe_watch.settled > before
