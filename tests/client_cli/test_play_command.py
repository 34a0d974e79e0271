"""riichi-play as a command: what it checks before it connects, its one-line errors and exit
statuses, run as a process (in a pseudo-terminal where it needs one) against a real server."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import subprocess
import sys
import time

import pytest
import pytest_asyncio

from client_cli.play.local import free_port
from client_cli.play.sessions import SessionFile
from protocol.client import Client
from tests.client_cli.screens import StandIn, until

pytestmark = pytest.mark.server(shared=True)  # one server for the module (a test that stops it has its own)

RUN = [sys.executable, "-m", "client_cli.play.app"]
NEEDS_A_TERMINAL = "riichi-play: it needs a terminal (run it in one, or under tmux)"


def run_in_terminal(args: list[str], env: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, str]:
    """Run `args` with a pseudo-terminal for its standard input, output and error (as in a
    terminal window); returns its exit status and everything it wrote there."""
    master, slave = pty.openpty()
    process = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                process.kill()
                raise AssertionError(f"{args} did not end: {out!r}")
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # EIO: every copy of the terminal's other side is closed
                    break
                if not chunk:
                    break
                out += chunk
        return process.wait(10), out.decode(errors="replace").replace("\r\n", "\n")
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()


def test_the_command_says_what_is_wrong_and_exits_1(server):
    status, out = run_in_terminal([*RUN, "--server", server.url, "--join", "nope"])
    assert status == 1 and out.strip() == "riichi-play: no open table has that invite code (no_table)"
    status, out = run_in_terminal([*RUN, "--server", f"ws://127.0.0.1:{free_port()}"])
    assert status == 1 and "cannot reach the server" in out
    usage = subprocess.run([*RUN, "--help"], capture_output=True, text=True, timeout=30)
    assert usage.returncode == 0 and "--join CODE" in usage.stdout and "ws://127.0.0.1:8765" in usage.stdout


@pytest.mark.asyncio
async def test_without_a_terminal_resume_says_so_before_it_takes_the_seat_over(server, tmp_path):
    """`--resume </dev/null` used to resume first, which closed the live client's connection."""
    player = await Client.connect(server.url, "alice")
    await player.send({"type": "create_table", "clock": {"none": True}})
    table = await asyncio.wait_for(player.recv(), 5)
    assert table["type"] == "table"
    state = tmp_path / "sessions.json"
    SessionFile(state).save(server.url, player.resume_token, "alice", table["table"])
    env = {**os.environ, "RIICHI_PLAY_STATE": str(state)}
    for args in (["--resume"], ["--join", table["invite"]], ["--create"]):
        result = await asyncio.to_thread(subprocess.run, [*RUN, "--server", server.url, *args], env=env,
                                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        assert result.returncode == 2 and result.stderr.strip() == NEEDS_A_TERMINAL, result
        await player.send({"type": "ping", "id": args[0]})
        while True:  # still connected, never told that another connection took the seat
            message = await asyncio.wait_for(player.recv(), 5)
            assert message["type"] != "bye", message
            assert message["type"] != "table" or message["seats"][1] is None, message  # nobody joined
            if message["type"] == "pong" and message.get("id") == args[0]:
                break
        assert result.stdout == ""  # nor the invite code of a table it created
    await player.close()


@pytest.mark.asyncio
async def test_join_with_a_watch_code_says_it_is_one_and_gives_the_watch_command(server):
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "clock": {"none": True}})
    table = await asyncio.wait_for(host.recv(), 5)
    watch = table["watch"]
    status, out = await asyncio.to_thread(run_in_terminal, [*RUN, "--server", server.url, "--join", watch])
    said = (f"riichi-play: that is a watch code, not an invite code: watch the table with riichi-play"
            f" --server {server.url} {'--watch=' if watch.startswith('-') else '--watch '}{watch}")
    assert status == 1 and out.strip() == said, out
    await host.close()


@pytest.mark.parametrize("args, said", [
    (["--server", "ws://127.0.0.1:99999", "--join", "x"],
     "--server ws://127.0.0.1:99999: port out of range 0-65535 (use ws://HOST:PORT)"),
    (["--server", "http://127.0.0.1:8765"], "--server http://127.0.0.1:8765: not a websocket address (use ws://HOST:PORT)"),
    (["--local", "--port", "99999"], "--port 99999: a port is 1-65535 (or 0: 8765 if free, else any free one)"),
    (["--local", "--port", "-1", "--bots", "3"], "--port -1: a port is 1-65535 (or 0: 8765 if free, else any free one)"),
])
def test_a_port_out_of_range_is_one_line_not_a_traceback(args, said):
    status, out = run_in_terminal([*RUN, *args])
    assert status == 2 and out.strip() == f"riichi-play: {said}", out


@pytest.mark.asyncio
async def test_the_connection_says_what_is_wrong_with_an_address():
    from client_cli.play.connection import Connection, ConnectError

    with pytest.raises(ConnectError, match=r"^cannot reach the server at ws://h:70000: port out of range"):
        await Connection("ws://h:70000", "alice").open()


SEAT_LOST = "the host gave your seat to a bot while you were away"


@pytest_asyncio.fixture
async def seat_lost_server():
    """A server that answers every hello as one whose resume token holds nothing any more:
    `welcome {resumed: false}`, then `error seat_lost` (PROTOCOL.md, Reconnecting)."""
    from websockets.asyncio.server import serve

    from protocol.messages import encode

    async def answer(ws):
        await ws.recv()
        await ws.send(encode({"type": "welcome", "version": 1, "session": "s", "resume": "new", "resumed": False}))
        await ws.send(encode({"type": "error", "code": "seat_lost", "message": SEAT_LOST}))
        await ws.wait_closed()

    async with serve(answer, "127.0.0.1", 0) as listening:
        yield f"ws://127.0.0.1:{listening.sockets[0].getsockname()[1]}"


@pytest.mark.asyncio
async def test_resume_of_a_lost_seat_says_why_and_forgets_it(seat_lost_server, tmp_path, monkeypatch, capsys):
    from client_cli.play.app import parser, run

    state = tmp_path / "sessions.json"
    monkeypatch.setenv("RIICHI_PLAY_STATE", str(state))
    SessionFile(state).save(seat_lost_server, "old-token", "alice", "t1")
    SessionFile(state).save("ws://elsewhere:1", "other-token", "alice", "t2")
    status = await run(parser().parse_args(["--server", seat_lost_server, "--resume"]))
    assert status == 1
    assert capsys.readouterr().err.strip() == f"riichi-play: the server no longer holds that seat: {SEAT_LOST}"
    assert SessionFile(state).seats(seat_lost_server) == []  # the stale entry is dropped
    assert SessionFile(state).seats("ws://elsewhere:1") != []  # and only it


@pytest.mark.asyncio
async def test_a_seat_lost_on_reconnecting_is_shown_and_forgotten(tmp_path):
    from client_cli.play.game_app import PlayApp
        
    state = SessionFile(tmp_path / "sessions.json")
    conn = StandIn()
    state.save(conn.url, "token", "alice", "t1")
    app = PlayApp(conn, sessions=state)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        conn.queue.put_nowait({"type": "_status", "up": True, "text": "reconnected",
                               "welcome": {"type": "welcome", "resumed": False}})
        conn.queue.put_nowait({"type": "error", "code": "seat_lost", "message": SEAT_LOST})
        await until(pilot, lambda: app.handled == 2, "the messages")
        assert any(SEAT_LOST in n.message for n in app._notifications)
        assert SEAT_LOST in str(app.query_one("#status").render())
        assert state.seats(conn.url) == []
