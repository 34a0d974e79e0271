"""riichi-bot against a real riichi-server process: new tables filled with bots, bots
joining a table with its invite code, and its errors (bad code, server down, no mode)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.client import Client
from server.store import SqliteFile

pytestmark = pytest.mark.server(checked=True)  # the test fails if the server logged an error

RIICHI_BOT = Path(sys.executable).parent / "riichi-bot"


def riichi_bot(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(RIICHI_BOT), *args], capture_output=True, text=True, timeout=timeout)


def finished_games(server) -> dict[int, list[str]]:
    store = SqliteFile(server.db)
    try:
        return {g.id: g.names for g in store.games(finished=True)}
    finally:
        store.close()


def test_new_table_plays_n_games_one_table_after_another_and_prints_each_game_id(server):
    out = riichi_bot("--server", server.url, "--new-table", "--rules", "tenhou", "--games", "2")
    assert out.returncode == 0, out.stderr
    ids = [int(line) for line in out.stdout.split()]
    games = finished_games(server)
    assert len(ids) == 2 and set(ids) == set(games)
    assert all(names == ["builtin-1", "builtin-2", "builtin-3", "builtin-4"] for names in games.values())
    assert out.stderr.count("1. seat") == 2


def test_new_table_with_fewer_bots_fills_the_other_seats_with_server_bots(server):
    out = riichi_bot("--server", server.url, "--new-table", "--count", "2", "--strategy", "random", "--seed", "4",
                     "--server-strategy", "builtin")
    assert out.returncode == 0, out.stderr
    (game,) = [int(line) for line in out.stdout.split()]
    names = finished_games(server)[game]
    assert names[0] == "random-1" and "random-2" in names and sum("builtin-bot-" in n for n in names) == 2
    out = riichi_bot("--server", server.url, "--new-table", "--count", "3", "--server-strategy", "nope")
    assert out.returncode == 2 and "bad_strategy: unknown bot 'nope'" in out.stderr


@pytest.mark.asyncio
async def test_bots_join_a_table_with_its_invite_code_and_play_it_to_the_end(server):
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "ema2016"})
    table = await host.recv()
    while table["type"] != "table":
        table = await host.recv()
    proc = await asyncio.create_subprocess_exec(str(RIICHI_BOT), "--server", server.url, "--code", table["invite"],
                                                "--count", "3", stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    await host.send({"type": "ready"})
    result = None
    while result is None:  # the host plays too: the first discard offered, passes on calls
        message = await asyncio.wait_for(host.recv(), 30)
        if message["type"] == "offer":
            actions = message["actions"]
            action = next((a for a in actions if a["type"] in ("pass", "discard")), actions[0])
            await host.send({"type": "act", "decision": message["decision"], "action": action})
        elif message["type"] == "event" and message["event"]["type"] == "hand_end":
            await host.send({"type": "result_closed"})  # read at once, as a client does (no pause between hands)
        elif message["type"] == "result":
            result = message
    await host.close()
    stdout, stderr = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, stderr.decode()
    assert stdout.decode().split() == [str(result["game"])]
    assert finished_games(server)[result["game"]] == ["host", "builtin-1", "builtin-2", "builtin-3"]


def test_a_bad_invite_code_is_a_clear_error(server):
    out = riichi_bot("--server", server.url, "--code", "not-a-code")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == "riichi-bot: no_table: no open table has that invite code"


def test_a_server_that_is_not_there_is_a_clear_error():
    out = riichi_bot("--server", "ws://127.0.0.1:1", "--new-table", timeout=30)
    assert out.returncode == 2
    assert "cannot connect to ws://127.0.0.1:1: connection refused (is riichi-server running there?)" in out.stderr


def test_help_and_usage_errors():
    out = riichi_bot("--help", timeout=30)
    assert out.returncode == 0 and "--new-table" in out.stdout and "--code" in out.stdout and "--mjai" in out.stdout
    out = riichi_bot(timeout=30)
    assert out.returncode == 2 and "one of the arguments --code --new-table --ladder is required" in out.stderr
    out = riichi_bot("--new-table", "--count", "5", timeout=30)
    assert out.returncode == 2 and "--count is 1-4" in out.stderr
    out = riichi_bot("--code", "x", "--count", "2", "--seat", "1", timeout=30)
    assert out.returncode == 2 and "--seat goes with --code and one bot" in out.stderr


async def _table_message(client: Client) -> dict:
    while True:
        message = await asyncio.wait_for(client.recv(), 30)
        if message["type"] == "table":
            return message


async def _seats_settle(host: Client, want) -> dict:
    """The table broadcasts until `want(table)` holds."""
    while True:
        table = await _table_message(host)
        if want(table):
            return table


@pytest.mark.asyncio
async def test_more_bots_than_seats_left_is_one_line_and_no_seat_is_left_taken(server):
    """riichi-bot --code CODE --count 3 at a table with one seat left took it, failed with
    table_full and left it abandoned (shown as away); now it reads the seats the `table`
    message offers, says how many were free, and gives back the seat it took."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "ema2016"})
    table = await _table_message(host)
    others = []
    for name in ("ann", "bob"):
        other = await Client.connect(server.url, name)
        await other.send({"type": "join", "code": table["invite"]})
        await _table_message(other)
        others.append(other)
    await _seats_settle(host, lambda t: t["seats"][1] is not None and t["seats"][2] is not None)
    proc = await asyncio.create_subprocess_exec(str(RIICHI_BOT), "--server", server.url, "--code", table["invite"],
                                                "--count", "3", stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    stdout, stderr = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 2 and stdout == b""
    assert stderr.decode().splitlines() == [
        "riichi-bot: table_full: the table has 1 seat free (a seat of the server's bots counts before the game) "
        "and --count asks for 3; no seat was kept"]
    # the bot that took seat 3 gave it back: free again, not held for an absent player
    table = await _seats_settle(host, lambda t: t["seats"][3] is None)
    assert [s and s["name"] for s in table["seats"]] == ["host", "ann", "bob", None]
    for client in (host, *others):
        await client.close()


@pytest.mark.asyncio
async def test_a_bot_stopped_before_the_game_gives_its_seat_back(server):
    """When a later bot of the same run fails, _gather cancels the ones seated: they leave."""
    from client_cli.bot.sdk import Bot, play

    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "ema2016"})
    table = await _table_message(host)
    task = asyncio.create_task(play(Bot(), server.url, code=table["invite"]))
    await _seats_settle(host, lambda t: t["seats"][1] is not None)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    table = await _seats_settle(host, lambda t: t["seats"][1] is None or not t["seats"][1]["connected"])
    assert table["seats"][1] is None, f"the seat was left taken: {table['seats'][1]}"
    await host.close()
