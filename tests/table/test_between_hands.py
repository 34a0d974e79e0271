"""The pause between hands, on the table core itself (docs/server.md "Clocks", PROTOCOL.md
"Between hands"): after a hand's end nothing of the next hand is sent or played, and no clock
runs, until every connected player has sent `result_closed` or `between_hands` has passed;
bots, programs and players away never hold it; a table rebuilt in the pause goes on."""

from __future__ import annotations

from typing import Any

from server.rules.config import rules_to_data
from server.game.record import GameRecord
from server.store.rows import SeatRow, TableRow
from server.table.clock import Clock
from server.table.core import TableCore
from server.table.io import (Act, AddBot, ClockFired, Disconnect, Join, Log, Member, Ready, Reconnect, Restored,
                             ResultClosed, SetTimer)
from tests.table.driver import Driver, member, of, two_players_and_two_bots

host, guest, watcher = member("host"), member("guest"), member("watcher")
program = Member("m-program", "token-program", "program", program=True)
CLOCK = Clock(per_decision=5, bank=20, between_hands=15)


def host_and_bots(clock: Clock | None = CLOCK) -> Driver:
    d = Driver(clock=clock)
    d(Join(seat=0, host=True), host, at=100.0)
    for _ in range(3):
        d(AddBot(), host)
    d(Ready(), host)
    return d


def events(messages: list[dict[str, Any]]) -> list[str]:
    return [m["event"]["type"] for m in messages if m["type"] == "event"]


def play_to_a_hand_end(d: Driver, players: tuple[Member, ...] = (host,)) -> list[dict[str, Any]]:
    """Each player answers its open offers (a discard, else the first action) until a hand
    ends; what the first player was sent by the answer that ended it."""
    for _ in range(2000):
        for player in players:
            seat = next(i for i, s in enumerate(d.core.seats) if s is not None and s.token_hash == player.token_hash)
            offer = d.core.offers.get(seat)
            if offer is None:
                continue
            sent = d.last(player, "offer")
            action = next((a for a in sent["actions"] if a["type"] == "discard"), sent["actions"][0])
            out = d(Act(sent["decision"], action), player)
            if "hand_end" in events(d.to(players[0], out)):
                return d.to(players[0], out)
    raise AssertionError("no hand ended")


def test_after_a_hands_end_nothing_of_the_next_is_sent_or_played_until_the_result_is_closed():
    d = host_and_bots()
    sent = play_to_a_hand_end(d)
    assert events(sent)[-1] == "hand_end"  # no hand_start, no draw behind it
    assert not [m for m in sent if m["type"] == "offer"] and not d.core.offers
    decisions = len(d.core.game.decisions)
    assert of(SetTimer, d.out)[-1] == SetTimer(d.now + 15)  # the pause's own end
    out = d(ClockFired(), at=d.now + 10)  # (a timer of the old hand, say): the pause goes on
    assert d.to(host, out) == [] and len(d.core.game.decisions) == decisions  # the bots wait too
    sent = d.to(host, d(ResultClosed(), host))
    assert events(sent)[:2] == ["hand_start", "draw"]
    assert [m["seq"] for m in sent if m["type"] == "event"] == list(range(sent[0]["seq"], d.core.seq + 1))
    offer = d.last(host, "offer")  # the host's next decision (the bots may have played before it)
    assert (offer["deadline_ms"], offer["bank_ms"]) == (25_000, 20_000)  # reading took none of it


def test_a_result_nobody_closes_holds_the_next_hand_for_between_hands_only():
    d = host_and_bots()
    play_to_a_hand_end(d)
    ended = d.now
    assert d(ClockFired(), at=ended + 14.9) == [SetTimer(ended + 15)]
    sent = d.to(host, d(ClockFired(), at=ended + 15))
    assert events(sent)[:2] == ["hand_start", "draw"]
    assert d.last(host, "offer")["deadline_ms"] == 25_000  # the clock starts now, whole
    told = [o.fields for o in of(Log, d.out) if o.event == "result_not_closed"]
    assert told == [{"seats": [0], "seq": sent[0]["seq"] - 1}]


def test_every_connected_player_closes_the_result_before_the_next_hand_starts():
    d = two_players_and_two_bots(Driver(clock=CLOCK), host, guest, watcher)
    play_to_a_hand_end(d, (host, guest))
    assert d.to(host, d(ResultClosed(), host)) == []
    assert d.to(host, d(ResultClosed(), watcher)) == []  # a spectator's says nothing
    assert d.to(host, d(ResultClosed(), host)) == []  # nor a second one
    assert events(d.to(host, d(ResultClosed(), guest)))[:1] == ["hand_start"]


def test_a_player_away_never_holds_the_next_hand():
    d = two_players_and_two_bots(Driver(clock=CLOCK), host, guest)
    play_to_a_hand_end(d, (host, guest))
    d(Disconnect(), guest)
    assert events(d.to(host, d(ResultClosed(), host)))[:1] == ["hand_start"]


def test_a_player_who_goes_away_while_the_others_have_closed_the_result_lets_the_next_hand_start():
    d = two_players_and_two_bots(Driver(clock=CLOCK), host, guest)
    play_to_a_hand_end(d, (host, guest))
    d(ResultClosed(), host)
    assert "hand_start" in events(d.to(host, d(Disconnect(), guest))) and d.core.between is None


def test_a_program_never_holds_the_next_hand():
    d = two_players_and_two_bots(Driver(clock=CLOCK), host, program)
    play_to_a_hand_end(d, (host, program))
    assert events(d.to(host, d(ResultClosed(), host)))[:1] == ["hand_start"]


def test_a_table_with_nobody_here_is_never_held():
    d = two_players_and_two_bots(Driver(clock=Clock(per_decision=5, bank=0, between_hands=3600)), host, guest)
    d(Disconnect(), guest)
    d(Disconnect(), host)  # both away: each decision of theirs is played when its 5 s run out
    for _ in range(400):
        d(ClockFired(), at=d.now + 5)
        if len(d.core.game.results) >= 2:
            break
    assert len(d.core.game.results) == 2 and d.now < 3600  # no pause of an hour came between them


def test_without_a_clock_or_with_between_hands_0_the_next_hand_follows_at_once():
    for clock in (None, Clock(per_decision=5, bank=20, between_hands=0)):
        d = host_and_bots(clock)
        sent = play_to_a_hand_end(d)
        assert "hand_start" in events(sent) and d.core.between is None


def test_result_closed_outside_the_pause_is_ignored_with_no_answer():
    d = host_and_bots()
    assert d(ResultClosed(), host) == []
    d2 = Driver(clock=CLOCK)
    assert d2(ResultClosed(), host) == []  # (at a table it holds no seat at: nothing either)


def test_a_table_rebuilt_from_its_record_in_the_pause_goes_on_at_once_with_whole_clocks():
    d = two_players_and_two_bots(Driver(clock=CLOCK), host, guest)
    play_to_a_hand_end(d, (host, guest))
    assert d.core.between is not None
    row = TableRow("t1", "invite-code", "watch-code", rules_to_data(d.core.rules), d.core.clock.to_data(), "playing",
                   [SeatRow(i, s.name, s.kind, s.strategy, s.token_hash, s.host) for i, s in enumerate(d.core.seats)],
                   game_id=1, broadcasts=d.core.table_broadcasts)
    core, _ = TableCore.restored(row, GameRecord.of(d.core.game), now=1000.0)
    assert core.seq >= d.core.seq  # (the held events count as sent: numbers never go back)
    out = core.handle(Restored(), None, 1000.0)
    assert core.between is None and core.offers  # the next hand is under way, nothing waits
    assert SetTimer(min(o.deadline for o in core.offers.values())) in out
    for player in (host, guest):
        sent = d.to(player, core.handle(Reconnect(since=d.core.seq, restart=True), player, 1001.0))
        assert sent[2]["type"] == "snapshot" and sent[2]["view"]["round"] == d.core.game.public.round_name
        offers = [m for m in sent if m["type"] == "offer"]
        assert all(m["bank_ms"] == 20_000 and m["deadline_ms"] == 24_000 for m in offers)
