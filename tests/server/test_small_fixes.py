"""Small things, through a real server process: seat numbers out of range, /status with a
query string, names with control characters, the command line's one-line errors, and a
client that says it is a bot."""

import json
import socket
import subprocess
import urllib.request

import pytest

from protocol.client import Client
from tests.clients import recv
from tests.harness import SERVER

pytestmark = pytest.mark.server(shared=True)  # one server for the module (a test that stops it has its own)


@pytest.mark.asyncio
async def test_join_with_a_seat_outside_0_to_3_answers_bad_seat(server):
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table"})
    table = await recv(host, "table")
    guest = await Client.connect(server.url, "guest")
    for seat in (7, -1):
        await guest.send({"type": "join", "code": table["invite"], "seat": seat})
        refused = await recv(guest, "error")
        assert refused["code"] == "bad_seat" and "0-3" in refused["message"]
    await host.close()
    await guest.close()


@pytest.mark.asyncio
async def test_status_and_healthz_ignore_a_query_string(server):
    for path in ("/status?x=1", "/healthz?probe=1"):
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=2) as r:
            assert r.status == 200
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/status?x=1", timeout=2) as r:
        assert json.loads(r.read())["ok"] is True


@pytest.mark.asyncio
async def test_control_characters_are_stripped_from_player_names(server):
    host = await Client.connect(server.url, "a\x1b[31mb\nc\u200bd\x00\u2028")
    await host.send({"type": "create_table"})
    table = await recv(host, "table")
    assert table["seats"][0]["name"] == "a[31mbcd"
    only = await Client.connect(server.url, "\x07\x1b")
    await only.send({"type": "create_table"})
    assert (await recv(only, "table"))["seats"][0]["name"] == "player"
    await host.close()
    await only.close()


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SERVER), *args], capture_output=True, text=True, timeout=30)


def one_line_error(out: subprocess.CompletedProcess, *words: str) -> None:
    assert out.returncode == 1
    assert out.stderr.startswith("riichi-server: ") and out.stderr.count("\n") == 1, out.stderr
    assert "Traceback" not in out.stderr and all(w in out.stderr for w in words), out.stderr


def test_the_server_command_fails_in_one_line_when_it_cannot_start(tmp_path):
    db = str(tmp_path / "riichi.sqlite3")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        one_line_error(run("--port", str(taken.getsockname()[1]), "--db", db), "cannot listen", "in use")
    one_line_error(run("--port", "99999", "--db", db), "99999", "out of range")
    one_line_error(run("--port", "0", "--db", str(tmp_path / "missing" / "riichi.sqlite3")), "does not exist")
    one_line_error(run("--host", "192.0.2.1", "--port", "0", "--db", db), "cannot listen", "192.0.2.1")


def test_read_only_commands_refuse_a_database_file_that_does_not_exist(tmp_path):
    missing = tmp_path / "doesnotexist.sqlite3"
    one_line_error(run("games", "--db", str(missing)), "no such database file")
    one_line_error(run("export", "1", "--db", str(missing)), "no such database file")
    assert not missing.exists()


@pytest.mark.asyncio
async def test_a_client_that_says_it_is_a_bot_shows_as_a_program_in_its_seat(server):
    """hello's `bot`: a seat played by a program over the protocol is `human` to the server
    (it answers its own offers) but everyone sees `program`, also after it resumes."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    table = await recv(host, "table")
    bot = await Client.connect(server.url, "my-bot", bot=True)
    await bot.send({"type": "join", "code": table["invite"]})
    seats = (await recv(bot, "table"))["seats"]
    assert seats[0]["program"] is False and seats[1]["program"] is True and seats[1]["kind"] == "human"
    seen = await recv(host, "table")
    while seen["seats"][1] is None:
        seen = await recv(host, "table")
    assert seen["seats"][1]["program"] is True
    token = bot.resume_token
    await bot.close()
    bot = await Client.connect(server.url, "my-bot", resume=token, bot=True)
    assert bot.welcome["resumed"] is True
    assert (await recv(bot, "table"))["seats"][1]["program"] is True
    await host.close()
    await bot.close()
