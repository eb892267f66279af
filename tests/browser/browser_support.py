"""Helpers for driving the system Chromium from Playwright for Python.

Deliberately *not* a conftest: import it from browser tests explicitly.

We never run ``playwright install``; instead the Debian ``chromium`` package
(see ``scripts/install-system-packages.sh``) is used via ``executable_path``.

One Chromium per test process (:func:`shared_chromium`); each test gets a browser context of
its own, which shares no cookies, storage or cache with any other.

Usage (sync API)::

    from tests.browser.browser_support import BROWSER_TEST, watched_page

    pytestmark = BROWSER_TEST  # marked `browser`, skipped where Chromium is missing

    with watched_page() as (_window, page):
        page.goto(url)
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.helpers import PASSWORD, POLL

CHROMIUM_PATH = "/usr/bin/chromium"

CHROMIUM_ARGS: tuple[str, ...] = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium_available() -> bool:
    """True if the system Chromium exists and is executable."""
    return os.path.isfile(CHROMIUM_PATH) and os.access(CHROMIUM_PATH, os.X_OK)


BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not chromium_available(),
        reason="no /usr/bin/chromium: run scripts/install-system-packages.sh (make test does)",
    ),
]

# Every run takes the screenshots; `make screenshots` points DMS_SCREENSHOT_DIR at
# docs/screenshots (shown in the README), other runs keep them out of the work tree.
SCREENSHOTS = Path(
    os.environ.get("DMS_SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "dms-screenshots"
)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


# axe-core (vendor/axe.min.js, MPL-2.0, the npm registry's axe-core 4.14.1) with the WCAG 2 A
# and AA rules. It is evaluated through the DevTools protocol, which the portal's script CSP
# does not govern, and only ever in tests.
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
AXE_RUN = """async () => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}});
  return result.violations.map(v => `${v.id} (${v.impact}): ${v.nodes.length} node(s): ` +
    v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
}"""
# What axe does not judge: the vendored Swagger UI (docs/portal.md, "Accessibility").
AXE_EXCEPTED = ("/docs",)


def axe_violations(page) -> list[str]:
    """The WCAG 2 A/AA violations axe finds on the page as it is now."""
    page.evaluate(AXE)
    return page.evaluate(AXE_RUN)


def _judged(page) -> bool:
    """An HTML page of our server that axe judges (not a download, a blank tab, an error
    page of the browser's own, or the vendored Swagger UI)."""
    url = page.url
    if not url.startswith("http"):
        return False
    path = "/" + url.split("/", 3)[3] if url.count("/") >= 3 else "/"
    return (
        not path.startswith(AXE_EXCEPTED) and page.evaluate("document.contentType") == "text/html"
    )


class AxeWatch:
    """axe on every page state a test reaches: each `load` of each page of the context (popups
    too), each htmx swap once it has settled, and the state each page is left in; the
    violations found, each once."""

    def __init__(self, context) -> None:
        self.found: dict[str, None] = {}
        self.settled = 0  # htmx swaps seen settling
        self._checking = False
        context.on("page", self.watch)
        context.expose_binding("__dmsAxeSettled", lambda source: self.after_swap(source["page"]))
        context.add_init_script(
            "document.addEventListener('htmx:afterSettle', () => window.__dmsAxeSettled());"
        )

    def watch(self, page) -> None:
        page.on("load", self.check)

    def after_swap(self, page) -> None:
        self.settled += 1
        self.check(page)

    def check(self, page) -> None:
        if self._checking:  # a load while axe runs: that page's later state is checked
            return
        self._checking = True
        try:
            if _judged(page):
                for violation in axe_violations(page):
                    self.found[f"{page.url}: {violation}"] = None
        except Exception as exc:  # the page moved on mid-check: its next state is checked
            moved_on = ("context was destroyed", "closed", "navigat", "already running")
            if not any(m in str(exc) for m in moved_on):
                raise
        finally:
            self._checking = False

    def violations(self, context) -> list[str]:
        """What was found, with each page's last state checked too (after a run still going
        on it from its last load)."""
        for page in context.pages:
            for _ in range(50):
                try:
                    if _judged(page):
                        for violation in axe_violations(page):
                            self.found[f"{page.url}: {violation}"] = None
                    break
                except Exception as exc:
                    if "already running" not in str(exc):
                        raise
                    page.wait_for_timeout(100)
        return list(self.found)


@contextmanager
def watched_page(
    ignore: tuple[str, ...] = (), *, axe: bool = True, **context_options: Any
) -> Iterator[tuple[Any, Any]]:
    """A fresh browser context (cookies, storage and cache of its own, as a new profile has) and
    a page whose console errors and script errors are collected in `page.problems` (a CSP
    violation shows there): (window, page), `window.context` being the BrowserContext.
    Console errors containing one of `ignore` are left out; `context_options` go to
    Browser.new_context. The Chromium behind it is the test process's (shared_chromium).
    axe checks every page state the test loads and the state each page is left in; when the
    test's block ends without an error, any WCAG 2 A/AA violation fails it (`axe=False`: a
    test that builds a violation on purpose). With JavaScript off in the context, axe cannot run."""
    context = shared_chromium().new_context(
        viewport={"width": 1360, "height": 900}, **context_options
    )
    try:
        watch = (
            AxeWatch(context) if axe and context_options.get("java_script_enabled", True) else None
        )
        page = context.new_page()
        problems: list[str] = []
        page.on(
            "console",
            lambda m: (
                m.type == "error"
                and not any(text in m.text for text in ignore)
                and problems.append(m.text)
            ),
        )
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.problems = problems
        page.axe_watch = watch
        yield BrowserWindow(context), page
        if watch is not None:
            violations = watch.violations(context)
            assert violations == [], "axe (WCAG 2 A/AA):\n" + "\n".join(violations)
    finally:
        context.close()


@dataclass(frozen=True)
class BrowserWindow:
    context: Any  # the page's BrowserContext (new_cdp_session, cookies, more pages)


_shared: dict[str, Any] = {}


def shared_chromium() -> Any:
    """The test process's headless Chromium and its Playwright driver, launched on first use
    (a launch costs seconds; a context, milliseconds) and again if it went away. Closed by
    close_shared_chromium at the end of the run (the root conftest)."""
    browser = _shared.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    close_shared_chromium()
    if not chromium_available():
        raise RuntimeError(f"{CHROMIUM_PATH} not found; run scripts/install-system-packages.sh")
    from playwright.sync_api import sync_playwright  # only browser tests need Playwright

    _shared["playwright"] = sync_playwright().start()
    _shared["browser"] = _shared["playwright"].chromium.launch(
        executable_path=CHROMIUM_PATH, headless=True, args=list(CHROMIUM_ARGS)
    )
    return _shared["browser"]


def close_shared_chromium() -> None:
    browser, playwright = _shared.pop("browser", None), _shared.pop("playwright", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if playwright is not None:
            playwright.stop()


@contextmanager
def serving(app, host: str = "127.0.0.1") -> Iterator[str]:
    """`app` behind a real threaded HTTP server on a free loopback port; yields its base URL
    with `host` as the name the browser uses (passkeys need "localhost", not an address)."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, args=(POLL,), daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=5)


def sign_in(page: Any, base: str, email: str, workspace: str | None = "acme") -> None:
    """Sign in through the portal's real /login form, as a person would."""
    page.goto(f"{base}/login")
    if workspace is not None:
        page.fill("#workspace", workspace)
    page.fill("#email", email)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
