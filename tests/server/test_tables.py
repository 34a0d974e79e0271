"""The table manager and the lobby, driven through their queues with no sockets."""

import asyncio
import random

import pytest

from server.game.analysis import is_red_id
from server.lobby import Lobby, LobbyError
from server.store import SqliteStore
from server.table.io import Act, AddBot, Disconnect, Ready, ResultClosed, Stop
from server.table.spec import SeatSpec, TableSpec
from tests.server.sessions import connected, next_message, play_host, seated_table


@pytest.mark.asyncio
@pytest.mark.parametrize("rules", ["tenhou", "ema2016"])
async def test_a_host_and_three_bots_play_a_whole_game_and_the_record_replays(lobby, store, rules):
    host, table = await seated_table(lobby, rules)
    messages = await play_host(host, random.Random(1))
    result = next(m for m in messages if m["type"] == "result")
    seqs = [m["seq"] for m in messages if m["type"] in ("event", "table", "result")]
    assert seqs == sorted(set(seqs)) and seqs[-1] == result["seq"]  # numbered, no gaps per broadcast
    replayed = store.record(result["game"]).replay()
    assert replayed.over and replayed.final == result["final"]
    assert [g.id for g in store.games()] == [result["game"]]


@pytest.mark.asyncio
async def test_a_seat_never_sees_another_seats_hand_or_draws(lobby):
    host, table = await seated_table(lobby)
    messages = await play_host(host, random.Random(2), stop_after=40)
    events = [m["event"] for m in messages if m["type"] == "event"]
    for e in events:
        if e["type"] == "draw" and e["seat"] != 0:
            assert "tile" not in e
        if e["type"] == "hand_start":
            assert len(e["hand"]) == 13 and "hands" not in e
    assert any(e["type"] == "draw" and e["seat"] != 0 for e in events)


@pytest.mark.asyncio
async def test_an_answer_with_a_stale_decision_id_is_dropped_with_an_error(lobby):
    host, table = await seated_table(lobby)
    offer = await next_message(host, "offer")
    # A discard, not the first action offered: a deal may offer a kong, a tsumo or nine
    # terminals first, and then the next event is not a discard of seat 0's.
    discard = next(action for action in offer["actions"] if action["type"] == "discard")
    table.put(Act(offer["decision"] - 1, discard), host)
    assert (await next_message(host, "error"))["code"] == "stale_decision"
    table.put(Act(offer["decision"], {"type": "discard", "tile": 200}), host)
    assert (await next_message(host, "error"))["code"] == "illegal_action"
    table.put(Act(offer["decision"], discard), host)
    assert (await next_message(host, "event"))["event"]["seat"] == 0  # the offer stayed open


@pytest.mark.asyncio
async def test_decision_ids_count_per_seat_so_they_say_nothing_of_other_seats_offers(lobby):
    host = connected("host")
    # a short clock plays for whichever of the two stops answering first
    table = lobby.create_table(host, "tenhou", clock={"per_decision": 0.05, "bank": 0, "absence": 600, "between_hands": 0})
    guest = connected("guest")
    await lobby.join(guest, table.invite, 1)
    for _ in range(2):
        table.put(AddBot(), host)
    table.put(Ready(), guest)
    table.put(Ready(), host)
    seen = await asyncio.gather(play_host(host, random.Random(5), stop_after=25),
                                play_host(guest, random.Random(6), stop_after=25))
    for messages in seen:
        ids = [m["decision"] for m in messages if m["type"] == "offer"]
        assert ids == list(range(1, len(ids) + 1))


@pytest.mark.asyncio
async def test_a_seat_whose_time_runs_out_is_played_for_and_told(lobby):
    host, table = await seated_table(lobby, clock={"per_decision": 0.05, "bank": 0.05})
    offer = await next_message(host, "offer")
    timeout = await next_message(host, "timeout")
    assert timeout["decision"] == offer["decision"]
    assert timeout["action"]["type"] in ("discard", "pass")
    # Discards are offered one per face (its lowest id); the seat played for throws the
    # tile it drew, which may be another id of an offered face (tests/server/test_played_for.py).
    assert _face(timeout["action"], table) in {_face(a, table) for a in offer["actions"]}


def _face(action: dict, table) -> tuple:
    tile = action.get("tile")
    if tile is None:
        return (action["type"],)
    return action["type"], action.get("riichi", False), tile >> 2, is_red_id(tile, table.rules.red_fives)


@pytest.mark.asyncio
async def test_a_new_hand_waits_for_its_player_to_close_the_result_and_its_clock_starts_only_then(lobby):
    # ema2016: no game ends when a score goes below zero, so two hands are always reached
    host, table = await seated_table(lobby, "ema2016", clock={"per_decision": 0.1, "bank": 0, "between_hands": 60})
    rng, hand_over, checked, hands = random.Random(8), False, 0, 0
    while checked < 2:
        m = await next_message(host, timeout=30)
        if m["type"] == "event" and m["event"]["type"] == "hand_end":
            await asyncio.sleep(0.4)  # read the result for longer than a decision's time
            assert host.outbox.empty()  # nothing of the next hand meanwhile
            table.put(ResultClosed(), host)
            hand_over = True
        elif m["type"] == "event" and m["event"]["type"] == "hand_start":
            assert hand_over or hands == 0  # (the first hand follows the game's start)
            hands += 1
        elif m["type"] == "event" and m["event"]["type"] == "game_end":
            break
        elif m["type"] == "timeout":
            assert not hand_over, "timed out while reading the last hand's result"
        elif m["type"] == "offer":
            if hand_over:  # the first offer of the next hand: the decision's whole time
                assert 0 < m["deadline_ms"] <= 100
                checked, hand_over = checked + 1, False
            table.put(Act(m["decision"], rng.choice(m["actions"])), host)
    assert checked == 2


@pytest.mark.asyncio
async def test_a_game_rebuilt_from_the_store_resumes_and_finishes_the_same(store, tmp_path):
    lobby = Lobby(SqliteStore(store))
    host, table = await seated_table(lobby)
    await play_host(host, random.Random(3), stop_after=30)
    game_id = table.game_id
    table.put(Stop("test"))
    await table.task
    # a new server process: a new lobby over the same file
    lobby2 = Lobby(SqliteStore(store))
    assert await lobby2.restore() == 1
    back = connected("host", token=host.token)
    assert lobby2.resume(back) is not None
    assert (await next_message(back, "snapshot"))["view"]["you"]["seat"] == 0
    rest = await play_host(back, random.Random(4))
    result = next(m for m in rest if m["type"] == "result")
    assert result["game"] == game_id
    assert store.record(game_id).replay().final == result["final"]


@pytest.mark.asyncio
async def test_a_spectator_gets_public_events_only(lobby):
    host, table = await seated_table(lobby)
    watcher = connected("watcher")
    lobby.watch(watcher, table.watch)
    seen = await play_host(host, random.Random(5), stop_after=20)
    await asyncio.sleep(0.05)
    events = []
    while not watcher.outbox.empty():
        m = watcher.outbox.get_nowait()
        if m["type"] == "event":
            events.append(m["event"])
        if m["type"] == "snapshot":
            assert "you" not in m["view"]
    assert events and all("hand" not in e and "tile" not in e for e in events if e["type"] in ("hand_start", "draw"))
    assert seen


@pytest.mark.asyncio
async def test_codes_are_unguessable_and_distinct_and_a_wrong_code_is_refused(lobby):
    host = connected("host")
    table = lobby.create_table(host, "ema2016")
    assert len(table.invite) >= 16 and table.invite != table.watch
    with pytest.raises(LobbyError):
        await lobby.join(connected("x"), "nope")
    with pytest.raises(LobbyError):
        lobby.create_table(host, "no-such-preset")
    guest = connected("guest")
    await lobby.join(guest, table.invite, 2)
    message = await next_message(guest, "table")
    assert message["you"] == 2 and "invite" not in message
    table.put(AddBot(), guest)
    assert (await next_message(guest, "error"))["code"] == "not_host"


@pytest.mark.asyncio
async def test_an_idle_table_expires(store):
    lobby = Lobby(SqliteStore(store), idle_seconds=0.0)
    host = connected("host")
    table = lobby.create_table(host, "ema2016")
    await next_message(host, "table")
    await asyncio.sleep(0.01)
    assert lobby.expire_idle() == [table.id]
    assert (await next_message(host, "bye"))["reason"].startswith("the table was idle")
    await table.task
    assert table.state == "closed"


@pytest.mark.asyncio
async def test_an_events_or_a_ladders_table_waits_for_its_players_however_long(store):
    """An event's table (issue 27) is not closed as idle: its seats are reserved for its players,
    and its round ends only when it has (docs/events.md); nor is a ladder's (issue 26), whose
    ladder drops a bot that does not take its seat and opens the game again (docs/ladder.md)."""
    lobby = Lobby(SqliteStore(store), idle_seconds=0.0)
    seats = (SeatSpec.reserved("p1"), SeatSpec.reserved("p2"), SeatSpec.bot(), SeatSpec.bot())
    event_table = lobby.open_table(TableSpec(seats=seats, labels=("event:ab12", "event:ab12:round:1")))
    ladder_table = lobby.open_table(TableSpec(seats=seats, labels=("ladder:main", "ladder:main:set:1")))
    other = lobby.open_table(TableSpec(seats=seats, labels=("arena:daily",)))
    await asyncio.sleep(0.01)
    assert lobby.expire_idle() == [other.id]
    assert event_table.state == "waiting" and ladder_table.state == "waiting"
    await lobby.stop()


@pytest.mark.asyncio
async def test_the_host_may_hand_an_absent_players_seat_to_a_bot(lobby):
    host = connected("host")
    table = lobby.create_table(host, "tenhou", clock={"per_decision": 5, "bank": 0, "absence": 0})
    guest = connected("guest")
    await lobby.join(guest, table.invite, 1)
    await next_message(guest, "table")
    table.put(AddBot(), host)
    table.put(AddBot(), host)
    table.put(Ready(), guest)
    table.put(Ready(), host)
    await next_message(guest, "event")
    table.put(Disconnect(), guest)
    table.put(AddBot(seat=1), host)
    messages = await play_host(host, random.Random(6))
    assert any(m["type"] == "result" for m in messages)
    assert table.seats[1].kind == "bot" and table.seats[1].name == "guest"


@pytest.mark.asyncio
async def test_a_player_joining_a_waiting_table_full_of_bots_takes_a_bots_seat(lobby):
    host = connected("host")
    table = lobby.create_table(host, "tenhou", clock={"none": True})
    for _ in range(3):
        table.put(AddBot(), host)
    friend = connected("friend")
    await lobby.join(friend, table.invite)
    message = await next_message(friend, "table")
    assert message["you"] == 1 and message["state"] == "waiting"
    assert [s["kind"] for s in message["seats"]] == ["human", "human", "bot", "bot"]
    assert message["seats"][1] == {"name": "friend", "kind": "human", "ready": False, "host": False,
                                   "connected": True, "program": False, "player": None}
    other = connected("other")  # the bot in the seat asked for
    await lobby.join(other, table.invite, 3)
    assert (await next_message(other, "table"))["you"] == 3
    third = connected("third")  # the last bot's seat
    await lobby.join(third, table.invite)
    assert (await next_message(third, "table"))["you"] == 2
    late = connected("late")  # no bot left: four players
    await lobby.join(late, table.invite)
    assert (await next_message(late, "error"))["code"] == "table_full"
    await lobby.join(late, table.invite, 0)
    assert (await next_message(late, "error"))["code"] == "seat_taken"
    for player in (friend, other, third, host):
        table.put(Ready(), player)
    assert (await next_message(friend, "event"))["event"]["type"] == "game_start"  # the game starts with them
    assert [s.kind for s in table.seats] == ["human"] * 4


@pytest.mark.asyncio
async def test_a_table_opened_from_a_spec_is_stored_before_its_code_is_given_out(store):
    """An organiser's table (an event's, a ladder's) is linked only once `opened()`: stored, and on
    a node of several its lease claimed (tests/cluster/test_events_across_nodes.py); a table that
    could not be stored says so, and is never linked."""
    lobby = Lobby(SqliteStore(store))
    seats = (SeatSpec.reserved("p1"), SeatSpec.reserved("p2"), SeatSpec.bot(), SeatSpec.bot())
    table = lobby.open_table(TableSpec(seats=seats, labels=("event:ab12",)))
    assert await table.opened() and [row.id for row in store.open_tables()] == [table.id]

    class Refusing(SqliteStore):
        async def save_table(self, *args, **kwargs) -> None:
            raise RuntimeError("table t claimed by another node as it was made")
    refusing = Lobby(Refusing(store))
    refused = refusing.open_table(TableSpec(seats=seats, labels=("event:cd34",)))
    assert not await refused.opened() and [row.id for row in store.open_tables()] == [table.id]
    assert refused.id not in refusing.tables and refused.invite not in refusing.by_invite  # forgotten
    await lobby.stop()


@pytest.mark.asyncio
@pytest.mark.parametrize("keep", [False, True], ids=["closed", "kept"])
async def test_a_message_that_comes_after_its_table_closed_is_answered_not_at_table(lobby, keep):
    """An act racing the table's end (the game's last act, a host's leave) waits in the table's
    queue behind what closes it: it is answered that the table has closed, not left unanswered
    (seen as a fuzz test's 10 s silence).  A table kept to be rebuilt says nothing more: its
    players come back to it."""
    host, table = await seated_table(lobby)
    offer = await next_message(host, "offer")
    table.put(Stop("closing", keep=keep))
    table.put(Act(offer["decision"], offer["actions"][0]), host)
    await next_message(host, "bye")
    if keep:
        with pytest.raises(TimeoutError):
            await next_message(host, "error", timeout=0.5)
    else:
        refused = await next_message(host, "error")
        assert refused["code"] == "not_at_table" and "closed" in refused["message"]
    await lobby.stop()
