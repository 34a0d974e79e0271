"""A player known across games on several nodes (issue 25, "Player identity": "the server knows
the player by it"; "all of it on one node and on several nodes (PostgreSQL)").  Real node
processes on one Redis and one PostgreSQL: a program with one player key plays a game through
one node, then renames itself and plays another through the other node (and a friend with a
key of its own joins it, relayed from the first node).  It is one player throughout: one id in
both games' stored seats, with its new name, and its games listed together."""

from __future__ import annotations

import asyncio

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from protocol.client import Client
from server.identity import key_hash
from server.store.postgres import PostgresStore
from tests.bot_tables import invite_of, stored_finals_replayed
from tests.cluster.nodes import start_nodes, stop_nodes
from tests.services import new_database

pytestmark = pytest.mark.asyncio

KEY = "k-" + "a" * 30  # the player's key, as riichi-play or the page would keep it
FRIEND_KEY = "k-" + "b" * 30


async def test_one_key_is_one_player_across_games_and_nodes(postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "ab")
    try:
        first = await play(make_bot("builtin", "ann", seed=1), nodes[0].url, server_bots=3, rules="tenhou",
                           clock={"none": True}, timeout=120, player_key=KEY)
        renaming = await Client.connect(nodes[1].url, "ann", player_key=KEY)
        player = renaming.welcome["player"]
        await renaming.send({"type": "rename", "name": "Ann S."})
        while (answer := await asyncio.wait_for(renaming.recv(), 10))["type"] != "player":
            pass
        assert answer == {"type": "player", "id": player["id"], "name": "Ann S."}
        await renaming.close()

        invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        host = asyncio.create_task(play(
            make_bot("builtin", "ann", seed=2), nodes[1].url, server_bots=2, rules="tenhou", clock={"none": True},
            timeout=120, player_key=KEY, on_table=lambda m: "invite" in m and not invite.done()
            and invite.set_result(m["invite"])))
        code = await invite_of(host, invite)
        friend = asyncio.create_task(play(make_bot("builtin", "bob", seed=3), nodes[0].url, code=code, timeout=120,
                                          player_key=FRIEND_KEY))
        second, _ = await asyncio.wait_for(asyncio.gather(host, friend), 240)
    finally:
        stop_nodes(nodes)
    assert first.final and second.final
    assert await stored_finals_replayed(url) == [first.final["scores"], second.final["scores"]]
    store = await PostgresStore.open(url)
    try:
        ann = await store.player_of_key(key_hash(KEY))
        bob = await store.player_of_key(key_hash(FRIEND_KEY))
        assert ann is not None and ann.id == player["id"] and ann.name == "Ann S."
        assert bob is not None and bob.id != ann.id
        games = await store.player_games(ann.id)
        assert sorted(g.game_id for g in games) == sorted([first.game, second.game])
        assert [g.game_id for g in await store.player_games(bob.id)] == [second.game]
    finally:
        await store.aclose()
