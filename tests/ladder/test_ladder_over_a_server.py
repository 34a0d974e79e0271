"""The ladder over a real server (issue 26: "the ladder runs two SDK bots and one mjai bot over a
real server in a test"): a riichi-server process serving ladder `main`; three riichi-bot processes,
each a bot player with its own key from `riichi-server players add NAME --bot` (builtin, random,
and the example mjai bot through `riichi-bot --mjai`), play one whole duplicate set with the
server's builtin bot in the fourth seat.  The four games have one seed and the seats rotated; the
ladder page lists the three bots with 4 games each and links each game's replay; the ratings kept
equal those rebuilt from the stored games.  Bad input: a ladder_join of an unknown ladder, and one
with no player key, each get an error that says what to do."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from protocol import client_messages
from protocol.client import Client
from server.ladder import rating
from server.ladder.sets import fill_entrant, seating
from server.store.ladder_rows import LadderGameState, SetState
from server.store.opening import open_store
from tests.clients import recv
from tests.harness import ServerProcess

pytestmark = pytest.mark.asyncio

BIN = Path(sys.executable).parent
MJAI = "{python} -m client_cli.mjai.example_bot"


def _bot_player(db: Path, name: str) -> str:
    """A bot player added as an operator adds one; its key."""
    out = subprocess.run([str(BIN / "riichi-server"), "players", "add", name, "--bot", "--db", str(db)],
                         capture_output=True, text=True, check=True).stdout
    return next(line.split()[-1] for line in out.splitlines() if line.startswith("key"))


def _get(srv: ServerProcess, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{srv.port}{path}", timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.fixture
def ladder_server(tmp_path):
    srv = ServerProcess(tmp_path / "riichi.sqlite3", "--ladder", "main", "--ladder-poll", "0.2",
                        "--ladder-gather", "8").start()
    yield srv
    if srv.running():
        srv.stop()
    assert not srv.errors(), "the server logged errors:\n" + "\n".join(srv.errors()[:20])


async def test_two_sdk_bots_and_an_mjai_bot_play_a_duplicate_set_and_are_rated_as_the_stored_games_say(
        ladder_server, tmp_path):
    db = tmp_path / "riichi.sqlite3"
    keys = {name: _bot_player(db, name) for name in ("builtin-bot", "random-bot", "mjai-bot")}
    how = {"builtin-bot": ["--strategy", "builtin"], "random-bot": ["--strategy", "random"],
           "mjai-bot": ["--mjai", MJAI]}
    bots = {name: await asyncio.create_subprocess_exec(
                str(BIN / "riichi-bot"), "--server", ladder_server.url, "--ladder", "main", "--player-key", key,
                "--games", "4", *how[name], stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            for name, key in keys.items()}
    outputs = {}
    async with asyncio.timeout(240):
        for name, proc in bots.items():
            out, err = await proc.communicate()
            assert proc.returncode == 0, f"{name}: {err.decode()}"
            outputs[name] = [int(line) for line in out.decode().split()]
    # each bot printed the same four games (it played them all)
    assert len(set(map(tuple, outputs.values()))) == 1 and len(outputs["mjai-bot"]) == 4

    store = await open_store(str(db))
    try:
        players = {p.name: p.id for p in await store.players()}
        async with asyncio.timeout(30):  # the set is marked done at the matchmaker's next look after its last game
            while any(s.number == 1 for s in await store.playing_sets("main")):
                await asyncio.sleep(0.1)
        sets = await store.playing_sets("main")
        games = await store.set_games("main", 1)
        assert [g.rotation for g in games] == [0, 1, 2, 3]
        assert all(g.state is LadderGameState.DONE for g in games)
        assert sorted(g.game_id for g in games) == sorted(outputs["mjai-bot"])
        # one seed, the seats rotated: each bot (and the fill) in each seat once
        rotation0 = games[0].seats
        assert sorted(rotation0) == sorted([*(players[n] for n in keys), fill_entrant("builtin")])
        for game in games:
            assert game.seats == seating(rotation0, game.rotation)
            assert await store.game_players(game.game_id) == [
                "bot-builtin" if seat == fill_entrant("builtin") else seat for seat in game.seats]
        seeds = {(await store.record(g.game_id)).seed for g in games}
        assert len(seeds) == 1 and None not in seeds  # the same walls (server/game/wall.py: seed and hand only)
        assert sets == [] or all(s.number != 1 or s.state is SetState.DONE for s in sets)
        kept = await store.ladder_ratings("main")
        assert set(kept) == {players[n] for n in keys} and all(r.games == 4 for r in kept.values())
        assert kept == await rating.rebuild(store, "main")
    finally:
        await store.aclose()

    status, page = _get(ladder_server, "/ladder/main")
    assert status == 200
    for name in keys:
        assert f">{name}</a>" in page
    for game in games:
        assert f'href="/games/{game.game_id}"' in page
    status, body = _get(ladder_server, "/ladder/main.json")
    data = json.loads(body)
    assert status == 200 and sorted(b["name"] for b in data["bots"]) == sorted(keys)
    assert all(b["games"] == 4 and b["interval"][0] < b["mu"] < b["interval"][1] for b in data["bots"])
    assert {b["player"]: b["mu"] for b in data["bots"]} == {p: r.mu for p, r in kept.items()}
    # each bot's trend: its rating after each of its four games, in game order, ending at the one kept
    ordered = sorted(g.game_id for g in games)
    for bot in data["bots"]:
        assert [h["game"] for h in bot["history"]] == ordered
        assert (bot["history"][-1]["mu"], bot["history"][-1]["sigma"]) == (bot["mu"], bot["sigma"])
    assert page.count('<svg class="trend"') == 3 and "mu − 3σ over its 4 games" in page


async def test_an_unknown_ladder_and_a_bot_with_no_key_are_refused_in_one_line(ladder_server):
    keyed = await Client.connect(ladder_server.url, "keyed", bot=True, player_key="k" * 24)
    keyless = await Client.connect(ladder_server.url, "keyless", bot=True)
    try:
        await keyed.send(client_messages.ladder_join("nope"))
        refused = await recv(keyed, "error")
        assert refused["code"] == "no_ladder" and "ladder list" in refused["message"]
        await keyless.send(client_messages.ladder_join("main"))
        refused = await recv(keyless, "error")
        assert refused["code"] == "no_player" and "player key" in refused["message"]
        await keyed.send(client_messages.ladder_join("main"))  # the connection goes on: this one is taken
        assert (await recv(keyed, "ladder_joined"))["ladder"] == "main"
    finally:
        await keyed.close()
        await keyless.close()
    status, page = _get(ladder_server, "/ladder/nope")
    assert status == 404 and "No such ladder" in page


async def test_riichi_bot_on_a_ladder_with_no_such_ladder_says_so_and_exits(ladder_server):
    proc = await asyncio.create_subprocess_exec(
        str(BIN / "riichi-bot"), "--server", ladder_server.url, "--ladder", "nope", "--player-key", "x" * 24,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    async with asyncio.timeout(30):
        _, err = await proc.communicate()
    assert proc.returncode == 2 and "no_ladder" in err.decode()
