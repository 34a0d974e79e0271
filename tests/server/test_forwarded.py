"""server/forwarded.py: which peers are trusted, and the client an X-Forwarded-For names."""

from __future__ import annotations

import pytest

from server.forwarded import TrustedProxies, network

PROXIES = TrustedProxies([network("10.0.0.0/8"), network("192.0.2.1"), network("::1")])


def test_addresses_and_networks_are_trusted_and_nothing_else():
    assert PROXIES.trusts("10.200.3.4") and PROXIES.trusts("192.0.2.1") and PROXIES.trusts("::1")
    assert PROXIES.trusts("::ffff:10.0.0.5")  # a dual-stack socket's form of 10.0.0.5
    assert not PROXIES.trusts("192.0.2.2") and not PROXIES.trusts("11.0.0.1") and not PROXIES.trusts("?")
    assert not TrustedProxies().trusts("127.0.0.1") and not TrustedProxies()


def test_a_bad_option_says_what_to_give():
    with pytest.raises(ValueError, match="--trusted-proxy 'lb.example' is not an address or a network"):
        network("lb.example")


def test_the_right_most_untrusted_address_is_the_client():
    assert PROXIES.client_of("10.0.0.1", ["203.0.113.7"]) == "203.0.113.7"
    # a client may put anything in front: only what the first trusted hop appended counts
    assert PROXIES.client_of("10.0.0.1", ["1.1.1.1, 203.0.113.7, 10.0.0.9"]) == "203.0.113.7"
    assert PROXIES.client_of("10.0.0.1", ["1.1.1.1", "203.0.113.7,10.0.0.9"]) == "203.0.113.7"


def test_from_a_peer_not_trusted_the_header_is_ignored():
    assert PROXIES.client_of("198.51.100.1", ["203.0.113.7"]) == "198.51.100.1"


def test_a_chain_of_trusted_proxies_gives_the_left_most():
    assert PROXIES.client_of("10.0.0.1", ["10.0.0.2, 10.0.0.3"]) == "10.0.0.2"


def test_an_entry_that_is_no_address_stops_at_the_proxy_that_passed_it():
    assert PROXIES.client_of("10.0.0.1", ["203.0.113.7, unknown"]) == "10.0.0.1"
    assert PROXIES.client_of("10.0.0.1", ["junk, 10.0.0.4"]) == "10.0.0.4"
    assert PROXIES.client_of("10.0.0.1", [""]) == "10.0.0.1"
