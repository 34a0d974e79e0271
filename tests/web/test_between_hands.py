"""Between hands in a real browser: closing a hand's result dialog sends `result_closed`, and
the server starts the next hand then, not when its pause between hands runs out (it logs
`result_not_closed` when it does)."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By

from tests.web.browser import WebPlayer, create_table, received_frames


def test_closing_a_hands_result_in_the_browser_starts_the_next_hand(server, browsers):
    browser = browsers(frames=True)
    create_table(browser, server.port, "alice", clock="5,20")  # the page's clock: a pause of 15 s between hands
    player = WebPlayer(browser)
    player.until(lambda s: s["screen"] == "waiting", what="the waiting room")
    browser.find_element(By.ID, "ready").click()
    state = player.play(lambda s, p: s["dialog"] == "hand")
    received_frames(browser, sent=True)  # (what the page sent before the result)
    player.step(state)  # Continue
    player.play(lambda s, p: s["mode"] in ("discard", "call"))  # an offer of the next hand
    sent = [frame["type"] for frame in received_frames(browser, sent=True)]
    assert sent[:1] == ["result_closed"], sent
    waited = [json.loads(line) for line in server.log_text().splitlines() if "result_not_closed" in line]
    assert waited == []  # the hand began when the result was closed, not 15 s after it ended
