"""How strong the built-in bot is: whole games in-process, through the SDK's decision code.

    python scripts/bot_strength.py                    # 500 games of each table, both cores
    python scripts/bot_strength.py --games 50 --rules tenhou --procs 1

Two tables, each played --games times (seeds SHA-256("strength:<rules>:<table>:<i>")):

1. one built-in bot against three random bots (its seat turns with the game): its
   average placement (1 = first), how often it wins a hand, deals in, and places first;
2. four built-in bots: how hands end (ron, tsumo, exhaustive draw, abortive draw), and per
   bot and hand how often it wins, deals in, declares riichi, calls;
3. (`--tables vs_shanten`, not by default) two built-in bots against two of the server's
   older "shanten" players (tile efficiency and riichi only, no defence; opposite seats,
   turning with the game): the built-in bots' average placement, wins and deal-ins.

Every decision goes through exactly what a bot behind `riichi-bot` runs: the seat's view
(`server.game.views.seat_view`, its "actions" taken out: the shape of the SDK's
`SeatState.view`) and the offer's actions given to `client_cli.bot.decide.decide` with a
`client_cli.bot.strategies` bot (`BuiltinBot`, `RandomBot`); the answer is applied to the
engine (`server.game.engine.Game`).  Games run in --procs processes (default: all cores);
progress goes to standard error.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from client_cli.bot.decide import decide  # noqa: E402
from client_cli.bot.strategies import BuiltinBot, RandomBot  # noqa: E402
from protocol.events import HandResult  # noqa: E402
from server.game.actions import action_from_data  # noqa: E402
from server.game.engine import Game  # noqa: E402
from server.game.views import seat_view  # noqa: E402
from server.players import PLAYERS  # noqa: E402
from server.rules.config import PRESETS  # noqa: E402

TABLES = ("vs_random", "builtin_x4", "vs_shanten")
DEFAULT_TABLES = ("vs_random", "builtin_x4")


def play_game(job: tuple[str, str, int]) -> dict:
    """One whole game; returns what the report needs from it."""
    rules_name, table, i = job
    seed = hashlib.sha256(f"strength:{rules_name}:{table}:{i}".encode()).digest()
    game = Game(PRESETS[rules_name], seed=seed)
    if table == "vs_random":
        hero = i % 4
        bots = [BuiltinBot() if s == hero else RandomBot(f"{i}:{s}") for s in range(4)]
    elif table == "vs_shanten":
        hero = i % 2  # and hero + 2
        bots = [BuiltinBot() if s % 2 == hero else None for s in range(4)]
    else:
        hero = None
        bots = [BuiltinBot() for _ in range(4)]
    decisions = [0, 0, 0, 0]
    seconds = [0.0, 0.0, 0.0, 0.0]
    riichi, calls = Counter(), Counter()
    clock = time.perf_counter
    rng = random.Random(i)
    while not game.over:
        seat = game.waiting_for()[0]
        if bots[seat] is None:  # the server's shanten player, on the engine's fast path
            game.apply(seat, PLAYERS["shanten"](game, seat, game.legal_actions(seat), rng))
            continue
        t0 = clock()
        view = seat_view(game, seat)
        actions = view.pop("actions")
        answer = decide(bots[seat], view, actions)
        seconds[seat] += clock() - t0
        decisions[seat] += 1
        if answer.get("riichi"):
            riichi[seat] += 1
        elif answer["type"] in ("chi", "pon", "daiminkan"):
            calls[seat] += 1
        game.apply(seat, action_from_data(answer))
    wins, deal_ins = Counter(), Counter()
    ends = Counter()
    for r in game.results:
        if r["type"] == HandResult.WIN:
            ends["tsumo" if r["wins"][0]["tsumo"] else "ron"] += 1
            for w in r["wins"]:
                wins[w["seat"]] += 1
            if not r["wins"][0]["tsumo"]:
                deal_ins[r["wins"][0]["from"]] += 1
        else:
            ends[r["type"]] += 1
    return {"table": table, "hero": hero, "places": game.final["places"], "scores": game.final["scores"],
            "hands": len(game.results), "wins": dict(wins), "deal_ins": dict(deal_ins), "ends": dict(ends),
            "riichi": dict(riichi), "calls": dict(calls), "decisions": decisions, "seconds": seconds}


def _mean_ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def report_vs_random(games: list[dict]) -> list[str]:
    places = [g["places"][g["hero"]] + 1 for g in games]
    hands = sum(g["hands"] for g in games)
    won = sum(g["wins"].get(g["hero"], 0) for g in games)
    dealt = sum(g["deal_ins"].get(g["hero"], 0) for g in games)
    random_won = sum(sum(v for s, v in g["wins"].items() if s != g["hero"]) for g in games)
    mean, ci = _mean_ci(places)
    by_place = Counter(places)
    return [
        f"one built-in bot against three random bots, {len(games)} games, {hands} hands:",
        f"  average placement      {mean:.2f} (+/- {ci:.2f}, 95%; 1 is first, 2.5 is chance)",
        "  placements             " + ", ".join(f"{p}: {100 * by_place[p] / len(games):.1f}%" for p in (1, 2, 3, 4)),
        f"  hands it won           {100 * won / hands:.1f}% ({won})",
        f"  hands it dealt in      {100 * dealt / hands:.1f}% ({dealt})",
        f"  hands the random bots won {100 * random_won / hands:.1f}% (all three together)",
    ]


def report_x4(games: list[dict]) -> list[str]:
    hands = sum(g["hands"] for g in games)
    ends = Counter()
    for g in games:
        ends.update(g["ends"])
    per_bot = 4 * hands
    wins = sum(sum(g["wins"].values()) for g in games)
    dealt = sum(sum(g["deal_ins"].values()) for g in games)
    riichi = sum(sum(g["riichi"].values()) for g in games)
    calls = sum(sum(g["calls"].values()) for g in games)
    lines = [f"four built-in bots, {len(games)} games, {hands} hands ({hands / len(games):.1f} a game); hands end:"]
    for key, label in (("ron", "ron"), ("tsumo", "tsumo"), (HandResult.EXHAUSTIVE_DRAW, "exhaustive draw"),
                       (HandResult.ABORTIVE_DRAW, "abortive draw")):
        lines.append(f"  {label:<22} {100 * ends[key] / hands:5.1f}% ({ends[key]})")
    lines += [
        f"  per bot and hand: wins {100 * wins / per_bot:.1f}%, deals in {100 * dealt / per_bot:.1f}%, "
        f"declares riichi {100 * riichi / per_bot:.1f}%, calls {calls / per_bot:.2f} times",
    ]
    return lines


def report_vs_shanten(games: list[dict]) -> list[str]:
    heroes = [(g, s) for g in games for s in (g["hero"], g["hero"] + 2)]
    places = [g["places"][s] + 1 for g, s in heroes]
    hands = sum(g["hands"] for g in games)
    won = sum(g["wins"].get(s, 0) for g, s in heroes)
    dealt = sum(g["deal_ins"].get(s, 0) for g, s in heroes)
    other_won = sum(g["wins"].get(s, 0) for g in games for s in (1 - g["hero"], 3 - g["hero"]))
    other_dealt = sum(g["deal_ins"].get(s, 0) for g in games for s in (1 - g["hero"], 3 - g["hero"]))
    mean, ci = _mean_ci(places)
    return [
        f"two built-in bots against two shanten players, {len(games)} games, {hands} hands:",
        f"  built-in average placement {mean:.2f} (+/- {ci:.2f}, 95%; 2.5 is even)",
        f"  per bot and hand: built-in wins {100 * won / (2 * hands):.1f}%, deals in {100 * dealt / (2 * hands):.1f}%;"
        f" shanten wins {100 * other_won / (2 * hands):.1f}%, deals in {100 * other_dealt / (2 * hands):.1f}%",
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=500, help="games of each table (default 500)")
    p.add_argument("--rules", default="ema2016", choices=sorted(PRESETS))
    p.add_argument("--procs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cores)")
    p.add_argument("--tables", default=",".join(DEFAULT_TABLES),
                   help=f"which tables, of {', '.join(TABLES)} (default {','.join(DEFAULT_TABLES)})")
    args = p.parse_args(argv)
    tables = [t for t in args.tables.split(",") if t]
    for t in tables:
        if t not in TABLES:
            p.error(f"unknown table '{t}': use {', '.join(TABLES)}")
    jobs = [(args.rules, t, i) for t in tables for i in range(args.games)]
    print(f"bot_strength: {len(jobs)} games under {args.rules} in {args.procs} process(es)", file=sys.stderr)
    start = time.perf_counter()
    done: list[dict] = []
    step = max(1, len(jobs) // 20)
    with Pool(args.procs) as pool:
        for result in pool.imap_unordered(play_game, jobs, chunksize=4):
            done.append(result)
            if len(done) % step == 0 or len(done) == len(jobs):
                elapsed = time.perf_counter() - start
                print(f"  {len(done)}/{len(jobs)} games, {elapsed:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    lines = [f"bot_strength, {args.rules}: {len(jobs)} games in {elapsed:.0f} s"]
    if "vs_random" in tables:
        lines += report_vs_random([g for g in done if g["table"] == "vs_random"])
    if "builtin_x4" in tables:
        lines += report_x4([g for g in done if g["table"] == "builtin_x4"])
    if "vs_shanten" in tables:
        lines += report_vs_shanten([g for g in done if g["table"] == "vs_shanten"])
    builtin_time = builtin_n = 0.0
    for g in done:
        for s in range(4):
            if g["decisions"][s] and (g["table"] != "vs_random" or s == g["hero"]):
                builtin_time += g["seconds"][s]
                builtin_n += g["decisions"][s]
    if builtin_n:
        lines.append(f"built-in bot: {1e6 * builtin_time / builtin_n:.0f} us per decision, the seat's view included "
                     f"({int(builtin_n)} decisions)")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
