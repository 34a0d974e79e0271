"""A page whose server goes silent (issue 24, "A paused (not dead) table node freezes its
game"): the server process is stopped (SIGSTOP) while the game waits for the page's player,
so nothing comes and nothing is closed.  The page's heartbeat (web/src/connection.ts: a
`ping` after 2 s of silence, the connection dropped after 4 s) notices, says it is
reconnecting, and once the server answers again the page is back at its seat and plays on.
A browser cannot send websocket pings: this is the protocol's own `ping`."""

from __future__ import annotations

import signal

from selenium.webdriver.common.by import By

from tests.web.browser import WebPlayer, create_table


def test_a_page_notices_a_silent_server_and_is_back_at_its_seat_once_it_answers(server, browsers):
    page = browsers()
    create_table(page, server.port, "alice", bots=3)
    alice = WebPlayer(page)
    alice.until(lambda s: s["screen"] == "waiting", 20, "the waiting room")
    page.find_element(By.ID, "ready").click()
    before = alice.until(lambda s: s["screen"] == "table" and s["mode"] == "discard", 30, "alice's turn")
    server.proc.send_signal(signal.SIGSTOP)  # no clock: the table waits for alice, so it says nothing anyway
    try:
        alice.until(lambda s: "reconnect" in s["status"] or "reach" in s["status"], 12,
                    "the page saying it is cut off while the server is stopped")
    finally:
        server.proc.send_signal(signal.SIGCONT)
    back = alice.until(lambda s: s["mode"] == "discard" and "back" in s["status"], 30, "alice back at her seat")
    assert [t["tile"] for t in back["hand"]] == [t["tile"] for t in before["hand"]]
    alice.step(back)
    alice.until(lambda s: s["decision"] != back["decision"] or s["mode"] != "discard", 15, "her discard made")
