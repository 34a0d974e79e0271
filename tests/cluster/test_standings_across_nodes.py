"""Ratings and standings on several nodes (issue 25: "ratings rebuild to the same values; all of
it on one node and on several nodes (PostgreSQL)").  Real node processes on one Redis and one
PostgreSQL: three tables play at once, hosted on either node, each with two players of their
own keys (one relayed from the other node) and two of the server's builtin bots, the one
`bot-builtin` player sitting in every game.  Each node rates the games it ran as they end,
one at a time across both; then both nodes give the same standings and player pages, and
`riichi-server ratings --rebuild` finds every rating as it was kept.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from server.identity import key_hash
from server.store.postgres import PostgresStore
from tests.bot_tables import invite_of
from tests.cluster.nodes import start_nodes, stop_nodes
from tests.services import new_database

pytestmark = pytest.mark.asyncio

SERVER = Path(sys.executable).parent / "riichi-server"
KEYS = [f"k-{letter * 30}" for letter in "abcdef"]


async def one_table(host_url: str, friend_url: str, host_key: str, friend_key: str, seed: int):
    """A game of a keyed host (two builtin bots of the server's) and a keyed friend through the other node."""
    invite: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(play(
        make_bot("builtin", f"host{seed}", seed=seed), host_url, server_bots=2, server_strategy="builtin",
        rules="tenhou", clock={"none": True}, timeout=180, player_key=host_key,
        on_table=lambda m: "invite" in m and not invite.done() and invite.set_result(m["invite"])))
    code = await invite_of(host, invite)
    friend = play(make_bot("builtin", f"friend{seed}", seed=seed + 50), friend_url, code=code, timeout=180,
                  player_key=friend_key)
    return await asyncio.gather(host, friend)


def page(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
        return answer.read().decode()


async def test_both_nodes_give_the_same_standings_and_the_ratings_rebuild_to_the_same_values(
        postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "ab")
    try:
        played = await asyncio.wait_for(asyncio.gather(*(
            one_table(nodes[i % 2].url, nodes[(i + 1) % 2].url, KEYS[2 * i], KEYS[2 * i + 1], seed=i + 1)
            for i in range(3))), 300)
        assert all(result.final for pair in played for result in pair)
        loop = asyncio.get_running_loop()
        standings = [await loop.run_in_executor(None, page, node.port, "/standings.csv") for node in nodes]
        pages = [await loop.run_in_executor(None, page, node.port, "/standings") for node in nodes]
        store = await PostgresStore.open(url)
        try:
            kept = await store.ratings()
            host = await store.player_of_key(key_hash(KEYS[0]))
            player_pages = [await loop.run_in_executor(None, page, node.port, f"/players/{host.id}") for node in nodes]
            rated = [row[0] for row in await store.pool.fetch(
                "SELECT rated_seq FROM games WHERE rated_seq IS NOT NULL ORDER BY rated_seq")]
        finally:
            await store.aclose()
    finally:
        stop_nodes(nodes)
    assert standings[0] == standings[1] and pages[0] == pages[1] and player_pages[0] == player_pages[1]
    # bot-builtin held two seats of every game: the others were rated against it, it was not changed
    assert rated == [1, 2, 3] and "bot-builtin" not in kept and len(kept) == len(KEYS)
    assert len(re.findall(r'href="/games/\d+"', player_pages[0])) == 1
    assert standings[0].count("\r\n") == 1 + len(KEYS) + 1  # the header, six players and the builtin bot
    rebuilt = subprocess.run([str(SERVER), "ratings", "--rebuild", "--db", url], capture_output=True, text=True,
                             timeout=120)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert re.search(r"of 6 players from 3 games in [\d.]+ s: 0 changed$", rebuilt.stdout.strip()), rebuilt.stdout
    store = await PostgresStore.open(url)
    try:
        assert await store.ratings() == kept
    finally:
        await store.aclose()
