"""scripts/bot_strength.py: whole in-process games through the SDK's decision code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bot_strength_reports_placement_against_random_bots_and_how_hands_end():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bot_strength.py"), "--games", "8", "--procs", "2"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    placement = float(re.search(r"average placement\s+([\d.]+)", text).group(1))
    assert 1.0 <= placement < 1.5  # the built-in bot beats three random bots by far
    assert "8 games" in text and "16/16 games" in out.stderr
    shares = [float(x) for x in re.findall(r"^  (?:ron|tsumo|exhaustive draw|abortive draw)\s+([\d.]+)%", text, re.M)]
    assert len(shares) == 4 and abs(sum(shares) - 100) < 0.5
    assert re.search(r"wins [\d.]+%, deals in [\d.]+%", text)
    assert re.search(r"built-in bot: \d+ us per decision", text)
