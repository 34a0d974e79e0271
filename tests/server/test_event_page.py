"""`GET /events/ID` and `/events/ID/standings.csv` (issue 27: "a page `GET /events/ID` for the
organiser"; "Standings after each round and at the end, on a page and as CSV; each game's replay
linked"): a table in play links to join and watch, an ended one to its replay; names are text."""

from __future__ import annotations

import asyncio
import csv
import json
import io
import urllib.error
import urllib.request

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from server.events import service
from server.events.spec import EventSpec, Scoring
from server.identity import key_hash, new_key, new_player
from server.store.event_rows import EventTableState
from server.store.rows import PlayerKind

pytestmark = [pytest.mark.asyncio, pytest.mark.server("--event-poll", "0.1")]
NAMES = ["<b>Bo</b> & co", "ann", "cid", "=dee"]


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


async def get(server, path: str) -> tuple[int, str]:
    return await asyncio.get_running_loop().run_in_executor(None, _get, server.port, path)


async def _until(check, seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not await check():
            await asyncio.sleep(0.1)


async def test_the_event_page_links_a_table_in_play_to_join_and_an_ended_one_to_its_replay(in_process_server):
    lobby, store = in_process_server.app.lobby, in_process_server.app.lobby.store
    event, _ = await service.create_event(store, EventSpec("page cup", rounds=2, scoring=Scoring.TABLE_POINTS))
    keys = {}
    for name in NAMES:
        key = new_key()
        player = await store.add_player(new_player(name, PlayerKind.BOT, issued=True), key_hash(key))
        await service.add_player(store, event.id, player.id)
        keys[player.id] = key
    status, markup = await get(in_process_server, f"/events/{event.id}")
    assert status == 200 and "No round has started" in markup and "&lt;b&gt;Bo&lt;/b&gt; &amp; co" in markup
    [row] = await service.start_round(store, event.id)

    async def opened() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.OPEN
    await _until(opened)
    row = (await store.event_tables(event.id))[0]
    table = lobby.tables[row.table_id]
    _, markup = await get(in_process_server, f"/events/{event.id}")
    assert f'href="/join/{table.invite}"' in markup and f'href="/watch/{table.watch}"' in markup
    east = row.seats[0]  # "each player's page shows their table and a link"
    _, markup = await get(in_process_server, f"/players/{east}")
    assert "Your event tables" in markup and f'href="/join/{table.invite}"' in markup and "<td>East</td>" in markup

    await asyncio.gather(*(play(make_bot("builtin", f"b{i}", seed=i), in_process_server.url, code=table.invite,
                                player_key=keys[p], timeout=120) for i, p in enumerate(row.seats)))

    async def done() -> bool:
        return (await store.event_tables(event.id))[0].state is EventTableState.DONE
    await _until(done)
    game = (await store.event_tables(event.id))[0].game_id
    _, markup = await get(in_process_server, f"/events/{event.id}")
    assert f'href="/games/{game}"' in markup and "<h2>Round 1</h2>" in markup
    assert "Your event tables" not in (await get(in_process_server, f"/players/{east}"))[1]  # (ended)
    status, text = await get(in_process_server, f"/events/{event.id}/standings.csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert status == 200 and rows[0] == ["rank", "player", "round 1", "round 2", "penalties", "total",
                                         "regular points"]
    assert sum(float(r[5]) for r in rows[1:]) == 7  # "a total of 7 table points are awarded" a game
    assert "'=dee" in {r[1] for r in rows[1:]}  # (a name a spreadsheet would take for a formula)
    assert (await get(in_process_server, "/events/0000dead"))[0] == 404


async def test_the_registration_page_is_served_and_the_api_says_whether_registration_is_open(in_process_server):
    """The self-registration link's page is the web client's (it reads its address); what it shows
    of the event comes from /api/events/ID, which says when the first round has closed registration."""
    store = in_process_server.app.lobby.store
    event, _ = await service.create_event(store, EventSpec("open cup", rounds=2))
    status, body = await get(in_process_server, f"/events/{event.id}/register")
    assert status == 200 and 'id="register-form"' in body
    status, body = await get(in_process_server, f"/api/events/{event.id}")
    assert status == 200 and json.loads(body) == {"id": event.id, "name": "open cup", "rules": "ema2016",
                                                  "rounds": 2, "players": 0, "registration_open": True}
    player = await store.add_player(new_player("solo", PlayerKind.HUMAN, issued=True), key_hash(new_key()))
    await service.add_player(store, event.id, player.id)
    await service.start_round(store, event.id)
    status, body = await get(in_process_server, f"/api/events/{event.id}")
    assert json.loads(body)["registration_open"] is False and json.loads(body)["players"] == 1
    status, body = await get(in_process_server, "/api/events/abc123")
    assert (status, body.strip()) == (404, "no event abc123: `riichi-server event list` shows the events")
