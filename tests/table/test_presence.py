"""Presence, on the table core itself: a seat is kept while its player is away, taken back by
a resume, and (PROTOCOL.md "leave") "a player who leaves a game in play keeps the seat:
it is played for at once while anyone is connected"."""

from protocol.messages import ByeCode
from server.table.clock import Clock
from server.table.io import (
    Act, AddBot, AppendDecisions, Disconnect, Holds, Leave, Member, Reconnect, Released, Seated, SetSeatLeft,
)
from server.table.seats import SeatState
from tests.table.driver import Driver, member, of
from tests.table.driver import two_players_and_two_bots as seated

host, guest = member("host"), member("guest")


def two_players_and_two_bots(clock: Clock | None = None) -> Driver:
    return seated(Driver(clock=clock), host, guest)


def answer(d: Driver, who, at: float | None = None) -> list:
    """`who` answers its open offer: a discard if it may, else the first action offered."""
    offer = d.last(who, "offer")
    action = next((a for a in offer["actions"] if a["type"] == "discard"), offer["actions"][0])
    return d(Act(offer["decision"], action), who, at)


def test_a_player_whose_connection_drops_keeps_its_seat_shown_as_not_connected():
    d = two_players_and_two_bots()
    out = d(Disconnect(), guest)
    assert d.core.seats[1].state is SeatState.AWAY and d.core.seats[1].token_hash == guest.token_hash
    assert d.to(host, out)[-1]["seats"][1]["connected"] is False
    assert d.to(guest, out) == []  # gone: nothing more is sent to it


def test_a_resume_from_another_connection_takes_the_seat_and_the_old_one_is_told_replaced():
    d = two_players_and_two_bots()
    again = Member("m-guest-2", guest.token_hash, "guest")  # the same token, a new session
    out = d(Reconnect(), again)
    old = d.to(guest, out)
    assert old[0]["type"] == "bye" and old[0]["code"] == ByeCode.REPLACED
    assert Released(guest.id) in out and Seated(again.id, 1, joined=False) in out
    assert d.core.seats[1].member == again.id
    assert d.last(again, "snapshot")["view"]["you"]["seat"] == 1


def test_a_token_with_no_seat_here_cannot_resume_one():
    d = two_players_and_two_bots()
    stranger = member("stranger")
    assert d.to(stranger, d(Reconnect(), stranger))[0]["code"] == "no_seat"


def test_a_player_who_leaves_mid_game_keeps_the_seat_and_is_played_for_while_someone_is_here():
    d = two_players_and_two_bots()
    while d.core.game.waiting_for() != [0]:  # until it is the host's turn alone
        answer(d, guest if 1 in d.core.game.waiting_for() else host)
    out = d(Leave(), host)
    left = d.to(host, out)[0]
    assert left == {"type": "left", "seq": left["seq"], "table": "t1", "seat": 0, "seat_kept": True}
    assert SetSeatLeft(0, True) in out and Holds(host.token_hash, None) not in out
    assert d.core.seats[0].state is SeatState.LEFT
    assert of(AppendDecisions, out)  # its turn was played at once: the guest is connected


def test_with_nobody_connected_a_seat_that_left_is_not_played_for_and_the_game_waits():
    d = two_players_and_two_bots()
    d(Disconnect(), guest)
    while d.core.game.waiting_for() != [0]:
        answer(d, host)
    decisions = len(d.core.game.decisions)
    out = d(Leave(), host)
    assert of(AppendDecisions, out) == [] and len(d.core.game.decisions) == decisions
    back = d(Reconnect(), guest)  # someone is here again: the seat that left no longer holds the game
    assert of(AppendDecisions, back)


def test_a_player_away_for_the_absence_limit_may_be_handed_to_a_bot_by_the_host():
    d = two_players_and_two_bots(Clock(per_decision=600, bank=0, absence=60, between_hands=0))
    d(Disconnect(), guest, at=10.0)
    early = d(AddBot(seat=1), host, at=69.0)
    assert d.to(host, early)[0]["code"] == "seat_taken"
    out = d(AddBot(seat=1), host, at=70.0)
    assert Holds(guest.token_hash, None, handed_to_bot=True) in out
    assert d.core.seats[1].state is SeatState.BOT and d.core.seats[1].name == "guest"
