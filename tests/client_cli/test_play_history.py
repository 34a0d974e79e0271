"""riichi-play --history (issue 25, "Players who come back"): "`--history` lists the player's
games, and the result of the game ends with the link."  Against a real riichi-server process:
a game played to its end by a bot that says the player key riichi-play keeps, then the
command itself, as a user runs it (it needs no terminal)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import make_bot
from client_cli.play.history import HistoryProblem, read_history
from client_cli.play.local import free_port
from tests.client_cli.tmux import PLAY

pytestmark = pytest.mark.server(shared=True)

KEY = "history-test-key-0123456789"


def riichi_play(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """riichi-play run with `config` as its XDG_CONFIG_HOME (where its player key is kept)."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(config), "USER": "histo"}
    return subprocess.run([str(PLAY), *args], capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)


def keep_key(config: Path, key: str) -> None:
    folder = config / "riichi-server"
    folder.mkdir(parents=True)
    (folder / "player-key").write_text(key + "\n")


@pytest.mark.asyncio
async def test_history_lists_a_finished_game_with_its_place_score_and_link(server, tmp_path):
    result = await play(make_bot("builtin", "histo", seed=25), server.url, server_bots=3, rules="tenhou",
                        clock={"none": True}, player_key=KEY, timeout=120)
    assert result.final is not None and result.game is not None, result.reason
    keep_key(tmp_path, KEY)
    shown = riichi_play(tmp_path, "--server", server.url, "--history")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("Games of histo (player ") and lines[1].split() == [
        "date", "game", "place", "score", "total", "labels", "link"]
    [row] = [line for line in lines[2:] if line.endswith(f"/games/{result.game}")]
    place = result.final["places"][result.seat] + 1
    cells = row.split()
    assert cells[2] == str(result.game) and cells[3] == {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[place]
    assert cells[4] == str(result.final["scores"][result.seat])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", cells[0])
    assert cells[-1] == f"http://127.0.0.1:{server.port}/games/{result.game}"


def test_history_with_no_key_kept_says_this_user_has_not_played_and_makes_no_key(server, tmp_path):
    shown = riichi_play(tmp_path, "--server", server.url, "--history")
    assert shown.returncode == 1 and shown.stdout == ""
    assert shown.stderr.startswith("riichi-play: you have not played on this server yet"), shown.stderr
    assert not (tmp_path / "riichi-server" / "player-key").exists()


def test_history_of_a_key_this_server_has_no_game_of_says_so(server, tmp_path):
    keep_key(tmp_path, "a-key-of-no-games-0123456789")
    shown = riichi_play(tmp_path, "--server", server.url, "--history")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("you have not played on this server yet"), shown.stdout


def test_history_of_a_server_that_is_not_there_is_one_line_and_exit_1(tmp_path):
    keep_key(tmp_path, KEY)
    shown = riichi_play(tmp_path, "--server", f"ws://127.0.0.1:{free_port()}", "--history")
    assert shown.returncode == 1 and shown.stdout == ""
    assert re.fullmatch(r"riichi-play: cannot reach the server at \S+: connection refused .*\n", shown.stderr), \
        shown.stderr


@pytest.mark.server("--require-player-key")
def test_history_with_a_key_a_closed_server_did_not_issue_says_what_to_give(server, tmp_path):
    keep_key(tmp_path, KEY)
    shown = riichi_play(tmp_path, "--server", server.url, "--history")
    assert shown.returncode == 1
    assert "riichi-play --player-key KEY --history" in shown.stderr, shown.stderr


def test_a_player_the_server_does_not_know_is_one_line_that_says_so(server):
    with pytest.raises(HistoryProblem, match=rf"^the server at {re.escape(server.url)} knows no player nobody"
                                             r" \(unknown player\)$"):
        read_history(server.url, "nobody")
