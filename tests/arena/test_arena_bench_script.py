"""scripts/arena_bench.py: duplicate sets a second, built-in against built-in."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_arena_bench_prints_sets_per_second():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "arena_bench.py"), "--sets", "1", "--workers", "1"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert re.search(r"1 worker\(s\): [\d.]+ sets/s, [\d.]+ games/s", out.stdout)
