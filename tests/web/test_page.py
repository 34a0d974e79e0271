"""The web client's behaviour in a real browser against a real riichi-server process: names
are shown as text, never as HTML; a wrong code is said in one plain line; a reload comes back
to the same hand from the seq the tab kept; two tabs of one browser are two players, and a
tab closed and opened again on the link takes its seat back; a tile whose picture cannot load
is drawn as its text; the keyboard and a phone's touch screen play."""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By

from tests.web.browser import PHONE, WebPlayer, create_table, page_errors, received_frames

NASTY = "<b>b&d</b><img src=x onerror=1>"  # 31 characters: the server keeps 32


def test_a_name_is_text_and_a_wrong_code_is_said_in_one_plain_line(server, browsers):
    browser = browsers()
    browser.get(f"http://127.0.0.1:{server.port}/join/NoSuchTableCode")
    page = WebPlayer(browser)
    page.until(lambda s: s["screen"] == "join")
    browser.find_element(By.ID, "link-name").send_keys("alice")
    browser.find_element(By.CSS_SELECTOR, "#link-join button[type=submit]").click()
    state = page.until(lambda s: s["notice"], 15, "the notice")
    assert state["notice"] == ("no open table has that invite code: check the link, or ask the host for a new"
                               " one.") and state["screen"] == "join"

    create_table(browser, server.port, NASTY)
    page.until(lambda s: s["screen"] == "waiting")
    watch = browser.find_element(By.ID, "watch-link").get_attribute("value").rsplit("/", 1)[1]
    name = browser.find_element(By.CSS_SELECTOR, "#seats tr.you .seat-name")  # (a link to its player's page)
    assert name.text == NASTY and not name.find_elements(By.CSS_SELECTOR, "*")
    browser.find_element(By.ID, "ready").click()
    page.until(lambda s: s["screen"] == "table" and s["hand"])
    head = browser.find_element(By.CSS_SELECTOR, ".seat.pos-bottom .seat-head .name")
    assert head.text == NASTY and not head.find_elements(By.CSS_SELECTOR, "*")
    assert not browser.find_elements(By.CSS_SELECTOR, 'img[src="x"], b')

    browser.switch_to.new_window("tab")  # a new tab is at the lobby (this one would go back to its seat)
    browser.get(f"http://127.0.0.1:{server.port}/")  # a watch code where an invite goes
    page.until(lambda s: s["screen"] == "lobby")
    browser.find_element(By.ID, "join-code").send_keys(f"http://127.0.0.1:{server.port}/watch/{watch}")
    browser.find_element(By.CSS_SELECTOR, "#join-form button[type=submit]").click()
    state = page.until(lambda s: "watch code" in s["notice"], 15, "the notice")
    assert state["notice"] == "That is a watch code, not an invite code: watch the table with it instead."
    assert page_errors(browser) == []


def to_tab(browser, handle: str) -> None:
    """Switch to a tab and bring it to the front (a tab behind draws only once a second)."""
    browser.switch_to.window(handle)
    browser.execute_cdp_cmd("Page.bringToFront", {})


def test_a_reload_resumes_from_the_kept_seq_and_two_tabs_are_two_players(server, browsers):
    browser = browsers(frames=True)
    create_table(browser, server.port, "alice", bots=2)
    host = WebPlayer(browser)
    host.until(lambda s: s["screen"] == "waiting")
    invite = browser.find_element(By.ID, "invite-link").get_attribute("value")
    first = browser.current_window_handle

    # a second tab of the same browser opens the host's own invite link: a second seat (of the same player,
    # the browser's one key, renamed by the name typed: the tables joined after show it)
    browser.switch_to.new_window("tab")
    browser.get(invite)
    second = WebPlayer(browser)
    second.until(lambda s: s["screen"] == "join")
    browser.find_element(By.ID, "link-name").send_keys("bob")
    browser.find_element(By.CSS_SELECTOR, "#link-join button[type=submit]").click()
    second.until(lambda s: s["screen"] == "waiting" and "bob" in browser.find_element(By.ID, "seats").text)
    assert "bob" in browser.find_element(By.CSS_SELECTOR, "#seats tr.you").text
    bob_tab = browser.current_window_handle

    # closed, and the link opened again in a new tab: bob's seat, back
    browser.close()
    to_tab(browser, first)
    host.until(lambda s: "away" in browser.find_element(By.ID, "seats").text, 15, "bob away")
    browser.switch_to.new_window("tab")
    browser.get(invite)
    again = WebPlayer(browser)
    again.until(lambda s: s["screen"] == "waiting" and "bob" in browser.find_element(By.CSS_SELECTOR,
                                                                                     "#seats tr.you").text)
    assert browser.current_window_handle != bob_tab
    browser.find_element(By.ID, "ready").click()
    bob = browser.current_window_handle
    to_tab(browser, first)
    assert "alice" in browser.find_element(By.CSS_SELECTOR, "#seats tr.you").text  # the host's tab is alice's
    browser.find_element(By.ID, "ready").click()
    before = host.until(lambda s: s["mode"] == "discard", 20, "alice's first discard")
    received_frames(browser)
    time.sleep(0.7)  # the tab keeps its game at most every 0.5 s

    browser.refresh()  # the same tab: back to the same hand, sent only what it missed
    after = host.until(lambda s: s["mode"] == "discard" and s["screen"] == "table", 20, "alice back")
    assert after["hand"] == before["hand"] and after["decision"] == before["decision"]
    frames = received_frames(browser)
    catchups = [m for m in frames if m["type"] == "catchup"]
    assert catchups and catchups[0]["replay"] is True and not any(m["type"] == "snapshot" for m in frames)
    host.step(after)  # and play goes on
    to_tab(browser, bob)
    assert page_errors(browser) == []


def test_a_tile_whose_picture_cannot_load_is_its_text_and_the_keys_play(server, browsers):
    browser = browsers()
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/tiles/*"]})
    create_table(browser, server.port, "alice", strategy="random")
    player = WebPlayer(browser, via="keys")
    player.until(lambda s: s["screen"] == "waiting")
    player.key("g")  # Ready
    player.until(lambda s: s["mode"] == "discard", 20, "the first discard")
    time.sleep(0.3)
    tiles = browser.find_elements(By.CSS_SELECTOR, "#hand .tile")
    assert tiles and all("text" in t.get_attribute("class") for t in tiles)
    assert [t.text for t in tiles] == [t.get_attribute("data-face") for t in tiles]
    assert all(len(t.text) == 2 and t.text[0] in "0123456789ESWNGR" for t in tiles)
    assert not browser.find_elements(By.CSS_SELECTOR, "#hand img")
    player.play(lambda s, p: p.discards >= 3 and s["mode"] == "discard")  # (passes on calls offered between)
    assert player.played.discards >= 3


def test_a_phone_held_upright_plays_by_touch(server, browsers):
    browser = browsers(PHONE, touch=True)
    create_table(browser, server.port, "alice", strategy="random")
    player = WebPlayer(browser, via="touch")
    player.until(lambda s: s["screen"] == "waiting")
    player.press("#ready")
    state = player.until(lambda s: s["mode"] == "discard", 20, "the first discard")
    index = 0 if len(state["hand"]) > 1 and not state["hand"][0]["blocked"] else player.best_discard(state)
    assert browser.find_elements(By.CSS_SELECTOR, "#hand .hand-slot.selected.drawn")  # chosen already
    player.press(f'#hand .hand-slot[data-index="{index}"]')  # one tap only chooses another tile
    time.sleep(0.3)
    chosen = player.read()
    assert chosen["mode"] == "discard" and chosen["decision"] == state["decision"]
    assert browser.find_elements(By.CSS_SELECTOR, f'#hand .hand-slot.selected[data-index="{index}"]')
    player.press(f'#hand .hand-slot[data-index="{index}"]')  # the second discards it
    player.answered = (state["decision"], state["mode"])
    player.play(lambda s, p: p.discards + p.passes >= 4 and s["mode"] == "discard")
    width = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]  # nothing needs sideways scrolling
    buttons = browser.execute_script(
        "return Array.from(document.querySelectorAll('#actions button')).map((b) => b.offsetHeight)")
    assert buttons and min(buttons) >= 48  # large touch targets
