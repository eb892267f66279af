"""Downloads racing for a link's last one, through a real threaded HTTP server: the counter
is one conditional UPDATE, so with maxDownloads=1 exactly one of them gets the file."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request

from sqlalchemy import select

from tests.browser.browser_support import serving
from tests.sharing.conftest import HTML, path_of

RACERS = 6


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def test_exactly_one_of_concurrent_downloads_gets_the_last_one(app, make_link):
    from extensions import db
    from models import Event, ShareLink

    link = make_link(maxDownloads=1)
    results: list[tuple[int, bytes]] = []
    start = threading.Barrier(RACERS)
    with serving(app) as base:

        def race() -> None:
            start.wait()
            results.append(_get(base + path_of(link)))

        threads = [threading.Thread(target=race) for _ in range(RACERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

    assert sorted(status for status, _ in results) == [200] + [410] * (RACERS - 1)
    assert [body for status, body in results if status == 200] == [HTML]
    with app.app_context():
        assert db.session.scalar(select(ShareLink.downloads)) == 1
        events = db.session.scalars(select(Event).where(Event.type == "share_link.downloaded"))
        assert len(events.all()) == 1
