"""Kept-alive connections within a batch (outbound.Pools): reused for the same checked
address and name only, never after an answer longer than the part we read."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.core.outbound import Pools, Target, post, resolve
from tests.webhooks.receiver import Answer, Receiver


@pytest.fixture
def keep_alive_receiver() -> Iterator[Receiver]:
    server = Receiver(keep_alive=True).start()
    yield server
    server.stop()


def _post(receiver: Receiver, pools: Pools, path: str = "/hook"):
    target = resolve(receiver.url(path), allow_private=True)
    return post(target, {"webhook-id": "evt_1"}, b"{}", pools)


def test_a_connection_is_reused_for_the_same_checked_address(keep_alive_receiver):
    pools = Pools(per_address=2)
    try:
        outcomes = [_post(keep_alive_receiver, pools) for _ in range(3)]
    finally:
        pools.close()
    assert [o.status_code for o in outcomes] == [200, 200, 200]
    assert len({r.peer for r in keep_alive_receiver.requests}) == 1


def test_an_answer_longer_than_the_excerpt_ends_its_connection(keep_alive_receiver):
    keep_alive_receiver.answer(Answer(200, body=b"x" * 5000))
    pools = Pools(per_address=1)
    try:
        first = _post(keep_alive_receiver, pools)
        second = _post(keep_alive_receiver, pools)
        third = _post(keep_alive_receiver, pools)
    finally:
        pools.close()
    assert first.status_code == 200 and len(first.excerpt) == 1024
    assert (second.status_code, second.excerpt, second.error) == (200, "ok", None)
    assert third.status_code == 200
    peers = [r.peer for r in keep_alive_receiver.requests]
    assert peers[0] != peers[1] and peers[1] == peers[2]


def test_pools_are_kept_per_checked_address_and_name():
    pools = Pools(per_address=1)
    one = Target("https", "a.example", 443, "93.184.216.34", "/")
    try:
        assert pools.get(one) is pools.get(Target("https", "a.example", 443, "93.184.216.34", "/x"))
        assert pools.get(one) is not pools.get(
            Target("https", "a.example", 443, "93.184.216.35", "/")
        )
        assert pools.get(one) is not pools.get(
            Target("https", "b.example", 443, "93.184.216.34", "/")
        )
        assert pools.get(one) is not pools.get(
            Target("http", "a.example", 443, "93.184.216.34", "/")
        )
    finally:
        pools.close()
