"""`riichi-server games` and `riichi-server export`, run as real processes on real SQLite files:
a --db that is not riichi-server's database is one line and status 1, and never written to;
`games` has a header and aligned columns, `--json` for programs; a reader that leaves
(`| head`) ends either command quietly."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli.pipes import CLOSED_PIPE_STATUS
from server.game.engine import Game
from server.game.record import GameRecord
from server.rules.config import TENHOU
from server.store import SqliteFile
from tests.store.walls_games import WALLS, played_out

SERVER = Path(sys.executable).parent / "riichi-server"
# Buffered standard output, as a user's shell gives it (this machine sets PYTHONUNBUFFERED).
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
FINAL = {"scores": [41000, 27000, 19000, 13000], "places": [0, 1, 2, 3], "results": [51.0, 7.0, -11.0, -47.0]}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SERVER), *args], capture_output=True, text=True, timeout=60)


def assert_one_line_error(out: subprocess.CompletedProcess, *words: str) -> None:
    assert out.returncode == 1, (out.returncode, out.stderr)
    assert out.stderr.startswith("riichi-server: ") and out.stderr.count("\n") == 1, out.stderr
    assert "Traceback" not in out.stderr and all(w in out.stderr for w in words), out.stderr
    assert out.stdout == ""


def store_with_games(path: Path, names: list[list[str]], abandoned: bool = False) -> Path:
    """A real store with one finished game for each list of names (no decisions needed to list)."""
    store = SqliteFile(path)
    for i, seats in enumerate(names):
        game_id = store.start_game(f"table{i}", GameRecord(TENHOU, i.to_bytes(16, "big"), None, seats))
        final = {"abandoned": True, "reason": "no player connected", "scores": [25000] * 4} if abandoned else FINAL
        store.finish_game(game_id, final)
    store.close()
    return path


def played_game(path: Path) -> int:
    """A whole random game, stored decision by decision as the server stores one."""
    rng = random.Random(7)
    game = Game(TENHOU, seed=b"games-command", names=["ann", "bob", "cy", "di"])
    while not game.over:
        seat = game.waiting_for()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    store = SqliteFile(path)
    game_id = store.start_game("table", GameRecord(game.rules, game.seed, None, list(game.names)))
    store.add_decisions(game_id, 0, game.decisions)
    store.finish_game(game_id, game.final)
    store.close()
    return game_id


def other_programs_database(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    db.execute("INSERT INTO notes (body) VALUES ('keep me')")
    db.commit()
    db.close()
    return path


COMMANDS = [("games",), ("export", "1"), ("export", "1", "--format", "mjai")]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_text_file_given_as_db_is_one_line_not_a_traceback(tmp_path, command):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database, just some words that are long enough to be a header\n" * 10)
    before = notes.read_bytes()
    assert_one_line_error(run(*command, "--db", str(notes)), "notes.txt", "not an SQLite database")
    assert notes.read_bytes() == before


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_given_as_db_is_one_line_saying_it_is_a_folder(tmp_path, command):
    assert_one_line_error(run(*command, "--db", str(tmp_path)), str(tmp_path), "is a folder")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_db_path_that_does_not_exist_is_one_line_and_no_file_is_created(tmp_path, command):
    typo = tmp_path / "typo.sqlite3"
    assert_one_line_error(run(*command, "--db", str(typo)), "typo.sqlite3", "no such database file")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_another_programs_sqlite_file_is_one_line_and_left_untouched(tmp_path, command):
    other = other_programs_database(tmp_path / "other.sqlite3")
    before = other.read_bytes()
    assert_one_line_error(run(*command, "--db", str(other)), "other.sqlite3", "no games table")
    assert other.read_bytes() == before  # no riichi-server tables were created in it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3"]


def test_games_lists_under_a_header_in_aligned_columns(tmp_path):
    db = store_with_games(tmp_path / "riichi.sqlite3", [["ann", "bob", "cy", "di"]] * 9
                          + [["a-much-longer-name", "東風", "x", "y"]])
    out = run("games", "--db", str(db))
    assert out.returncode == 0 and out.stderr == "", out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["ID", "RULES", "STARTED", "PLAYERS", "FINAL", "SCORES"]
    assert len(lines) == 11
    starts = {column: lines[0].index(column) for column in ("RULES", "STARTED", "PLAYERS", "FINAL SCORES")}
    for line in lines[1:]:
        assert line[starts["RULES"]:].startswith("tenhou  "), line
        assert line[starts["STARTED"]:starts["STARTED"] + 4].isdigit(), line
    # the id is right-aligned under ID, the scores start under FINAL SCORES (東風 is 4 columns wide)
    assert [line[:starts["RULES"]].strip() for line in lines[1:]] == [str(i) for i in range(1, 11)]
    assert lines[1][:starts["RULES"]] == " 1  " and lines[10][:starts["RULES"]] == "10  "
    assert all(line[starts["PLAYERS"]:].startswith(("ann, bob, cy, di  ", "a-much-longer-name")) for line in lines[1:])
    assert lines[1][starts["FINAL SCORES"]:] == "41000 27000 19000 13000"
    assert lines[10].endswith("a-much-longer-name, 東風, x, y  41000 27000 19000 13000")
    assert len(lines[1]) == len(lines[10]) + 2  # 東風: two characters, four columns


def test_games_says_so_when_a_game_was_abandoned(tmp_path):
    db = store_with_games(tmp_path / "riichi.sqlite3", [["ann", "bob", "cy", "di"]], abandoned=True)
    out = run("games", "--db", str(db))
    assert out.stdout.splitlines()[1].endswith("ann, bob, cy, di  abandoned at 25000 25000 25000 25000")


def test_games_with_no_finished_game_says_so_in_one_line(tmp_path):
    db = tmp_path / "riichi.sqlite3"
    SqliteFile(db).close()
    out = run("games", "--db", str(db))
    assert out.returncode == 0 and out.stdout == f"no finished games in {db}\n"


def test_games_json_gives_every_game_with_its_final_standings(tmp_path):
    db = store_with_games(tmp_path / "riichi.sqlite3", [["ann", "bob", "cy", "di"], ["e", "f", "g", "h"]])
    out = run("games", "--json", "--db", str(db))
    assert out.returncode == 0 and out.stderr == ""
    games = json.loads(out.stdout)
    assert [g["id"] for g in games] == [1, 2] and games[1]["names"] == ["e", "f", "g", "h"]
    assert set(games[0]) == {"id", "table", "rules", "names", "started", "finished", "final"}
    assert games[0]["rules"] == "tenhou" and games[0]["table"] == "table0" and games[0]["final"] == FINAL
    assert games[0]["started"].endswith("+00:00") and games[0]["finished"] >= games[0]["started"]
    SqliteFile(empty := tmp_path / "empty.sqlite3").close()
    assert json.loads(run("games", "--json", "--db", str(empty)).stdout) == []


def test_export_still_writes_the_stored_game(tmp_path):
    db = tmp_path / "riichi.sqlite3"
    game_id = played_game(db)
    out = run("export", str(game_id), "--db", str(db), "--format", "mjai")
    assert out.returncode == 0 and out.stderr == ""
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    assert_one_line_error(run("export", "99", "--db", str(db)), "no game 99", "riichi-server games")


def test_a_game_dealt_from_given_walls_is_listed_and_exported_in_every_format_with_its_walls_and_no_seed(tmp_path):
    """A spec's walls "instead of a seed": the stored game has no seed to show, and its walls
    replay it in each format."""
    game = played_out(WALLS)
    store = SqliteFile(db := tmp_path / "riichi.sqlite3")
    game_id = store.start_game("table", GameRecord(game.rules, None, WALLS, list(game.names)))
    store.add_decisions(game_id, 0, game.decisions)
    store.finish_game(game_id, game.final)
    store.close()
    [listed] = json.loads(run("games", "--json", "--db", str(db)).stdout)
    assert (listed["id"], listed["final"]) == (game_id, game.final)
    record = GameRecord.from_json(run("export", str(game_id), "--db", str(db)).stdout)
    assert (record.seed, record.walls, record.final) == (None, WALLS, game.final)
    tenhou6 = json.loads(run("export", str(game_id), "--db", str(db), "--format", "tenhou6").stdout)
    assert tenhou6["title"][1] == "" and len(tenhou6["log"]) == len(game.results)
    mjai = run("export", str(game_id), "--db", str(db), "--format", "mjai")
    assert mjai.returncode == 0 and json.loads(mjai.stdout.splitlines()[-1])["type"] == "end_game"


def _a_little_then_leave(*args: str) -> tuple[int, str]:
    process = subprocess.Popen([str(SERVER), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=BUFFERED)
    assert process.stdout.read(100)  # far less than is written (more than a pipe holds)
    process.stdout.close()  # as head does after its lines
    stderr = process.stderr.read().decode()
    return process.wait(timeout=60), stderr


def test_games_and_export_end_quietly_when_the_reader_leaves(tmp_path):
    db = store_with_games(tmp_path / "riichi.sqlite3", [["ann", "bob", "cy", "di"]] * 3000)
    assert _a_little_then_leave("games", "--db", str(db)) == (CLOSED_PIPE_STATUS, "")
    assert _a_little_then_leave("games", "--json", "--db", str(db)) == (CLOSED_PIPE_STATUS, "")
    game_id = played_game(db)
    assert _a_little_then_leave("export", str(game_id), "--db", str(db), "--format", "mjai") == (
        CLOSED_PIPE_STATUS, "")


def run_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """The command in `folder`, with the user's data folder in it too (never the user's own)."""
    env = {**os.environ, "XDG_DATA_HOME": str(folder / "data")}
    return subprocess.run([str(SERVER), *args], capture_output=True, text=True, timeout=60, cwd=folder, env=env)


def test_games_with_no_db_reads_the_games_of_run_sh_in_the_data_folder_and_says_so(tmp_path):
    local = tmp_path / "data" / "riichi-server" / "riichi.sqlite3"
    local.parent.mkdir(parents=True)
    store_with_games(local, [["ann", "bob", "cy", "di"]])
    out = run_in(tmp_path, "games")
    assert out.returncode == 0 and out.stderr == f"riichi-server: reading {local} (the games played with" \
                                                 " scripts/run.sh; give --db for another)\n"
    assert out.stdout.splitlines()[1].split()[:2] == ["1", "tenhou"]
    export = run_in(tmp_path, "export", "1")
    assert export.returncode == 0 and json.loads(export.stdout)["names"] == ["ann", "bob", "cy", "di"]


def test_games_with_no_db_reads_this_folders_riichi_sqlite3_first_as_the_server_keeps_it_there(tmp_path):
    (tmp_path / "data" / "riichi-server").mkdir(parents=True)
    store_with_games(tmp_path / "data" / "riichi-server" / "riichi.sqlite3", [["ann", "bob", "cy", "di"]])
    store_with_games(tmp_path / "riichi.sqlite3", [["e", "f", "g", "h"]] * 2)
    out = run_in(tmp_path, "games", "--json")
    assert [g["names"] for g in json.loads(out.stdout)] == [["e", "f", "g", "h"]] * 2
    assert out.stderr == f"riichi-server: reading {tmp_path / 'riichi.sqlite3'} (riichi-server's default in this" \
                         " folder; give --db for another)\n"


def test_games_with_no_db_and_no_database_anywhere_is_one_line_and_creates_nothing(tmp_path):
    assert_one_line_error(run_in(tmp_path, "games"), "no games yet", str(tmp_path / "data"), "--db")
    assert list(tmp_path.iterdir()) == []
