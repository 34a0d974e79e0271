"""A game's replay and its players' history on several nodes (issue 25: "No replay or history
ever shows a concealed tile of a game still in play"; "all of it on one node and on several
nodes (PostgreSQL)").  Real node processes on one Redis and one PostgreSQL: a keyed host plays
at one node with a keyed friend relayed from the other and two of the server's bots.  The
host holds its first decision until the test has asked both nodes for the game: while it is in
play, neither serves its record or its replay (409) and neither lists it on a player's page,
in the player's JSON or in the standings.  Once it ends, both serve the same replay document,
the one the stored record makes, and the viewer's page at /games/ID.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from server.identity import key_hash
from server.replay_document import replay_document
from server.store.postgres import PostgresStore
from tests.bot_tables import invite_of
from tests.clients import http_get
from tests.cluster.nodes import start_nodes, stop_nodes
from tests.services import new_database

pytestmark = pytest.mark.asyncio

HOST_KEY = "k-" + "h" * 30
FRIEND_KEY = "k-" + "f" * 30


class HeldFirst:
    """A bot whose first decision waits for `release` (the game stays in play until then)."""

    def __init__(self, bot: Any, release: asyncio.Event):
        self.bot, self.release = bot, release

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    async def decide(self, view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        await self.release.wait()
        return await self.bot.decide(view, actions)


def get(node, path: str) -> tuple[int, bytes]:
    """A node's answer, its body unzipped."""
    status, headers, body = http_get(node, path, gz=True)
    return status, gzip.decompress(body) if headers.get("Content-Encoding") == "gzip" else body


async def game_in_play(url: str) -> int:
    store = await PostgresStore.open(url)
    try:
        for _ in range(200):
            row = await store.pool.fetchrow("SELECT id FROM games WHERE finished IS NULL")
            if row is not None:
                return int(row["id"])
            await asyncio.sleep(0.05)
    finally:
        await store.aclose()
    raise AssertionError("no game started")


async def test_a_game_in_play_is_in_no_replay_or_history_and_once_ended_both_nodes_replay_it(
        postgres, redis_server, tmp_path):
    url = await new_database(postgres)
    nodes = start_nodes(url, redis_server.url, tmp_path, "ab")
    loop = asyncio.get_running_loop()
    release = asyncio.Event()
    try:
        invite: asyncio.Future[str] = loop.create_future()
        host = asyncio.create_task(play(
            HeldFirst(make_bot("builtin", "hana", seed=7), release), nodes[0].url, server_bots=2,
            server_strategy="builtin", rules="tenhou", clock={"none": True}, timeout=180, player_key=HOST_KEY,
            on_table=lambda m: "invite" in m and not invite.done() and invite.set_result(m["invite"])))
        code = await invite_of(host, invite)
        friend = asyncio.create_task(play(make_bot("builtin", "fumi", seed=8), nodes[1].url, code=code, timeout=180,
                                          player_key=FRIEND_KEY))
        game = await game_in_play(url)
        store = await PostgresStore.open(url)
        try:
            player = await store.player_of_key(key_hash(HOST_KEY))
            friend_id = (await store.player_of_key(key_hash(FRIEND_KEY))).id
        finally:
            await store.aclose()
        assert player is not None
        for node in nodes:
            for path in (f"/api/games/{game}", f"/api/games/{game}/replay", f"/api/games/{game}/tenhou6",
                         f"/api/games/{game}/mjai"):
                status, body = await loop.run_in_executor(None, get, node, path)
                assert status == 409 and b"still in play" in body, (node.name, path, status, body[:200])
            _, page = await loop.run_in_executor(None, get, node, f"/players/{player.id}")
            assert f"/games/{game}".encode() not in page
            _, api = await loop.run_in_executor(None, get, node, f"/api/players/{player.id}")
            assert json.loads(api)["games"] == []
            _, standings = await loop.run_in_executor(None, get, node, "/standings.csv")
            assert b"hana" not in standings
        release.set()
        results = await asyncio.wait_for(asyncio.gather(host, friend), 240)
        assert all(result.final for result in results)
        documents = [await loop.run_in_executor(None, get, node, f"/api/games/{game}/replay") for node in nodes]
        viewer = [await loop.run_in_executor(None, get, node, f"/games/{game}") for node in nodes]
        _, api = await loop.run_in_executor(None, get, nodes[1], f"/api/players/{player.id}")
    finally:
        release.set()
        stop_nodes(nodes)
    store = await PostgresStore.open(url)
    try:
        record = await store.record(game)
    finally:
        await store.aclose()
    assert [status for status, _ in documents] == [200, 200] and documents[0][1] == documents[1][1]
    document = json.loads(documents[0][1])
    assert sorted(document.pop("players"), key=str) == sorted(
        [player.id, friend_id, "bot-builtin", "bot-builtin"], key=str)
    assert document == json.loads(json.dumps(replay_document(record)))
    assert all(status == 200 and b"<script" in page for status, page in viewer)
    assert [g["game_id"] for g in json.loads(api)["games"]] == [game]
