"""Benchmark: whole games per second with random legal players, engine only.

    python scripts/bench_engine.py --games 100 --seed 1
    python scripts/bench_engine.py --games 50 --profile     # and where our time goes

Each engine plays whole games (East and South; West where the rules extend) in which
every decision is a uniform random choice among the legal actions, in one process, one
after the other, no views or events rendered for players:

- ours: server.game.engine.Game under each preset, seeds SHA-256("bench:<seed>:<i>");
- riichienv (Rust core): RiichiEnv(game_mode="4p-red-half") (Tenhou rules, half game) with
  its own riichienv.agents.RandomAgent, as its README runs a game; once as it comes (MJAI
  event log on) and once with skip_mjai_logging=True;
- jansou (pure Python, pip extra `bench`): Environment(preset("tenhou")).run() with four
  jansou.game.agents.RandomAgent (its documented driver, which hands every event, masked,
  to every agent), and its play() generator driven directly (no observers).

riichienv and jansou are the pip extra `bench` (`.venv/bin/pip install -e '.[bench]'`, or
`.venv/bin/pip install riichienv jansou`); nothing else needs them, the tests included.
The goal (issue 26): ours at least 1.5x riichienv as it comes, in the same run.

Each is warmed up with --warmup untimed games first (memo tables, imports), then timed
over --games games (--jansou-games for jansou, which is slow).  A library that cannot be
imported or run is reported with the reason and skipped.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from server.game.engine import Game  # noqa: E402
from server.rules.config import PRESETS  # noqa: E402

# One run: (games played, hands played, decisions made, wall seconds, CPU seconds).
Run = tuple[int, int, int, float, float]


def ours_game(rules, index: int, seed: int) -> tuple[int, int]:
    game = Game(rules, seed=hashlib.sha256(f"bench:{seed}:{index}".encode()).digest())
    rng = random.Random(f"{seed}:{index}")
    rand = rng.random
    n = 0
    while not game.over:
        seat = game.waiting_for()[0]
        actions = game.legal_actions(seat)
        game.apply(seat, actions[int(rand() * len(actions))])
        n += 1
    return len(game.results), n


def riichienv_game(index: int, seed: int, skip_log: bool) -> tuple[int, int]:
    from riichienv import RiichiEnv
    from riichienv.agents import RandomAgent

    agent = RandomAgent(seed * 100_003 + index)
    env = RiichiEnv(game_mode="4p-red-half", seed=seed * 100_003 + index, skip_mjai_logging=skip_log)
    obs = env.reset()
    hands, last, steps = 0, None, 0
    while not env.done():
        key = (env.round_wind, env.oya, env.honba)
        if key != last:
            hands, last = hands + 1, key
        obs = env.step({pid: agent.act(o) for pid, o in obs.items()})
        steps += 1
    return hands, steps


def jansou_game(index: int, seed: int, driver: str) -> tuple[int, int]:
    from jansou.core.rules import preset
    from jansou.game.agents import RandomAgent
    from jansou.game.environment import Environment

    env = Environment(preset("tenhou"), seed=seed * 100_003 + index)
    if driver == "run":
        agents = [RandomAgent(seed=(seed * 100_003 + index) * 4 + k) for k in range(4)]
        counter = [0]
        inner = [a.act for a in agents]

        def counted(k):
            def act(*args):
                counter[0] += 1
                return inner[k](*args)
            return act

        for k, a in enumerate(agents):
            a.act = counted(k)  # type: ignore[method-assign]
        env.run(agents)
        return len(env.records), counter[0]
    rng = random.Random(f"{seed}:{index}")
    play = env.play()
    request = next(play)
    n = 1
    try:
        while True:
            request = play.send(rng.choice(request.actions))
            n += 1
    except StopIteration:
        pass
    return len(env.records), n


# What measure_all times: (key, label, one game by its number -> (hands, decisions)).
Entry = tuple[str, str, Callable[[int], tuple[int, int]]]


def measure_all(entries: list[Entry], games: int, warmup: int, rounds: int = 1) -> dict[str, Run | None]:
    """Each entry's run of `games` games (numbers 0..games-1), after `warmup` untimed ones.
    The entries take turns `rounds` times, each turn a share of their games, so that on a
    machine whose load moves they all meet it alike (their ratios are what counts)."""
    results: dict[str, Run | None] = {}
    ready = []
    for key, label, play in entries:
        try:
            for i in range(warmup):
                play(-1 - i)
        except Exception as error:  # not installed, or it does not run here
            print(f"{label:<44} not measured: {type(error).__name__}: {error}", flush=True)
            results[key] = None
        else:
            ready.append((key, label, play))
    totals = {key: [0, 0, 0.0, 0.0] for key, _, _ in ready}  # hands, decisions, wall s, CPU s
    bounds = [games * r // rounds for r in range(rounds + 1)]
    for r in range(rounds):
        for key, _, play in ready:
            total = totals[key]
            start, cpu_start = time.perf_counter(), time.process_time()
            for i in range(bounds[r], bounds[r + 1]):
                h, d = play(i)
                total[0] += h
                total[1] += d
            total[2] += time.perf_counter() - start
            total[3] += time.process_time() - cpu_start
    for key, label, _ in ready:
        hands, decisions, elapsed, cpu = totals[key]
        print(f"{label:<44} {games / elapsed:7.2f} games/s (CPU time: {games / cpu:7.2f})  {games:4d} games "
              f"in {elapsed:6.2f} s  {hands / games:5.1f} hands/game  {decisions / games:5.0f} decisions/game  "
              f"{1e6 * elapsed / decisions:5.1f} us/decision", flush=True)
        results[key] = games, hands, decisions, elapsed, cpu
    return results


def measure(label: str, play: Callable[[int], tuple[int, int]], games: int, warmup: int) -> Run | None:
    """One engine's run alone (measure_all of one entry)."""
    return measure_all([(label, label, play)], games, warmup)[label]


def engine_entries(seed: int, ours: bool = True, riichienv: bool = True,
                   presets: tuple[str, ...] = tuple(PRESETS)) -> list[Entry]:
    """Ours under each of `presets` and riichienv as it comes and without its MJAI log."""
    entries: list[Entry] = []
    if ours:
        entries += [(f"ours {name}", f"ours, {name} (pure Python)",
                     lambda i, r=PRESETS[name]: ours_game(r, i, seed)) for name in presets]
    if riichienv:
        entries += [("riichienv", f"riichienv {package_version('riichienv')} 4p-red-half (Rust core)",
                     lambda i: riichienv_game(i, seed, False)),
                    ("riichienv skip_log", "riichienv, skip_mjai_logging=True",
                     lambda i: riichienv_game(i, seed, True))]
    return entries


def profile_ours(rules_name: str, games: int, seed: int, top: int) -> None:
    rules = PRESETS[rules_name]
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(games):
        ours_game(rules, 10_000 + i, seed)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    print(f"\ncProfile of ours ({rules_name}, {games} games, random players), by own time:")
    text = out.getvalue()
    print(text[text.index("   ncalls"):] if "   ncalls" in text else text)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    text = out.getvalue()
    print(f"cProfile of ours ({rules_name}), by cumulative time:")
    print(text[text.index("   ncalls"):] if "   ncalls" in text else text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="timed games for ours and riichienv")
    parser.add_argument("--jansou-games", type=int, default=20, help="timed games for jansou")
    parser.add_argument("--warmup", type=int, default=3, help="untimed games before each measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5,
                        help="ours and riichienv take turns this many times, a share of the games each turn")
    parser.add_argument("--only", choices=("ours", "riichienv", "jansou"), action="append",
                        help="measure only these (repeatable)")
    parser.add_argument("--profile", action="store_true", help="then cProfile our engine (tenhou preset)")
    parser.add_argument("--profile-games", type=int, default=30)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    only = set(args.only or ("ours", "riichienv", "jansou"))
    seed = args.seed

    print(f"bench_engine: whole games with random legal players, seed {seed}, "
          f"{args.games} games ({args.jansou_games} for jansou), {args.warmup} warm-up games each, "
          f"ours and riichienv taking turns {args.rounds} times")
    print(f"python {sys.version.split()[0]}")
    results = measure_all(engine_entries(seed, "ours" in only, "riichienv" in only), args.games, args.warmup,
                          args.rounds)
    if "jansou" in only:
        version = package_version("jansou")
        results["jansou run"] = measure(f"jansou {version} tenhou, Environment.run",
                                        lambda i: jansou_game(i, seed, "run"), args.jansou_games, min(args.warmup, 1))
        results["jansou play"] = measure("jansou, play() driven directly",
                                         lambda i: jansou_game(i, seed, "play"), args.jansou_games, min(args.warmup, 1))

    print()
    print_ratios(results)
    if args.profile:
        profile_ours("tenhou", args.profile_games, seed, args.top)
    return 0


RATIOS = (("riichienv", "riichienv as it comes (goal, issue 26: at least 1.50x)"),
          ("riichienv skip_log", "riichienv with skip_mjai_logging"),
          ("jansou run", "jansou Environment.run"), ("jansou play", "jansou play()"))


def print_ratios(results: dict[str, Run | None]) -> None:
    """Ours (tenhou) over each other engine measured, by wall clock and by CPU time."""
    ours = results.get("ours tenhou")
    for key, label in RATIOS:
        other = results.get(key)
        if ours and other:
            print(f"ours (tenhou) / {label}: {_ratio(ours, other, 3):.2f}x wall clock, "
                  f"{_ratio(ours, other, 4):.2f}x CPU time")


def _ratio(a: Run, b: Run, clock: int) -> float:
    """Ratio of the games/s figures (hands per game differ a little; see the lines above)."""
    return (a[0] / a[clock]) / (b[0] / b[clock])


def package_version(package: str) -> str:
    """The installed version of `package`, or why there is none."""
    try:
        from importlib.metadata import version
        return version(package)
    except Exception as error:  # not installed: measure() then says why
        return f"(not installed: {type(error).__name__})"


if __name__ == "__main__":
    sys.exit(main())
