"""The host hands an away player's seat to a bot from the table (riichi-play's key B): PROTOCOL.md,
`add_bot` with `seat`, "host only: seat a built-in bot" -- "a player's seat goes to a bot only after
`absence`".  A friend joins by the link, the game starts, the friend's browser goes away; the
host's page offers "Seat a bot" for that seat, and a click puts a bot there, which plays on."""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.web.browser import WebPlayer

ABSENCE = 1  # seconds a player must be away before the host may hand the seat to a bot

SEATS = """
return Array.from(document.querySelectorAll('#board .seat')).map((s) => ({
  seat: Number(s.dataset.seat), name: (s.querySelector('.name') || {}).textContent || '',
  bot: !!s.querySelector('.badge.bot'), away: !!s.querySelector('.badge.away')}));
"""


def create_table_with_absence(browser, port: int, name: str) -> None:
    """From the lobby: two bots, and a clock whose `absence` is short (an option the lobby's form
    takes as "per_decision,bank,absence"; its own options leave absence at the server's 60 s)."""
    browser.get(f"http://127.0.0.1:{port}/")
    browser.execute_script("const o = document.createElement('option'); o.value = arguments[0];"
                           " o.textContent = 'short absence'; document.getElementById('clock').append(o);",
                           f"10,60,{ABSENCE}")
    field = browser.find_element(By.ID, "name")
    field.clear()
    field.send_keys(name)
    Select(browser.find_element(By.ID, "clock")).select_by_value(f"10,60,{ABSENCE}")
    Select(browser.find_element(By.ID, "bots")).select_by_value("2")
    browser.find_element(By.CSS_SELECTOR, "#create button[type=submit]").click()


def away_offers(browser) -> list[str]:
    line = browser.find_element(By.ID, "seat-to-bot")
    if line.get_attribute("hidden") is not None:
        return []
    return [" ".join(el.text.split()) for el in line.find_elements(By.CSS_SELECTOR, ".away-offer")]


def test_the_host_hands_an_away_players_seat_to_a_bot_by_a_button(server, browsers):
    host = browsers()
    friend = browsers()
    create_table_with_absence(host, server.port, "alice")
    alice = WebPlayer(host)
    alice.until(lambda s: s["screen"] == "waiting" and host.find_element(By.ID, "invite-link").get_attribute("value"))
    friend.get(host.find_element(By.ID, "invite-link").get_attribute("value"))
    bob = WebPlayer(friend)
    bob.until(lambda s: s["screen"] == "join", what="the name prompt")
    friend.find_element(By.ID, "link-name").send_keys("bob")
    friend.find_element(By.CSS_SELECTOR, "#link-join button[type=submit]").click()
    bob.until(lambda s: s["screen"] == "waiting", what="bob's waiting room")
    bob.press("#ready")
    alice.press("#ready")
    alice.until(lambda s: s["screen"] == "table" and s["hand"], what="the host's table")
    bob.until(lambda s: s["screen"] == "table" and s["hand"], what="bob's table")
    assert away_offers(host) == [] and away_offers(friend) == []  # nobody is away

    friend.quit()
    # bob's browser goes: his seat is away, played for by the server
    alice.until(lambda s: away_offers(host), 15, "the host offered a bot for bob's seat")
    assert away_offers(host) == ["bob is away: Seat a bot B"]
    bob_seat = next(s for s in host.execute_script(SEATS) if s["name"] == "bob")
    assert bob_seat["away"] and not bob_seat["bot"]

    time.sleep(ABSENCE + 0.5)  # the server hands a seat over only once its player has been away that long
    alice.press("#seat-to-bot button[data-seat]")
    alice.until(lambda s: not away_offers(host), 10, "the offer gone once a bot sits there")
    now = next(s for s in host.execute_script(SEATS) if s["seat"] == bob_seat["seat"])
    assert now["bot"] and not now["away"], now
    assert now["name"] == "bob"  # the bot plays under the name the seat had
    alice.play(lambda s, p: p.discards >= 3)  # and the game goes on with the bot in that seat
