"""The player pages and the standings on a real server (issue 25): "a player seen in two games
from two browsers has one page with both"; "No history ever shows a concealed tile of a game
still in play" (a game in play is on no page); every name escaped; clear 404s.

Two players, each with its player key, play two games together through the protocol, the
second game from other connections (another browser of each, with the same key).
"""

from __future__ import annotations

import asyncio
import csv
import io
import random
import re
import urllib.error
import urllib.request

import pytest

from protocol.client import Client
from tests.clients import play_counting, recv

pytestmark = pytest.mark.asyncio

ANN_KEY = "ann-key-0123456789abcdef"
BO_KEY = "bo-key-0123456789abcdef0"
BO_NAME = "<b>Bo</b> & co"  # markup in a name: shown as text, never as markup


def _get(port: int, path: str) -> tuple[int, str, dict[str, str]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(), dict(refused.headers)


async def get(server, path: str) -> tuple[int, str, dict[str, str]]:
    """A GET of the server's (urllib blocks: off the server's loop)."""
    return await asyncio.get_running_loop().run_in_executor(None, _get, server.port, path)


async def seated_pair(server, seed: int) -> tuple[Client, Client, dict]:
    """Ann hosts a table of no clock, Bo joins it, two shanten bots fill it, both are ready."""
    ann = await Client.connect(server.url, "Ann", player_key=ANN_KEY)
    await ann.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    table = await recv(ann, "table")
    bo = await Client.connect(server.url, BO_NAME, player_key=BO_KEY)
    await bo.send({"type": "join", "code": table["invite"]})
    await recv(bo, "table")
    for _ in range(2):
        await ann.send({"type": "add_bot", "strategy": "shanten"})
    await ann.send({"type": "ready"})
    await bo.send({"type": "ready"})
    return ann, bo, table


async def play_a_game(server, seed: int) -> dict:
    """A whole game of Ann and Bo, each from a connection of its own: the result."""
    ann, bo, _ = await seated_pair(server, seed)
    results = await asyncio.gather(play_counting(ann, random.Random(seed), []),
                                   play_counting(bo, random.Random(seed + 1), []))
    await ann.close()
    await bo.close()
    return results[0]


async def test_a_player_of_two_games_from_two_connections_has_one_page_with_both(in_process_server):
    server = in_process_server
    first, second = await play_a_game(server, 1), await play_a_game(server, 2)
    games = {first["game"], second["game"]}
    store = server.app.lobby.store
    ann_id = (await store.players_named("Ann"))[0].id
    bo_id = (await store.players_named(BO_NAME))[0].id

    status, page, headers = await get(server, "/players/Ann")  # by its name
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "default-src 'none'" in headers["Content-Security-Policy"] and "<script" not in page
    assert {int(g) for g in re.findall(r'href="/games/(\d+)"', page)} == games
    assert f"player {ann_id}" in page and "Games played</dt><dd>2<" in page
    assert (await get(server, f"/players/{ann_id}"))[1] == page  # by its id: the same page

    status, page, _ = await get(server, "/players/" + urllib.request.quote(BO_NAME, safe=""))
    assert status == 200 and "&lt;b&gt;Bo&lt;/b&gt; &amp; co" in page and "<b>Bo</b>" not in page
    assert {int(g) for g in re.findall(r'href="/games/(\d+)"', page)} == games

    status, page, _ = await get(server, "/standings")
    assert status == 200 and page.index(f'href="/players/{ann_id}"') > 0 and "<b>Bo</b>" not in page
    status, text, headers = await get(server, "/standings.csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    by_id = {row["player_id"]: row for row in rows}
    assert by_id[ann_id]["games"] == by_id[bo_id]["games"] == "2" and by_id[bo_id]["name"] == BO_NAME
    assert [float(r["ordinal"]) for r in rows] == sorted((float(r["ordinal"]) for r in rows), reverse=True)
    ratings = await store.ratings()
    assert float(by_id[ann_id]["mu"]) == ratings[ann_id].mu and ratings[ann_id].games == 2
    assert (await store.rebuild_ratings()).changed == 0

    # a third game, in play: on no page, in no standing
    ann, bo, _ = await seated_pair(server, 3)
    bo_plays = asyncio.create_task(play_counting(bo, random.Random(4), []))
    await play_counting(ann, random.Random(3), [], stop_after=5)
    assert (await get(server, "/standings.csv"))[1] == text
    page = (await get(server, f"/players/{ann_id}"))[1]
    assert {int(g) for g in re.findall(r'href="/games/(\d+)"', page)} == games
    bo_plays.cancel()
    await ann.close()
    await bo.close()


async def test_a_name_of_several_players_lists_them_and_an_unknown_one_is_a_clear_404(in_process_server):
    server = in_process_server
    for key in ("first-key-0123456789abcd", "second-key-0123456789abc"):
        client = await Client.connect(server.url, "Sam", player_key=key)
        await client.close()
    status, page, _ = await get(server, "/players/Sam")
    ids = re.findall(r'href="/players/([^"]+)"', page)
    assert status == 200 and "2 players show this name" in page and len(set(ids)) == 2
    for player_id in ids:
        status, page, _ = await get(server, f"/players/{player_id}")
        assert status == 200 and "No game played out yet." in page
    status, page, _ = await get(server, "/players/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert status == 404 and "No player is called &lt;script&gt;" in page and "<script>" not in page
    status, page, _ = await get(server, "/standings?label=club%3Anone")
    assert status == 404 and "No game played out has the label club:none" in page
    status, page, _ = await get(server, "/standings")
    assert status == 200 and "No game played out yet." in page
    assert (await get(server, "/pages.css"))[0] == 200
