"""scripts/bench_rules.py, the speed benchmark of issue 2, run for real on a few hands.

Its figures are not checked (speed is a benchmark's business, never a test's); what is
checked is that it runs, times both libraries on new hands and on the same hands again,
and prints every line its README section quotes.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_benchmark_prints_both_libraries_on_new_and_on_the_same_hands() -> None:
    result = subprocess.run([sys.executable, "scripts/bench_rules.py", "--hands", "300", "--repeat", "2"],
                            capture_output=True, text=True, cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for name in ("scoring", "shanten"):
        headline = re.search(rf"^{name}: riichi-server ([\d,]+) hands/s \| mahjong ([\d,]+) hands/s \| "
                             rf"ratio ([\d.]+)x \(goal \d+x(, NOT MET)?\), both on new hands$", out, re.M)
        assert headline, out
        ours, theirs, ratio = (float(headline[i].replace(",", "")) for i in (1, 2, 3))
        assert abs(ours / theirs - ratio) < 0.06 * ratio  # the ratio is of the two rates shown (rounded)
    assert len(re.findall(r"^  the same hands again: riichi-server [\d,]+ \| mahjong [\d,]+ \| [\d.]+x; "
                          r"riichi-server's first pass, cold: [\d,]+ hands/s$", out, re.M)) == 2, out
    assert re.search(r"^  of the compared hands ([\d,]+) have a yaku and ([\d,]+) are 'no yaku'", out, re.M), out
    assert re.search(r"^  each library building its inputs in the loop .* riichi-server [\d,]+ hands/s \| "
                     r"mahjong [\d,]+ hands/s \| [\d.]+x$", out, re.M), out
    assert re.search(r"^shanten agreement: [\d,]+/300 hands", out, re.M), out
