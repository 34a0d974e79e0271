"""Benchmark: `riichi-score --jsonl` in bulk, end to end, against the `mahjong` package in-process.

    python scripts/bench_score_jsonl.py --hands 10000 --seed 1

The seeded random winning hands of tests/rules/random_hands.py are written as riichi-score
requests (docs/riichi-score.md), one JSON line each as tests/cli/jsonl_requests.request_for
writes them, to a file.  Two things are timed, interleaved run by run, and the best of
--repeat runs is taken for each:

- ours: `riichi-score --jsonl < requests.jsonl > answers.jsonl` as a subprocess, from the
  fork to its exit: the interpreter's start, the imports, whatever tables it builds, reading
  and parsing every line, scoring, and writing every answer;
- the package's: the same requests, already parsed from JSON (json.loads before the clock),
  each turned into the package's inputs (the tile strings read, 136-ids handed out, its
  Meld and HandConfig built, one shared OptionalRules as close to EMA 2016 as it goes) and
  scored by HandCalculator.estimate_hand_value, in this process, with no start-up at all.

Ours is timed twice: as a user runs it (its default shares a large input among one process
per core) and in one process (--workers 1), so that the ratio per core is there too.
The package is thus spared what we are not: the interpreter's start, its imports and the
JSON of both the requests and the answers.  riichi-score runs as it does for a user: one
untimed run first builds its readings cache (reported as "the first run") and lets Python
keep its bytecode (see user_environment).  The ratio is the package's time over ours.  The
start-up line is riichi-score --jsonl on an empty input, the part of ours no hand needs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mahjong.constants import EAST  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig  # noqa: E402
from mahjong.meld import Meld as MjMeld  # noqa: E402

from server.cli.score_workers import usable_cores  # noqa: E402
from server.rules.melds import MeldKind, parse_meld  # noqa: E402
from server.rules.tiles import kind_of, parse_tiles  # noqa: E402
from tests.cli.jsonl_requests import request_for  # noqa: E402
from tests.rules.random_hands import mahjong_options, random_hands  # noqa: E402

GOAL = 5.0  # issue 14: x the mahjong package, end to end on 10,000 hands
SCRIPT = Path(sys.executable).parent / "riichi-score"
WINDS = "ESWN"
MJ_MELDS = {MeldKind.CHI: (MjMeld.CHI, True), MeldKind.PON: (MjMeld.PON, True), MeldKind.KAN: (MjMeld.KAN, True),
            MeldKind.ANKAN: (MjMeld.KAN, False), MeldKind.KAKAN: (MjMeld.SHOUMINKAN, True)}


def mahjong_inputs(request: dict[str, Any], options: Any) -> tuple:
    """A parsed request as the package's inputs: (tiles136, win136, melds, dora136, ura136, config)."""
    used = [0] * 34

    def take(kind: int) -> int:
        used[kind] += 1
        return kind * 4 + used[kind] - 1

    concealed = [take(kind_of(t)) for t in parse_tiles(request["hand"])]
    win_kind = kind_of(parse_tiles(request["win"])[0])
    win = next(t for t in concealed if t // 4 == win_kind)
    tiles, melds = list(concealed), []
    for text in request.get("melds", ()):
        meld = parse_meld(text)
        ids = [take(kind_of(t)) for t in sorted(meld.tiles)]
        tiles += ids
        meld_type, opened = MJ_MELDS[meld.kind]
        melds.append(MjMeld(meld_type=meld_type, tiles=ids, opened=opened))
    dora = [take(kind_of(parse_tiles(t)[0])) for t in request.get("dora", ())]
    ura = [take(kind_of(parse_tiles(t)[0])) for t in request.get("ura", ())]
    get = request.get
    riichi = get("riichi", False) or get("double_riichi", False)
    config = HandConfig(
        is_tsumo=get("tsumo", False), is_riichi=riichi, is_daburu_riichi=get("double_riichi", False),
        is_ippatsu=get("ippatsu", False), is_rinshan=get("rinshan", False), is_chankan=get("chankan", False),
        is_haitei=get("haitei", False), is_houtei=get("houtei", False), is_tenhou=get("tenhou", False),
        is_chiihou=get("chiihou", False), is_renhou=get("renhou", False),
        player_wind=EAST + WINDS.index(get("seat", "E")), round_wind=EAST + WINDS.index(get("round", "E")),
        tsumi_number=get("honba", 0), kyoutaku_number=get("sticks", 0), options=options)
    return tiles, win, melds, dora, ura, config


def theirs(requests: list[dict[str, Any]]) -> tuple[float, int]:
    """(seconds, hands with a score) for the package over the parsed requests."""
    options = mahjong_options()
    estimate = HandCalculator.estimate_hand_value
    scored = 0
    start = time.perf_counter()
    for request in requests:
        tiles, win, melds, dora, ura, config = mahjong_inputs(request, options)
        if estimate(tiles, win, melds, dora, config, ura_dora_indicators=ura).error is None:
            scored += 1
    return time.perf_counter() - start, scored


def ours(requests_file: Path, answers_file: Path, env: dict[str, str], *options: str) -> float:
    """Seconds for `riichi-score --jsonl [options] < requests_file > answers_file`, start to exit."""
    with open(requests_file, "rb") as stdin, open(answers_file, "wb") as stdout:
        start = time.perf_counter()
        subprocess.run([str(SCRIPT), "--jsonl", *options], stdin=stdin, stdout=stdout, check=True, env=env)
        return time.perf_counter() - start


def user_environment(cache: Path) -> dict[str, str]:
    """This environment as a user's is: Python may keep the bytecode it compiles (this
    machine sets PYTHONDONTWRITEBYTECODE, which makes every start compile every module
    again); the readings cache goes to a folder of the benchmark's own."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_CACHE_HOME"] = str(cache)
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="random winning hands to score")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each (the best is taken)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the ratio is below the goal")
    args = parser.parse_args(argv)
    lines = [json.dumps(request_for(h, i)) for i, h in enumerate(random_hands(args.hands, args.seed))]
    requests = [json.loads(line) for line in lines]
    with tempfile.TemporaryDirectory() as folder:
        requests_file, empty, answers_file = Path(folder, "requests.jsonl"), Path(folder, "empty"), Path(folder, "a")
        requests_file.write_text("".join(line + "\n" for line in lines))
        empty.write_bytes(b"")
        env = user_environment(Path(folder, "cache"))
        cold = ours(requests_file, answers_file, env)  # builds the readings cache (and bytecode, if none yet)
        best_ours = best_one = best_theirs = best_start = float("inf")
        for _ in range(args.repeat):  # interleaved, so drifts in machine load hit both alike
            best_ours = min(best_ours, ours(requests_file, answers_file, env))
            best_one = min(best_one, ours(requests_file, Path(folder, "one"), env, "--workers", "1"))
            seconds, scored = theirs(requests)
            best_theirs = min(best_theirs, seconds)
            best_start = min(best_start, ours(empty, Path(folder, "nothing"), env))
        answers = [json.loads(line) for line in answers_file.read_text().splitlines()]
        same = Path(folder, "one").read_bytes() == answers_file.read_bytes()
    ok = sum(1 for a in answers if a["ok"])
    ratio = best_theirs / best_ours
    print(f"{args.hands:,} random winning hands (seed {args.seed}) as JSON lines; best of {args.repeat} runs each")
    print(f"riichi-score --jsonl: {best_ours:.3f} s end to end, start included ({args.hands / best_ours:,.0f} hands/s)"
          f" | mahjong in-process from parsed JSON: {best_theirs:.3f} s ({args.hands / best_theirs:,.0f} hands/s)"
          f" | ratio {ratio:.1f}x (goal {GOAL:.0f}x{'' if ratio >= GOAL else ', NOT MET'})")
    print(f"  one process (--workers 1): {best_one:.3f} s, ratio {best_theirs / best_one:.1f}x; the default shares"
          f" a large input among {usable_cores()} processes, one per core here (load average"
          f" {os.getloadavg()[0]:.2f} at the end)")
    print(f"  riichi-score --jsonl on an empty input (start and exit only): {best_start:.3f} s; the first run, "
          f"which builds the readings cache: {cold:.3f} s")
    print(f"  answers: {len(answers):,} lines, {ok:,} scored and {len(answers) - ok:,} errors ('no yaku');"
          f" the package scored {scored:,}")
    if not same:
        print("riichi-score --workers 1 answered otherwise than the default", file=sys.stderr)
        return 1
    if len(answers) != args.hands:
        print(f"riichi-score wrote {len(answers):,} answers for {args.hands:,} requests", file=sys.stderr)
        return 1
    return 1 if args.check and ratio < GOAL else 0


if __name__ == "__main__":
    sys.exit(main())
