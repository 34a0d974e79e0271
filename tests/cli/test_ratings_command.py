"""`riichi-server ratings` and `ratings --rebuild` as an operator runs them, on the SQLite file
and on PostgreSQL (issue 25: "recomputable from the stored games (`riichi-server ratings
--rebuild`)"; "ratings rebuild to the same values")."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from server.finished import FinishedSeat, GameFinished, PlayerKind
from server.game.record import GameRecord
from server.rules.config import preset
from server.store import SqliteFile
from server.store.postgres import PostgresStore
from tests.services import new_database

SERVER = Path(sys.executable).parent / "riichi-server"
PLAYERS = [f"p-{i}" for i in range(12)] + ["bot-builtin"]
DONE = re.compile(r"^rebuilt the ratings of (\d+) players from (\d+) games in ([\d.]+) s: (\d+) changed$", re.M)


def _finished(game_id: int, rng: random.Random) -> GameFinished:
    players = rng.sample(PLAYERS, 4)
    scores = [rng.randrange(0, 600) * 100 for _ in range(4)]
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    return GameFinished(game_id, "t1", "tenhou", (), tuple(
        FinishedSeat(s, players[s], players[s], PlayerKind.HUMAN, scores[s], order.index(s) + 1, 0.0, 0.0)
        for s in range(4)))


def _ratings_command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SERVER), "ratings", *args], capture_output=True, text=True, timeout=300)


def test_a_rebuild_of_the_sqlite_file_finds_every_kept_rating_and_puts_a_wrong_one_right(tmp_path):
    db = tmp_path / "riichi.sqlite3"
    store = SqliteFile(db)
    store.save_table("t1", "I", "W", preset("tenhou"), None, "finished")
    rng = random.Random(25)
    for _ in range(2500):
        store.keep_finished(_finished(store.start_game("t1", GameRecord(preset("tenhou"), b"x" * 32, None,
                                                                         list("abcd"))), rng))
    store.close()
    done = _ratings_command("--rebuild", "--db", str(db))
    assert done.returncode == 0, done.stderr
    players, games, seconds, changed = DONE.search(done.stdout).groups()
    assert (int(players), int(games), int(changed)) == (len(PLAYERS), 2500, 0)
    assert "rated 1000 of 2500 games" in done.stderr and "rated 2500 of 2500 games" in done.stderr
    print(f"rebuild of 2500 games: {seconds} s")  # (docs/performance.md quotes it)
    with sqlite3.connect(db) as file:
        file.execute("UPDATE ratings SET sigma = 1 WHERE player_id = 'p-3'")
    assert DONE.search(_ratings_command("--rebuild", "--db", str(db)).stdout).group(4) == "1"
    listed = _ratings_command("--db", str(db))
    assert listed.returncode == 0 and listed.stdout.splitlines()[0].split() == [
        "PLAYER", "NAME", "RATING", "ORDINAL", "GAMES"]
    assert len(listed.stdout.splitlines()) == 1 + len(PLAYERS)


def test_ratings_of_an_empty_file_say_there_are_none(tmp_path):
    db = tmp_path / "riichi.sqlite3"
    SqliteFile(db).close()
    assert _ratings_command("--db", str(db)).stdout == f"no rated players in {db}\n"
    assert DONE.search(_ratings_command("--rebuild", "--db", str(db)).stdout).groups()[::3] == ("0", "0")


def test_a_rebuild_on_postgresql_finds_every_kept_rating(postgres):
    async def kept(url: str) -> None:
        store = await PostgresStore.open(url)
        try:
            await store.save_table("t1", "I", "W", preset("tenhou"), None)
            rng = random.Random(7)
            for _ in range(50):
                game_id = await store.start_game("t1", GameRecord(preset("tenhou"), b"x" * 32, None, list("abcd")))
                await store.keep_finished(_finished(game_id, rng))
        finally:
            await store.aclose()

    url = asyncio.run(new_database(postgres))
    asyncio.run(kept(url))
    done = _ratings_command("--rebuild", "--db", url)
    assert done.returncode == 0, done.stderr
    players, games, _, changed = DONE.search(done.stdout).groups()
    assert (int(games), int(changed)) == (50, 0) and int(players) <= len(PLAYERS)


def test_the_help_says_what_a_rebuild_does():
    shown = _ratings_command("--help")
    assert shown.returncode == 0 and "--rebuild" in shown.stdout and "changed" in shown.stdout
    assert "ratings" in subprocess.run([str(SERVER), "--help"], capture_output=True, text=True, timeout=60).stdout
