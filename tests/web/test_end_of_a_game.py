"""A whole game in the browser with the comforts on, to its final screen and from there to the
lobby (issue 24): a short game (East only, three random bots, no clock) where the page itself
passes every call offered (no calls), takes every win (auto-win) and discards the drawn tile
whenever nothing but a discard is offered (discard drawn); the final standings are labelled,
the game's record is a link that downloads it, and the toggles are kept by the browser.
The one end-to-end proof of these items: kept as short as a game can be (about 10 s each).
Then a rematch from the final screen, by its key: the page is at the new table's waiting room,
the bots in their seats, and its game starts afresh."""

from __future__ import annotations

import json
import re
import urllib.request

from tests.web.browser import WebPlayer, create_table, page_errors, played_to_the_final_screen

TOGGLES = """
return Object.fromEntries(Array.from(document.querySelectorAll('#comforts [data-comfort]'))
  .map((b) => [b.dataset.comfort, b.getAttribute('aria-pressed')]));
"""
ANSWERED = """
const bar = document.getElementById('comforts');
return {noCalls: Number(bar.dataset.answeredNocalls || 0), autoWin: Number(bar.dataset.answeredAutowin || 0),
        discardDrawn: Number(bar.dataset.answeredDiscarddrawn || 0)};
"""


def test_a_game_played_with_the_three_comforts_on_ends_on_a_final_screen_that_leads_to_the_lobby(server, browsers):
    browser = browsers()
    create_table(browser, server.port, "alice", strategy="random", rules="ema2016", length="1")
    player = WebPlayer(browser)
    player.until(lambda s: s["screen"] == "waiting")
    player.press("#ready")
    player.until(lambda s: s["screen"] == "table")
    assert set(browser.execute_script(TOGGLES).values()) == {"false"}  # all off at the first visit
    player.press('#comforts [data-comfort="noCalls"]')
    player.press('#comforts [data-comfort="autoWin"]')
    player.key("d")  # discard drawn, by its key
    player.press('#comforts [data-comfort="sound"]')
    assert set(browser.execute_script(TOGGLES).values()) == {"true"}

    state = player.play(lambda s, p: s["dialog"] == "final", timeout=600)
    answered = browser.execute_script(ANSWERED)
    assert answered["discardDrawn"] > 10 and answered["noCalls"] > 0, answered
    # every call window the page left to the player offered a ron, which auto-win took: the
    # player never passed, and never had to take a win itself
    assert player.played.passes == 0 and player.played.wins == 0, (player.played, answered)

    heads = [th.text for th in browser.find_elements("css selector", "#result .standings th")]
    assert heads == ["place", "player", "points", "uma", "result"]
    assert len(browser.find_elements("css selector", "#result .standings tbody tr")) == 4
    link = browser.find_element("css selector", "#result #record-tenhou6").get_attribute("href")
    game = int(re.search(r"/api/games/(\d+)/tenhou6$", link)[1])
    with urllib.request.urlopen(link, timeout=10) as answer:
        assert json.loads(answer.read())["name"] == ["alice", "random-bot-1", "random-bot-2", "random-bot-3"]
    assert browser.find_element("css selector", "#result #record-mjai").get_attribute("href").endswith(
        f"/api/games/{game}/mjai")

    player.close_dialog()  # the way forward stays, under the table
    player.until(lambda s: s["dialog"] == "", 5, "the final dialog closed")
    assert browser.find_element("css selector", "#final-bar #final-lobby").is_displayed()
    player.press("#final-bar #final-lobby")
    state = player.until(lambda s: s["screen"] == "lobby", 5, "the lobby")
    assert "over" not in state["status"]
    browser.refresh()  # the toggles are the browser's: kept
    player.until(lambda s: s["screen"] == "lobby", 10, "the lobby again")
    assert set(browser.execute_script(TOGGLES).values()) == {"true"}
    assert page_errors(browser) == []


SEATS = """
return Array.from(document.querySelectorAll('#seats tr')).map((r) => r.textContent);
"""


def test_the_final_screens_rematch_seats_us_at_a_new_table_with_the_same_bots_and_its_game_starts_afresh(
        server, browsers):
    browser = browsers()
    player = played_to_the_final_screen(browser, server.port, "alice", "ema2016")
    first = browser.find_element("css selector", "#record-tenhou6").get_attribute("href")
    player.key("r")  # Rematch, from the final dialog
    player.until(lambda s: s["screen"] == "waiting" and s["dialog"] == "", 10, "the rematch's waiting room")
    seats = browser.execute_script(SEATS)
    assert "alice" in seats[0] and "host" in seats[0]
    assert [("random-bot-%d" % i) in seats[i] for i in (1, 2, 3)] == [True, True, True], seats
    assert browser.current_url.endswith("/") and "/join/" not in browser.current_url
    player.press("#ready")
    state = player.until(lambda s: s["screen"] == "table" and len(s["hand"]) >= 13, 15, "the new game")
    fresh = browser.execute_script("return [document.querySelector('#center .round').textContent,"
                                   " document.getElementById('final-bar').hidden]")
    assert fresh == ["East 1", True] and state["dialog"] == "" and "over" not in state["status"], (fresh, state)
    player.play(lambda s, p: s["dialog"] == "final", timeout=600)  # the new game is played to its own end
    assert browser.find_element("css selector", "#record-tenhou6").get_attribute("href") != first
    assert page_errors(browser) == []
