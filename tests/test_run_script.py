"""scripts/run.sh, run for real with a home of the test's own: `--web --port N` prints the
address its server really listens on, and every form keeps its finished games in one
database in the user's data folder, which `riichi-server games` lists with no --db."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.harness import free_port

ROOT = Path(__file__).resolve().parent.parent
SERVER = Path(sys.executable).parent / "riichi-server"


def a_home(tmp_path: Path) -> dict[str, str]:
    """The environment with HOME and XDG_DATA_HOME in tmp_path (never the user's own)."""
    (tmp_path / "home").mkdir(exist_ok=True)
    return {**os.environ, "HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data"),
            "TMPDIR": str(tmp_path)}


def test_run_sh_web_with_a_port_prints_the_link_of_that_port_and_where_the_games_are_kept(tmp_path):
    port = free_port()
    proc = subprocess.Popen(["bash", str(ROOT / "scripts" / "run.sh"), "--web", "--port", str(port)], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=a_home(tmp_path),
                            # Ctrl+C as at a terminal: a shell cannot trap a SIGINT it was started ignoring
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        link = re.fullmatch(r"Open (\S+) in a browser to play \(Ctrl\+C stops the server\)\.\n", proc.stdout.readline())
        assert link and link[1] == f"http://127.0.0.1:{port}/", link
        kept = proc.stdout.readline()
        assert f"kept in {tmp_path / 'data' / 'riichi-server' / 'riichi.sqlite3'}:" in kept, kept
        with urllib.request.urlopen(link[1], timeout=10) as page:  # the server listens there already
            assert page.status == 200 and b"Create a table" in page.read()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)
    assert (tmp_path / "data" / "riichi-server" / "riichi.sqlite3").is_file()  # kept when it stops


def test_games_played_with_run_sh_are_kept_and_riichi_server_games_lists_them_with_no_db(tmp_path):
    env = a_home(tmp_path)
    db = tmp_path / "data" / "riichi-server" / "riichi.sqlite3"
    for _ in range(2):
        played = subprocess.run(["bash", str(ROOT / "scripts" / "run.sh"), "--plain", "--rules", "tenhou"],
                                capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
        assert played.returncode == 0, played.stdout + played.stderr
        assert played.stdout.splitlines()[0] == f"Your finished games are kept in {db}: list them with" \
                                                " .venv/bin/riichi-server games"
    listed = subprocess.run([str(SERVER), "games"], capture_output=True, text=True, timeout=60, env=env,
                            cwd=tmp_path)  # (a folder with no riichi.sqlite3 of its own)
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr == f"riichi-server: reading {db} (the games played with scripts/run.sh; give --db for" \
                            " another)\n"
    rows = listed.stdout.splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["1", "2"] and all("you, builtin-bot-1" in row for row in rows)
