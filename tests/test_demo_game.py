"""The README's first command plays a whole game: scripts/demo_game.py against a real server process."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_demo_game_plays_a_whole_game_on_a_real_server():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "demo_game.py"), "--rules", "tenhou"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("riichi-server on ws://127.0.0.1:")
    assert any(line.startswith("E1 honba 0") for line in lines)
    assert "final standings:" in lines
    standings = lines[lines.index("final standings:") + 1:lines.index("final standings:") + 5]
    assert [line.split(".")[0].strip() for line in standings] == ["1", "2", "3", "4"]
    assert "is stored; export it with" in lines[-1]
