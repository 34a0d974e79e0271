"""A player in a real browser (headless Chromium) plays whole hands against three bots of a
real riichi-server process, by clicking alone: discards, a call, riichi, a win or a draw,
and each hand's result in its dialog.  The page is the only way in: the test reads the DOM
and clicks, as a person would."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from protocol.yaku import yaku_names
from tests.web.browser import WebPlayer, create_table


def test_a_player_in_the_browser_plays_whole_hands_against_three_bots_by_clicking(server, browsers):
    browser = browsers()
    # with a clock, so that the table holds the next hand while a result is open (PROTOCOL.md
    # "Between hands"): without one a hand a bot ended right after our riichi gave way to the
    # next before the riichi discard could be read from our pond
    create_table(browser, server.port, "alice", clock="10,60")
    player = WebPlayer(browser)  # the mouse
    player.until(lambda s: s["screen"] == "waiting", what="the waiting room")
    seats = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "#seats tr")]
    assert len(seats) == 4 and "alice" in seats[0] and all("bot" in row for row in seats[1:])
    browser.find_element(By.ID, "ready").click()
    player.until(lambda s: s["screen"] == "table" and s["hand"], what="the table")
    # a call: the meld is drawn with the called tile turned, and says whom it came from (each pon or
    # chi offered is taken until one is made: a chi loses to a bot's pon of the same tile)
    player.calls = lambda state: state["melds"] == 0
    player.riichi_wanted = False  # (the riichi is the next part's: not one from a hand before the call)
    player.play(lambda s, p: bool(p.calls) and s["melds"] == 1)
    player.calls = lambda state: False
    player.riichi_wanted = True
    meld = player.until(lambda s: s["melds"] == 1, 10, "our meld")
    caption = browser.find_element(By.CSS_SELECTOR, "#my-melds .meld .meld-caption").text
    assert caption.split()[0] in ("pon", "chi") and " from " in caption
    assert len(browser.find_elements(By.CSS_SELECTOR, "#my-melds .meld .tile.sideways")) == 1
    assert len(meld["hand"]) in (11, 10)

    # riichi (in a closed hand): the riichi discard lies turned in our pond, and we are marked
    player.play(lambda s, p: bool(p.riichi))
    turned = ".seat.pos-bottom .pond .tile.sideways.riichi-tile"
    player.until(lambda s: browser.find_elements(By.CSS_SELECTOR, turned), 10, "the riichi discard in our pond")
    assert len(browser.find_elements(By.CSS_SELECTOR, turned)) == 1
    assert browser.find_elements(By.CSS_SELECTOR, ".seat.pos-bottom .badge.riichi")

    # that hand's end: a win or a draw, shown in the result dialog with everyone's change
    riichi_hand = player.played.riichi_at
    state = player.play(lambda s, p: s["dialog"] == "hand" and len(p.results) == riichi_hand)
    assert state["result"] in ("win", "exhaustive_draw", "abortive_draw")
    deltas = browser.find_elements(By.CSS_SELECTOR, "#result .deltas tr")
    assert len(deltas) == 4 and "alice" in deltas[0].text
    if state["result"] == "win":
        rows = browser.find_elements(By.CSS_SELECTOR, "#result .yaku tr td:first-child")
        assert rows and all(r.text in set(yaku_names().values()) | {"Dora"} for r in rows), [r.text for r in rows]
        assert "points" in browser.find_element(By.CSS_SELECTOR, "#result .points").text
    player.step(state)  # Continue
    player.until(lambda s: not s["dialog"], 10, "the dialog closed")
    played = player.played
    assert played.discards > 10 and played.passes >= 0
