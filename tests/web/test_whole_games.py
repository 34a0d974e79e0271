"""Slow (`-m slow`): the mouse, a phone's touch screen and the keyboard each play a whole game
in the browser against three bots of a real riichi-server process, to the final standings;
and a page whose server stays away says, after 30 s of trying, that it seems gone."""

from __future__ import annotations

import signal

import pytest

from tests.web.browser import LAPTOP, PHONE, WebPlayer, create_table, page_errors

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("via", ["mouse", "touch", "keys"])
def test_a_whole_game_is_played_in_the_browser_by(via, server, browsers):
    browser = browsers(PHONE if via == "touch" else LAPTOP, touch=via == "touch")
    create_table(browser, server.port, "alice", strategy="shanten", rules="ema2016")
    player = WebPlayer(browser, via=via)
    player.until(lambda s: s["screen"] == "waiting")
    if via == "keys":
        player.key("g")
    else:
        player.press("#ready")
    player.calls = lambda state: len(player.played.results) % 2 == 0  # calls in every other hand
    state = player.play(lambda s, p: s["dialog"] == "final", timeout=1500)
    standings = browser.find_elements("css selector", "#result .standings tbody tr")
    assert len(standings) == 4 and any("alice" in row.text for row in standings)
    played = player.played
    assert len(played.results) >= 4 and played.discards > 40
    assert state["dialog"] == "final" and page_errors(browser) == []


def test_a_page_whose_server_stays_away_says_it_seems_gone_and_keeps_trying(server, browsers):
    browser = browsers()
    create_table(browser, server.port, "alice")
    page = WebPlayer(browser)
    page.until(lambda s: s["screen"] == "waiting")
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(10)
    page.until(lambda s: "reconnecting" in s["status"] or "trying again" in s["status"], 15, "cut off")
    state = page.until(lambda s: "seems gone" in s["status"], 60, "the server seems gone")
    assert "still trying" in state["status"] and "comes back by itself" in state["notice"]
    server.start()
    page.until(lambda s: s["screen"] == "waiting" and ("back" in s["status"] or "connected" in s["status"]), 30,
               "back")
