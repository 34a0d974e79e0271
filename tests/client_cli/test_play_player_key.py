"""riichi-play's player key (issue 25): made once, kept in the config folder
($XDG_CONFIG_HOME/riichi-server/, which the tests point at a folder of the run's own) and
said in every hello; `--player-key` keeps a key a server issued; `--name` renames the player."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import pytest_asyncio
from websockets.asyncio.server import serve

from client_cli.play.app import parser, run
from protocol.messages import decode, encode

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def recording_server():
    """A server that welcomes each hello as the player "ann", then refuses the join: (url, the
    messages it was sent)."""
    said: list[dict] = []

    async def answer(ws):
        async for frame in ws:
            message = decode(frame)
            said.append(message)
            if message["type"] == "hello":
                await ws.send(encode({"type": "welcome", "version": 1, "session": "s", "resume": "r",
                                      "resumed": False, "player": {"id": "p1", "name": "ann"}}))
            elif message["type"] == "join":
                await ws.send(encode({"type": "error", "code": "no_table", "message": "no open table has that code"}))

    async with serve(answer, "127.0.0.1", 0) as listening:
        yield f"ws://127.0.0.1:{listening.sockets[0].getsockname()[1]}", said


def _kept() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "riichi-server" / "player-key"


async def test_one_key_is_made_kept_private_and_said_in_every_hello(recording_server, capsys):
    url, said = recording_server
    _kept().unlink(missing_ok=True)
    for _ in range(2):
        assert await run(parser().parse_args(["--server", url, "--join", "nope"])) == 1
    hellos = [m for m in said if m["type"] == "hello"]
    key = _kept().read_text().strip()
    assert len(hellos) == 2 and {h["player"] for h in hellos} == {key} and len(key) >= 16
    assert stat.S_IMODE(_kept().stat().st_mode) == 0o600
    assert not [m for m in said if m["type"] == "rename"]  # no --name: the player keeps its name


async def test_a_key_given_is_kept_and_a_name_given_renames_the_player(recording_server, capsys):
    url, said = recording_server
    issued = "an-issued-key-0123456789"
    assert await run(parser().parse_args(["--server", url, "--join", "nope", "--player-key", issued,
                                          "--name", "Ann S."])) == 1
    assert _kept().read_text().strip() == issued
    assert [m for m in said if m["type"] in ("hello", "rename")][-2:] == [
        {"type": "hello", "name": "Ann S.", "version": 1, "client": said[0]["client"], "player": issued},
        {"type": "rename", "name": "Ann S."}]
    assert await run(parser().parse_args(["--server", url, "--player-key", "short"])) == 2
    assert capsys.readouterr().err.strip().endswith(
        "riichi-play: --player-key: a player key is 16 to 128 printable characters (copy the one riichi-server"
        " players add printed)")
    assert _kept().read_text().strip() == issued  # a bad key given is not kept


async def test_a_server_that_requires_issued_keys_refuses_riichi_play_in_one_line(tmp_path, capsys):
    from tests.harness import InProcessServer

    server = await InProcessServer(tmp_path / "riichi.sqlite3", "--require-player-key").start_async()
    try:
        assert await run(parser().parse_args(["--server", server.url, "--join", "nope"])) == 1
    finally:
        await server.stop_async()
    assert capsys.readouterr().err.strip() == (
        "riichi-play: the server refused us: this server admits only the players it knows, and not this player key:"
        " open the link its operator gave you (riichi-server players add NAME); give the key it printed: riichi-play"
        " --player-key KEY")
