"""An event played over a real server (issue 27: "A test runs a 12-player, 3-round event of bots
over a real server: no pair of players meets twice where the seating can avoid it, each table ends
by its hands or by its time with the hand in play finished, the standings equal those computed by
hand from the records"): twelve SDK bots, each a player with its own key, play three rounds of a
shuffled event at the tables the server opened for each round, each seat reserved for its player
in the wind order the round gave.  The session is a fraction of a second, shorter than any game:
each round the organiser gives table 1 a minute more, so it ends by its hands and the others by
their time (docs/events.md 'The session clock')."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from server.events import service
from server.events.seating import meetings
from server.events.spec import EventSpec, Scoring
from server.events.winds import winds_sat
from server.game.actions import TABLE_SEAT, TimeUp
from server.identity import key_hash, new_key, new_player
from server.store.event_rows import EventTableState
from server.store.rows import PlayerKind
from tests.harness import InProcessServer
from tests.services import new_database

pytestmark = pytest.mark.asyncio


async def _registered(store, event_id: str, names: list[str]) -> dict[str, str]:
    """A bot player with a key of its own added to the event for each name: {player id: key}."""
    keys = {}
    for name in names:
        key = new_key()
        player = await store.add_player(new_player(name, PlayerKind.BOT, issued=True), key_hash(key))
        await service.add_player(store, event_id, player.id)
        keys[player.id] = key
    return keys


async def _until(check, seconds: float = 60) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.1)


SESSION_MINUTES = 0.005  # 0.3 seconds: every game here takes longer
EXTRA_MINUTES = 1.0  # table 1's extra time each round: longer than any game here


@pytest.mark.server("--event-poll", "0.1")
async def test_twelve_bots_play_three_rounds_at_the_tables_the_server_opened_and_the_standings_are_the_records(
        in_process_server):
    """Every table opens with its seats reserved for its players ("Starts a round: every table opens
    with its seats reserved for its players") and labelled with the event and round; each game ends
    and marks its table done, by its hands (table 1, given extra time) or by its time with the hand
    in play finished (the others); over three rounds 9 pairs meet twice (the least twelve players at
    three tables can: tests/events/test_seating.py) and none three times, no player sits East
    twice; the standings equal the sums of each player's result, (score - 30,000 + uma) / 1000
    (RULINGS.md, ema2016), replayed from the stored records."""
    lobby = in_process_server.app.lobby
    store = lobby.store
    event, _ = await service.create_event(store, EventSpec("bot cup", rounds=3, scoring=Scoring.EMA_POINTS,
                                                           session_minutes=SESSION_MINUTES))
    keys = await _registered(store, event.id, [f"bot{i:02}" for i in range(12)])

    async def seat(player_id: str, invite: str):
        return await play(make_bot("builtin", f"p-{player_id[:6]}", seed=1), in_process_server.url, code=invite,
                          player_key=keys[player_id], timeout=120)

    for round_ in (1, 2, 3):
        await service.start_round(store, event.id)

        async def opened() -> bool:
            return all(t.state is EventTableState.OPEN for t in await store.event_tables(event.id) if t.round == round_)
        await _until(opened)
        tables = [t for t in await store.event_tables(event.id) if t.round == round_]
        for row in tables:
            assert lobby.tables[row.table_id].spec.reserved() == dict(enumerate(row.seats))
            assert lobby.tables[row.table_id].spec.labels == (f"event:{event.id}", f"event:{event.id}:round:{round_}")
            assert lobby.tables[row.table_id].spec.session.seconds == SESSION_MINUTES * 60
        await service.give_extra_time(store, event.id, round_, 1, EXTRA_MINUTES)

        async def given() -> bool:
            return all(t.extra_asked == 0 for t in await store.event_tables(event.id) if t.round == round_)
        await _until(given, 10)
        extra = [lobby.tables[t.table_id].session.extra for t in tables]
        assert extra == [EXTRA_MINUTES * 60, 0, 0]  # (given before the game: the clock starts with it)
        results = await asyncio.gather(*(seat(p, lobby.tables[row.table_id].invite)
                                         for row in tables for p in row.seats))
        assert all(r.final is not None for r in results)
        assert [(r.table, r.seat) for r in results] == [(row.table_id, s) for row in tables for s in range(4)]

        async def done() -> bool:
            return all(t.state is EventTableState.DONE for t in await store.event_tables(event.id))
        await _until(done, 10)

    tables = await store.event_tables(event.id)
    for row in tables:  # "each table ends by its hands or by its time with the hand in play finished"
        record = await store.record(row.game_id)
        game = record.replay()
        time_ups = [i for i, (seat, action) in enumerate(record.decisions) if seat == TABLE_SEAT]
        if row.table == 1:
            assert not time_ups and not row.by_time, "the table given extra time ends by its hands"
            continue
        assert len(time_ups) == 1 and record.decisions[time_ups[0]][1] == TimeUp(0) and row.by_time
        assert len(game.results) == game.last_hand + 1  # the hand in play when time ran out, then the end
        assert game.final is not None
    for round_ in (1, 2, 3):  # the table given extra time ends later than the others of its round
        ended = {t.table: (await store.game(t.game_id)).finished for t in tables if t.round == round_}
        assert ended[1] > max(ended[2], ended[3])
    page = (await in_process_server.app.event_pages.respond(f"/events/{event.id}")).body.decode()
    assert page.count("ended by time") == 6 and page.count("ended by its hands") == 3
    rounds = [[t.seats for t in tables if t.round == r] for r in (1, 2, 3)]
    met = meetings(rounds)
    assert sorted(met.values()).count(2) == 9 and max(met.values()) == 2
    assert all(sat[0] <= 1 for sat in winds_sat(rounds).values())  # no one the first dealer twice
    by_hand = dict.fromkeys(keys, Fraction(0))
    for row in tables:
        final = (await store.record(row.game_id)).replay().final
        for seat_, player in enumerate(row.seats):
            by_hand[player] += Fraction(str(final["results"][seat_]))
    lines = await service.event_standings(store, event.id)
    assert {line.player: line.total for line in lines} == by_hand
    assert [line.total for line in lines] == sorted(by_hand.values(), reverse=True)
    assert all(len(line.games) == 3 for line in lines)


async def test_a_round_on_postgresql_is_opened_once_and_ended_by_its_games(postgres):
    """The same on PostgreSQL: the claim of each pending table is one conditional UPDATE there too,
    and each table ends done with its game."""
    server = await InProcessServer(await new_database(postgres), "--event-poll", "0.1").start_async()
    try:
        lobby = server.app.lobby
        store = lobby.store
        event, _ = await service.create_event(store, EventSpec("pg cup", rounds=1))
        keys = await _registered(store, event.id, [f"pg{i}" for i in range(8)])
        await service.start_round(store, event.id)

        async def opened() -> bool:
            return all(t.state is EventTableState.OPEN for t in await store.event_tables(event.id))
        await _until(opened)
        tables = await store.event_tables(event.id)
        await asyncio.gather(*(play(make_bot("builtin", f"pg-{p[:6]}", seed=1), server.url,
                                    code=lobby.tables[t.table_id].invite, player_key=keys[p], timeout=120)
                               for t in tables for p in t.seats))

        async def done() -> bool:
            return all(t.state is EventTableState.DONE and t.game_id for t in await store.event_tables(event.id))
        await _until(done, 10)
        lines = await service.event_standings(store, event.id)
        assert len(lines) == 8 and all(len(line.games) == 1 for line in lines)
        assert sum(line.total for line in lines) == 0
    finally:
        await server.stop_async()
    assert not server.errors(), server.errors()[:5]


@pytest.mark.server("--event-poll", "0.1")
async def test_a_bot_sits_in_for_a_missing_player_and_the_game_counts_for_them(in_process_server):
    """"a substitute for a missing player (its score rule stated in the event)": the organiser names
    a bot for a player who has not come; the server closes the waiting table and opens it again with
    the bot in that seat; the game counts for the missing player (credit-player), as replayed."""
    lobby = in_process_server.app.lobby
    store = lobby.store
    event, _ = await service.create_event(store, EventSpec("sub cup", rounds=1))
    keys = await _registered(store, event.id, [f"s{i}" for i in range(4)])
    [row] = await service.start_round(store, event.id)

    async def opened() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.OPEN
    await _until(opened)
    first_table = (await store.event_tables(event.id))[0].table_id
    missing = row.seats[2]
    await service.substitute(store, event.id, missing, service.SUBSTITUTE_BOT)

    async def reopened() -> bool:
        now = (await store.event_tables(event.id))[0]
        return now.state is EventTableState.OPEN and now.table_id != first_table
    await _until(reopened)
    now = (await store.event_tables(event.id))[0]
    assert lobby.tables[now.table_id].spec.bots() == {2: "builtin"} and first_table not in lobby.tables
    await asyncio.gather(*(play(make_bot("builtin", f"s-{p[:6]}", seed=1), in_process_server.url,
                                code=lobby.tables[now.table_id].invite, player_key=keys[p], timeout=120)
                           for p in row.seats if p != missing))

    async def done() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.DONE
    await _until(done, 10)
    final = (await store.record((await store.event_tables(event.id))[0].game_id)).replay().final
    lines = {line.player: line.total for line in await service.event_standings(store, event.id)}
    assert lines == {p: Fraction(str(final["results"][seat])) for seat, p in enumerate(row.seats)}
    [result] = await service.table_results(store, event.id)
    assert [seat.substitute for seat in result.seats] == [False, False, True, False]
