"""scripts/arena_bench.py: duplicate sets a second, built-in against built-in."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


BENCH = ROOT / "scripts" / "arena_bench.py"
ARGS = ["--sets", "1", "--workers", "1", "--engine-games", "2", "--rules", "tenhou"]


def test_arena_bench_prints_sets_per_second_and_the_engines_games_per_second():
    out = subprocess.run([sys.executable, str(BENCH), *ARGS], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert re.search(r"1 worker\(s\): [\d.]+ sets/s, [\d.]+ games/s", out.stdout)
    assert re.search(r"ours, tenhou \(pure Python\) +[\d.]+ games/s", out.stdout)
    # riichienv (the pip extra `bench`) measured beside it in the same run, or one line why not
    measured = re.search(r"riichienv [\d.]+ 4p-red-half \(Rust core\) +[\d.]+ games/s", out.stdout)
    assert measured and "/ riichienv as it comes" in out.stdout or "riichienv is not measured: " in out.stdout


def test_arena_bench_without_riichienv_says_so_in_one_line_and_goes_on():
    run = ("import runpy, sys; sys.modules['riichienv'] = None; "  # as if it were not installed
           f"sys.argv = [{str(BENCH)!r}, *{ARGS!r}]; runpy.run_path({str(BENCH)!r}, run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if "riichienv" in line]
    assert len(lines) == 1 and "riichienv is not measured" in lines[0]
    assert "sets/s" in out.stdout and "ours, tenhou" in out.stdout
