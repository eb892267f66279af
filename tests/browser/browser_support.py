"""Helpers for driving the system Chromium from Playwright for Python.

Deliberately *not* a conftest: import it from browser tests explicitly.

We never run ``playwright install``; instead the Debian ``chromium`` package
(see ``scripts/install-system-packages.sh``) is used via ``executable_path``.

Playwright's ``browser_type.launch()`` refuses ``--user-data-dir`` in
``args`` ("Pass user_data_dir parameter to
'browser_type.launch_persistent_context(user_data_dir, **kwargs)' instead"),
so :func:`launch_chromium` uses ``launch_persistent_context`` with a fresh
temporary directory and deletes that directory again on ``close()``.

Usage (sync API)::

    from playwright.sync_api import sync_playwright
    from tests.browser.browser_support import chromium_available, launch_chromium

    pytestmark = BROWSER_TEST  # marked `browser`, skipped where Chromium is missing

    with sync_playwright() as p, launch_chromium(p) as browser:
        page = browser.new_page()
        page.goto(url)
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.helpers import PASSWORD

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


@contextmanager
def watched_page(ignore: tuple[str, ...] = (), **launch_options: Any) -> Iterator[tuple[Any, Any]]:
    """A fresh Chromium and a page whose console errors and script errors are collected in
    `page.problems` (a CSP violation shows there): (browser, page). Console errors
    containing one of `ignore` are left out; `launch_options` go to launch_chromium."""
    from playwright.sync_api import sync_playwright  # only browser tests need Playwright

    with (
        sync_playwright() as playwright,
        launch_chromium(
            playwright, viewport={"width": 1360, "height": 900}, **launch_options
        ) as browser,
    ):
        page = browser.new_page()
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
        yield browser, page


@contextmanager
def serving(app, host: str = "127.0.0.1") -> Iterator[str]:
    """`app` behind a real threaded HTTP server on a free loopback port; yields its base URL
    with `host` as the name the browser uses (passkeys need "localhost", not an address)."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=5)


class ChromiumSession:
    """A launched Chromium: one persistent BrowserContext on a temp profile.

    ``new_page()`` / ``pages`` / ``context`` for use; ``close()`` (or use as a
    context manager) closes the browser and removes the temporary profile.
    """

    def __init__(self, context: Any, user_data_dir: str) -> None:
        self.context = context
        self.user_data_dir = user_data_dir
        self._closed = False
        self._initial_page_handed_out = False

    @property
    def pages(self) -> list[Any]:
        return self.context.pages

    def new_page(self) -> Any:
        # A persistent context starts with one about:blank tab; hand that out
        # first instead of leaving an idle tab around.
        if not self._initial_page_handed_out:
            self._initial_page_handed_out = True
            if self.context.pages:
                return self.context.pages[0]
        return self.context.new_page()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.context.close()
        finally:
            shutil.rmtree(self.user_data_dir, ignore_errors=True)

    def __enter__(self) -> ChromiumSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def launch_chromium(playwright: Any, **context_kwargs: Any) -> ChromiumSession:
    """Launch /usr/bin/chromium headless with a fresh temporary profile.

    ``playwright`` is the object from ``sync_playwright().start()`` (or the
    ``with sync_playwright() as p`` value).  Extra keyword arguments go to
    ``launch_persistent_context`` (e.g. ``viewport={...}``,
    ``bypass_csp=False``, ``java_script_enabled=...``).
    """
    if not chromium_available():
        raise RuntimeError(f"{CHROMIUM_PATH} not found; run scripts/install-system-packages.sh")
    user_data_dir = tempfile.mkdtemp(prefix="chromium-profile-")
    kwargs: dict[str, Any] = {
        "executable_path": CHROMIUM_PATH,
        "headless": True,
        "args": list(CHROMIUM_ARGS),
    }
    kwargs.update(context_kwargs)
    try:
        context = playwright.chromium.launch_persistent_context(user_data_dir, **kwargs)
    except BaseException:
        shutil.rmtree(user_data_dir, ignore_errors=True)
        raise
    return ChromiumSession(context, user_data_dir)


def sign_in(page: Any, base: str, email: str, workspace: str | None = "acme") -> None:
    """Sign in through the portal's real /login form, as a person would."""
    page.goto(f"{base}/login")
    if workspace is not None:
        page.fill("#workspace", workspace)
    page.fill("#email", email)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
