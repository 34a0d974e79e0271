"""The replay viewer's document over HTTP and a dropped log over its websocket (server/downloads.py,
server/dropped_log.py), against a real riichi-server process: a finished game's document is
served (gzipped for a browser that takes it); a game in play or abandoned is refused 409 (its
concealed tiles would show), an unknown one 404."""

import asyncio
import gzip
import json
import random
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from server.dropped_log import document_of_log
from server.replay_document import replay_document
from server.store import SqliteFile
from tests.clients import east_game_in_play, http_get, play_counting, recv

pytestmark = pytest.mark.server("--abandon", "1")
MJLOG = Path(__file__).resolve().parents[1] / "data" / "corpus" / "tenhou-mjlog" / "first-example.mjlog"


@pytest.mark.asyncio
async def test_a_finished_games_replay_document_is_served_plain_and_gzipped(server):
    host, _ = await east_game_in_play(server)
    result = await play_counting(host, random.Random(5), [])
    await host.close()
    game = result["game"]
    store = SqliteFile(server.db)
    record = store.record(game)
    store.close()
    status, headers, body = await asyncio.to_thread(http_get, server, f"/api/games/{game}/replay")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert "Content-Disposition" not in headers and "Content-Security-Policy" in headers
    doc = json.loads(body)
    assert doc.pop("players") == [None, "bot-shanten", "bot-shanten", "bot-shanten"]  # (the host gave no key)
    assert doc == json.loads(json.dumps(replay_document(record)))
    assert doc["final"]["scores"] == result["final"]["scores"]
    status, headers, packed = await asyncio.to_thread(http_get, server, f"/api/games/{game}/replay", True)
    assert status == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(packed) == body


@pytest.mark.asyncio
async def test_no_replay_of_a_game_in_play_and_unknown_games_are_not_found(server):
    host, table = await east_game_in_play(server)
    await recv(host, "offer")
    status, headers, body = await asyncio.to_thread(http_get, server, f"/api/games/{table['game']}/replay", True)
    assert status == 409 and b"still in play" in body and headers["Cache-Control"] == "no-store"
    assert "hands" not in body.decode()
    assert (await asyncio.to_thread(http_get, server, f"/api/games/{table['game'] + 100}/replay"))[0] == 404
    await host.close()


@pytest.mark.asyncio
async def test_no_replay_of_an_abandoned_game(server):
    host, table = await east_game_in_play(server, "builtin")
    await recv(host, "offer")
    await host.close()  # no player connected: abandoned after --abandon 1 s
    store = SqliteFile(server.db)
    deadline = time.monotonic() + 15
    while not store.games(finished=True) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    [row] = store.games(finished=True)
    store.close()
    assert row.final["abandoned"] is True
    status, _, body = await asyncio.to_thread(http_get, server, f"/api/games/{table['game']}/replay")
    assert status == 409 and b"abandoned" in body


@pytest.mark.asyncio
async def test_a_log_sent_to_the_replay_websocket_comes_back_as_its_document(server):
    async with connect(f"ws://127.0.0.1:{server.port}/api/replay") as ws:
        await ws.send(MJLOG.read_bytes())
        doc = json.loads(await ws.recv())
    assert doc == json.loads(json.dumps(document_of_log(MJLOG.read_bytes())))
    async with connect(f"ws://127.0.0.1:{server.port}/api/replay") as ws:
        await ws.send(b"not a log")
        said = json.loads(await ws.recv())
    assert "neither an mjlog" in said["error"]


def test_the_replay_pages_are_the_page(server):
    for path in ("/games/12", "/replay"):
        status, headers, body = http_get(server, path)
        assert status == 200 and headers["Content-Type"].startswith("text/html") and b"app.js" in body
