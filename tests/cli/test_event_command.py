"""`riichi-server event ...` as an organiser runs it (issue 27: "Creates an event (`riichi-server
event create` ...)"; "Players ... are added by name"; "Penalties and chombo entered by the
organiser appear in the standings"; "Standings ... on a page and as CSV")."""

from __future__ import annotations

import asyncio
import re
import signal
import sqlite3
import time

import pytest

from protocol.client import Client
from server.app import main
from server.identity import key_hash
from server.store import SqliteFile
from tests.clients import recv


def _run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["event", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_an_event_is_created_players_added_by_name_a_round_seated_and_a_penalty_shown(tmp_path, capsys):
    db = ("--db", str(tmp_path / "riichi.sqlite3"))
    status, out, err = _run(capsys, "create", "--name", "Spring cup", "--rounds", "2", "--scoring", "table-points",
                            "--seating", "shuffled", "--session-minutes", "90", *db)
    event = out.strip()
    assert status == 0 and len(event) == 8 and "riichi-server event add" in err
    status, out, _ = _run(capsys, "add", event, "ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal", *db)
    assert status == 0 and out.count("added ") == 8 and out.count("#player=") == 8  # new players: each its link
    status, out, _ = _run(capsys, "add", event, "ann", *db)
    assert "was in the event already" in out
    status, out, _ = _run(capsys, "start-round", event, *db)
    assert status == 0 and out.startswith("round 1: 2 tables") and "EAST" in out
    assert _run(capsys, "start-round", event, *db)[2].strip() \
        == "riichi-server: round 1 is still in play: start the next once its tables have ended"
    status, out, _ = _run(capsys, "penalty", event, "bob", "-1.5", "--reason", "chombo", "--round", "1", *db)
    assert status == 0 and out.strip() == "bob: -1.5 (chombo)"
    status, out, _ = _run(capsys, "substitute", event, "cid", "--by", "bot", *db)
    assert status == 0 and out.startswith("bot sits in for cid at table ") and "credit-player" in out
    assert "no player is named zed" in _run(capsys, "substitute", event, "dee", "--by", "zed", *db)[2]
    assert "cid (sub: bot:substitute)" in _run(capsys, "tables", event, *db)[1]
    status, out, _ = _run(capsys, "standings", event, "--csv", *db)
    assert out.splitlines()[0] == "rank,player,round 1,round 2,penalties,total,regular points"
    assert out.splitlines()[-1] == "8,bob,,,-1.5,-1.5,0"


def test_create_prints_the_registration_link_and_link_prints_a_new_one_that_replaces_it(tmp_path, capsys):
    """"Players register from a link (self-registration)": the token is in the link's fragment."""
    db = ("--db", str(tmp_path / "riichi.sqlite3"))
    status, out, err = _run(capsys, "create", "--name", "Open cup", "--rounds", "1", "--url", "https://club.example/",
                            *db)
    event = out.strip()
    first = re.search(r"(\S+)$", err.strip()).group(1)
    assert status == 0 and first.startswith(f"https://club.example/events/{event}/register#")
    status, out, _ = _run(capsys, "link", event, "--url", "https://club.example", *db)
    second = out.strip()
    assert status == 0 and second.startswith(f"https://club.example/events/{event}/register#") and second != first
    store = SqliteFile(tmp_path / "riichi.sqlite3")
    try:
        assert store.event_of_registration(key_hash(first.split("#")[1])) is None
        assert store.event_of_registration(key_hash(second.split("#")[1])).id == event
    finally:
        store.close()
    assert _run(capsys, "link", "nope", *db)[2].strip() \
        == "riichi-server: no event nope: `riichi-server event list` shows the events"


def test_a_bad_event_says_what_to_change_in_one_line(tmp_path, capsys):
    db = ("--db", str(tmp_path / "riichi.sqlite3"))
    assert _run(capsys, "create", "--name", "x", "--rounds", "0", *db)[2].strip() \
        == "riichi-server: rounds: 0 is not 1 to 64"
    assert _run(capsys, "standings", "nope", *db)[2].strip() \
        == "riichi-server: no event nope: `riichi-server event list` shows the events"


@pytest.mark.server("--event-poll", "0.2", checked=True)
def test_a_round_started_from_the_command_is_opened_by_the_running_server(server, capsys):
    """"a round's tables must be opened by the running server (it owns the lobby)": the command
    writes them to the server's SQLite file, the server process polls for them and opens each
    (docs/events.md); `event tables` then shows them open."""
    db = ("--db", str(server.db))
    event = _run(capsys, "create", "--name", "Live cup", "--rounds", "1", *db)[1].strip()
    _run(capsys, "add", event, *(f"live{i}" for i in range(8)), *db)
    assert _run(capsys, "start-round", event, *db)[0] == 0
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        out = _run(capsys, "tables", event, *db)[1]
        if out.count(" open ") == 2:
            break
        time.sleep(0.2)
    assert out.count(" open ") == 2 and "pending" not in out, out


def test_extra_time_for_an_untimed_event_or_a_table_not_in_play_says_why(tmp_path, capsys):
    db = ("--db", str(tmp_path / "riichi.sqlite3"))
    untimed = _run(capsys, "create", "--name", "Untimed", "--rounds", "1", *db)[1].strip()
    assert _run(capsys, "extra-time", untimed, "--round", "1", "--table", "1", "--minutes", "5", *db)[2].strip() \
        == "riichi-server: the event is untimed (no --session-minutes): there is no clock to give time to"
    timed = _run(capsys, "create", "--name", "Timed", "--rounds", "1", "--session-minutes", "90", *db)[1].strip()
    _run(capsys, "add", timed, "ann", "bob", "cid", "dee", *db)
    _run(capsys, "start-round", timed, *db)
    assert _run(capsys, "extra-time", timed, "--round", "1", "--table", "2", "--minutes", "5", *db)[2].strip() \
        == f"riichi-server: round 1 has no table 2: `riichi-server event tables {timed}` shows them"
    assert _run(capsys, "extra-time", timed, "--round", "1", "--table", "1", "--minutes", "5", *db)[2].strip() \
        == ("riichi-server: table 1 of round 1 is pending, not in play: extra time is given to a table in play")
    assert "is not more than 0" in _run(capsys, "extra-time", timed, "--round", "1", "--table", "1", "--minutes",
                                        "0", *db)[2]
    header, row = _run(capsys, "tables", timed, *db)[1].splitlines()  # a timed event's: how each table ended
    assert header.split()[-1] == "ENDED" and row.split()[-1] == "-"


@pytest.mark.server("--event-poll", "0.2", checked=True)
def test_extra_time_from_the_command_is_given_by_the_server_that_runs_the_table(server, capsys):
    """"the organiser can give one table extra time": the command writes it to the database, the
    server process running the table takes it at its next poll, and the table's session is then
    that much longer, as a spectator of it is told; taken before the table's game has begun, it is
    kept with the table, so that the server killed then still has it when it comes back."""
    db = ("--db", str(server.db))
    event = _run(capsys, "create", "--name", "Timed cup", "--rounds", "1", "--session-minutes", "90", *db)[1].strip()
    _run(capsys, "add", event, "ann", "bob", "cid", "dee", *db)
    _run(capsys, "start-round", event, *db)
    with sqlite3.connect(server.db) as connection:
        _until(lambda: connection.execute("SELECT state FROM event_tables").fetchone()[0] == "open")
        status, out, _ = _run(capsys, "extra-time", event, "--round", "1", "--table", "1", "--minutes", "5", *db)
        assert status == 0 and out.startswith("table 1 of round 1: 5 minutes more")
        _until(lambda: connection.execute("SELECT extra_asked FROM event_tables").fetchone()[0] == 0)
        [watch] = connection.execute("SELECT watch_code FROM tables").fetchone()

    async def watched() -> dict:
        spectator = await Client.connect(server.url, "spectator")
        await spectator.send({"type": "watch", "code": watch})
        table = await recv(spectator, "table")
        await spectator.close()
        return table
    session = asyncio.run(watched())["session"]
    assert session["seconds"] == 95 * 60 and session["left_ms"] is None  # (the clock starts with the game)
    server.stop(signal.SIGKILL)  # lost before the game begins: the table comes back with its extra time
    server.start()
    assert asyncio.run(watched())["session"]["seconds"] == 95 * 60


def _until(check, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.1)
