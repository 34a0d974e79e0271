"""An event's self-registration in the browser (issue 27: "a browser test registers a player from
the link and plays a seat"): the organiser creates an event with `riichi-server event create`,
which prints the link; a browser opens it, registers under a name (its player key, made by the
page), the organiser starts round 1 (the server's bots fill the three seats left over), the
browser follows its player's page to the table's link, takes its reserved seat and plays the game
to its end; the event's standings list the player with that game's result."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from server.store import SqliteFile
from tests.clients import http_get
from tests.web.browser import WebPlayer, comforts_on

SERVER = Path(sys.executable).parent / "riichi-server"


def _organiser(server, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(SERVER), "event", *args, "--db", str(server.db)], capture_output=True, text=True,
                          timeout=60, check=True)


def _until_link(browser, page: str, text: str, seconds: float = 20) -> None:
    """`page` loaded again until it has a link of `text` (the server opens a round's tables within a poll)."""
    deadline = time.monotonic() + seconds
    while not browser.find_elements(By.LINK_TEXT, text):
        assert time.monotonic() < deadline, f"{page} never showed a link {text!r}: {browser.page_source[-800:]}"
        time.sleep(0.2)
        browser.get(page)


def _game_of(db: Path, event_id: str) -> tuple[list[str], dict]:
    file = SqliteFile(db)
    try:
        [row] = file.event_tables(event_id)
        return list(row.seats), file.record(row.game_id).replay().final
    finally:
        file.close()


@pytest.mark.server("--event-poll", "0.2")
def test_a_browser_registers_from_the_link_and_plays_its_seat_and_the_standings_have_its_result(server, browsers):
    created = _organiser(server, "create", "--name", "Walk-in cup", "--rounds", "1", "--url",
                         f"http://127.0.0.1:{server.port}/")
    event_id = created.stdout.strip()
    link = re.search(r"(http://\S+/events/[0-9a-f]+/register#\S+)$", created.stderr, re.M).group(1)
    browser = browsers()
    browser.get(link)
    WebDriverWait(browser, 20).until(
        lambda b: b.find_element(By.ID, "register-title").text == "Register for Walk-in cup")
    assert "Registration closes when round 1 starts" in browser.find_element(By.ID, "register-about").text
    name = browser.find_element(By.ID, "register-name")
    name.clear()
    name.send_keys("Walker")
    browser.find_element(By.ID, "register-submit").click()
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "register-done").is_displayed(),
                                     "the page never said the player was registered")
    assert "You are registered for Walk-in cup as Walker." in browser.find_element(By.ID, "register-done").text
    player_page = browser.find_element(By.ID, "register-player-page").get_attribute("href")

    started = _organiser(server, "start-round", event_id)  # one player: three server bots fill the table
    assert "Walker" in started.stdout
    browser.get(player_page)
    _until_link(browser, player_page, "join")
    browser.find_element(By.LINK_TEXT, "join").click()  # the link that takes the reserved seat
    player = WebPlayer(browser)
    state = player.until(lambda s: s["screen"] in ("join", "waiting", "table"), 20, "the table's link")
    if state["screen"] == "join":  # the link's name prompt, the registered name in it
        assert browser.find_element(By.ID, "link-name").get_attribute("value") == "Walker"
        browser.find_element(By.CSS_SELECTOR, "#link-join button[type=submit]").click()
        state = player.until(lambda s: s["screen"] in ("waiting", "table"), 20, "the seat taken")
    if state["screen"] == "waiting":
        player.press("#ready")
    player.until(lambda s: s["screen"] == "table", 20, "the game")
    comforts_on(player)
    player.play(lambda s, p: s["dialog"] == "final", timeout=900)
    print(f"\nplayed: {player.played}")

    seats, final = _game_of(server.db, event_id)
    mine = Fraction(str(final["results"][seats.index(next(p for p in seats if not p.startswith("bot:")))]))
    status, _, body = http_get(server, f"/events/{event_id}/standings.csv")
    assert status == 200
    [header, line] = body.decode().splitlines()
    assert header == "rank,player,round 1,penalties,total,regular points"
    rank, who, round_1, _, total, _ = line.split(",")
    assert (who, Fraction(round_1), Fraction(total)) == ("Walker", mine, mine)


def _notice(browser, text: str) -> None:
    WebDriverWait(browser, 20).until(lambda b: text in b.find_element(By.ID, "notice").text,
                                     f"the page never said {text!r}")


def test_a_wrong_token_and_a_started_event_are_refused_with_the_reason_and_the_name_is_filled_in(server, browsers):
    """The link works with the token as `?token=` too; the name this browser's player has is filled in."""
    created = _organiser(server, "create", "--name", "Closed cup", "--rounds", "1", "--url",
                         f"http://127.0.0.1:{server.port}/")
    event_id = created.stdout.strip()
    link = re.search(r"(http://\S+/events/[0-9a-f]+/register#\S+)$", created.stderr, re.M).group(1)
    page, token = link.split("#")
    browser = browsers()
    browser.get(page + "#not-the-token")
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "register-form").is_displayed())
    browser.find_element(By.ID, "register-name").send_keys("Ann")
    browser.find_element(By.ID, "register-submit").click()
    _notice(browser, "this registration link is no event's")
    assert not browser.find_element(By.ID, "register-done").is_displayed()

    browser.get(f"{page}?token={token}")
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "register-form").is_displayed())
    assert browser.find_element(By.ID, "register-name").get_attribute("value") == "Ann"  # this browser's player
    browser.find_element(By.ID, "register-submit").click()
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "register-done").is_displayed())
    assert "You are registered for Closed cup as Ann." in browser.find_element(By.ID, "register-done").text

    _organiser(server, "start-round", event_id)
    browser.execute_script("localStorage.clear()")  # another person on this browser: a new player key
    browser.get("about:blank")
    browser.get(link)
    _notice(browser, "Registration for Closed cup is closed: its first round has started")
    browser.find_element(By.ID, "register-name").send_keys("Cid")
    browser.find_element(By.ID, "register-submit").click()
    _notice(browser, "registration for Closed cup closed when its first round started")
