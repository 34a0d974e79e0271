"""scripts/selfplay.py (and a smoke run of scripts/bench_engine.py) as a user runs them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SELFPLAY = ROOT / "scripts" / "selfplay.py"
BENCH = ROOT / "scripts" / "bench_engine.py"


def run(script: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    # From another directory, so the script must put the checkout on sys.path itself.
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          cwd=cwd or ROOT.parent, timeout=300)


def section(out: str, title: str) -> dict[str, int]:
    """The 'name  count' lines under a heading that starts with `title`."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    rows = {}
    for line in lines[start + 1:]:
        m = re.match(r"^  (\S.*?)\s+(\d+)(\s|$)", line)
        if not m:
            break
        rows[m.group(1)] = int(m.group(2))
    return rows


def stable(out: str) -> str:
    """The output without its timing lines."""
    return "\n".join(line for line in out.splitlines() if not line.startswith("time:"))


@pytest.mark.parametrize("rules,players", [("ema2016", "shanten"), ("tenhou", "mixed")])
def test_selfplay_reports_games(rules: str, players: str) -> None:
    proc = run(SELFPLAY, "--games", "2", "--seed", "7", "--rules", rules, "--players", players)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith(f"selfplay: 2 games, rules {rules}, players {players}, seed 7")
    m = re.search(r"^time: [\d.]+ s, ([\d.]+) games/s, [\d,]+ decisions/s$", out, re.M)
    assert m and float(m.group(1)) > 0, out
    assert re.search(r"^errors: 0$", out, re.M), out
    hands = int(re.search(r"^hands ended \((\d+) hands\):$", out, re.M).group(1))
    assert hands >= 8  # two whole games: at least East and South once each
    ends = section(out, "hands ended")
    assert sum(ends.values()) == hands, ends
    assert set(ends) <= {"win by tsumo", "win by ron", "win by ron (2 winners)", "win by ron (3 winners)",
                         "exhaustive draw", "exhaustive draw, nagashi mangan", "abortive draw: nine_terminals",
                         "abortive draw: four_winds", "abortive draw: four_riichi", "abortive draw: four_kongs",
                         "abortive draw: triple_ron"}, ends
    winners = re.search(r"^winners: (\d+) \(tsumo (\d+), ron (\d+)\)$", out, re.M)
    assert winners and int(winners.group(1)) == int(winners.group(2)) + int(winners.group(3))
    assert int(winners.group(1)) > 0
    yaku = section(out, "yaku (per winner")
    assert yaku and all(n <= int(winners.group(1)) for n in yaku.values()), yaku
    calls = section(out, "calls and riichi")
    assert set(calls) == {"riichi", "chi", "pon", "daiminkan", "ankan", "kakan"}
    assert "[selfplay] done: 2 games" in proc.stderr
    if players == "mixed":
        assert "by player" in out and "shanten" in out and "random" in out


def test_selfplay_is_reproducible() -> None:
    a = run(SELFPLAY, "--games", "2", "--seed", "3", "--players", "mixed")
    b = run(SELFPLAY, "--games", "2", "--seed", "3", "--players", "mixed")
    assert a.returncode == b.returncode == 0
    assert stable(a.stdout) == stable(b.stdout)


def test_selfplay_rejects_bad_arguments() -> None:
    proc = run(SELFPLAY, "--rules", "mcr")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
    proc = run(SELFPLAY, "--players", "smart")
    assert proc.returncode == 2


def test_bench_engine_smoke() -> None:
    proc = run(BENCH, "--only", "ours", "--games", "1", "--warmup", "0")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^ours, ema2016 \(pure Python\)\s+[\d.]+ games/s", proc.stdout, re.M), proc.stdout
    assert re.search(r"^ours, tenhou \(pure Python\)\s+[\d.]+ games/s", proc.stdout, re.M), proc.stdout
