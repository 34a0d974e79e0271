"""A finished game's record over HTTP (docs/server.md): `GET /api/games/ID/tenhou6` and
`/api/games/ID/mjai` serve what `riichi-server export` writes, once the game has ended; a game
in play is refused (its walls and hands would show), and so are unknown ids.  Against a real
riichi-server process, over real HTTP."""

import json
import random

import pytest

from server.game.export_mjai import export_mjai
from server.game.export_tenhou6 import export_tenhou6
from server.game.flow import uma_and_oka
from server.game.record import GameRecord
from server.rules.config import TENHOU
from server.store import SqliteFile
from tests.clients import east_game_in_play, http_get, play_counting, recv


@pytest.mark.asyncio
async def test_a_finished_games_record_is_served_as_tenhou6_json_and_as_mjai_lines(server):
    host, _ = await east_game_in_play(server)
    result = await play_counting(host, random.Random(5), [])
    await host.close()
    game = result["game"]
    assert result["uma"] == uma_and_oka(result["final"]["scores"], TENHOU)  # the standings' uma column
    store = SqliteFile(server.db)
    record = store.record(game)
    store.close()

    status, headers, body = http_get(server, f"/api/games/{game}/tenhou6")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert f'filename="game-{game}.tenhou6.json"' in headers["Content-Disposition"]
    assert json.loads(body) == json.loads(json.dumps(export_tenhou6(record)))
    assert "Content-Security-Policy" in headers

    status, headers, body = http_get(server, f"/api/games/{game}/mjai")
    assert status == 200 and headers["Content-Type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in body.decode().splitlines()]
    assert lines == json.loads(json.dumps(export_mjai(record)))
    assert lines[0]["type"] == "start_game" and lines[-1]["type"] == "end_game"
    assert http_get(server, f"/api/games/{game}/mjai")[2] == body  # asked again: the same bytes

    status, headers, body = http_get(server, f"/api/games/{game}")  # the record itself, which replays to the game
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    served = GameRecord.from_json(body.decode())
    assert (served.seed, served.names, served.decisions) == (record.seed, record.names, record.decisions)
    assert served.replay().final == result["final"]


@pytest.mark.asyncio
async def test_a_game_in_play_is_never_served_and_unknown_games_are_not_found(server):
    host, table = await east_game_in_play(server)
    await recv(host, "offer")
    for fmt in ("/tenhou6", "/mjai", ""):  # (no concealed tile of a game in play, in any form)
        status, headers, body = http_get(server, f"/api/games/{table['game']}{fmt}")
        assert status == 409 and b"still in play" in body and body.count(b"\n") == 1
        assert headers["Cache-Control"] == "no-store"
    assert http_get(server, f"/api/games/{table['game'] + 100}/tenhou6")[0] == 404
    for path in ("/api/games/x/tenhou6", f"/api/games/{table['game']}/record", "/api/games/"):
        status, _, body = http_get(server, path)
        assert status == 404 and b"/api/games/ID/tenhou6" in body
    await host.close()
