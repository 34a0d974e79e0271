"""riichi-play in a real terminal: tmux runs the command against a real riichi-server
process, the test reads the screen (capture-pane) and types keys (send-keys) as a
player would, until a hand's result (by default) or the final standings (slow)."""

from __future__ import annotations

import re
import shlex
import shutil
import time
from pathlib import Path

import pytest

from client_cli.play.local import free_port, port_free
from tests.client_cli.tmux import PLAY, Tmux, play, wait_for_first_discard

pytestmark = [pytest.mark.skipif(not Path("/usr/bin/tmux").exists(), reason="tmux is not installed"),
              pytest.mark.server(shared=True)]  # one server for the module (a test that stops it has its own)


@pytest.fixture
def tmux():
    t = Tmux()
    yield t
    t.close()


def test_riichi_play_under_tmux_plays_a_hand_against_a_real_server(tmux, server):
    tmux.open("host", f"{PLAY} --server {server.url} --name alice --bots 3 --no-clock --rules tenhou")
    tmux.wait_for("host", r"Invite code: \S+")
    tmux.wait_for("host", r"bot-3")  # (the bots are seated after the table shows)
    tmux.keys("host", "g")
    table = tmux.wait_for("host", r"turn: you \(East\)")
    screen = tmux.screen("host")
    assert "dora indicators" in screen and "tiles left 69" in screen and "East 1" in screen
    hand = re.search(r"^ ((?:\S\S ){13})   (\S\S)\s*$", screen, re.M)
    assert hand, screen  # thirteen tiles, then the drawn tile apart
    drawn = hand.group(2)
    tmux.keys("host", "Enter")  # discards the drawn tile
    wait_for_first_discard(tmux, "host", drawn)
    seen, screen = play(tmux, ["host"], "result", timeout=60)
    assert seen.get("discard", 0) >= 1
    assert re.search(r"wins by (tsumo|ron)|Exhaustive draw|Abortive draw", screen), screen
    assert re.search(r"alice\s+[+-]\d+\s+->\s+\d+", screen)
    tmux.keys("host", "C-q")  # the game goes on: Ctrl+Q asks again
    tmux.wait_for("host", r"Ctrl\+Q again to leave")
    tmux.keys("host", "C-q")
    tmux.wait_for("host", r"EXITED 0")
    assert table


def test_a_bad_code_under_tmux_is_one_line_and_exit_1(tmux, server):
    tmux.open("friend", f"{PLAY} --server {server.url} --join no-such-code")
    tmux.wait_for("friend", r"riichi-play: no open table has that invite code \(no_table\)\s+EXITED 1")


def test_quitting_mid_game_asks_twice_and_resume_takes_the_seat_back(tmux, server):
    tmux.open("first", f"{PLAY} --server {server.url} --name alice --bots 3 --no-clock")
    tmux.wait_for("first", r"Invite code: \S+")
    tmux.keys("first", "g")
    tmux.wait_for("first", r"turn: you \(East\)")
    hand = re.search(r"^ ((?:\S\S ){13})   (\S\S)\s*$", tmux.screen("first"), re.M).group(0).split()
    tmux.keys("first", "C-q")
    tmux.wait_for("first", r"Ctrl\+Q again to leave")
    assert "EXITED" not in tmux.screen("first")
    tmux.keys("first", "C-q")
    tmux.wait_for("first", r"EXITED 0")
    assert '"table"' in tmux.state.read_text() and tmux.state.stat().st_mode & 0o077 == 0
    tmux.open("back", f"{PLAY} --server {server.url} --resume")
    tmux.wait_for("back", r"turn: you \(East\)")
    again = re.search(r"^ ((?:\S\S ){13})   (\S\S)\s*$", tmux.screen("back"), re.M)
    assert again and sorted(again.group(0).split()) == sorted(hand)  # the same seat, the same tiles
    assert "alice" in tmux.screen("back")
    tmux.keys("back", "Enter")  # and it plays on
    wait_for_first_discard(tmux, "back", hand[-1])


def test_resume_with_no_seat_to_take_back_says_so(tmux, server):
    tmux.open("nothing", f"{PLAY} --server {server.url} --resume")
    tmux.wait_for("nothing", rf"riichi-play: no seat at {re.escape(server.url)} to resume .*\s+EXITED 1")


@pytest.mark.slow
def test_two_players_in_two_terminals_play_a_whole_game_with_two_bots(tmux, server):
    tmux.open("host", f"{PLAY} --server {server.url} --name alice --bots 3 --no-clock")
    code = tmux.wait_for("host", r"Invite code: (\S+)").group(1)
    tmux.open("friend", f"{PLAY} --server {shlex.quote(server.url)} --name bob --join={shlex.quote(code)}")
    tmux.wait_for("host", r"South\s+bob\s+human")
    tmux.keys("friend", "g")
    tmux.keys("host", "g")
    tmux.wait_for("friend", r"East 1")
    seen, _ = play(tmux, ["host", "friend"], "final", timeout=900)
    assert seen.get("result", 0) >= 4
    for name in ("host", "friend"):
        play(tmux, [name], "final", timeout=60)  # (the other may still have the last hand's result open)
        link = tmux.wait_for(name, rf"Replay: (http://127\.0\.0\.1:{server.port}/games/\d+)").group(1)  # issue 25
        tmux.keys(name, "q")
        tmux.wait_for(name, r"EXITED 0")
        screen = tmux.screen(name)
        assert re.search(r"1\. \S+\s+-?\d+\s+[+-]\d+\.\d", screen), screen  # printed again on leaving
        assert f"Replay: {link}" in screen, screen  # the printed standings end with the link too
    tmux.open("history", f"{PLAY} --server {server.url} --history")  # (both terminals said one kept key)
    tmux.wait_for("history", rf"  {re.escape(link)}\n.*EXITED 0", timeout=30)


def test_local_removes_its_servers_folder_on_quitting_unless_it_is_kept(tmux, tmp_path):
    """--local keeps the database and server.log in a temporary folder: removed when riichi-play
    ends (quitting, or its terminal closed), kept and its path printed with --keep-data."""
    def folders() -> list[Path]:
        return sorted(tmp_path.glob("riichi-play-*"))

    for name, extra in (("quits", ""), ("keeps", " --keep-data"), ("hangs-up", "")):
        port = free_port()
        tmux.open(name, f"env TMPDIR={tmp_path} {PLAY} --local --port {port} --bots 3 --no-clock{extra}")
        tmux.wait_for(name, r"Invite code: \S+")
        [folder] = folders()
        assert (folder / "server.log").exists() and (folder / "riichi.sqlite3").exists()
        if name == "hangs-up":
            tmux.run("kill-session", "-t", name)  # the terminal closes: SIGHUP
            deadline = time.monotonic() + 15
            while folders() and time.monotonic() < deadline:
                time.sleep(0.1)
        else:
            tmux.keys(name, "C-q")
            tmux.wait_for(name, r"EXITED 0")
        if name == "keeps":
            said = f"riichi-play: the local server's folder is kept (database, server.log): {folder}EXITED 0"
            assert said in tmux.screen(name).replace("\n", ""), tmux.screen(name)  # the line may wrap
            assert folder.exists()
            shutil.rmtree(folder)
        elif name == "quits":
            assert "folder is kept" not in tmux.screen(name)
        assert folders() == [], name
        deadline = time.monotonic() + 10
        while not port_free(port):  # and the server stopped
            assert time.monotonic() < deadline, f"the local server of {name} still listens"
            time.sleep(0.1)


def pass_calls_until(tmux: Tmux, names: list[str], name: str, pattern: str, timeout: float) -> None:
    """Press Pass on any call offered to `names` until `pattern` shows in `name`: a human
    seat left alone would hold a claim, and the game, up for ever (no clock)."""
    deadline = time.monotonic() + timeout
    while not re.search(pattern, tmux.screen(name)):
        for each in names:
            if "[x] Pass" in tmux.screen(each):
                tmux.keys(each, "x")
        assert time.monotonic() < deadline, f"{pattern!r} did not show in {name}:\n{tmux.screen(name)}"
        time.sleep(0.15)


def words(screen: str) -> str:
    """The screen's words in order, one space apart: a notification wraps its line inside a
    border, which this leaves out."""
    return " ".join(re.findall(r"[\w+\-:.;/()?,']+", screen))


def two_players_at_one_table(tmux: Tmux, url: str, host_options: str = "") -> None:
    """The README's friend flow: alice creates a table with two bots, bob joins it from a
    second terminal of the same machine (the same user, so the same sessions file), and the
    game starts; alice is East (seat 0), bob North (seat 3, the free one)."""
    tmux.open("alice", f"{PLAY} {host_options or '--server ' + url} --name alice --bots 2 --no-clock")
    code = tmux.wait_for("alice", r"Invite code: (\S+)").group(1)
    tmux.open("bob", f"{PLAY} --server {shlex.quote(url)} --name bob --join={shlex.quote(code)}")
    tmux.wait_for("alice", r"North\s+bob\s+human")
    tmux.keys("bob", "g")
    tmux.keys("alice", "g")
    tmux.wait_for("alice", r"turn: you \(East\)")
    tmux.wait_for("bob", r"East 1")


def test_resume_asks_which_seat_and_never_takes_the_seat_of_a_connected_player(tmux, server):
    """Issue 14: alice quit and ran --resume, which took bob's seat (the one token saved, his)
    and threw him off.  Now each seat is kept, --resume asks which, and bob's seat, connected,
    is taken over only when the user says so."""
    two_players_at_one_table(tmux, server.url)
    tmux.keys("alice", "C-q")
    tmux.wait_for("alice", r"Ctrl\+Q again to leave the game")
    assert "--resume --seat 0" in words(tmux.screen("alice")), tmux.screen("alice")
    tmux.keys("alice", "C-q")
    tmux.wait_for("alice", r"EXITED 0")
    tmux.open("back", f"{PLAY} --server {server.url} --resume")
    tmux.wait_for("back", r"Which one do you take back\? \[1-2\]")
    choice = tmux.wait_for("back", r"(\d)\) alice, seat 0 at table").group(1)
    assert re.search(r"\d\) bob, seat 3 at table", tmux.screen("back"))
    tmux.keys("back", choice, "Enter")
    # alice is back in seat 0; either of them may be offered a call first (the wall is not
    # fixed): both pass, until the game waits on bob's discard (no clock), his turn to her too
    tmux.wait_for("back", r"connected to \S+ as alice", timeout=30)
    pass_calls_until(tmux, ["bob", "back"], "bob", r"turn: you \(North\)", timeout=60)
    tmux.wait_for("back", r"turn: bob \(North\)", timeout=30)
    # bob's seat, whose player is connected, is not taken without asking, nor on a "no"
    tmux.open("thief", f"{PLAY} --server {server.url} --resume --seat 3")
    tmux.wait_for("thief", r"The player of bob, seat 3 at table \S+ is connected now .*Take the seat over\?")
    tmux.keys("thief", "n", "Enter")
    tmux.wait_for("thief", r"riichi-play: not taken over: the player of that seat is connected now[^\n]*\n?[^\n]*"
                           r"\s+EXITED 1")
    for name in ("bob", "back"):
        screen = tmux.screen(name)
        assert "EXITED" not in screen and "resumed from another connection" not in screen, screen
    assert re.search(r"turn: you \(North\)", tmux.screen("bob"))
    # a "yes" takes it over: bob's client is told so, and the taker plays seat 3
    tmux.open("taker", f"{PLAY} --server {server.url} --resume --seat 3")
    tmux.wait_for("taker", r"Take the seat over\?")
    tmux.keys("taker", "y", "Enter")
    tmux.wait_for("taker", r"turn: you \(North\)", timeout=30)
    tmux.wait_for("bob", r"the session was resumed from another connection")


def test_quitting_a_local_game_says_it_ends_the_server_and_the_friend_is_told(tmux):
    """Under --local (scripts/run.sh) the quit dialog promised a --resume that cannot work,
    and the friend's client retried for ever; now it says the server has ended."""
    port = free_port()
    two_players_at_one_table(tmux, f"ws://127.0.0.1:{port}", host_options=f"--local --port {port}")
    tmux.keys("alice", "C-q")
    tmux.wait_for("alice", r"Ctrl\+Q again to quit")
    said = words(tmux.screen("alice"))
    assert "quitting ends this local server and its game" in said and "--resume" not in said, said
    tmux.keys("alice", "C-q")
    tmux.wait_for("alice", r"EXITED 0")
    tmux.wait_for("bob", r"the server has ended, and its game with it")
    time.sleep(1.5)  # were it retrying, the status would say so by now
    assert "reconnecting" not in tmux.screen("bob") and "EXITED" not in tmux.screen("bob")
    tmux.keys("bob", "C-q")  # nothing to keep: it quits at once
    tmux.wait_for("bob", r"EXITED 0")
