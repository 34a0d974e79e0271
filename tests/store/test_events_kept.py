"""Events kept by both stores (issue 27, schema step 14): an event, its players, each round's
tables from pending to ended, penalties, and the standings read back from the games' seats."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from server.events import registration, service
from server.events.seating import meetings
from server.events.spec import EventError, EventSpec, Scoring, Seating
from server.events.standings import SeatResult, TableResult, standings
from server.finished import FinishedSeat, GameFinished, PlayerKind
from server.game.flow import final_results
from server.game.record import GameRecord
from server.identity import new_player
from server.rules.config import preset
from server.store.event_rows import CLAIM_STALE_AFTER, EventTableRow, EventTableState, PenaltyRow, RoundAdded

pytestmark = pytest.mark.asyncio
RULES = preset("ema2016")


async def _event(store, players: int = 12, **fields) -> tuple[str, list[str]]:
    event, token = await service.create_event(store, EventSpec("spring cup", rounds=3, **fields))
    ids = []
    for i in range(players):
        player = await store.add_player(new_player(f"player{i:02}", PlayerKind.HUMAN, issued=True), f"hash{i}")
        assert await service.add_player(store, event.id, player.id)
        ids.append(player.id)
    return event.id, ids


async def _play_round(store, event_id: str, round_: int, scores_of) -> list[TableResult]:
    """Open and end every pending table of the round as a server would: a game kept with its seats."""
    results = []
    for row in [t for t in await store.pending_event_tables() if t.event_id == event_id]:
        assert await store.claim_event_table(event_id, row.round, row.table)
        assert not await store.claim_event_table(event_id, row.round, row.table)  # one server opens it
        table_id = f"t{round_}-{row.table}"
        await store.event_table_opened(event_id, row.round, row.table, table_id)
        game_id = await store.start_game(table_id, GameRecord(RULES, b"x" * 32, None, list(row.seats)))
        scores = scores_of(row)
        totals = final_results(scores, RULES)
        seats = tuple(FinishedSeat(s, p, p, PlayerKind.HUMAN, scores[s], 1, 0.0, totals[s])
                      for s, p in enumerate(row.seats))
        await store.keep_finished(GameFinished(game_id, table_id, "ema2016", (f"event:{event_id}",), seats))
        assert await store.event_table_ended(table_id, game_id, abandoned=False)
        results.append(TableResult(round_, row.table, game_id, tuple(
            SeatResult(p, scores[s], totals[s]) for s, p in enumerate(row.seats))))  # type: ignore[arg-type]
    return results


async def test_an_event_and_its_players_come_back_in_the_order_they_came(store):
    event_id, ids = await _event(store, players=5)
    event = await store.event(event_id)
    assert event.name == "spring cup" and EventSpec.from_data(event.spec).rounds == 3
    assert await store.event_players(event_id) == ids
    assert not await store.add_event_player(event_id, ids[0])  # in once
    assert [e.id for e in await store.events()] == [event_id]


async def test_a_registration_token_adds_its_player_to_its_event_only(store):
    event, token = await service.create_event(store, EventSpec("open day"))
    other, other_token = await service.create_event(store, EventSpec("other day"))
    player = await store.add_player(new_player("walk-in", PlayerKind.HUMAN), "walk-in-hash")
    found, added = await registration.register(store, event.id, token, player.id, "walk-in")
    assert (found.id, added) == (event.id, True) and await store.event_players(event.id) == [player.id]
    assert (await registration.register(store, event.id, token, player.id, "walk-in"))[1] is False  # in once
    with pytest.raises(EventError, match="no event's"):
        await registration.register(store, event.id, "not-a-token", player.id, "walk-in")
    with pytest.raises(EventError, match="no event's"):  # another event's token is not this one's
        await registration.register(store, event.id, other_token, player.id, "walk-in")
    assert await store.event_players(other.id) == []


async def test_a_new_registration_link_replaces_the_one_before(store):
    event, old = await service.create_event(store, EventSpec("open day"))
    new = await registration.new_registration(store, event.id)
    player = await store.add_player(new_player("late", PlayerKind.HUMAN), "late-hash")
    with pytest.raises(EventError, match="replaced"):
        await registration.register(store, event.id, old, player.id, "late")
    assert (await registration.register(store, event.id, new, player.id, "late"))[1]


async def test_a_name_another_player_of_the_event_has_is_refused(store):
    """Names are not unique among players, but the standings show names: two of one event may not share one."""
    event, token = await service.create_event(store, EventSpec("open day"))
    first = await store.add_player(new_player("Ann", PlayerKind.HUMAN), "ann-hash")
    second = await store.add_player(new_player("someone", PlayerKind.HUMAN), "someone-hash")
    await registration.register(store, event.id, token, first.id, "Ann")
    with pytest.raises(EventError, match="another player of open day is named ann"):
        await registration.register(store, event.id, token, second.id, "ann")
    assert await store.event_players(event.id) == [first.id]


async def test_registration_closes_when_the_first_round_starts(store):
    event_id, ids = await _event(store, players=4)
    token = await registration.new_registration(store, event_id)
    await service.start_round(store, event_id)
    late = await store.add_player(new_player("late", PlayerKind.HUMAN), "late-hash")
    with pytest.raises(EventError, match="closed when its first round started"):
        await registration.register(store, event_id, token, late.id, "late")
    assert (await registration.register(store, event_id, token, ids[0], "player00"))[1] is False  # in already


async def test_a_registration_and_the_first_round_are_one_after_the_other(store):
    """A player registered while round 1 was being seated is in round 1 or told registration
    closed, never told they are in and left out: a round seated from players read before one
    came is not written (seated again), and a registration once the round is written adds no
    one."""
    event_id, ids = await _event(store, players=3)
    token = await registration.new_registration(store, event_id)
    rows = [EventTableRow(event_id, 1, 1, (*ids, "bot:1"))]
    walk_in = await store.add_player(new_player("walk-in", PlayerKind.HUMAN), "walk-in-hash")
    assert (await registration.register(store, event_id, token, walk_in.id, "walk-in"))[1]  # (came meanwhile)
    assert await store.add_event_round(rows, ids) is RoundAdded.PLAYERS_CHANGED
    assert await store.event_tables(event_id) == []
    assert await store.add_event_round(rows, [*ids, walk_in.id]) is RoundAdded.ADDED
    assert await store.add_event_round(rows, [*ids, walk_in.id]) is RoundAdded.EXISTS
    late = await store.add_player(new_player("late", PlayerKind.HUMAN), "late-hash")
    assert not await store.register_event_player(event_id, late.id)  # (the round is written: closed)
    assert await store.event_players(event_id) == [*ids, walk_in.id]


async def test_start_round_seats_the_players_there_when_it_writes_the_round(store, monkeypatch):
    """A registration between start-round's reading of the players and its writing of the round
    (made to happen here) is seated in round 1: the round is seated again with them."""
    event_id, ids = await _event(store, players=3)
    token = await registration.new_registration(store, event_id)
    walk_in = await store.add_player(new_player("walk-in", PlayerKind.HUMAN), "walk-in-hash")
    reads = []
    read_players = store.event_players

    async def players_then_a_registration(event: str) -> list[str]:
        read = await read_players(event)
        reads.append(read)
        if len(reads) == 1:
            assert (await registration.register(store, event_id, token, walk_in.id, "walk-in"))[1]
        return read
    monkeypatch.setattr(store, "event_players", players_then_a_registration)
    [row] = await service.start_round(store, event_id)
    assert len(reads) >= 2 and sorted(row.seats) == sorted([*ids, walk_in.id])


async def test_a_claim_left_opening_by_a_stopped_server_is_claimed_again_once_stale(store):
    """A server stopped between its claim and the open leaves the table `opening`: once the claim is
    CLAIM_STALE_AFTER old the table is pending again for every server, one claims it, and the stopped
    server's open (had it been only slow) is refused, so that one table opens."""
    event_id, _ = await _event(store, players=4)
    [row] = await service.start_round(store, event_id)
    then = time.time() - CLAIM_STALE_AFTER - 5
    assert await store.claim_event_table(event_id, 1, 1, "stopped", now=then)
    assert [t.table for t in await store.pending_event_tables()] == [1]  # stale: there is work
    assert await store.pending_event_tables(stale_before=then - 1) == []  # not yet stale then
    assert not await store.claim_event_table(event_id, 1, 1, "fresh", now=then + 1)  # a fresh claim holds
    assert await store.claim_event_table(event_id, 1, 1, "alive")
    assert not await store.claim_event_table(event_id, 1, 1, "another")
    assert await store.pending_event_tables() == []
    assert not await store.event_table_opened(event_id, 1, 1, "t-late", "stopped")  # its claim was taken over
    assert await store.event_table_opened(event_id, 1, 1, "t-alive", "alive")
    [now] = await store.event_tables(event_id)
    assert (now.state, now.table_id) == (EventTableState.OPEN, "t-alive")


async def test_a_table_released_by_its_claimant_only(store):
    event_id, _ = await _event(store, players=4)
    await service.start_round(store, event_id)
    assert await store.claim_event_table(event_id, 1, 1, "mine")
    await store.release_event_table(event_id, 1, 1, "not-mine")
    assert (await store.event_tables(event_id))[0].state is EventTableState.OPENING
    await store.release_event_table(event_id, 1, 1, "mine")
    assert (await store.event_tables(event_id))[0].state is EventTableState.PENDING


async def test_three_shuffled_rounds_are_written_played_and_added_up_as_by_hand(store):
    """Each round's tables are written pending with its players in wind order, claimed by one
    server, ended by their games; the standings read back equal those computed from the same
    results by hand (server/events/standings.py)."""
    event_id, ids = await _event(store)
    everything: list[TableResult] = []
    for round_ in (1, 2, 3):
        rows = await service.start_round(store, event_id)
        assert [r.state for r in rows] == [EventTableState.PENDING] * 3
        assert {p for r in rows for p in r.seats} == set(ids)
        with pytest.raises(EventError, match=f"round {round_} is still in play" if round_ < 3 else "every round"):
            await service.start_round(store, event_id)
        everything += await _play_round(store, event_id, round_, lambda row: [40000, 31000, 28000, 21000])
    with pytest.raises(EventError, match="every round of the event"):
        await service.start_round(store, event_id)
    tables = await store.event_tables(event_id)
    assert max(meetings([[t.seats for t in tables if t.round == r] for r in (1, 2, 3)]).values()) == 2
    assert all(t.state is EventTableState.DONE and t.game_id for t in tables)
    kept = await service.event_standings(store, event_id)
    assert kept == standings(everything, [], ids, Scoring.EMA_POINTS)
    assert sum(line.total for line in kept) == 0


async def test_swiss_seats_round_two_by_the_standings_after_round_one(store):
    """Swiss: after round 1 the four best sit at table 1, the next four at table 2."""
    event_id, ids = await _event(store, players=8, seating=Seating.SWISS, scoring=Scoring.TABLE_POINTS)
    await service.start_round(store, event_id)
    await _play_round(store, event_id, 1, lambda row: [40000 - 1000 * ids.index(p) for p in row.seats])
    ranked = [line.player for line in await service.event_standings(store, event_id)]
    second = await service.start_round(store, event_id)
    assert [set(t.seats) for t in second] == [set(ranked[:4]), set(ranked[4:])]


async def test_bots_fill_the_seats_left_over_and_stay_out_of_the_standings(store):
    event_id, ids = await _event(store, players=6)
    rows = await service.start_round(store, event_id)
    assert sorted(s for r in rows for s in r.seats if s.startswith("bot:")) == ["bot:1", "bot:2"]
    await _play_round(store, event_id, 1, lambda row: [35000, 30000, 30000, 25000])
    assert {line.player for line in await service.event_standings(store, event_id)} == set(ids)


async def test_a_penalty_is_kept_and_added_to_its_players_total(store):
    event_id, ids = await _event(store, players=4, scoring=Scoring.TABLE_POINTS)
    await service.add_penalty(store, event_id, PenaltyRow(ids[0], Fraction(-3, 2), "chombo", 1))
    assert [(p.player_id, p.points, p.reason) for p in await store.event_penalties(event_id)] \
        == [(ids[0], Fraction(-3, 2), "chombo")]
    assert (await service.event_standings(store, event_id))[-1].total == Fraction(-3, 2)
    with pytest.raises(EventError, match="not in the event"):
        await service.add_penalty(store, event_id, PenaltyRow("stranger", Fraction(-1), "late"))


async def test_a_players_tables_not_yet_ended_are_found_by_its_id(store):
    event_id, ids = await _event(store, players=8)
    rows = await service.start_round(store, event_id)
    mine = await store.player_event_tables(ids[3])
    assert [(t.round, t.table) for t in mine] == [(r.round, r.table) for r in rows if ids[3] in r.seats]
    await _play_round(store, event_id, 1, lambda row: [35000, 30000, 30000, 25000])
    assert await store.player_event_tables(ids[3]) == []


async def test_a_table_a_server_could_not_open_goes_back_to_pending(store):
    event_id, _ = await _event(store, players=4)
    await service.start_round(store, event_id)
    assert await store.claim_event_table(event_id, 1, 1)
    await store.release_event_table(event_id, 1, 1)
    assert [t.state for t in await store.pending_event_tables()] == [EventTableState.PENDING]
    assert await store.claim_event_table(event_id, 1, 1)


async def test_given_tables_are_seated_as_the_organiser_names_them_with_the_winds_made_fair(store):
    """Seating given: the organiser names each table's four; bots fill the seats left over by name."""
    event_id, ids = await _event(store, players=7, seating=Seating.GIVEN)
    with pytest.raises(EventError, match="name each table's four"):
        await service.start_round(store, event_id)
    with pytest.raises(EventError, match=r"and the bots bot:1 in the seats left over"):
        await service.start_round(store, event_id, [ids[:4], [*ids[4:], ids[0]]])
    rows = await service.start_round(store, event_id, [ids[:4], [*ids[4:], "bot:1"]])
    assert [set(r.seats) for r in rows] == [set(ids[:4]), {*ids[4:], "bot:1"}]


async def test_a_substitute_sits_in_at_a_pending_table_and_an_open_one_is_to_be_reseated(store):
    """"a substitute for a missing player": named for a table not yet opened, it is opened with the
    substitute; named for an open one, the server is to close it and open it again (`reseat`)."""
    event_id, ids = await _event(store, players=8)
    reserve = await store.add_player(new_player("reserve", PlayerKind.HUMAN), "reserve-hash")
    rows = await service.start_round(store, event_id)
    first = next(r for r in rows if ids[0] in r.seats)
    await service.substitute(store, event_id, ids[0], reserve.id)
    row = next(t for t in await store.event_tables(event_id) if t.table == first.table)
    assert row.seats == first.seats and row.sitting[first.seats.index(ids[0])] == reserve.id
    assert row.state is EventTableState.PENDING and [t.table for t in await store.player_event_tables(reserve.id)] \
        == [first.table]
    with pytest.raises(EventError, match="sits at a table of round 1 already"):
        await service.substitute(store, event_id, ids[1] if ids[1] not in first.seats else ids[2], reserve.id)
    assert await store.claim_event_table(event_id, 1, first.table)
    await store.event_table_opened(event_id, 1, first.table, "t-open")
    other = next(p for p in first.seats if p != ids[0])
    await service.substitute(store, event_id, other, service.SUBSTITUTE_BOT)
    assert [t.state for t in await store.pending_event_tables() if t.table == first.table] == [EventTableState.RESEAT]
    await store.reopen_event_table(event_id, 1, first.table, reopen=True)
    row = next(t for t in await store.event_tables(event_id) if t.table == first.table)
    assert (row.state, row.table_id, row.sitting[first.seats.index(other)]) \
        == (EventTableState.PENDING, None, "bot:substitute")


async def test_a_table_whose_game_has_begun_is_open_again_after_its_reseat(store):
    """(The server seats the substitute in the game in play: tests/events/test_substitute_in_play.py.)"""
    event_id, ids = await _event(store, players=4)
    await service.start_round(store, event_id)
    assert await store.claim_event_table(event_id, 1, 1)
    await store.event_table_opened(event_id, 1, 1, "t-open")
    await service.substitute(store, event_id, ids[0], service.SUBSTITUTE_BOT)
    await store.reopen_event_table(event_id, 1, 1, reopen=False)  # (the server found its game begun)
    row = (await store.event_tables(event_id))[0]
    assert (row.state, row.table_id, row.sitting[row.seats.index(ids[0])]) \
        == (EventTableState.OPEN, "t-open", "bot:substitute")
    await _finish_open(store, event_id)
    with pytest.raises(EventError, match="no table of the event waiting"):
        await service.substitute(store, event_id, ids[0], service.SUBSTITUTE_BOT)


async def _finish_open(store, event_id: str) -> None:
    for row in await store.event_tables(event_id):
        game_id = await store.start_game(row.table_id, GameRecord(RULES, b"x" * 32, None, list(row.seats)))
        assert await store.event_table_ended(row.table_id, game_id, abandoned=False)


async def test_a_round_is_written_once(store):
    event_id, _ = await _event(store, players=4)
    rows = await service.start_round(store, event_id)
    assert await store.add_event_round(rows, await store.event_players(event_id)) is RoundAdded.EXISTS


async def test_a_timed_tables_session_end_is_read_by_any_node(store):
    await store.save_table("t1", "INV1", "WAT1", RULES, None)
    assert await store.table_session_end("t1") is None and await store.table_session_end("none") is None
    await store.set_session_end("t1", 1_700_000_000.5)
    assert await store.table_session_end("t1") == 1_700_000_000.5
    assert await store.table_codes("t1") == ("INV1", "WAT1")


async def test_extra_time_taken_by_the_node_running_the_table_is_kept_with_it_once(store):
    """The organiser's extra time, asked for in event_tables, is taken once and kept with the
    table in the same transaction: before its game begins as the table's extra (no end yet to
    move), after that in its end too; a table rebuilt from the store has both."""
    event_id, _ = await _event(store, players=4, session_minutes=90)
    [row] = await service.start_round(store, event_id)
    await store.claim_event_table(event_id, 1, row.table)
    await store.save_table("t1", "INV1", "WAT1", RULES, None)
    await store.event_table_opened(event_id, 1, row.table, "t1")
    assert await store.ask_extra_time(event_id, 1, row.table, 300.0)
    [asked] = await store.extra_time_asked()
    assert asked.extra_asked == 300.0
    assert not await store.take_extra_time(event_id, 1, row.table, 299.0, "t1")  # (not what was read: asked again)
    assert await store.take_extra_time(event_id, 1, row.table, 300.0, "t1")
    assert not await store.take_extra_time(event_id, 1, row.table, 300.0, "t1")  # once
    [table] = await store.open_tables()
    assert table.session_extra == 300.0 and table.session_ends is None  # (the game has not begun)
    await store.set_session_end("t1", 1_700_000_000.0)  # it begins, its end counting the extra
    assert await store.ask_extra_time(event_id, 1, row.table, 60.0)
    assert await store.take_extra_time(event_id, 1, row.table, 60.0, "t1")
    [table] = await store.open_tables()
    assert table.session_extra == 360.0 and table.session_ends == 1_700_000_060.0
    assert await store.extra_time_asked() == []
