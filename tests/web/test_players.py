"""Players in the browser (issue 25): the page keeps a player key in local storage and says it in
every hello; the link `riichi-server players add` prints gives a browser the key it issued; two
browsers with one key are one player; a name saved in the lobby is kept across a restart."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from server.store import SqliteFile
from tests.web.browser import create_table

SERVER = Path(sys.executable).parent / "riichi-server"


def _said(browser, text: str) -> None:
    WebDriverWait(browser, 20).until(lambda b: b.find_element(By.ID, "player-said").text == text,
                                     f"the lobby never said {text!r}")


def _key(browser) -> str:
    return browser.execute_script("return localStorage.getItem('riichi.player-key')")


def _seat_players(db: Path) -> list[str | None]:
    """The player of seat 0 of every open table, the oldest first."""
    file = SqliteFile(db)
    try:
        return [row.seats[0].player_id for row in file.open_tables()]
    finally:
        file.close()


def test_the_link_of_players_add_sets_the_key_and_two_browsers_with_it_are_one_player(server, browsers):
    added = subprocess.run([str(SERVER), "players", "add", "Ann", "--db", str(server.db),
                            "--url", f"http://127.0.0.1:{server.port}/"], capture_output=True, text=True, timeout=60,
                           check=True)
    link = re.search(r"(http://\S+/#player=(\S+))$", added.stdout, re.M)
    issued, players_id = link.group(2), re.search(r"\(player ([0-9a-f]+)\)", added.stdout).group(1)
    first, second = browsers(), browsers()  # two Chromium processes, each with its own storage
    for browser in (first, second):
        browser.get(link.group(1))
        _said(browser, "You play as Ann.")
        assert "#player" not in browser.current_url and issued not in browser.current_url  # gone from the address bar
        assert _key(browser) == issued
        create_table(browser, server.port, "Ann", bots=3)
        WebDriverWait(browser, 20).until(
            lambda b: "/join/" in b.find_element(By.ID, "invite-link").get_attribute("value")
            or b.find_element(By.ID, "table").is_displayed())
    assert _seat_players(server.db) == [players_id, players_id]


def test_a_new_browser_gets_a_key_of_its_own_and_a_name_saved_is_kept_across_a_restart(server, browsers):
    first = browsers()
    first.get(f"http://127.0.0.1:{server.port}/")
    _said(first, "You play as player.")
    key = _key(first)
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", key)
    field = first.find_element(By.ID, "name")
    field.clear()
    field.send_keys("Zoë")
    first.find_element(By.ID, "rename").click()
    _said(first, "You play as Zoë.")
    server.stop()
    server.start()
    second = browsers()
    second.get(f"http://127.0.0.1:{server.port}/#player={key}")
    _said(second, "You play as Zoë.")
    assert second.find_element(By.ID, "name").get_attribute("value") == "Zoë"
    other = browsers()
    other.get(f"http://127.0.0.1:{server.port}/")
    _said(other, "You play as player.")
    assert _key(other) != key


@pytest.mark.server("--require-player-key")
def test_a_server_that_requires_issued_keys_tells_a_browser_without_one_what_to_do(server, browsers):
    browser = browsers()
    browser.get(f"http://127.0.0.1:{server.port}/")
    WebDriverWait(browser, 20).until(
        lambda b: "admits only the players it knows" in b.find_element(By.ID, "notice").text)
    assert "riichi-server players add NAME" in browser.find_element(By.ID, "notice").text
