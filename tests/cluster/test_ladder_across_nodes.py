"""A ladder on a service of two nodes (issue 26: "Works on several nodes"), riichi-server processes
on one PostgreSQL and one Redis: three SDK bots on ladder `main`, two connected to node a and one
to node b, meet in the store's queue and are matched into one duplicate set (the fourth seat the
server's bot); each plays its four games wherever the matchmaker opened them, each game is rated
once, by the node that ran it, and the ratings kept equal those rebuilt from the stored games."""

from __future__ import annotations

import asyncio

import pytest

from client_cli.bot.ladder import play_ladder
from client_cli.bot.strategies import make_bot
from server.identity import new_key
from server.ladder import rating
from server.ladder.sets import seating
from server.store.ladder_rows import LadderGameState
from server.store.opening import open_store
from tests.cluster.nodes import start_nodes, stop_nodes
from tests.services import new_database

pytestmark = pytest.mark.asyncio


async def test_bots_on_two_nodes_are_matched_into_one_set_and_rated_once(postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "ab", "--ladder", "main", "--ladder-poll", "0.2",
                        "--ladder-gather", "8")
    try:
        a, b = nodes
        where = {"one": a.url, "two": a.url, "three": b.url}
        keys = {name: new_key() for name in where}  # a key the server does not know: a new player
        runs = [play_ladder(lambda n=name: make_bot("builtin", n), where[name], "main", player_key=keys[name],
                            games=4, name=name) for name in where]
        async with asyncio.timeout(180):
            results = await asyncio.gather(*runs)
        played = [[r.game for r in one] for one in results]
        assert all(len(games) == 4 and None not in games for games in played)
        assert played[0] == played[1] == played[2]  # one set: the three played the same four games
        store = await open_store(url)
        try:
            games = await store.set_games("main", 1)
            assert [g.rotation for g in games] == [0, 1, 2, 3] and {g.state for g in games} == {LadderGameState.DONE}
            assert all(g.seats == seating(games[0].seats, g.rotation) for g in games)
            assert sorted(g.game_id for g in games) == sorted(played[0])
            kept = await store.ladder_ratings("main")
            assert len(kept) == 3 and all(r.games == 4 for r in kept.values())
            assert kept == await rating.rebuild(store, "main")
        finally:
            await store.aclose()
        for node in nodes:
            assert not node.errors(), "a node logged errors:\n" + "\n".join(node.errors()[:20])
        # each bot was queued by the node it connected to, and the four tables opened once in all
        assert [node.log_text().count('"event": "ladder_joined"') for node in nodes] == [2, 1]
        assert sum(node.log_text().count('"event": "ladder_table_opened"') for node in nodes) == 4
    finally:
        stop_nodes(nodes)
