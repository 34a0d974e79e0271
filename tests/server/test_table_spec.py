"""Tables opened from a spec by the lobby with no connected host, run by their actors on a real
store (issue 25): a spec's bots play to the end, a reserved seat's player joins and plays, the
spec's seed deals the walls (or the spec's walls are dealt), a restart rebuilds the table with
its reservations and walls, and a finished game on them is kept with them and served (its
record and replay, on SQLite and PostgreSQL); every game's end is announced once
(GameFinished) and kept as `game_seats` rows."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request

import pytest

from protocol.client import Client
from server.finished import GameFinished, PlayerKind
from server.game.record import GameRecord
from server.game.wall import DORA_INDICATORS, deal, shuffled_wall
from server.lobby import Lobby
from server.store import SqliteStore, token_hash
from server.table.io import Abandon, Disconnect, Ready, Stop
from server.table.seats import TableState
from server.table.spec import SeatSpec, TableSpec
from tests.clients import play_counting, recv
from tests.harness import InProcessServer
from tests.server.sessions import connected, next_message, play_host
from tests.services import new_database

pytestmark = pytest.mark.asyncio

SEED = bytes(range(7, 39))
BOTS = (SeatSpec.bot("shanten"), SeatSpec.bot("builtin"), SeatSpec.bot("shanten"))
WALLS = tuple(tuple(shuffled_wall(b"the event's walls", hand)) for hand in range(40))


def heard(lobby: Lobby) -> list[GameFinished]:
    """Every game's end the lobby announces, as a subscriber hears it."""
    finished: list[GameFinished] = []
    lobby.finishes.subscribe(finished.append)
    return finished


async def until(check, timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


def player(name: str, player_id: str):
    session = connected(name)
    session.player_id = player_id
    return session


async def test_a_reserved_seats_player_joins_and_plays_with_the_specs_bots_and_no_host(lobby, store):
    finished = heard(lobby)
    table = lobby.open_table(TableSpec("tenhou", clock=None, seats=(*BOTS[:1], SeatSpec.reserved("p-ann"), *BOTS[1:]),
                                       labels=("arena:daily",)))
    ann = player("ann", "p-ann")
    await lobby.join(ann, table.invite)
    assert (await next_message(ann, "table"))["you"] == 1
    table.put(Ready(), ann)
    seen = await play_host(ann, random.Random(5))
    result = next(m for m in seen if m["type"] == "result")
    await table.task
    [game] = finished
    assert (game.game_id, game.table_id, game.labels, game.abandoned) == (result["game"], table.id, ("arena:daily",),
                                                                          None)
    assert [s.score for s in game.seats] == result["final"]["scores"]
    assert [s.place - 1 for s in game.seats] == result["final"]["places"]
    assert [s.uma for s in game.seats] == result["uma"] and [s.total for s in game.seats] == result["final"]["results"]
    assert [(s.name, s.player_id, s.kind) for s in game.seats] == [
        ("shanten-bot-0", "bot-shanten", PlayerKind.BOT), ("ann", "p-ann", PlayerKind.HUMAN),
        ("builtin-bot-2", "bot-builtin", PlayerKind.BOT),
        ("shanten-bot-3", "bot-shanten", PlayerKind.BOT)]  # (each bot its strategy's player)
    [row] = store.player_games("p-ann")
    assert (row.game_id, row.seat, row.name, row.score, row.place, row.uma, row.total, row.abandoned, row.labels) == (
        game.game_id, 1, "ann", game.seats[1].score, game.seats[1].place, game.seats[1].uma, game.seats[1].total,
        False, ("arena:daily",))


async def test_a_reserved_seat_is_refused_to_another_player_with_seat_reserved(lobby):
    table = lobby.open_table(TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-ann"), *BOTS)))
    bob = player("bob", "p-bob")
    await lobby.join(bob, table.invite)
    refused = await next_message(bob, "error")
    assert refused["code"] == "seat_reserved" and "reserved" in refused["message"]
    table.put(Stop("test", keep=False))
    await table.task


async def test_a_spec_of_four_bots_plays_to_the_end_with_nobody_at_it_and_its_seed_deals_the_same_walls_twice(
        lobby, store):
    finished = heard(lobby)
    spec = TableSpec("tenhou", clock=None, seats=(*BOTS, SeatSpec.bot("random")), seed=SEED)
    tables = [lobby.open_table(spec), lobby.open_table(spec)]
    await asyncio.gather(*(t.task for t in tables))
    assert [t.state for t in tables] == [TableState.CLOSED] * 2 and len(finished) == 2
    records = [store.record(game.game_id) for game in finished]
    assert [r.seed for r in records] == [SEED, SEED]
    first_hands = [[e for e in r.replay_events()[1] if e.type == "hand_start"][0] for r in records]
    assert first_hands[0].private == first_hands[1].private  # the same hands dealt from the same wall
    assert finished[0].seats == finished[1].seats  # (the same bots on the same walls play the same game)
    other = lobby.open_table(TableSpec("tenhou", clock=None, seats=(*BOTS, SeatSpec.bot("random"))))
    await other.task
    assert store.record(finished[2].game_id).seed != SEED  # no seed in the spec: a fresh one


async def test_an_abandoned_game_is_announced_once_with_why(lobby, store):
    finished = heard(lobby)
    table = lobby.open_table(TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-ann"), *BOTS)))
    ann = player("ann", "p-ann")
    await lobby.join(ann, table.invite)
    table.put(Ready(), ann)
    await next_message(ann, "offer")
    table.put(Disconnect(), ann)
    table.put(Abandon("the game was abandoned: no player connected for 1 s"))
    await table.task
    [game] = finished
    assert game.abandoned == "the game was abandoned: no player connected for 1 s"
    assert game.seats[0].player_id == "p-ann" and game.seats[0].place is None
    [row] = store.player_games("p-ann")
    assert row.abandoned and row.place is None and row.score == game.seats[0].score


async def test_a_restart_rebuilds_a_spec_table_with_its_reserved_seats_and_the_player_takes_it(store):
    lobby = Lobby(SqliteStore(store))
    spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-ann"), SeatSpec.reserved("p-bob"),
                                                  SeatSpec.bot("shanten"), SeatSpec.open()), labels=("event:9",))
    table = lobby.open_table(spec)
    ann = player("ann", "p-ann")
    await lobby.join(ann, table.invite)
    assert (await next_message(ann, "table"))["you"] == 0
    await lobby.stop()  # the server stops: the table is kept, and rebuilt by the next start
    again = Lobby(SqliteStore(store))
    finished = heard(again)
    assert await again.restore() == 1
    back = again.tables[table.id]
    assert back.spec.labels == ("event:9",) and back.spec.reserved() == {0: "p-ann", 1: "p-bob"}
    carol = player("carol", "p-carol")
    await again.join(carol, table.invite, seat=1)
    assert (await next_message(carol, "error"))["code"] == "seat_reserved"
    bob = player("bob", "p-bob")
    await again.join(bob, table.invite)
    assert (await next_message(bob, "table"))["you"] == 1
    ann_back = connected("ann", token=ann.token)
    ann_back.player_id = "p-ann"
    assert again.resume(ann_back) is back
    await again.join(carol, table.invite)  # the open seat
    assert (await next_message(carol, "table"))["you"] == 3
    for session in (ann_back, bob, carol):
        back.put(Ready(), session)
    played = await asyncio.gather(*(play_host(s, random.Random(i)) for i, s in enumerate((ann_back, bob, carol))))
    assert all(any(m["type"] == "result" for m in seen) for seen in played)
    await back.task
    [game] = finished
    assert game.player_ids[:2] == ("p-ann", "p-bob") and game.player_ids[3] == "p-carol"
    assert game.player_ids[2].startswith("bot-") and game.labels == ("event:9",)


async def test_a_spec_with_a_host_seat_is_opened_by_its_host_only(lobby):
    with pytest.raises(ValueError, match="host"):
        lobby.open_table(TableSpec.for_host("tenhou"))
    with pytest.raises(ValueError, match="host"):
        lobby.open_table(TableSpec("tenhou"), host=connected("host"))
    host = connected("host")
    table = lobby.open_table(TableSpec("tenhou", seats=(SeatSpec.open(), SeatSpec.host(), *BOTS[:2])), host=host)
    message = await next_message(host, "table")
    assert message["you"] == 1 and message["invite"] == table.invite
    assert [s and s["kind"] for s in message["seats"]] == [None, "human", "bot", "bot"]
    table.put(Stop("test", keep=False))
    await table.task


async def test_over_sockets_the_reserved_seats_player_connects_joins_and_plays_its_game_to_the_announced_end(
        in_process_server):
    """The same through a real server and real connections.  (Until hello says who the player
    is, on the identity's branch, the test gives the session its player id as that hello will.)"""
    lobby = in_process_server.app.lobby
    finished = heard(lobby)
    table = lobby.open_table(TableSpec("tenhou", clock=None, seats=(*BOTS[:2], SeatSpec.reserved("p-ann"), BOTS[2])))
    stranger = await Client.connect(in_process_server.url, "stranger")
    await stranger.send({"type": "join", "code": table.invite})
    assert (await recv(stranger, "error"))["code"] == "seat_reserved"
    ann = await Client.connect(in_process_server.url, "ann")
    in_process_server.app.sessions[token_hash(ann.resume_token)].player_id = "p-ann"
    await ann.send({"type": "join", "code": table.invite})
    assert (await recv(ann, "table"))["you"] == 2
    await ann.send({"type": "ready"})
    result = await play_counting(ann, random.Random(2), [])
    await table.task
    [game] = finished
    assert game.game_id == result["game"] and game.seats[2].player_id == "p-ann"
    assert [(s.score, s.place - 1) for s in game.seats] == list(zip(result["final"]["scores"],
                                                                    result["final"]["places"]))
    [row] = await lobby.store.player_games("p-ann")
    assert (row.game_id, row.seat, row.score) == (game.game_id, 2, result["final"]["scores"][2])
    for client in (stranger, ann):
        await client.close()


async def test_a_table_opened_with_walls_deals_them_and_a_restart_mid_game_keeps_dealing_them(store):
    """"TableSpec(rules, clock, seats: ..., seed or walls, labels)": the first hand is the first
    wall's (the dealer's tiles and the dora indicator), and the spec stored with the table
    brings the walls back after a restart, so the game replays and goes on on them."""
    lobby = Lobby(SqliteStore(store))
    table = lobby.open_table(TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-ann"), *BOTS), walls=WALLS))
    ann = player("ann", "p-ann")
    await lobby.join(ann, table.invite)
    table.put(Ready(), ann)
    game_start = (await next_message(ann, "event"))["event"]
    start = (await next_message(ann, "event"))["event"]
    assert (game_start["type"], game_start["seed_hash"], start["type"]) == ("game_start", None, "hand_start")  # no seed
    assert sorted(start["hand"]) == sorted(deal(WALLS[0], 0)[0])  # ann in seat 0: the dealer of East 1
    assert start["dora_indicators"] == [WALLS[0][DORA_INDICATORS[0]]]
    await play_host(ann, random.Random(3), stop_after=3)
    await lobby.stop()  # the server stops mid-game: the table is kept, and rebuilt by the next start
    again = Lobby(SqliteStore(store))
    assert await again.restore() == 1
    back = again.tables[table.id]
    assert back.spec.walls == WALLS and back.core.game.walls == [list(w) for w in WALLS]
    assert list(back.core.game.hidden.wall) == list(WALLS[back.core.game.public.hand_number])
    ann_back = connected("ann", token=ann.token)
    ann_back.player_id = "p-ann"
    assert again.resume(ann_back) is back
    view = (await next_message(ann_back, "snapshot"))["view"]
    assert set(view["you"]["hand"]) <= set(deal(WALLS[0], 0)[0]) | set(WALLS[0][52:])  # (its hand is of that wall)
    seen = await play_host(ann_back, random.Random(4))
    assert seen[-1]["type"] in ("result", "bye")
    await back.task


def _get_json(server, path: str) -> tuple[int, object]:
    """GET `path` of the server: its status and its body's JSON."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=30) as answer:
        return answer.status, json.loads(answer.read())


async def served_walls_game(server) -> None:
    """A game dealt from a spec's walls, played to its end on `server` (a real one, in this
    process): `GET /api/games/ID` gives its record with those walls and no seed, which replays
    to the result announced, and `GET /api/games/ID/replay` the viewer's document of it."""
    lobby = server.app.lobby
    finished = heard(lobby)
    table = lobby.open_table(TableSpec("tenhou", {"rounds": 1}, clock=None, seats=(*BOTS, SeatSpec.bot("shanten")),
                                       walls=WALLS))
    await table.task
    [game] = finished
    assert game.abandoned is None
    status, data = await asyncio.to_thread(_get_json, server, f"/api/games/{game.game_id}")
    record = GameRecord.from_data(data)
    assert status == 200 and (record.seed, record.walls) == (None, [list(wall) for wall in WALLS])
    replayed = record.replay()
    assert replayed.final["scores"] == [s.score for s in game.seats] and replayed.final["seed"] is None
    status, document = await asyncio.to_thread(_get_json, server, f"/api/games/{game.game_id}/replay")
    assert status == 200 and document["final"]["scores"] == replayed.final["scores"]


async def test_over_a_real_server_a_game_dealt_from_a_specs_walls_is_kept_with_them_and_its_record_replays(
        in_process_server):
    await served_walls_game(in_process_server)


async def test_on_postgresql_a_game_dealt_from_a_specs_walls_is_kept_with_them_and_its_record_replays(postgres):
    server = await InProcessServer(await new_database(postgres)).start_async()
    try:
        await served_walls_game(server)
    finally:
        await server.stop_async()
    assert not server.errors(), server.errors()
