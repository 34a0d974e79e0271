"""The README's first command: scripts/run.sh opens riichi-play at a local table with three bots
(driven under tmux, with a friend taking a seat), and its --plain form (scripts/demo_game.py)
plays a whole game without a screen, both against a real server process."""

import os
import socket
import subprocess
import sys

import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_demo_game_plays_a_whole_game_on_a_real_server(tmp_path):
    # its database folder is kept on purpose (the last line says how to export the game):
    # made under tmp_path, so that test runs do not pile them up in /tmp
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "demo_game.py"), "--rules", "tenhou"],
                            capture_output=True, text=True, timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("riichi-server on ws://127.0.0.1:")
    assert any(line.startswith("E1 honba 0") for line in lines)
    assert "final standings:" in lines
    standings = lines[lines.index("final standings:") + 1:lines.index("final standings:") + 5]
    assert [line.split(".")[0].strip() for line in standings] == ["1", "2", "3", "4"]
    assert "is stored; export it with" in lines[-1]
    assert Path(lines[-1].split("--db ")[1].split()[0]).is_file() and str(tmp_path) in lines[-1]


def test_the_first_command_opens_riichi_play_at_a_table_with_three_bots_and_a_friend_takes_a_seat():
    """scripts/run.sh under tmux: the table with three bots and the invite code show; the
    command shown for a friend, typed in a second terminal, takes a bot's seat; both get
    ready and play a hand; quitting stops the local server."""

    from client_cli.play.local import free_port, port_free
    from tests.client_cli.tmux import Tmux, play

    port = free_port()
    tmux = Tmux()
    try:
        tmux.open("host", f"scripts/run.sh --port {port} --name alice --no-clock")
        code = tmux.wait_for("host", r"Invite code: (\S+)", timeout=60).group(1)
        tmux.wait_for("host", r"(?s)(bot\s+ready.*){3}")  # (the bots are seated after the table shows)
        command = tmux.wait_for("host", r"(\S*riichi-play --server \S+ --join[ =]\S+)").group(1)
        assert command.endswith(code) and f"ws://127.0.0.1:{port}" in command  # --join=CODE if CODE starts with -
        tmux.open("friend", f"{command} --name bob")
        tmux.wait_for("host", r"South\s+bob\s+human")
        tmux.keys("friend", "g")
        tmux.keys("host", "g")
        tmux.wait_for("friend", r"East 1")
        play(tmux, ["host", "friend"], "result", timeout=120)
        # the game goes on: Ctrl+Q asks again (the host's quitting ends its local server)
        for name, asked in (("friend", "leave the game"), ("host", "quit: quitting ends this local server")):
            tmux.keys(name, "C-q")
            tmux.wait_for(name, rf"Ctrl\+Q again to {asked}")
            tmux.keys(name, "C-q")
            tmux.wait_for(name, r"EXITED 0")
        with pytest.raises(ConnectionRefusedError):  # the local server stopped with riichi-play
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        assert port_free(port)
    finally:
        tmux.close()
