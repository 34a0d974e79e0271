"""A timed table's session clock on the table core, with a fake clock (docs/events.md 'The
session clock'): it starts with the game; at its end the game is given TimeUp, stored before
anything it causes is sent, and everyone is told; extra time moves the end, only before the
time is up; a table rebuilt from the store keeps the same end."""

from __future__ import annotations

from typing import Any

from server.game.actions import TABLE_SEAT, TimeUp
from server.game.record import GameRecord
from server.rules.config import rules_to_data
from server.store.rows import SeatRow, TableRow
from server.table.clock import Clock
from server.table.core import TableCore
from server.table.io import (Act, AddBot, AppendDecisions, Broadcast, ClockFired, Disconnect, ExtraTime, FinishGame,
                             Join, Log, Ready, Reconnect, Restored, ResultClosed, SetSessionEnd, SetTimer, Watch)
from server.table.session import Ending, Session
from server.table.spec import TableSpec
from tests.table.driver import Driver, member, of

host = member("host")
START = 1_000.0  # (the driver's `now` stands for wall-clock time: the core's wall_offset is 0)


def timed_table(seconds: float = 600, ending: Ending = Ending.FINISH_HAND) -> Driver:
    """The host in seat 0 and three bots, no decision clock, a session of `seconds`: started at START."""
    d = Driver(spec=TableSpec("tenhou", clock=None, session=Session(seconds, ending)))
    d(Join(seat=0, host=True), host, at=START)
    for _ in range(3):
        d(AddBot(), host)
    d(Ready(), host)
    return d


def answer(d: Driver, decisions: int) -> None:
    """The host answers `decisions` offers (a discard, else the first action), or fewer if the game ends."""
    for _ in range(decisions):
        if d.core.game.over:
            return
        sent = d.last(host, "offer")
        action = next((a for a in sent["actions"] if a["type"] == "discard"), sent["actions"][0])
        d(Act(sent["decision"], action), host)


def play_out(d: Driver) -> None:
    answer(d, 5000)
    assert d.core.game.over


def sessions(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == "session"]


def test_the_session_clock_starts_with_the_game_and_is_stored_in_wall_clock_time():
    d = timed_table(600)
    assert of(SetSessionEnd, d.out) == [SetSessionEnd(START + 600)]
    table = d.last(host, "table")
    assert table["state"] == "playing" and table["session"]["left_ms"] == 600_000
    assert table["session"]["ending"] == "finish-hand" and not table["session"]["time_up"]
    assert SetTimer(START + 600) in d.out  # (no decision clock: the session's end is the one timer)


def test_at_the_end_of_the_session_the_game_is_told_time_is_up_stored_before_it_is_sent():
    d = timed_table(600)
    answer(d, 3)
    hand = d.core.game.public.hand_number
    out = d(ClockFired(), at=START + 600)
    stored = [i for i, o in enumerate(out) if isinstance(o, AppendDecisions) and (TABLE_SEAT, TimeUp(0)) in o.decisions]
    told = [i for i, o in enumerate(out) if isinstance(o, Broadcast) and o.message["type"] == "session"]
    assert stored and told and stored[0] < told[0]
    message = told and out[told[0]].message
    assert message["session"]["time_up"] and message["session"]["last_hand"] == hand
    assert d.core.game.last_hand == hand


def test_a_game_ended_by_time_finishes_the_hand_in_play_and_is_played_out():
    d = timed_table(600)
    answer(d, 3)
    hand = d.core.game.public.hand_number
    d(ClockFired(), at=START + 600)
    play_out(d)
    assert len(d.core.game.results) == hand + 1
    assert of(FinishGame, d.out) and d.last(host, "result")["final"] == d.core.game.final


def test_one_more_hand_after_the_time_is_up():
    d = timed_table(600, Ending.ONE_MORE_HAND)
    answer(d, 3)
    hand = d.core.game.public.hand_number
    d(ClockFired(), at=START + 600)
    assert d.last(host, "session")["session"]["last_hand"] == hand + 1
    play_out(d)
    assert len(d.core.game.results) == hand + 2


def test_no_time_up_before_the_end():
    d = timed_table(600)
    d(ClockFired(), at=START + 599)
    assert d.core.game.last_hand is None and not sessions(d.to(host))


def test_extra_time_moves_the_end_and_everyone_is_told():
    d = timed_table(600)
    out = d(ExtraTime(120), at=START + 10)
    assert of(SetSessionEnd, out) == [SetSessionEnd(START + 720)]
    assert SetTimer(START + 720) in out
    told = sessions(d.to(host, out))
    assert told and told[0]["extra_ms"] == 120_000 and told[0]["session"]["left_ms"] == 710_000
    d(ClockFired(), at=START + 600)
    assert d.core.game.last_hand is None  # not yet: the end moved
    d(ClockFired(), at=START + 720)
    assert d.core.game.last_hand is not None


def test_extra_time_after_the_time_is_up_is_refused():
    d = timed_table(600)
    d(ClockFired(), at=START + 600)
    out = d(ExtraTime(120), at=START + 610)
    assert not of(SetSessionEnd, out)
    assert [o for o in of(Log, out) if o.event == "extra_time_refused"]


def _stored(d: Driver, ends_at: float) -> TableRow:
    """The table as the store keeps it, in play, with its session's end."""
    seats = [SeatRow(i, s.name, s.kind, s.strategy, s.token_hash, s.host, False, None)
             for i, s in enumerate(d.core.seats)]
    return TableRow("t1", "invite-code", "watch-code", rules_to_data(d.core.rules), None, "playing", seats,
                    d.core.game_id, (), d.core.table_broadcasts, d.core.spec.to_data(), ends_at)


def test_a_table_rebuilt_from_the_store_keeps_the_same_end():
    d = timed_table(600)
    answer(d, 4)
    core, _ = TableCore.restored(_stored(d, START + 600), GameRecord.of(d.core.game), START + 300)
    assert core.session.ends_at == START + 600 and not core.session.time_up
    out = core.handle(Restored(), None, START + 300)
    assert SetTimer(START + 600) in out
    out = core.handle(ClockFired(), None, START + 600)
    assert core.game.last_hand is not None and of(AppendDecisions, out)


def test_a_table_rebuilt_after_its_time_was_up_stays_up():
    d = timed_table(600)
    answer(d, 2)
    d(ClockFired(), at=START + 600)
    core, _ = TableCore.restored(_stored(d, START + 600), GameRecord.of(d.core.game), START + 700)
    assert core.session.time_up and core.game.last_hand == d.core.game.last_hand
    assert [o for o in of(Log, core.handle(ExtraTime(60), None, START + 700)) if o.event == "extra_time_refused"]


def test_the_session_is_kept_with_the_spec():
    spec = TableSpec("ema2016", session=Session(5400, Ending.ONE_MORE_HAND))
    assert TableSpec.from_data(spec.to_data()).session == Session(5400, Ending.ONE_MORE_HAND)
    assert TableSpec.from_data(TableSpec("ema2016").to_data()).session is None


def test_time_up_during_the_pause_between_hands_the_next_hand_already_dealt_is_the_last():
    """Between hands the engine has dealt the next hand (held while the result is read): that hand
    is the one in play, and is played out as the last."""
    d = Driver(spec=TableSpec("tenhou", clock=Clock(per_decision=30, bank=0, between_hands=15),
                              session=Session(10)))  # (the pause after a hand: 15 s)
    d(Join(seat=0, host=True), host, at=START)
    for _ in range(3):
        d(AddBot(), host)
    d(Ready(), host)
    while d.core.between is None:
        answer(d, 1)
    ended = len(d.core.game.results)
    d(ClockFired(), at=START + 10)  # in the pause: nothing of the next hand has been sent
    assert d.core.between is not None and d.core.game.last_hand == ended
    assert d.last(host, "session")["session"]["last_hand"] == ended
    d(ResultClosed(), host)
    play_out(d)
    assert len(d.core.game.results) == ended + 1


def test_a_spectator_caught_up_after_a_resume_is_told_the_time_left_now():
    """The table messages a resume replays say the time left when they were sent: a `session`
    message follows with the time left now."""
    d = timed_table(600)
    watcher = member("watcher")
    d(Watch(), watcher, at=START + 1)
    since = d.core.seq
    d(Disconnect(), watcher, at=START + 2)
    answer(d, 2)
    sent = d.to(watcher, d(Reconnect(since=since, watch=True), watcher, at=START + 100))
    assert sent[0]["type"] == "catchup" and sent[0]["replay"]
    assert sessions(sent)[-1]["session"]["left_ms"] == 500_000
