"""The web client's bar shows a timed table's session clock (docs/events.md 'The session clock';
issue 27, "the session clock counts down on every table"): a spectator's page, by the watch
link, counts the time left down, then says the time is up and that the hand in play is the last."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from protocol.client import Client
from server.table.session import Session
from server.table.spec import SeatSpec, TableSpec
from tests.clients import recv

SESSION = 12.0  # seconds: the page is up well before the end, on a loaded machine too
CLOCK = "const c = document.getElementById('session-clock'); return c.hidden ? '' : c.textContent;"


async def _text_until(browser, check, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while True:
        text = await asyncio.to_thread(browser.execute_script, CLOCK)
        if check(text) or time.monotonic() > deadline:
            return text
        await asyncio.sleep(0.1)


@pytest.mark.asyncio
async def test_a_spectators_bar_counts_the_session_down_then_says_the_time_is_up(in_process_server, browsers):
    browser = browsers()
    spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.open(), *(SeatSpec.bot(),) * 3), session=Session(SESSION))
    table = in_process_server.app.lobby.open_table(spec)
    player = await Client.connect(in_process_server.url, "player")  # never answers: the hand stays in play
    try:
        await asyncio.to_thread(browser.get, f"http://127.0.0.1:{in_process_server.port}/watch/{table.watch}")
        await player.send({"type": "join", "code": table.invite})
        await player.send({"type": "ready"})
        await recv(player, "offer")
        counting = await _text_until(browser, lambda t: t.startswith("session:"), SESSION * 3 / 4)
        assert re.fullmatch(r"session: 0:(0\d|1[0-2]) left", counting), counting
        up = await _text_until(browser, lambda t: t.startswith("time is up"), SESSION * 2)
        assert up == "time is up: this hand is the last"
    finally:
        await player.close()
