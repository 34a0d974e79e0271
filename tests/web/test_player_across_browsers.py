"""Issue 25's done-when, in browsers: "a player seen in two games from two browsers has one page
with both".  A player is issued by `riichi-server players add` (a real process); its printed
link gives two browsers (two Chromium processes, each with its own profile) its key; each plays
a short game to its end from the page; then the lobby's link leads to the player's own page,
which lists both games, each linked to its replay, and one of those links opens the replay.
The lobby's standings link lists the player, and the server's pages lead back to the lobby.
On the way, each seat's name links its player's page, and a click on one opens it in a new
tab while the game plays on.

A whole game from a browser is kept short as test_end_of_a_game.py keeps it: East only, three
random bots, no clock, and the page's comforts on (no calls, auto-win, discard drawn), so the
page plays most of its seat by itself; WebPlayer (tests/web/browser.py) clicks the rest (a
riichi, a discard after a call, each hand's result closed).  A few seconds a game: the whole
test took 12-18 s here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.web.browser import WebPlayer, comforts_on, create_table, page_errors

SERVER = Path(sys.executable).parent / "riichi-server"

# Each seat's name as the table draws it: its link (null: plain text), and how the link opens.
SEAT_NAMES = """
return Array.from(document.querySelectorAll('#board .seat')).map((s) => {
  const a = s.querySelector('.seat-head a.name');
  return {seat: Number(s.dataset.seat), href: a ? a.getAttribute('href') : null,
          target: a ? a.target : null, rel: a ? a.rel : null};
}).sort((x, y) => x.seat - y.seat);
"""


def players_add(server, name: str) -> tuple[str, str]:
    """`riichi-server players add NAME`, as an operator runs it: the link it prints and the id."""
    added = subprocess.run([str(SERVER), "players", "add", name, "--db", str(server.db),
                            "--url", f"http://127.0.0.1:{server.port}/"], capture_output=True, text=True,
                           timeout=60, check=True)
    link = re.search(r"(http://\S+/#player=\S+)$", added.stdout, re.M)
    player = re.search(r"\(player ([0-9a-f]+)\)", added.stdout)
    assert link and player, added.stdout
    return link.group(1), player.group(1)


def open_as(browser, link: str, name: str) -> None:
    """The link opened: the lobby says whom this browser plays as."""
    browser.get(link)
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "player-said").text == f"You play as {name}.",
                                     f"the lobby never said it plays as {name}")


def play_a_short_game(server, browser, name: str, player_id: str, open_a_name: bool = False) -> int:
    """A game of East only against three random bots, from the page with its comforts on, to its
    final screen: the game's id, read from that screen's Replay link.  `open_a_name`: first, a
    bot's name is clicked (its page opens in a new tab; the game's tab plays on)."""
    create_table(browser, server.port, name, strategy="random", rules="ema2016", length="1")
    player = WebPlayer(browser)
    player.until(lambda s: s["screen"] == "waiting")
    mine = browser.find_element(By.CSS_SELECTOR, "#seats tr.you a.seat-name")  # the waiting room's too
    assert (mine.get_attribute("href"), mine.get_attribute("target")) == (
        f"http://127.0.0.1:{server.port}/players/{player_id}", "_blank")
    player.press("#ready")
    player.until(lambda s: s["screen"] == "table")
    WebDriverWait(browser, 20).until(  # the board drawn from the game's first view (the screen may show first)
        lambda b: all(n["seat"] is not None for n in b.execute_script(SEAT_NAMES)), "the seats were never drawn")
    names = browser.execute_script(SEAT_NAMES)
    assert names[0] == {"seat": 0, "href": f"/players/{player_id}", "target": "_blank", "rel": "noopener"}, names
    assert [n["href"] for n in names[1:]] == ["/players/bot-random"] * 3, names  # the bots' player: their strategy
    if open_a_name:
        a_name_opens_its_players_page_in_a_new_tab(browser, player)
    comforts_on(player)
    player.play(lambda s, p: s["dialog"] == "final", timeout=300)
    replay = browser.find_element(By.CSS_SELECTOR, "#result #final-replay").get_attribute("href")
    own = browser.find_element(By.CSS_SELECTOR, "#result #final-own-page").get_attribute("href")
    assert own == f"http://127.0.0.1:{server.port}/players/{player_id}"
    return int(re.search(r"/games/(\d+)$", replay)[1])


def a_name_opens_its_players_page_in_a_new_tab(browser, player: WebPlayer) -> None:
    """A click on a seat's name (the browser's own input) opens its player's page in another tab;
    the game's tab stays at the table, with no focus left on the link (the keys are the game's)."""
    game_tab = browser.current_window_handle
    player.press('#board .seat[data-seat="1"] .seat-head a.name')
    WebDriverWait(browser, 10).until(lambda b: len(b.window_handles) == 2, "no new tab opened")
    browser.switch_to.window(next(h for h in browser.window_handles if h != game_tab))
    WebDriverWait(browser, 10).until(lambda b: b.execute_script("return location.pathname") == "/players/bot-random"
                                     and b.find_element(By.TAG_NAME, "h1").text == "random bot")
    browser.close()
    browser.switch_to.window(game_tab)
    assert player.read()["screen"] == "table"
    assert browser.execute_script("return document.activeElement.tagName") != "A"


def follow(browser, selector: str) -> None:
    """A click on the link, as a person's, and the page it leads to loaded."""
    before = browser.current_url
    browser.find_element(By.CSS_SELECTOR, selector).click()
    WebDriverWait(browser, 10).until(lambda b: b.current_url != before and
                                     b.execute_script("return document.readyState") == "complete")


def test_a_player_seen_in_two_games_from_two_browsers_has_one_page_with_both(server, browsers):
    link, player_id = players_add(server, "Ann")
    first, second = browsers(), browsers()  # two Chromium processes, each with a profile of its own
    games = []
    for browser in (first, second):
        open_as(browser, link, "Ann")
        games.append(play_a_short_game(server, browser, "Ann", player_id, open_a_name=browser is first))
    assert games[0] != games[1]

    browser = second
    WebPlayer(browser).press("#result #final-lobby")  # the final screen's way back to the lobby
    assert browser.find_element(By.ID, "own-page").is_displayed()
    follow(browser, "#own-page")
    assert browser.execute_script("return location.pathname") == f"/players/{player_id}"
    assert browser.find_element(By.TAG_NAME, "h1").text == "Ann"
    listed = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "main table a")]
    assert sorted(re.search(r"/games/(\d+)$", href)[1] for href in listed) == sorted(map(str, games)), listed
    played = browser.find_element(By.XPATH, "//dt[.='Games played']/following-sibling::dd").text
    assert played == "2"

    follow(browser, f'main table a[href="/games/{games[0]}"]')  # the replay, its first step drawn
    WebDriverWait(browser, 20).until(lambda b: b.execute_script(
        "const v = document.getElementById('replay-view');"
        " return !v.hidden && v.dataset.step === '0' && v.querySelectorAll('.seat .concealed .tile').length >= 52"))
    assert browser.find_element(By.ID, "replay-title").text.startswith(f"Game {games[0]}: Ann")

    browser.back()  # the player's page, and from there (its bar) to the lobby and the standings
    follow(browser, "nav #lobby-link")
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "standings-link").is_displayed())
    follow(browser, "#standings-link")
    assert browser.execute_script("return location.pathname") == "/standings"
    ann = browser.find_element(By.CSS_SELECTOR, f'main table a[href="/players/{player_id}"]')
    assert ann.text == "Ann"
    assert ann.find_element(By.XPATH, "./ancestor::tr/td[3]").text == "2"  # her two games
    assert page_errors(first) == [] and page_errors(second) == []
