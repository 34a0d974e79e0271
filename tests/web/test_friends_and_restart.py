"""Three browsers at one table of a real riichi-server process: the host creates it in the
lobby; a friend opens the invite link the host's page shows, gives a name and plays; a
third opens the watch link and watches.  The watcher never holds a concealed tile (not in
its DOM, not in any frame it receives).  Then the server is killed (SIGKILL) and started
again on the same database: both players' pages come back by themselves to the same hand
and play on."""

from __future__ import annotations

import signal
import time

from selenium.webdriver.common.by import By

from tests.web.browser import WebPlayer, create_table, received_frames

# The table as a page shows it, in one read: every seat's pond (by seat), our hand, the round, and
# every tile on the board (not the result dialog over it, which is about a hand already over).
PICTURE = """
const ids = (root, sel) => Array.from(root.querySelectorAll(sel)).map((t) => Number(t.dataset.tile));
const ponds = {};
document.querySelectorAll('.seat').forEach((s) => { ponds[s.dataset.seat] = ids(s, '.pond .tile'); });
return {round: (document.querySelector('#center .round') || {}).textContent || '',
        ponds, hand: ids(document, '#hand .tile'), all: ids(document.getElementById('board-root'), '[data-tile]'),
        watching: !document.getElementById('watching').hidden,
        backs: document.querySelectorAll('.tile.back').length};
"""


def picture(browser) -> dict:
    return browser.execute_script(PICTURE)


def spectator_frames_hold_nothing_concealed(frames: list[dict]) -> None:
    """What a spectator is sent holds no concealed tile: no hand at a hand's start, no tile in a
    draw, no offer, no seat view in a snapshot (PROTOCOL.md: spectators get public events only)."""
    assert frames
    for m in frames:
        assert m["type"] not in ("offer", "timeout", "error"), m
        if m["type"] == "event":
            e = m["event"]
            assert not (e["type"] == "hand_start" and "hand" in e), m
            assert not (e["type"] == "draw" and "tile" in e), m
        if m["type"] == "snapshot":
            assert m["view"].get("you") is None and "actions" not in m["view"], m
        if m["type"] == "table":
            assert m["you"] is None and "invite" not in m, m


def test_a_friend_joins_by_the_link_a_third_watches_and_both_players_come_back_after_a_restart(server, browsers):
    host = browsers()
    friend = browsers(touch=False)
    watcher = browsers(frames=True)
    create_table(host, server.port, "alice", bots=2)
    alice = WebPlayer(host)
    alice.until(lambda s: s["screen"] == "waiting" and host.find_element(By.ID, "invite-link").get_attribute("value"))
    invite = host.find_element(By.ID, "invite-link").get_attribute("value")
    watch = host.find_element(By.ID, "watch-link").get_attribute("value")
    assert invite.startswith(f"http://127.0.0.1:{server.port}/join/")
    assert watch.startswith(f"http://127.0.0.1:{server.port}/watch/")

    friend.get(invite)  # the link asks for a name, then takes a seat
    bob = WebPlayer(friend)
    bob.until(lambda s: s["screen"] == "join", what="the name prompt")
    friend.find_element(By.ID, "link-name").send_keys("bob")
    friend.find_element(By.CSS_SELECTOR, "#link-join button[type=submit]").click()
    bob.until(lambda s: s["screen"] == "waiting", what="bob's waiting room")
    watcher.get(watch)
    carol = WebPlayer(watcher)
    carol.until(lambda s: s["screen"] == "waiting", what="the watcher's waiting room")
    assert friend.find_element(By.ID, "links").get_attribute("hidden") is not None  # the host's only
    alice.until(lambda s: "bob" in host.find_element(By.ID, "seats").text, what="bob seated")
    host.find_element(By.ID, "ready").click()
    friend.find_element(By.ID, "ready").click()
    for page in (alice, bob, carol):
        page.until(lambda s: s["screen"] == "table", what="the table")
    assert picture(watcher)["watching"] and not picture(host)["watching"]

    # both play; then a moment the game waits for alice's discard (nothing moves)
    def both(until_done):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for player in (alice, bob):
                state = player.read()
                if until_done(player, state):
                    return player, state
                player.step(state)
        raise AssertionError("the players did not get there")

    both(lambda p, s: p is alice and s["mode"] == "discard" and alice.played.discards >= 4
         and bob.played.discards >= 3)
    before_host = picture(host)
    # (the others' pages, in their own browsers, may still be drawing the discard before alice's draw)
    bob.until(lambda s: picture(friend)["ponds"] == before_host["ponds"], 15, "bob's page up to date")
    carol.until(lambda s: picture(watcher)["ponds"] == before_host["ponds"], 15, "the watcher's page up to date")
    before_friend, seen = picture(friend), picture(watcher)
    assert len(before_host["hand"]) == 14 and len(before_friend["hand"]) == 13
    concealed = set(before_host["hand"]) | set(before_friend["hand"])
    assert not concealed & set(seen["all"]) and not seen["hand"]  # the watcher's DOM
    assert seen["ponds"] == before_host["ponds"] == before_friend["ponds"]
    frames = received_frames(watcher)

    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(10)
    alice.until(lambda s: "reconnect" in s["status"] or "reach" in s["status"], 15, "the page saying it is cut off")
    server.start()
    after_host = alice.until(lambda s: s["mode"] == "discard" and "back" in s["status"], 60, "alice back")
    assert [t["tile"] for t in after_host["hand"]] == before_host["hand"]  # the same hand, her turn again
    bob.until(lambda s: [t["tile"] for t in s["hand"]] == before_friend["hand"], 30, "bob back")
    assert picture(host)["ponds"] == before_host["ponds"] == picture(friend)["ponds"]
    carol.until(lambda s: "back" in s["status"], 30, "the watcher back")
    assert picture(watcher)["ponds"] == before_host["ponds"]

    # the game goes on: alice's next discard reaches bob's page and the watcher's
    alice.step(after_host)
    alice.until(lambda s: set(before_host["hand"]) - set(picture(host)["hand"]), 10, "alice's discard made")
    gone = set(before_host["hand"]) - set(picture(host)["hand"])
    assert len(gone) == 1
    bob.until(lambda s: gone <= set(picture(friend)["ponds"]["0"]), 15, "alice's discard on bob's page")
    carol.until(lambda s: gone <= set(picture(watcher)["ponds"]["0"]), 15, "alice's discard for the watcher")
    # and again, once the game waits for alice's next discard: nothing concealed in the watcher's page
    both(lambda p, s: p is alice and s["mode"] == "discard" and s["decision"] != after_host["decision"])
    now_concealed = set(picture(host)["hand"]) | set(picture(friend)["hand"])
    carol.until(lambda s: picture(watcher)["ponds"] == picture(host)["ponds"], 15, "the watcher up to date")
    assert not now_concealed & set(picture(watcher)["all"])
    frames += received_frames(watcher)
    spectator_frames_hold_nothing_concealed(frames)
    assert any(m["type"] == "catchup" and m.get("reason") == "restart" for m in frames)
