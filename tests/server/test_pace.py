"""The loop's share per client address (server/pace.py), on its own: what it holds back and when."""

import time

from server.pace import AddressShare


def test_an_address_past_its_share_waits_while_another_address_plays():
    share = AddressShare(0.25, burst=0.05)
    share.charge("10.0.0.2", 0.2)  # 0.2 s of loop time spent in one go: 0.15 s past its credit
    share.charge("10.0.0.1", 0.001)  # someone else is playing
    wait = share.delay("10.0.0.2")
    assert 0.5 < wait <= 0.6  # 0.15 s owed at a quarter of a second a second
    assert share.delay("10.0.0.1") == 0.0


def test_an_address_alone_on_the_server_is_not_held_back():
    share = AddressShare(0.25, burst=0.05)
    share.charge("10.0.0.2", 0.2)
    assert share.delay("10.0.0.2") == 0.0


def test_the_credit_comes_back_at_the_share_and_no_further_than_the_burst():
    share = AddressShare(0.5, burst=0.05)
    share.charge("10.0.0.2", 0.06)
    share.charge("10.0.0.1", 0.0)
    time.sleep(0.05)  # 0.025 s of credit back: 0.015 s above nothing
    assert share.delay("10.0.0.2") == 0.0
    time.sleep(0.2)
    share.charge("10.0.0.2", 0.0)
    assert share.credit["10.0.0.2"] == 0.05  # the burst, not more
