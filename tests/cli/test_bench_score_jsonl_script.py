"""scripts/bench_score_jsonl.py, the bulk-scoring benchmark of issue 14, run for real on a few
hands.  Its figures are not checked (speed is a benchmark's business, never a test's): what
is checked is that it runs both sides and prints the lines docs/riichi-score.md quotes, and
that the ratio it prints is the one of the two times it prints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def ratio_agrees(theirs: float, ours: float, printed: float) -> bool:
    """The printed ratio (one decimal) is the one of two times printed to the millisecond: each
    time may be off by half a millisecond, and the ratio by half a tenth."""
    low = (theirs - 0.0005) / (ours + 0.0005)
    high = (theirs + 0.0005) / max(ours - 0.0005, 1e-9)
    return low - 0.05 - 1e-9 <= printed <= high + 0.05 + 1e-9


def test_the_benchmark_times_riichi_score_and_the_package_on_the_same_requests() -> None:
    result = subprocess.run([sys.executable, "scripts/bench_score_jsonl.py", "--hands", "200", "--repeat", "1"],
                            capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"^200 random winning hands \(seed 1\) as JSON lines; best of 1 runs each$", out, re.M), out
    headline = re.search(r"^riichi-score --jsonl: ([\d.]+) s end to end, start included \([\d,]+ hands/s\) \| "
                         r"mahjong in-process from parsed JSON: ([\d.]+) s \([\d,]+ hands/s\) \| "
                         r"ratio ([\d.]+)x \(goal 5x(, NOT MET)?\)$", out, re.M)
    assert headline, out
    ours, theirs, ratio = (float(headline[i]) for i in (1, 2, 3))
    assert ratio_agrees(theirs, ours, ratio), out
    one = re.search(r"^  one process \(--workers 1\): ([\d.]+) s, ratio ([\d.]+)x; the default shares a large input "
                    r"among \d+ processes, one per core here \(load average [\d.]+ at the end\)$", out, re.M)
    assert one and ratio_agrees(theirs, float(one[1]), float(one[2])), out
    assert re.search(r"^  riichi-score --jsonl on an empty input \(start and exit only\): [\d.]+ s; "
                     r"the first run, which builds the readings cache: [\d.]+ s$", out, re.M), out
    scored = re.search(r"^  answers: 200 lines, (\d+) scored and (\d+) errors \('no yaku'\); "
                       r"the package scored (\d+)$", out, re.M)
    assert scored and int(scored[1]) + int(scored[2]) == 200 and scored[1] == scored[3], out
