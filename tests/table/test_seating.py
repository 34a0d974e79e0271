"""Seating, on the table core itself (no sockets, no event loop): PROTOCOL.md "Tables":
"the game starts when four seats are ready"; a host "seats bots or shares the invite code"."""

from server.store.rows import SeatRow
from server.table.io import (
    AddBot, Holds, Join, Leave, Ready, Released, RemoveSeat, SaveSeat, Seated, Send, SetBroadcasts, SetSeatHost,
    SetTableState, StartGame, TableClosed,
)
from server.table.seats import SeatState, TableState
from tests.table.driver import Driver, member, of

host, guest = member("host"), member("guest")


def test_the_host_takes_its_seat_is_given_the_codes_and_the_seat_is_stored_before_it_is_told():
    d = Driver()
    out = d(Join(seat=0, host=True), host)
    assert of(Seated, out) == [Seated(host.id, 0, joined=True)]
    assert of(Holds, out) == [Holds(host.token_hash, 0)]
    assert of(SaveSeat, out) == [SaveSeat(SeatRow(0, "host", "human", None, host.token_hash, True))]
    first_send = next(i for i, o in enumerate(out) if isinstance(o, Send))
    assert out.index(SetBroadcasts(1)) < first_send  # the count that seq goes on from is stored first
    table = d.last(host, "table")
    assert table["you"] == 0 and table["seq"] == 1
    assert (table["invite"], table["watch"]) == ("invite-code", "watch-code")


def test_a_guest_gets_the_first_free_seat_no_codes_and_everyone_hears_of_it():
    d = Driver()
    d(Join(seat=0, host=True), host)
    out = d(Join(), guest)
    mine, hosts = d.last(guest, "table"), d.last(host, "table")
    assert mine["you"] == 1 and "invite" not in mine
    assert hosts["you"] == 0 and hosts["seats"][1]["name"] == "guest" and hosts["seq"] == mine["seq"] == 2
    assert of(Seated, out) == [Seated(guest.id, 1, joined=True)]


def test_a_taken_seat_a_seat_out_of_range_and_a_full_table_are_refused_each_with_its_code():
    d = Driver()
    d(Join(seat=0, host=True), host)
    assert d.to(guest, d(Join(seat=0), guest))[0]["code"] == "seat_taken"
    assert d.to(guest, d(Join(seat=7), guest))[0]["code"] == "bad_seat"
    for name in ("b", "c", "d"):
        d(Join(), member(name))
    late = member("late")
    assert d.to(late, d(Join(), late))[0]["code"] == "table_full"


def test_a_player_joining_a_waiting_table_full_of_bots_takes_a_bots_seat():
    d = Driver()
    d(Join(seat=0, host=True), host)
    for _ in range(3):
        d(AddBot(), host)
    out = d(Join(), guest)
    assert of(Seated, out) == [Seated(guest.id, 1, joined=True)]
    assert [s.state for s in d.core.seats] == [SeatState.HERE, SeatState.HERE, SeatState.BOT, SeatState.BOT]


def test_only_the_host_seats_bots_and_an_unknown_strategy_is_named():
    d = Driver()
    d(Join(seat=0, host=True), host)
    d(Join(), guest)
    assert d.to(guest, d(AddBot(), guest))[0]["code"] == "not_host"
    assert "unknown bot 'wizard'" in d.to(host, d(AddBot(strategy="wizard"), host))[0]["message"]


def test_the_game_starts_when_all_four_seats_are_ready_and_the_first_offer_goes_to_the_dealer():
    d = Driver()
    d(Join(seat=0, host=True), host)
    for _ in range(3):
        d(AddBot(), host)
    assert of(StartGame, d.out) == []  # bots are ready, the host is not
    out = d(Ready(), host)
    assert of(StartGame, out) == [StartGame(d.core.rules, ("host", "builtin-bot-1", "builtin-bot-2", "builtin-bot-3"))]
    assert SetTableState(TableState.PLAYING) in out and d.core.state is TableState.PLAYING
    sent = d.to(host, out)
    events = [m["event"]["type"] for m in sent if m["type"] == "event"]
    assert events[:2] == ["game_start", "hand_start"]
    offer = d.last(host, "offer")
    assert offer["decision"] == 1 and offer["seat"] == 0
    seqs = [m["seq"] for m in d.to(host) if m["type"] in ("table", "event")]
    assert seqs == list(range(1, len(seqs) + 1))  # every broadcast numbered, no gap


def test_a_host_who_leaves_before_the_game_passes_the_hosting_and_the_last_player_out_closes_the_table():
    d = Driver()
    d(Join(seat=0, host=True), host)
    d(Join(), guest)
    out = d(Leave(), host)
    assert out[0] == Released(host.id)
    assert d.to(host, out) == [{"type": "left", "seq": 2, "table": "t1", "seat": 0, "seat_kept": False}]
    assert RemoveSeat(0) in out and SetSeatHost(1) in out and Holds(host.token_hash, None) in out
    assert "invite" in d.last(guest, "table")  # the codes go with the hosting
    out = d(Leave(), guest)
    assert d.to(guest, out)[-1]["type"] == "left"  # answered before the table closes
    assert SetTableState(TableState.CLOSED, "the host left and no player is seated") in out
    assert out[-1] == TableClosed() and d.core.state is TableState.CLOSED
