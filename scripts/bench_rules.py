"""Benchmark: this project's scoring and shanten against the `mahjong` package's, on the same hands.

    python scripts/bench_rules.py --hands 5000 --seed 1

Scoring: the seeded random winning hands of tests/rules/random_hands.py (the ones the
differential test uses), scored by server.rules.scoring.score_hand under EMA2016 and by
mahjong's HandCalculator.estimate_hand_value with the EMA-like OptionalRules.  Shanten:
random 13- and 14-tile hands dealt from shuffled 136-tile walls, by
server.rules.shanten.shanten and by mahjong's Shanten().calculate_shanten.

Inputs are converted before the clock starts (our tiles/melds/WinContext, the package's
136-ids/Meld/HandConfig, 34-count lists for shanten); a timed pass is one loop over a set
of hands calling the scorer.  Both libraries are timed alike, interleaved pass by pass:

- "new hands" (the headline and the ratio): pass i of each library is over set i, hands
  of another seed that neither has seen, so neither gains from anything it kept from an
  earlier pass (our memo tables for shanten, warm caches for both), as in a running server;
- "the same hands again": passes over the compared set, after a first one (in which we
  also report our first pass, "cold").  This flatters our shanten, whose memo keeps the
  big suits of the hands it has seen, and the package's scoring, whose Meld keeps its
  34-kind tiles once converted (a cached_property), so its melds come ready the second time.

The best of --repeat passes is taken for each.  A second scoring line times both
libraries building their input structures in the loop from the same plain data (ours:
Meld and WinContext; the package's: 136-ids, its Meld, HandConfig, with one shared
OptionalRules), on the compared set, best of --repeat passes each.  Before 2026-11-30 the
package's headline figure was its "same hands again" one against our "new hands": that
gave it warm caches we did not have (it runs about 7% faster on hands it has just seen).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.shanten import Shanten  # noqa: E402

from server.rules.config import EMA2016  # noqa: E402
from server.rules.decompose import prefill as prefill_readings  # noqa: E402
from server.rules.scoring import ScoringError, score_hand  # noqa: E402
from server.rules.shanten import shanten  # noqa: E402
from server.rules.context import WinContext  # noqa: E402
from server.rules.melds import Meld  # noqa: E402
from tests.rules.random_hands import mahjong_options, random_hands, to_mahjong  # noqa: E402

GOALS = {"scoring": 10.0, "shanten": 20.0}  # issue 2: x the mahjong package


def _pass(function, items) -> float:
    start = time.perf_counter()
    function(items)
    return time.perf_counter() - start


def score_ours(hands) -> None:
    for tiles, win, melds, ctx in hands:
        try:
            score_hand(tiles, win, melds, ctx, EMA2016)
        except ScoringError:
            pass  # "no yaku": as much work as a win


def score_theirs(inputs) -> None:
    estimate = HandCalculator.estimate_hand_value
    for tiles, win, melds, dora, ura, config in inputs:
        estimate(tiles, win, melds, dora, config, ura_dora_indicators=ura)


def _plain(hand) -> tuple:
    """A hand as plain data: tile kinds, melds as (kind, tiles), the win's facts as a dict."""
    ctx = {name: getattr(hand.ctx, name) for name in WinContext._fields}
    return hand.tiles, hand.win_tile, tuple((m.kind, m.tiles) for m in hand.melds), ctx


def score_ours_built(plain) -> None:
    for tiles, win, melds, ctx in plain:
        try:
            score_hand(tiles, win, tuple(Meld(kind, meld) for kind, meld in melds), WinContext(**ctx), EMA2016)
        except ScoringError:
            pass


def score_theirs_built(hands, options) -> None:
    estimate = HandCalculator.estimate_hand_value
    for hand in hands:
        tiles, win, melds, dora, ura, config = to_mahjong(hand, options)
        estimate(tiles, win, melds, dora, config, ura_dora_indicators=ura)


def shanten_ours(hands) -> None:
    for counts in hands:
        shanten(counts)


def shanten_theirs(hands) -> None:
    calculate = Shanten().calculate_shanten
    for counts in hands:
        calculate(counts)


def deal(count: int, seed: int) -> list[list[int]]:
    """34-count lists of random 13- and 14-tile hands (alternating), each from a shuffled wall."""
    rng = random.Random(seed)
    wall = list(range(136))
    hands = []
    for i in range(count):
        rng.shuffle(wall)
        counts = [0] * 34
        for tile in wall[:13 + i % 2]:
            counts[tile // 4] += 1
        hands.append(counts)
    return hands


def measure(name: str, ours_fn, ours_sets, theirs_fn, theirs_sets, repeat: int) -> bool:
    """Print and return the ratio on new hands; *_sets[0] is the compared set, *_sets[1:] new
    sets of the same size, the same hands for both libraries."""
    n = len(theirs_sets[0])
    cold = _pass(ours_fn, ours_sets[0])
    _pass(theirs_fn, theirs_sets[0])
    ours_new = theirs_new = ours_same = theirs_same = float("inf")
    for i in range(repeat):  # interleaved, so drifts in machine load hit both alike
        ours_new = min(ours_new, _pass(ours_fn, ours_sets[1 + i]))
        theirs_new = min(theirs_new, _pass(theirs_fn, theirs_sets[1 + i]))
        ours_same = min(ours_same, _pass(ours_fn, ours_sets[0]))
        theirs_same = min(theirs_same, _pass(theirs_fn, theirs_sets[0]))
    ratio, goal = theirs_new / ours_new, GOALS[name]
    print(f"{name}: riichi-server {n / ours_new:,.0f} hands/s | mahjong {n / theirs_new:,.0f} hands/s | "
          f"ratio {ratio:.1f}x (goal {goal:.0f}x{'' if ratio >= goal else ', NOT MET'}), both on new hands")
    print(f"  the same hands again: riichi-server {n / ours_same:,.0f} | mahjong {n / theirs_same:,.0f} | "
          f"{theirs_same / ours_same:.1f}x; riichi-server's first pass, cold: {n / cold:,.0f} hands/s")
    return ratio >= goal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="winning hands to score, and hands for shanten")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="timed passes per library (the best is taken)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a ratio is below its goal")
    args = parser.parse_args(argv)
    fresh_seeds = [args.seed * 1000 + 1 + i for i in range(args.repeat)]

    start = time.perf_counter()
    prefill_readings()
    print(f"readings table built in {time.perf_counter() - start:.2f} s before timing, as the server and "
          f"riichi-score --jsonl build it at start")
    gc.freeze()  # as the server does after its start-up tables (server.app.tune_gc): collections skip them
    hands = random_hands(args.hands, args.seed)
    hand_sets = [hands] + [random_hands(args.hands, s) for s in fresh_seeds]
    ours_sets = [[(h.tiles, h.win_tile, h.melds, h.ctx) for h in hs] for hs in hand_sets]
    theirs_sets = [[to_mahjong(h) for h in hs] for hs in hand_sets]
    print(f"{args.hands:,} random winning hands (seed {args.seed}); best of {args.repeat} passes")
    ok = measure("scoring", score_ours, ours_sets, score_theirs, theirs_sets, args.repeat)
    wins = sum(1 for h in hands if _wins(h))  # counted after timing, so the first pass above is a first sight
    print(f"  of the compared hands {wins:,} have a yaku and {args.hands - wins:,} are 'no yaku' "
          f"(an error, after as much work as a win)")
    built_ours = built_theirs = float("inf")
    plain = [_plain(h) for h in hands]
    options = mahjong_options()
    for _ in range(args.repeat):
        built_ours = min(built_ours, _pass(score_ours_built, plain))
        built_theirs = min(built_theirs, _pass(lambda hs: score_theirs_built(hs, options), hands))
    print(f"  each library building its inputs in the loop (ours: Meld and WinContext; the package's: "
          f"136-ids, Meld, HandConfig): riichi-server {args.hands / built_ours:,.0f} hands/s | "
          f"mahjong {args.hands / built_theirs:,.0f} hands/s | {built_theirs / built_ours:.1f}x")

    dealt_sets = [deal(args.hands, s) for s in [args.seed] + fresh_seeds]
    ok &= measure("shanten", shanten_ours, dealt_sets, shanten_theirs, [[list(c) for c in d] for d in dealt_sets],
                  args.repeat)
    dealt = dealt_sets[0]
    same = sum(1 for c in dealt if shanten(c) == Shanten.calculate_shanten(c))
    print(f"shanten agreement: {same:,}/{len(dealt):,} hands (docs/RULINGS.md: tenpai only on a fifth tile is not "
          f"tenpai, so ours may be one worse where four of a kind are held)")
    return 1 if args.check and not ok else 0


def _wins(hand) -> bool:
    try:
        score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, EMA2016)
    except ScoringError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
