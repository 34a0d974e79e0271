"""Players (issue 25): a player key said in every hello names one player, across connections,
games and restarts, with a name the player may change; a server may admit only the keys it
issued; bots are players too."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from protocol.client import Client, Refused, ResumingClient
from tests.clients import create_with_bots, recv
from tests.harness import InProcessServer
from tests.services import new_database

pytestmark = pytest.mark.asyncio

SERVER = Path(sys.executable).parent / "riichi-server"
ANN_KEY = "ann-secret-key-0123456789"


async def _playing(server, key: str | None, name: str) -> tuple[Client, dict]:
    """A host of `key` at a table of three shanten bots, once its game has started."""
    host, _ = await create_with_bots(server, "tenhou", name, player_key=key)
    while (table := await recv(host, "table"))["state"] != "playing":
        pass
    return host, table


async def test_one_key_is_one_player_across_two_connections_and_two_games(in_process_server):
    first, table_one = await _playing(in_process_server, ANN_KEY, "ann")
    ann = first.welcome["player"]
    assert ann["name"] == "ann" and re.fullmatch(r"[0-9a-f]{16}", ann["id"])
    await first.close()
    # another connection, whose client calls the player otherwise: the same player, and its name
    second, table_two = await _playing(in_process_server, ANN_KEY, "someone else")
    assert second.welcome["player"] == ann
    assert table_one["game"] != table_two["game"]
    for table in (table_one, table_two):
        assert [s["player"] for s in table["seats"]] == [ann["id"]] + ["bot-shanten"] * 3
        assert table["seats"][0]["name"] == "ann"
    stored = {row.id: row for row in await in_process_server.app.lobby.store.open_tables()}
    assert {row.seats[0].player_id for row in stored.values()} == {ann["id"]}
    other, table_three = await _playing(in_process_server, "bob-secret-key-0123456789", "bob")
    bob = other.welcome["player"]["id"]
    assert bob != ann["id"] and table_three["seats"][0]["player"] == bob
    anonymous, table_four = await _playing(in_process_server, None, "carol")
    assert "player" not in anonymous.welcome and table_four["seats"][0]["player"] is None
    for client in (second, other, anonymous):
        await client.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_rename_and_each_seats_player_are_kept_across_a_restart(backend, request, tmp_path):
    db = str(tmp_path / "riichi.sqlite3") if backend == "sqlite" else \
        await new_database(request.getfixturevalue("postgres"))
    server = await InProcessServer(db).start_async()
    try:
        host, table = await _playing(server, ANN_KEY, "ann")
        await host.send({"type": "rename", "name": "  Ann\u200b S.\n"})  # cleaned as hello's name is
        renamed = await recv(host, "player")
        assert renamed == {"type": "player", "id": host.welcome["player"]["id"], "name": "Ann S."}
        token = host.resume_token
        await host.close()
    finally:
        await server.stop_async()
    server = await InProcessServer(db).start_async()
    try:
        back = await Client.connect(server.url, "ann", resume=token, player_key=ANN_KEY)
        assert back.welcome["resumed"] and back.welcome["player"] == {"id": renamed["id"], "name": "Ann S."}
        restored = await recv(back, "table")
        assert [s["player"] for s in restored["seats"]] == [renamed["id"]] + ["bot-shanten"] * 3
        await back.close()
        again, table = await _playing(server, ANN_KEY, "ann")
        assert table["seats"][0]["name"] == "Ann S."
        await again.close()
    finally:
        await server.stop_async()
    listed = subprocess.run([str(SERVER), "players", "list", "--db", db], capture_output=True, text=True, timeout=60,
                            check=True)
    assert re.search(rf"^{renamed['id']}  Ann S\.\s+human\s+-\s", listed.stdout, re.M), listed.stdout
    assert re.search(r"^\s*bot-shanten  shanten bot\s+bot\s", listed.stdout, re.M), listed.stdout


async def test_a_server_that_requires_issued_keys_admits_an_issued_one_and_refuses_others(tmp_path):
    db = tmp_path / "riichi.sqlite3"
    added = subprocess.run([str(SERVER), "players", "add", "Ann", "--db", str(db)], capture_output=True, text=True,
                           timeout=60, check=True)
    key = re.search(r"#player=([A-Za-z0-9_-]+)", added.stdout).group(1)
    server = await InProcessServer(db, "--require-player-key").start_async()
    try:
        ann = await Client.connect(server.url, "whoever", player_key=key)
        assert ann.welcome["player"]["name"] == "Ann"
        await ann.close()
        for stranger_key in ("a-key-nobody-issued-0123", None):
            stranger = await Client.connect(server.url, "mallory", player_key=stranger_key)
            assert stranger.welcome["code"] == "unknown_player"
            assert "admits only the players it knows" in stranger.welcome["message"]
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(stranger.recv(), 5)
        # the resuming client every client of the project uses says so in one line, and stops
        with pytest.raises(Refused, match="^the server refused us: this server admits only the players") as refused:
            await ResumingClient(server.url, "mallory", player_key="a-key-nobody-issued-0123").connect()
        assert refused.value.code == "unknown_player"
        listed = subprocess.run([str(SERVER), "players", "list", "--db", str(db)], capture_output=True, text=True,
                                timeout=60, check=True)
        assert re.search(r"\sAnn\s+human\s+issued\s", listed.stdout), listed.stdout
    finally:
        await server.stop_async()


async def test_bots_are_players_the_servers_by_strategy_programs_by_key_or_else_by_name(in_process_server):
    url = in_process_server.url
    tables: list[dict] = []
    keyed = asyncio.create_task(play(make_bot("random", "keyed", "1"), url, rules="tenhou", clock={"none": True},
                                     server_bots=1, server_strategy="random", on_table=tables.append,
                                     player_key="a-bots-secret-key-0123"))
    while not any("invite" in t for t in tables):
        await asyncio.sleep(0.05)
    invite = next(t for t in tables if "invite" in t)["invite"]
    named = [asyncio.create_task(play(make_bot("random", "robo", str(i)), url, code=invite)) for i in range(2)]
    await asyncio.wait_for(asyncio.gather(keyed, *named), 120)
    seats = next(t for t in reversed(tables) if t["state"] == "playing")["seats"]
    store = in_process_server.app.lobby.store
    players = {p.id: p for p in await store.players()}
    by_name = [s for s in seats if s["name"] == "robo"]
    assert len(by_name) == 2 and by_name[0]["player"] == by_name[1]["player"]  # one name, one player
    keyed_seat = next(s for s in seats if s["name"] == "keyed")
    random_seat = next(s for s in seats if s["kind"] == "bot")
    assert random_seat["player"] == "bot-random"
    for seat in (*by_name, keyed_seat, random_seat):
        assert players[seat["player"]].kind == "bot", seat
    assert len({keyed_seat["player"], by_name[0]["player"], random_seat["player"]}) == 3
    assert {"bot-builtin", "bot-shanten", "bot-random"} <= players.keys()


async def test_a_players_page_data_lists_its_finished_games_and_nothing_of_a_game_in_play(in_process_server):
    """`GET /api/players/ID` (what riichi-play's history and the player pages read): the player's
    name and its finished games, each with its place and the address of its record; a game
    still in play is not in it (issue 25: "No replay or history ever shows a concealed tile of
    a game still in play"); an unknown player is 404."""
    import json
    import random
    import urllib.error
    import urllib.request

    from tests.clients import play_counting

    def get(path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{in_process_server.port}{path}", timeout=10) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read()

    def ask(path: str) -> tuple[int, bytes]:  # (urllib blocks: off the server's loop)
        return asyncio.get_running_loop().run_in_executor(None, get, path)

    host, table = await _playing(in_process_server, ANN_KEY, "ann")
    ann = host.welcome["player"]["id"]
    status, body = await ask(f"/api/players/{ann}")
    assert status == 200 and json.loads(body) == {
        "id": ann, "name": "ann", "kind": "human", "games": [], "totals": {"games": 0},
        "rating": {"mu": 25.0, "sigma": 25 / 3, "ordinal": 25.0 - 25.0, "games": 0}}
    result = await play_counting(host, random.Random(25), [])
    await host.close()
    status, body = await ask(f"/api/players/{ann}")
    [game] = json.loads(body)["games"]
    assert (game["game_id"], game["seat"], game["score"], game["place"]) == (
        result["game"], 0, result["final"]["scores"][0], result["final"]["places"][0] + 1)
    assert game["record"] == f"/api/games/{result['game']}" and (await ask(game["record"]))[0] == 200
    answer = json.loads(body)  # its totals and rating, from that one game
    assert answer["totals"]["games"] == 1 and answer["totals"]["places"][game["place"] - 1] == 1
    assert answer["totals"]["hands"] == game["stats"]["hands"] >= 1 and answer["rating"]["games"] == 1
    assert (await ask("/api/players/nobody"))[0] == 404
    assert (await ask("/api/players/a/b"))[0] == 404
