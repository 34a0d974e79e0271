"""Clocks, on the table core itself, with time passed in as a number: docs/server.md "5 s a
decision plus a 20 s bank per seat per game ... a seat whose time runs out is played for (the drawn tile
discarded, calls passed) and told"."""

from server.game.actions import Discard
from server.table.clock import Clock
from server.table.io import Act, AddBot, CancelTimer, ClockFired, Join, Ready, SetTimer, Stop, StoreHeld
from tests.table.driver import Driver, member, of

host = member("host")


def host_and_bots(clock: Clock, at: float = 100.0) -> Driver:
    d = Driver(clock=clock)
    d(Join(seat=0, host=True), host, at=at)
    for _ in range(3):
        d(AddBot(), host)
    d(Ready(), host)
    return d


def test_an_offer_carries_its_deadline_and_bank_and_the_core_asks_for_a_timer_at_the_deadline():
    d = host_and_bots(Clock(per_decision=5, bank=20, between_hands=0))
    offer = d.last(host, "offer")
    assert (offer["deadline_ms"], offer["bank_ms"]) == (25_000, 20_000)
    assert of(SetTimer, d.out) == [SetTimer(125.0)]


def test_an_answer_after_the_decisions_time_is_taken_from_the_bank():
    d = host_and_bots(Clock(per_decision=5, bank=20, between_hands=0))
    offer = d.last(host, "offer")
    discard = next(a for a in offer["actions"] if a["type"] == "discard")
    d(Act(offer["decision"], discard), host, at=108.0)  # 3 s over
    following = d.last(host, "offer")  # (the bots answer at once: the host is asked again)
    assert following["decision"] > offer["decision"] and following["bank_ms"] == 17_000


def test_a_seat_whose_time_runs_out_is_played_for_with_the_drawn_tile_told_and_its_bank_spent():
    d = host_and_bots(Clock(per_decision=5, bank=20, between_hands=0))
    offer = d.last(host, "offer")
    drawn = d.core.game.private[0].drawn
    assert d(ClockFired(), at=124.0) == [SetTimer(125.0)]  # early: nothing is played, the timer asked again
    out = d(ClockFired(), at=125.0)
    timeout = d.to(host, out)[0]
    assert timeout == {"type": "timeout", "seq": offer["seq"], "decision": offer["decision"],
                       "action": {"type": "discard", "tile": drawn}}
    assert d.core.game.decisions[0] == (0, Discard(drawn))
    assert d.last(host, "offer")["bank_ms"] == 0


def test_the_timer_is_cancelled_when_no_offer_is_open():
    d = host_and_bots(Clock(per_decision=5, bank=0, between_hands=0))
    out = d(Stop())
    assert of(CancelTimer, out) == [CancelTimer()]


def test_the_time_a_table_waited_on_its_store_is_given_back_to_every_open_clock():
    """Issue 24, PostgreSQL stopped mid-game: "the nodes hold ... acts ..., resume when it is
    back".  A step whose writes were held (StoreHeld: the actor measured the wait) moves the
    open deadline on by the wait, so the seat is neither played for nor charged its bank."""
    d = host_and_bots(Clock(per_decision=5, bank=20, between_hands=0))
    offer = d.last(host, "offer")
    assert of(SetTimer, d(StoreHeld(12.0), at=112.0)) == [SetTimer(137.0)]
    assert d(ClockFired(), at=125.0) == [SetTimer(137.0)]  # its old deadline: nothing is played
    discard = next(a for a in offer["actions"] if a["type"] == "discard")
    d(Act(offer["decision"], discard), host, at=128.0)  # 28 s after the offer, 16 s of them the player's
    assert d.last(host, "offer")["bank_ms"] == 9_000  # 11 s over its 5: from the bank
