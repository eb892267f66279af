"""The SSRF guard: refused addresses (IPv4, IPv6, IPv4-mapped, metadata, names that resolve
to them) on every attempt, and the request connecting to the very address that was checked."""

from __future__ import annotations

import socket

import pytest

from services.core import outbound
from services.core.outbound import AddressRefused

REFUSED = [
    "https://127.0.0.1/hook",
    "https://[::1]/hook",
    "https://10.0.0.1/hook",
    "https://172.16.5.4/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data/",
    "https://[fd00:ec2::254]/",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:169.254.169.254]/",
    "https://[2002:7f00:1::]/",  # 6to4 around 127.0.0.1
    "https://0.0.0.0/",
    "https://[::]/",
    "https://224.0.0.1/",
    "https://[ff02::1]/",
    "https://[fe80::1]/",
    "https://100.64.0.1/",  # carrier-grade NAT
    "https://localhost/hook",  # a name that resolves to loopback
]


@pytest.mark.parametrize("url", REFUSED)
def test_refused_addresses(url):
    with pytest.raises(AddressRefused, match="refused"):
        outbound.resolve(url, allow_private=False)


def test_a_name_resolving_to_a_private_address_is_refused(monkeypatch):
    def fake(host, port, *args, **kwargs):
        assert host == "intranet.example.com"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    with pytest.raises(AddressRefused, match="private"):
        outbound.resolve("https://intranet.example.com/hook", allow_private=False)


def test_any_private_answer_among_public_ones_refuses(monkeypatch):
    answers = [("93.184.215.14", 443), ("127.0.0.1", 443)]
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", x) for x in answers],
    )
    with pytest.raises(AddressRefused, match="loopback"):
        outbound.resolve("https://mixed.example.com/", allow_private=False)


def test_public_addresses_pass():
    target = outbound.resolve("https://93.184.215.14:8443/a?b=1", allow_private=False)
    assert (target.address, target.port, target.target) == ("93.184.215.14", 8443, "/a?b=1")
    assert outbound.resolve("https://[2606:4700::1111]/", allow_private=False).address


def test_the_request_goes_to_the_checked_address_with_the_name_as_host(
    app, monkeypatch, receiver, make_endpoint, emit, work, tenant
):
    """A rebinding name: resolved once by the guard; the connection uses that answer and never
    asks again (a second lookup would raise, and nothing would arrive), while Host still names
    the URL's host. (The job may run in a forked work horse: what it saw is read from the
    receiver, not from variables here.)"""
    calls = []
    real = socket.getaddrinfo

    def resolve_once(host, port, *args, **kwargs):
        if host == "127.0.0.1":  # the connection's numeric lookup: no DNS involved
            return real(host, port, *args, **kwargs)
        calls.append(host)
        if len(calls) > 1:
            raise AssertionError("resolved twice")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    make_endpoint(tenant, f"http://rebind.example:{receiver.port}/hook")
    emit(tenant)
    monkeypatch.setattr(socket, "getaddrinfo", resolve_once)
    work()
    assert len(receiver.requests) == 1
    assert receiver.requests[0].headers["host"] == f"rebind.example:{receiver.port}"


def test_every_attempt_is_checked(
    app, monkeypatch, receiver, make_endpoint, emit, work, tenant, deliveries_of
):
    """An endpoint saved while private addresses were allowed is refused at the attempt once
    they are not: nothing reaches the receiver, and the attempt says why."""
    endpoint_id, _ = make_endpoint(tenant, receiver.url(host="localhost"))
    monkeypatch.setitem(app.config, "DMS_WEBHOOK_ALLOW_PRIVATE", False)
    emit(tenant)
    work()
    assert receiver.requests == []
    [delivery] = deliveries_of(endpoint_id)
    assert delivery["status"] == "retrying"
    assert delivery["attempts"][0]["statusCode"] is None
    assert "loopback" in delivery["attempts"][0]["error"]


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example.com/",
        "https://10.0.0.1/",
        "https://[::ffff:10.0.0.1]/",
        "https://localhost/",
        "https://a.localhost/",
    ],
)
def test_creation_refuses_what_it_can_tell_without_resolving(url):
    assert outbound.url_problem(url, allow_http=False, allow_private=False)


# IPv4 addresses as resolvers read them (inet_aton): fewer than four parts, octal and hex
# parts, leading zeros. Each is 127.0.0.1 or 0.0.0.0 to getaddrinfo.
IPV4_SPELLINGS = [
    ("https://127.1/", "127.0.0.1"),
    ("https://0/", "0.0.0.0"),  # noqa: S104 (an address refused, not a bind)
    ("https://2130706433/", "127.0.0.1"),
    ("https://0x7f000001/", "127.0.0.1"),
    ("https://0177.0.0.1/", "127.0.0.1"),
    ("https://017700000001/", "127.0.0.1"),
    ("https://127.000.000.001/", "127.0.0.1"),
    ("https://0x7f.1/", "127.0.0.1"),
    ("https://10.1/", "10.0.0.1"),
    ("https://0xA9.0xFE.0xA9.0xFE/latest/", "169.254.169.254"),
    ("https://127.0.0.1./", "127.0.0.1"),
]


@pytest.mark.parametrize(("url", "address"), IPV4_SPELLINGS)
def test_ipv4_in_any_spelling_is_refused_at_save(url, address):
    problem = outbound.url_problem(url, allow_http=False, allow_private=False)
    assert problem and problem.startswith("points at"), problem


@pytest.mark.parametrize(("url", "address"), IPV4_SPELLINGS)
def test_ipv4_in_any_spelling_is_checked_as_that_address_without_dns(url, address, monkeypatch):
    def no_dns(*args, **kwargs):
        raise AssertionError("an IPv4 literal needs no lookup")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    with pytest.raises(AddressRefused, match="refused"):
        outbound.resolve(url, allow_private=False)
    assert outbound.resolve(url, allow_private=True).address == address


@pytest.mark.parametrize(
    "url",
    ["https://8.8.8.8/", "https://0x8080808/", "https://134744072/", "https://1.2.3/"],
)
def test_public_addresses_in_any_spelling_pass(url):
    assert outbound.url_problem(url, allow_http=False, allow_private=False) is None


@pytest.mark.parametrize(
    "url", ["https://1e3/", "https://0x/", "https://08.1/", "https://1.2.3.4.5/", "https://a.1/"]
)
def test_names_that_only_look_numeric_are_names(url):
    """What inet_aton does not take is a name, resolved (and checked) at each attempt."""
    assert outbound.url_problem(url, allow_http=False, allow_private=False) is None


def test_operator_switches(url="http://10.0.0.1:8080/x"):
    assert outbound.url_problem(url, allow_http=True, allow_private=True) is None
    assert outbound.resolve(url, allow_private=True).address == "10.0.0.1"
