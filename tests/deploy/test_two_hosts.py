"""Two hosts: two gunicorn servers and two workers on one PostgreSQL, one Redis and one S3
server (moto), as a load balancer would spread the traffic. What one host does, the other
sees at its next request: documents, key revocation, rate limits, idempotency, jobs."""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
import requests
from sqlalchemy.engine import make_url

from models import SCOPES
from services.documents.s3_storage import make_client
from tests.helpers import _TOKEN_RE
from tests.s3_server import CREDENTIALS, new_bucket
from tests.server import BIN, ROOT, flask_command, free_port

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql")),
        reason="several hosts share a PostgreSQL server; SQLite is one file on one host "
        "(runs in CI's PostgreSQL pass)",
    ),
]


def _key(env: dict, tenant: str) -> tuple[str, str]:
    name = f"key {uuid.uuid4().hex[:6]}"
    lines = flask_command(
        env, "keys", "create", tenant, "--name", name, "--scopes", ",".join(SCOPES)
    )
    key_id, secret = lines.strip().splitlines()[0].split()[0], lines.strip().splitlines()[-1]
    return key_id, secret


@contextlib.contextmanager
def _database() -> str:
    url = make_url(os.environ["DATABASE_URL"].replace("postgres://", "postgresql://", 1))
    name = f"dms_hosts_{uuid.uuid4().hex[:8]}"
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(drivername="postgresql", database=name).render_as_string(False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Hosts:
    def __init__(self, tmp: Path, s3_endpoint: str) -> None:
        self.tmp, self.s3_endpoint = tmp, s3_endpoint
        self.procs: list[subprocess.Popen] = []
        self.urls: list[str] = []
        self.files: list = []
        # One prefix for both hosts of this cluster and no other: two test processes each run
        # a cluster (their temporary folders share a name), and on a shared prefix one
        # cluster's workers would take the other's jobs, whose documents their database lacks.
        self.redis_prefix = f"dms-hosts-{uuid.uuid4().hex[:12]}"

    def env(self, host: str, database_url: str, bucket: str) -> dict:
        return {
            **os.environ,
            **CREDENTIALS,
            "DATABASE_URL": database_url,
            "REDIS_URL": os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/7",
            "DMS_REDIS_PREFIX": self.redis_prefix,
            "DMS_STORAGE": "s3",
            "DMS_S3_BUCKET": bucket,
            "DMS_S3_ENDPOINT_URL": self.s3_endpoint,
            # Never used: a host's own disk, to show nothing depends on it.
            "DMS_STORAGE_DIR": str(self.tmp / host / "storage"),
            "SECRET_KEY": "two-hosts-shared-secret",
            "DMS_AUDIT_KEYS": "hosts:" + "h" * 40,
            "DMS_ENV_FILE": os.devnull,
            "DMS_LOG_JSON": "1",
        }

    def start(self, host: str, env: dict) -> None:
        (self.tmp / host).mkdir()
        port = free_port()
        web = open(self.tmp / host / "web.log", "w")  # noqa: SIM115  (closed in stop)
        self.files.append(web)
        self.procs.append(
            subprocess.Popen(
                [
                    str(BIN / "gunicorn"),
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--workers",
                    "1",
                    "--threads",
                    "8",
                    "wsgi:app",
                ],
                cwd=ROOT,
                env=env,
                stdout=web,
                stderr=web,
            )
        )
        log = self.tmp / host / "worker.log"
        self.files.append(log.open("w"))
        self.procs.append(
            subprocess.Popen(
                [str(BIN / "flask"), "--app", "app", "worker"],
                cwd=ROOT,
                env=env,
                stdout=self.files[-1],
                stderr=subprocess.STDOUT,
            )
        )
        self.urls.append(f"http://127.0.0.1:{port}")

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 90
        for url in self.urls:
            while True:
                with contextlib.suppress(requests.RequestException):
                    if _get(f"{url}/internal/health", timeout=5).status_code == 200:
                        break
                assert all(p.poll() is None for p in self.procs), "a host died at start"
                assert time.monotonic() < deadline, "the hosts did not start"
                time.sleep(0.3)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for file in self.files:
            file.close()


@pytest.fixture(scope="module")
def hosts(tmp_path_factory, s3_endpoint):
    tmp = tmp_path_factory.mktemp("hosts")
    bucket = new_bucket(make_client(s3_endpoint, "us-east-1"))
    with _database() as database_url:
        cluster = Hosts(tmp, s3_endpoint)
        env_a = cluster.env("a", database_url, bucket)
        flask_command(env_a, "db", "upgrade")
        for slug, hourly, burst in (("shared", 100000, 10000), ("limited", 1000, 10)):
            flask_command(env_a, "tenants", "create", slug, "--plan", "enterprise")
            flask_command(
                env_a, "tenants", "set-limits", slug, "--hourly", str(hourly), "--burst", str(burst)
            )
        cluster.keys = {slug: _key(env_a, slug) for slug in ("shared", "limited")}
        cluster.env_a = env_a
        cluster.database_url = database_url
        try:
            cluster.start("a", env_a)
            cluster.start("b", cluster.env("b", database_url, bucket))
            cluster.wait_ready()
            yield cluster
        finally:
            cluster.stop()
            from redis import Redis

            client = Redis.from_url(env_a["REDIS_URL"])
            for key in client.scan_iter(match=f"{env_a['DMS_REDIS_PREFIX']}*", count=1000):
                client.delete(key)


def _get(url: str, **kwargs) -> requests.Response:
    return requests.get(url, timeout=kwargs.pop("timeout", 30), **kwargs)


def _auth(secret: str, tenant: str, **extra: str) -> dict:
    return {"Authorization": f"Bearer {secret}", "X-Tenant-Id": tenant, **extra}


def _upload(url: str, headers: dict, content: bytes, name: str = "f.txt") -> requests.Response:
    return requests.post(
        f"{url}/api/v1/documents",
        headers=headers,
        files={"file": (name, content)},
        data={"title": name},
        timeout=30,
    )


def test_upload_on_one_host_download_search_and_list_on_the_other(hosts):
    a, b = hosts.urls
    headers = _auth(hosts.keys["shared"][1], "shared")
    content = b"the lighthouse keeper's logbook, second volume\n" * 500

    created = _upload(a, headers, content, "logbook.txt")
    assert created.status_code == 201, created.text
    document = created.json()["data"]

    download = _get(f"{b}/api/v1/documents/{document['id']}/content", headers=headers)
    assert download.status_code == 200
    assert hashlib.sha256(download.content).hexdigest() == document["sha256"]
    part = _get(
        f"{b}/api/v1/documents/{document['id']}/content", headers={**headers, "Range": "bytes=4-13"}
    )
    assert part.status_code == 206 and part.content == content[4:14]
    listed = _get(f"{b}/api/v1/documents", headers=headers).json()["data"]
    assert document["id"] in [d["id"] for d in listed]
    deadline = time.monotonic() + 90  # a worker on either host extracts the text
    while True:
        found = _get(f"{b}/api/v1/search", params={"q": "lighthouse"}, headers=headers)
        if [hit["document"]["id"] for hit in found.json()["data"]] == [document["id"]]:
            break
        assert time.monotonic() < deadline, found.text
        time.sleep(0.5)


def _portal_session(url: str, env: dict, tenant: str) -> requests.Session:
    """A tenant admin signed in to one host's portal, as a browser would be."""
    email, password = f"admin-{uuid.uuid4().hex[:6]}@example.com", uuid.uuid4().hex
    flask_command(env, "users", "create", tenant, email, "--role", "admin", "--password", password)
    browser = requests.Session()
    form = {"workspace": tenant, "email": email, "password": password}
    signed_in = browser.post(
        f"{url}/login",
        data={**form, "csrf_token": _csrf_token(browser, f"{url}/login")},
        allow_redirects=False,
        timeout=30,
    )
    assert signed_in.status_code == 302, signed_in.text
    return browser


def _csrf_token(browser: requests.Session, url: str) -> str:
    """The token the portal puts in every page's <meta> (tests/helpers.py csrf_token)."""
    page = browser.get(url, timeout=30)
    assert page.status_code == 200, page.text
    match = _TOKEN_RE.search(page.text)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def test_a_key_revoked_on_one_host_is_refused_by_the_other_at_once(hosts):
    a, b = hosts.urls
    key_id, secret = _key(hosts.env_a, "shared")
    headers = _auth(secret, "shared")
    admin = _portal_session(a, hosts.env_a, "shared")
    assert _get(f"{b}/api/v1/documents", headers=headers).status_code == 200  # b caches it

    confirm = f"{a}/keys/{key_id}/revoke"  # host a's portal: its web process revokes
    revoked = admin.post(
        confirm, data={"csrf_token": _csrf_token(admin, confirm)}, allow_redirects=False, timeout=30
    )
    assert revoked.status_code == 302 and revoked.headers["Location"].endswith("/keys")

    refused = _get(f"{b}/api/v1/documents", headers=headers)  # b's very next request
    assert refused.status_code == 401, refused.text
    assert refused.json()["errors"][0]["code"] == "API_KEY_REVOKED"
    assert _get(f"{a}/api/v1/documents", headers=headers).status_code == 401


def test_rate_limits_are_shared_the_sum_never_exceeds_the_quota(hosts):
    headers = _auth(hosts.keys["limited"][1], "limited")
    urls = hosts.urls * 15  # 30 requests, half on each host, all at once; the burst is 10

    with ThreadPoolExecutor(max_workers=10) as pool:
        statuses = list(
            pool.map(lambda url: _get(f"{url}/api/v1/documents", headers=headers).status_code, urls)
        )

    assert statuses.count(200) == 10, statuses
    assert statuses.count(429) == 20, statuses


def test_one_idempotent_upload_sent_to_both_hosts_at_once_makes_one_document(hosts):
    headers = _auth(hosts.keys["shared"][1], "shared", **{"Idempotency-Key": uuid.uuid4().hex})
    title = f"twice-{uuid.uuid4().hex[:6]}"

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(
            pool.map(lambda url: _upload(url, headers, b"only once, please", title), hosts.urls * 2)
        )

    statuses = sorted(r.status_code for r in answers)
    assert statuses.count(201) >= 1 and set(statuses) <= {201, 409}, statuses
    ids = {r.json()["data"]["id"] for r in answers if r.status_code == 201}
    assert len(ids) == 1  # replays answer with the same document
    listed = _get(
        f"{hosts.urls[1]}/api/v1/documents", params={"title": title}, headers=headers
    ).json()["data"]
    assert [d["id"] for d in listed] == list(ids)


def test_workers_on_both_hosts_never_run_one_job_twice(hosts):
    headers = _auth(hosts.keys["shared"][1], "shared")
    ids = []
    for n in range(16):
        created = _upload(hosts.urls[n % 2], headers, f"job number {n} {uuid.uuid4()}".encode())
        assert created.status_code == 201
        ids.append(created.json()["data"]["id"])
    deadline = time.monotonic() + 120
    while True:
        statuses = [
            _get(f"{hosts.urls[0]}/api/v1/documents/{i}", headers=headers).json()["data"][
                "textStatus"
            ]
            for i in ids
        ]
        if all(s == "done" for s in statuses):
            break
        assert time.monotonic() < deadline, statuses
        time.sleep(0.5)

    # Each document's text was extracted once across both hosts' workers (one attempt each),
    # whichever job it ran in: its own, or one that absorbed it while it waited.
    with psycopg.connect(hosts.database_url) as conn:
        attempts = dict(
            conn.execute(
                "SELECT document_id, attempts FROM document_texts WHERE document_id = ANY(%s)",
                (ids,),
            ).fetchall()
        )
    assert attempts == dict.fromkeys(ids, 1), attempts
