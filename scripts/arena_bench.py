"""Benchmark: duplicate sets a second that riichi-arena plays, built-in against built-in.

    python scripts/arena_bench.py                  # 20 sets on 1 worker, then on every core
    python scripts/arena_bench.py --sets 40 --workers 2 --rules tenhou

Each set is four whole games (one seed, the seats rotated) of `builtin builtin`, played
exactly as `riichi-arena builtin builtin` plays them (client_cli.arena.pool.run_sets:
the server's built-in strategy on the engine in-process, the events tallied per seat),
without the progress line or the report.  Seeds SHA-256 of "riichi-arena/1", --seed and the
set's number, so two runs play the same games.

Then, in the same run, the engines alone with random legal players in this one process
(scripts/bench_engine.py's own measurements): riichienv's random-agent games a second, as
it comes and with skip_mjai_logging, beside our engine's random-player games a second under
the tenhou preset (riichienv's 4p-red-half is Tenhou's rules), and the ratio (issue 26's
goal: at least 1.5x riichienv as it comes).  riichienv is the pip extra `bench`
(`.venv/bin/pip install -e '.[bench]'`); without it, one line says so and the rest is
printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from client_cli.arena.play import ArenaConfig  # noqa: E402
from client_cli.arena.pool import run_sets  # noqa: E402
from client_cli.arena.specs import parse_spec  # noqa: E402
from scripts.bench_engine import engine_entries, measure_all, print_ratios  # noqa: E402
from server.rules.config import PRESETS  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def sets_per_second(config: ArenaConfig, sets: int, workers: int) -> tuple[float, float, int]:
    """(sets a second, CPU seconds a set, hands played) over `sets` sets on `workers`
    processes.  The CPU time shows what a core gives when the machine is shared."""
    started, cpu = time.perf_counter(), _cpu()
    hands = 0
    for outcome in run_sets(config, range(sets), workers):
        hands += sum(game[0].stats.hands for game in outcome.games)
    return sets / (time.perf_counter() - started), (_cpu() - cpu) / sets, hands


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", type=int, default=20, help="sets timed on each worker count (default 20)")
    p.add_argument("--workers", type=int, default=None,
                   help="time only this many workers (default: 1, then every core)")
    p.add_argument("--rules", default="ema2016", choices=sorted(PRESETS))
    p.add_argument("--seed", default="bench", help="the run's seed text (default 'bench')")
    p.add_argument("--engine-games", type=int, default=50,
                   help="random-player games timed for each engine alone (default 50; 0: none)")
    args = p.parse_args(argv)
    config = ArenaConfig((parse_spec("builtin"), parse_spec("builtin")), args.rules, args.seed)
    cores = os.cpu_count() or 1
    counts = [args.workers] if args.workers else sorted({1, cores})
    print(f"arena_bench: builtin vs builtin, {args.rules}, {args.sets} sets (4 games each), {cores} cores")
    for workers in counts:
        rate, cpu, hands = sets_per_second(config, args.sets, workers)
        print(f"  {workers} worker(s): {rate:.2f} sets/s, {4 * rate:.1f} games/s, {cpu:.2f} CPU s a set "
              f"({hands / (4 * args.sets):.1f} hands a game)")
    if args.engine_games > 0:
        engines_alone(args.engine_games)
    return 0


def engines_alone(games: int, seed: int = 1, warmup: int = 3, rounds: int = 5) -> None:
    """Random-player games a second of our engine (tenhou) and of riichienv, in this process,
    taking turns (bench_engine.measure_all)."""
    print(f"engines alone, random legal players, one process, {games} games each, taking turns {rounds} times:")
    try:
        import riichienv  # noqa: F401
    except ImportError as error:
        print(f"  riichienv is not measured: {error} (.venv/bin/pip install -e '.[bench]' installs it)")
        measure_all(engine_entries(seed, riichienv=False, presets=("tenhou",)), games, warmup)
        return
    print_ratios(measure_all(engine_entries(seed, presets=("tenhou",)), games, warmup, rounds))

if __name__ == "__main__":
    sys.exit(main())
