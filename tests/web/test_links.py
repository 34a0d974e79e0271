"""riichi-play and riichi-bot print the web client's links, which riichi-server serves:
`http://HOST:PORT/join/INVITE` and `http://HOST:PORT/watch/WATCH` for a server at
`ws://HOST:PORT` (protocol/links.py)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from client_cli.play.game_app import PlayApp
from protocol.links import join_link, watch_link
from tests.client_cli.screens import StandIn, seat, until, waiting

RIICHI_BOT = Path(sys.executable).parent / "riichi-bot"


def test_the_links_follow_the_servers_address():
    assert join_link("ws://127.0.0.1:8765", "Abc-123") == "http://127.0.0.1:8765/join/Abc-123"
    assert watch_link("wss://mahjong.example:443/", "W_9") == "https://mahjong.example:443/watch/W_9"


@pytest.mark.asyncio
async def test_the_hosts_waiting_screen_in_riichi_play_shows_both_links_for_a_browser():
    conn = StandIn()
    conn.url = "ws://192.168.1.5:8765"
    app = PlayApp(conn)
    async with app.run_test(size=(150, 40)) as pilot:
        conn.queue.put_nowait(waiting(0, [seat("host", host=True), None, None, None], host_codes=True))
        await until(pilot, lambda: app.pane == "waiting", "the waiting table")
        codes = str(app.query_one("#codes").render())
        assert "http://192.168.1.5:8765/join/INVITE" in codes and "http://192.168.1.5:8765/watch/WATCH" in codes


def test_riichi_bot_new_table_prints_a_watch_link_that_opens_the_page(server):
    out = subprocess.run([str(RIICHI_BOT), "--server", server.url, "--new-table", "--rules", "tenhou"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    found = re.findall(r"^riichi-bot: watch in a browser: (http://\S+)$", out.stderr, re.M)
    assert len(found) == 1 and found[0].startswith(f"http://127.0.0.1:{server.port}/watch/")
    with urllib.request.urlopen(found[0], timeout=5) as page:
        assert page.status == 200 and b'<script src="/app.js"' in page.read()


def test_the_readmes_first_command_prints_a_link_that_opens_the_lobby(tmp_path):
    """`scripts/run.sh --web` (the README's first line): set-up, a local server, and its link."""
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(["bash", str(repo / "scripts" / "run.sh"), "--web"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=repo,
                            env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},  # its games: not in the user's
                            # Ctrl+C as at a terminal: a shell cannot trap a SIGINT it was started ignoring
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = proc.stdout.readline()
        found = re.fullmatch(r"Open (http://127\.0\.0\.1:\d+/) in a browser to play \(Ctrl\+C stops the server\)\.\n",
                             line)
        assert found, line
        for _ in range(300):  # the server starts after the line is printed
            try:
                with urllib.request.urlopen(found[1], timeout=2) as page:
                    assert page.status == 200 and b"Create a table" in page.read()
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the printed link did not open")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
