"""riichi-server on PostgreSQL (`--db postgresql://...`), real processes end to end: bots play
whole games over the protocol, the server is killed with SIGKILL mid-game and started again
on the same database, the bots resume by themselves, and every game finishes with the
result that its stored record replays to; `games` and `export` read the same database."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server.store.postgres import PostgresStore
from tests.bot_tables import decisions_in_play
from tests.harness import ServerProcess
from tests.services import new_database

BOT = Path(sys.executable).parent / "riichi-bot"
SERVER = Path(sys.executable).parent / "riichi-server"
GAMES = 3


@pytest.mark.asyncio
async def test_bots_play_whole_games_across_a_kill_of_the_server_and_each_result_is_its_records_replay(postgres,
                                                                                                      tmp_path):
    url = await new_database(postgres)
    server = ServerProcess(url, log=tmp_path / "riichi.log").start()
    bots = subprocess.Popen([str(BOT), "--server", server.url, "--new-table", "--no-clock", "--games", str(GAMES),
                             "--rules", "tenhou", "--seed", "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 120
        while await decisions_in_play(url) < 60:  # the second game, or the first, well under way
            assert time.monotonic() < deadline and bots.poll() is None, "no game got under way"
            await asyncio.sleep(0.05)
        in_play = await decisions_in_play(url)
        await server.stop_async(signal.SIGKILL)
        server.start()  # the same port and database: the bots' resume tokens work again
        out, err = await asyncio.to_thread(bots.communicate, timeout=240)
        assert bots.returncode == 0, err[-3000:]
    finally:
        if bots.poll() is None:
            bots.kill()
        server.stop()
    game_ids = [int(line) for line in out.split()]
    assert len(game_ids) == GAMES
    store = await PostgresStore.open(url)
    try:
        for game_id in game_ids:
            record = await store.record(game_id)
            replayed = record.replay()
            [row] = [g for g in await store.games() if g.id == game_id]
            assert replayed.over and row.final["scores"] == replayed.final["scores"], game_id
        assert in_play >= 60
    finally:
        await store.aclose()
    listed = subprocess.run([str(SERVER), "games", "--db", url, "--json"], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert [g["id"] for g in json.loads(listed.stdout)] == game_ids
    exported = subprocess.run([str(SERVER), "export", str(game_ids[0]), "--db", url, "--format", "tenhou6"],
                              capture_output=True, text=True, timeout=60)
    assert exported.returncode == 0 and json.loads(exported.stdout)["name"], exported.stderr


def test_a_postgresql_url_that_does_not_answer_is_one_line(tmp_path):
    from tests.services import free_port

    url = f"postgresql://postgres@127.0.0.1:{free_port()}/nothing"
    for command in ([str(SERVER), "--db", url, "--port", "0"], [str(SERVER), "games", "--db", url]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1
        [line] = done.stderr.strip().splitlines()
        assert line.startswith(f"riichi-server: {url}: ") and "refused" in line.lower(), line
