"""The replay viewer (issue 25): a game played to its end in the browser opens, from its final
screen's Replay link, at /games/ID; every step of every hand is stepped through and the tiles
shown (all four concealed hands and each drawn tile, every pond, the dora indicators, the ura
at each hand's end) are held to the record replayed in Python (server/replay_document.py);
the keys, the buttons and the hands' list move it, and a step's address opens at that step.  A Tenhou log chosen on /replay shows its
first hand, and one dropped there on a phone too, with nothing wider than the window.  A replay of a game still in play shows no tile at all."""

from __future__ import annotations

import re
from pathlib import Path

from selenium.webdriver.support.ui import WebDriverWait

from protocol.events import EventType
from server.dropped_log import document_of_log
from server.replay_document import replay_document
from server.store import SqliteFile
from tests.web.browser import PHONE, WebPlayer, create_table, page_errors, played_to_the_final_screen

MJLOG = Path(__file__).resolve().parents[1] / "data" / "corpus" / "tenhou-mjlog" / "first-example.mjlog"

# What the viewer shows now: its position and every tile, read from the DOM alone.
SHOWN = """
const root = document.getElementById('replay-view');
const ids = (sel) => Array.from(root.querySelectorAll(sel)).map((t) => Number(t.dataset.tile));
const seats = [0, 1, 2, 3].map((s) => {
  const box = root.querySelector(`.seat[data-seat="${s}"]`);
  const tiles = (sel) => Array.from(box.querySelectorAll(sel)).map((t) => Number(t.dataset.tile));
  return {hand: tiles('.concealed .tile:not(.drawn)'), drawn: tiles('.concealed .tile.drawn'),
          pond: tiles('.pond .tile')};
});
return {hand: Number(root.dataset.hand), step: Number(root.dataset.step), steps: Number(root.dataset.steps),
        seats, dora: ids('#replay-dora .tile'), ura: ids('#replay-ura .tile'),
        result: root.querySelector('#replay-result').hidden ? null
          : root.querySelector('#replay-result .result-body').dataset.result};
"""
# Every step of every hand, stepped by the viewer's own keys (ArrowRight, then PageDown at a
# hand's end), read as SHOWN reads it: in the page, so that thousands of steps take a second.
EVERY_STEP = """
const read = new Function(arguments[0]);
const press = (key) => document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
const out = [];
for (let guard = 0; guard < 20000; guard += 1) {
  const now = read();
  out.push(now);
  if (now.step < now.steps - 1) press('ArrowRight');
  else { press('PageDown'); if (Number(document.getElementById('replay-view').dataset.hand) === now.hand) break; }
}
return out;
"""


def expected_steps(doc: dict) -> list[dict]:
    """What each step should show, from the document made in Python."""
    out = []
    for number, hand in enumerate(doc["hands"]):
        ponds: list[list[int]] = [[], [], [], []]
        dora: list[int] = []
        for index, step in enumerate(hand["steps"]):
            event = step["event"]
            if event["type"] == EventType.HAND_START:
                dora = list(event["dora_indicators"])
            elif event["type"] == EventType.DORA:
                dora = list(event["dora_indicators"])
            elif event["type"] == EventType.DISCARD:
                ponds[event["seat"]].append(event["tile"])
            last = index == len(hand["steps"]) - 1
            seats = []
            for seat in range(4):
                drawn = step["drawn"][seat]
                rest = sorted(step["hands"][seat])
                if drawn is not None:
                    rest.remove(drawn)
                seats.append({"hand": rest, "drawn": [] if drawn is None else [drawn], "pond": list(ponds[seat])})
            out.append({"hand": number, "step": index, "steps": len(hand["steps"]), "seats": seats, "dora": dora,
                        "ura": hand["ura"] if last else [], "result": hand["result"]["type"] if last else None})
    return out


def played_to_its_end(server, browser) -> tuple[WebPlayer, int]:
    """A short game (East only, three random bots) played in the browser with the comforts on."""
    player = played_to_the_final_screen(browser, server.port, "alice", "tenhou")
    link = browser.find_element("css selector", "#result #final-replay").get_attribute("href")
    return player, int(re.search(r"/games/(\d+)$", link)[1])


def test_a_finished_games_replay_opens_from_its_final_screen_and_every_step_shows_the_records_tiles(
        server, browsers):
    browser = browsers()
    player, game = played_to_its_end(server, browser)
    player.press("#result #final-replay")
    player.until(lambda s: s["screen"] == "replay", 10, "the replay's page")
    assert browser.execute_script("return location.pathname") == f"/games/{game}"
    store = SqliteFile(server.db)
    doc = replay_document(store.record(game))
    store.close()
    wait_for_replay(browser)
    assert browser.find_element("css selector", "#replay-title").text.startswith(f"Game {game}: alice")
    assert len(browser.find_elements("css selector", "#replay-toc li")) == len(doc["hands"]) >= 1
    assert len(browser.find_elements("css selector", "#replay-standings .standings tbody tr")) == 4
    names = {a.text: a.get_attribute("href")
             for a in browser.find_elements("css selector", "#replay-view a.player-link")}
    assert names["alice"].endswith(f"/players/{doc_players(server, game)[0]}") and len(names) == 4
    assert all(href.endswith("/players/bot-random") for name, href in names.items() if name != "alice")
    downloads = [a.get_attribute("href") for a in browser.find_elements("css selector", "#replay-downloads a")]
    assert [d.split("/api/games/")[1] for d in downloads] == [f"{game}/tenhou6", f"{game}/mjai"]

    expected = expected_steps(doc)
    shown = browser.execute_script(EVERY_STEP, SHOWN)
    assert len(shown) == len(expected)
    for got, want in zip(shown, expected):
        assert got == want, f"hand {want['hand'] + 1}, step {want['step'] + 1}"
    assert all(sum(len(s["hand"]) + len(s["drawn"]) for s in step["seats"]) > 0 for step in shown)

    # by the real keys, the buttons and the hands' list
    player.key("Home")
    assert read(browser)["step"] == 0
    player.key("\ue012")  # ←: stays at the first step
    assert read(browser)["step"] == 0
    player.press("#replay-next")
    player.key("\ue014")  # →
    assert read(browser)["step"] == 2
    player.press('#replay-toc [data-hand="1"]')
    assert (read(browser)["hand"], read(browser)["step"]) == (1, 0)
    player.key("\ue010")  # End: the hand's result
    now = read(browser)
    assert now == expected[[i for i, e in enumerate(expected) if e["hand"] == 1][-1]] and now["result"]
    player.key("\ue00e")  # PageUp
    assert read(browser)["hand"] == 0
    player.press("#replay-next-hand")
    assert read(browser)["hand"] == 1
    player.key("\ue014")
    player.key("\ue014")
    WebDriverWait(browser, 5).until(  # the step's address, once the steps stop
        lambda b: b.execute_script("return location.pathname + location.hash") == f"/games/{game}#hand-2-step-3")
    browser.refresh()
    wait_for_replay(browser)
    assert read(browser) == expected[[i for i, e in enumerate(expected) if e["hand"] == 1][2]]
    assert page_errors(browser) == []


def doc_players(server, game: int) -> list[str | None]:
    """The game's player ids by seat, as the store keeps them."""
    store = SqliteFile(server.db)
    try:
        return store.game_players(game)
    finally:
        store.close()


def read(browser) -> dict:
    return browser.execute_script(SHOWN)


def wait_for_replay(browser, timeout: float = 20.0) -> None:
    WebDriverWait(browser, timeout).until(
        lambda b: b.execute_script("return !document.getElementById('replay-view').hidden"))


def test_a_tenhou_log_chosen_on_the_replay_page_shows_its_first_hand(server, browsers):
    browser = browsers()
    browser.get(f"http://127.0.0.1:{server.port}/replay")
    browser.find_element("css selector", "#replay-file").send_keys(str(MJLOG))
    wait_for_replay(browser)
    doc = document_of_log(MJLOG.read_bytes())
    assert read(browser) == expected_steps(doc)[0]
    assert "first-example.mjlog (mjlog)" in browser.find_element("css selector", "#replay-title").text
    assert page_errors(browser) == []


def test_a_file_that_is_no_log_is_refused_on_the_page_in_one_line(server, browsers, tmp_path):
    browser = browsers()
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    browser.get(f"http://127.0.0.1:{server.port}/replay")
    browser.find_element("css selector", "#replay-file").send_keys(str(junk))
    WebDriverWait(browser, 10).until(lambda b: not b.find_element("css selector", "#notice").get_attribute("hidden"))
    said = browser.find_element("css selector", "#notice").text
    assert said.startswith("notes.txt: neither an mjlog") and "\n" not in said
    assert browser.execute_script("return document.getElementById('replay-view').hidden")


def test_the_replay_of_a_game_still_in_play_shows_no_tile_and_says_why(server, browsers):
    player_browser, watcher = browsers(), browsers()
    create_table(player_browser, server.port, "alice", strategy="random", rules="tenhou", length="1")
    player = WebPlayer(player_browser)
    player.until(lambda s: s["screen"] == "waiting")
    player.press("#ready")
    player.until(lambda s: s["screen"] == "table" and len(s["hand"]) >= 13)
    store = SqliteFile(server.db)
    [row] = store.games(finished=False)
    store.close()
    watcher.get(f"http://127.0.0.1:{server.port}/games/{row.id}")
    WebDriverWait(watcher, 10).until(lambda b: not b.find_element("css selector", "#notice").get_attribute("hidden"))
    assert "still in play" in watcher.find_element("css selector", "#notice").text
    assert watcher.execute_script("return document.querySelectorAll('[data-tile]').length") == 0
    assert watcher.execute_script("return document.getElementById('replay-view').hidden")


DROP = """
const file = new File([arguments[0]], arguments[1], {type: 'text/xml'});
const data = new DataTransfer();
data.items.add(file);
document.body.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true}));
document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
"""


def test_a_log_dropped_on_a_phone_replays_with_nothing_wider_than_the_window(server, browsers):
    browser = browsers(size=PHONE, touch=True)
    browser.get(f"http://127.0.0.1:{server.port}/replay")
    browser.execute_script(DROP, MJLOG.read_text(), MJLOG.name)
    wait_for_replay(browser)
    expected = expected_steps(document_of_log(MJLOG.read_bytes()))
    assert read(browser) == expected[0]
    player = WebPlayer(browser, via="touch")
    player.press("#replay-hand-end")
    assert read(browser) == [e for e in expected if e["hand"] == 0][-1]
    assert browser.execute_script("return document.scrollingElement.scrollWidth <= window.innerWidth")
    assert page_errors(browser) == []
