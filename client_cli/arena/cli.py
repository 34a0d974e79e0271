"""riichi-arena: bots against each other in duplicate sets, with intervals (docs/arena.md)."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from client_cli.arena.play import ArenaConfig
from client_cli.arena.pool import run_sets
from client_cli.arena.progress import Progress
from client_cli.arena.report import json_report, text_report
from client_cli.arena.specs import BotSpec, SpecError, check_spec, parse_spec
from client_cli.arena.tally import Measure, Tally
from client_cli.mjai.bridge import DEFAULT_TIMEOUT, FIRST_TIMEOUT
from server.rules.config import PRESETS

EPILOG = """\
bots: builtin[:strength]  the built-in strategy; strength 0-100 = share of its own decisions, the rest random
      random              a uniform choice among the legal actions
      shanten             the older greedy player (no defence)
      py:module:Class     an SDK bot (client_cli.bot.sdk.Bot), e.g. py:examples.simple_bot:SimpleBot
      mjai:COMMAND        an mjai bot process, e.g. mjai:"{python} -m client_cli.mjai.example_bot"

With two bots the first plays against three copies of the second; with four, all four.
Each set is one seed played four times with the seats rotated, so every bot meets every
wall from every seat.  Intervals are 95%, clustered by set.  Ctrl+C prints what is done.

examples:
  riichi-arena builtin random --sets 50
  riichi-arena builtin:70 builtin --sets 200 --rules tenhou --seed test1 --json
  riichi-arena mjai:"{python} -m client_cli.mjai.example_bot" builtin --sets 2 --out games/
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="riichi-arena", description=__doc__, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bots", nargs="+", metavar="BOT", help="two or four bots (forms below)")
    p.add_argument("--sets", type=int, default=10, help="duplicate sets to play, four games each (default 10)")
    p.add_argument("--rules", default="ema2016", choices=sorted(PRESETS), help="the rules preset (default ema2016)")
    p.add_argument("--seed", help="the run's seed text: the same seed deals the same walls "
                                  "(default: a fresh one, printed)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="processes playing sets (default: every core)")
    p.add_argument("--out", metavar="DIR", help="write each game's record there (riichi-replay reads them)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help=f"seconds a bot (SDK or mjai) has for a decision before it is played for "
                        f"(default {DEFAULT_TIMEOUT:g}; {FIRST_TIMEOUT:g} for its first)")
    p.add_argument("--strict", action="store_true",
                   help="a bot that crashes, times out or answers illegally pays mjai.app's chombo (its hand void, "
                        "a mangan-sized penalty, the game goes on from the next hand) instead of being played for")
    p.add_argument("--json", action="store_true", help="print the result as JSON instead of text")
    p.add_argument("--no-progress", action="store_true", help="no progress line on standard error")
    return p


def named_specs(texts: Sequence[str]) -> tuple[BotSpec, ...]:
    """The bots, each named by its argument (a repeated one numbered: builtin, builtin#2)."""
    specs, seen = [], {}
    for text in texts:
        spec = parse_spec(text)
        check_spec(spec)
        seen[text] = seen.get(text, 0) + 1
        if seen[text] > 1:
            spec = BotSpec(spec.kind, f"{text}#{seen[text]}", spec.strength, spec.module, spec.cls, spec.command)
        specs.append(spec)
    return tuple(specs)


def _summary(tally: Tally) -> str:
    """The progress line's figures: for two bots their difference, else the first bot's."""
    if tally.sets < 2:
        return "the intervals start at two sets"
    if len(tally.bots) == 2:
        place, result = tally.difference(Measure.PLACE), tally.difference(Measure.RESULT)
        label = f"{tally.bots[0].name} - {tally.bots[1].name}"
    else:
        place, result = tally.bots[0].place(), tally.bots[0].result()
        label = tally.bots[0].name
    return (f"{label}: place {place.mean:+.3f} ± {place.half_width:.3f}, "
            f"result {result.mean:+.1f} ± {result.half_width:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if len(args.bots) not in (2, 4):
        parser.error(f"give two or four bots, not {len(args.bots)}: riichi-arena A B, or A B C D")
    if args.sets < 1 or args.workers < 1:
        parser.error("--sets and --workers are at least 1")
    try:
        specs = named_specs(args.bots)
    except SpecError as error:
        parser.error(str(error))
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    config = ArenaConfig(specs, args.rules, seed, args.out, args.timeout, args.strict)
    tally = Tally([s.text for s in specs])
    progress = Progress(args.sets, sys.stderr, enabled=not args.no_progress)
    started = time.monotonic()
    interrupted = False
    sets = run_sets(config, range(args.sets), min(args.workers, args.sets))
    try:
        for outcome in sets:
            tally.add(outcome)
            progress.update(tally.sets, _summary(tally))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sets.close()
        progress.finish()
    seconds = time.monotonic() - started
    return _print(args, tally, seed, seconds, interrupted)


def _print(args: argparse.Namespace, tally: Tally, seed: str, seconds: float, interrupted: bool) -> int:
    run: dict[str, Any] = {"rules": args.rules, "seed": seed, "strict": args.strict, "sets_asked": args.sets,
                           "seconds": round(seconds, 2), "interrupted": interrupted}
    if args.json:
        print(json.dumps(json_report(tally, run), indent=2))
    else:
        stopped = f" (interrupted: {tally.sets} of {args.sets} sets)" if interrupted else ""
        strict = ", strict" if args.strict else ""
        header = (f"riichi-arena, {args.rules}{strict}, seed {seed}: {tally.sets} sets, {4 * tally.sets} games "
                  f"in {seconds:.1f} s{stopped}")
        print(text_report(tally, header) if tally.sets else header + "\nno set finished")
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
