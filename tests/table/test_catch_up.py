"""Catch-up, on the table core itself: docs/server.md "Resuming": a client that resumes with
the last `seq` it saw "gets what it missed masked for its seat (a spectator: the public
form) ... When the history no longer reaches back, or after a restart ... it gets a
snapshot instead, and a `catchup` message says which"."""

from server.game.record import GameRecord
from server.rules.config import rules_to_data
from server.store.rows import SeatRow, TableRow
from server.table.core import TableCore
from server.table.clock import Clock
from server.table.io import Act, ClockFired, Disconnect, Holds, Reconnect
from server.table.seats import SeatState
from tests.table.driver import Driver, member, two_players_and_two_bots

host, guest, watcher = member("host"), member("guest"), member("watcher")


def table_with_a_guest_and_a_watcher(history: int = 256) -> Driver:
    d = Driver(clock=Clock(per_decision=1, bank=0, absence=600, between_hands=0), history=history)
    return two_players_and_two_bots(d, host, guest, watcher)


def play(d: Driver, decisions: int) -> None:
    """The host and the guest answer `decisions` offers between them (a discard when they may)."""
    for _ in range(decisions):
        seat = d.core.game.waiting_for()[0]
        who = host if seat == 0 else guest
        offer = d.last(who, "offer")
        action = next((a for a in offer["actions"] if a["type"] == "discard"), offer["actions"][0])
        d(Act(offer["decision"], action), who)


def broadcasts(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["type"] in ("event", "table", "result")]


def play_host_alone(d: Driver, steps: int) -> None:
    """The host answers its offers; the guest, away, is played for when its second runs out."""
    for _ in range(steps):
        if 0 in d.core.game.waiting_for():
            offer = d.last(host, "offer")
            action = next((a for a in offer["actions"] if a["type"] == "discard"), offer["actions"][0])
            d(Act(offer["decision"], action), host)
        else:
            d(ClockFired(), at=d.core.timer_at)


def test_a_seat_that_resumes_with_since_gets_exactly_what_it_missed_masked_for_it():
    d = table_with_a_guest_and_a_watcher()
    since = d.core.seq
    d(Disconnect(), guest)
    mark = len(d.out)
    play_host_alone(d, 20)
    public = {m["seq"]: m for m in broadcasts(d.to(watcher, d.out[mark:]))}
    out = d(Reconnect(since=since), guest)
    sent = d.to(guest, out)
    assert sent[0] == {"type": "catchup", "seq": d.core.seq - 1, "since": since, "replay": True}
    missed = broadcasts(sent[1:])[:-1]  # then the table broadcast that says it is back
    assert [m["seq"] for m in missed] == list(range(since + 1, since + 1 + len(missed))) and missed
    for m in missed:
        if m["type"] == "event" and m["event"]["type"] == "draw" and m["event"]["seat"] == 1:
            assert "tile" in m["event"] and "tile" not in public[m["seq"]]["event"]  # its own draw, masked for others
        elif m["type"] == "event":
            assert m["event"] == public[m["seq"]]["event"]
        else:
            assert m["you"] == 1 and "invite" not in m
    assert any(m["type"] == "event" and m["event"]["type"] == "draw" and m["event"]["seat"] == 1 for m in missed)


def test_a_spectator_that_resumes_gets_the_public_broadcasts_it_missed():
    d = table_with_a_guest_and_a_watcher()
    since = d.core.seq
    d(Disconnect(), watcher)
    play(d, 6)
    sent = d.to(watcher, d(Reconnect(since=since, watch=True), watcher))
    assert sent[0]["replay"] is True
    for m in broadcasts(sent[1:]):
        assert "hand" not in m.get("event", {}) and not (m.get("event", {}).get("type") == "draw"
                                                         and "tile" in m["event"])
    assert [m["seq"] for m in broadcasts(sent)] == list(range(since + 1, d.core.seq + 1))


def test_a_history_that_no_longer_reaches_back_gives_a_snapshot_and_says_why():
    d = table_with_a_guest_and_a_watcher(history=8)
    since = d.core.seq
    d(Disconnect(), guest)
    play_host_alone(d, 20)
    sent = d.to(guest, d(Reconnect(since=since), guest))
    assert sent[0]["replay"] is False and sent[0]["reason"] == "history"
    assert [m["type"] for m in sent[1:3]] == ["table", "snapshot"]
    assert sent[2]["view"]["you"]["seat"] == 1


def test_after_a_restart_seq_goes_on_and_a_resume_gets_a_snapshot_because_of_the_restart():
    d = table_with_a_guest_and_a_watcher()
    play(d, 10)
    row = TableRow("t1", "invite-code", "watch-code", rules_to_data(d.core.rules), d.core.clock.to_data(), "playing",
                   [SeatRow(i, s.name, s.kind, s.strategy, s.token_hash, s.host) for i, s in enumerate(d.core.seats)],
                   game_id=1, watchers=(watcher.token_hash,), broadcasts=d.core.table_broadcasts)
    core, holders = TableCore.restored(row, GameRecord.of(d.core.game), now=1000.0)
    assert core.seq == d.core.seq  # the stored table broadcasts plus the replayed game's events
    assert holders == [Holds(host.token_hash, 0), Holds(guest.token_hash, 1),
                       Holds(watcher.token_hash, None, watching=True)]
    assert [s.state for s in core.seats] == [SeatState.AWAY, SeatState.AWAY, SeatState.BOT, SeatState.BOT]
    out = core.handle(Reconnect(since=d.core.seq, restart=True), host, 1000.0)
    sent = d.to(host, out)
    assert sent[0]["replay"] is False and sent[0]["reason"] == "restart"
    assert sent[1]["type"] == "table" and sent[1]["seq"] == d.core.seq + 1
    assert sent[2]["type"] == "snapshot" and sent[2]["view"]["you"]["seat"] == 0
