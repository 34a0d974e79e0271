"""Self-play: whole games between the simple players, with statistics.

    python scripts/selfplay.py --games 200 --seed 1 --rules ema2016 --players shanten

Plays N whole games (East and South, and West where the preset extends) with every
decision made by the players of server/players, and prints games per second, how the
hands ended (tsumo and ron wins, exhaustive draws, each abortive draw, nagashi mangan),
the calls and riichi made, and how often each yaku came up.  Progress goes to stderr.

Game i's wall seed is SHA-256("selfplay:<seed>:<i>") and its players' random source is
random.Random("<seed>:<i>"), so a run is reproducible.  `--players mixed` seats two
shanten and two random players, alternating, the pattern turned by one seat each game.
An engine error is reported with the game's seed and the decision index and the run
goes on; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from protocol.events import HandResult  # noqa: E402
from server.game.actions import Ankan, Chi, Daiminkan, Discard, Kakan, Pon, action_name  # noqa: E402
from server.game.engine import Game  # noqa: E402
from server.game.record import GameRecord  # noqa: E402
from server.players import PLAYERS  # noqa: E402
from server.record_files import save_record  # noqa: E402
from server.rules.config import PRESETS, preset  # noqa: E402

LINEUPS = ("random", "shanten", "mixed")


def game_seed(seed: int, index: int) -> bytes:
    return hashlib.sha256(f"selfplay:{seed}:{index}".encode()).digest()


def lineup(players: str, index: int) -> list[str]:
    if players == "mixed":
        pattern = ["shanten", "random"] * 2
        shift = index % 4
        return pattern[shift:] + pattern[:shift]
    return [players] * 4


def play_game(game: Game, rng: random.Random) -> Game:
    """Play a game to its end; the players see the Game object but read only their own seat's part."""
    names = game.names
    choosers = [PLAYERS[n] for n in names]
    while not game.over:
        seat = game.waiting_for()[0]
        game.apply(seat, choosers[seat](game, seat, game.legal_actions(seat), rng))
    return game


class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.hands = 0
        self.decisions = 0
        self.ends: Counter[str] = Counter()  # how hands ended
        self.winners = 0
        self.win_kind: Counter[str] = Counter()  # tsumo / ron, per winner
        self.yaku: Counter[str] = Counter()  # per winner
        self.limits: Counter[str] = Counter()
        self.actions: Counter[str] = Counter()
        self.errors: list[str] = []
        self.by_player: dict[str, list[float]] = {}  # name -> final results
        self.places: dict[str, Counter[int]] = {}

    def add(self, game: Game) -> None:
        self.games += 1
        self.hands += len(game.results)
        self.decisions += len(game.decisions)
        for _, action in game.decisions:
            if isinstance(action, Discard):
                if action.riichi:
                    self.actions["riichi"] += 1
            elif isinstance(action, (Chi, Pon, Daiminkan, Ankan, Kakan)):
                self.actions[action_name(action)] += 1
        for result in game.results:
            kind = result["type"]
            if kind == HandResult.WIN:
                wins = result["wins"]
                if wins[0]["tsumo"]:
                    self.ends["win by tsumo"] += 1
                else:
                    self.ends["win by ron" + ("" if len(wins) == 1 else f" ({len(wins)} winners)")] += 1
                for w in wins:
                    self.winners += 1
                    self.win_kind["tsumo" if w["tsumo"] else "ron"] += 1
                    for name, _ in w["yaku"]:
                        self.yaku[name] += 1
                    if w["limit"]:
                        self.limits[w["limit"]] += 1
                    if w["liable"] is not None:
                        self.limits["liability (pao) applied"] += 1
            elif kind == HandResult.EXHAUSTIVE_DRAW:
                self.ends["exhaustive draw, nagashi mangan" if result["nagashi"] else "exhaustive draw"] += 1
            else:
                self.ends[f"abortive draw: {result['reason']}"] += 1
        if game.final is not None:
            for seat, name in enumerate(game.names):
                self.by_player.setdefault(name, []).append(game.final["results"][seat])
                self.places.setdefault(name, Counter())[game.final["places"][seat]] += 1


def _pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:5.1f}%" if total else "    -"


def report(stats: Stats, elapsed: float, args: argparse.Namespace) -> str:
    lines = []
    g = stats.games
    lines.append(f"selfplay: {g} games, rules {args.rules}, players {args.players}, seed {args.seed}")
    rate = g / elapsed if elapsed > 0 else float("inf")
    lines.append(f"time: {elapsed:.2f} s, {rate:.2f} games/s, {stats.decisions / elapsed if elapsed else 0:,.0f} decisions/s")
    if g:
        lines.append(f"per game: {stats.hands / g:.2f} hands, {stats.decisions / g:.1f} decisions")
    lines.append(f"errors: {len(stats.errors)}")
    for e in stats.errors[:10]:
        lines.append(f"  {e}")
    lines.append("")
    lines.append(f"hands ended ({stats.hands} hands):")
    order = sorted(stats.ends.items(), key=lambda kv: (-kv[1], kv[0]))
    for name, n in order:
        lines.append(f"  {name:<40} {n:7d} {_pct(n, stats.hands)}")
    lines.append(f"winners: {stats.winners} (tsumo {stats.win_kind['tsumo']}, ron {stats.win_kind['ron']})")
    lines.append("")
    lines.append(f"calls and riichi ({g} games):")
    for name in ("riichi", "chi", "pon", "daiminkan", "ankan", "kakan"):
        n = stats.actions[name]
        lines.append(f"  {name:<12} {n:7d}  {n / g if g else 0:6.2f} per game")
    lines.append("")
    lines.append(f"yaku (per winner, {stats.winners} winners):")
    for name, n in sorted(stats.yaku.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"  {name:<18} {n:7d} {_pct(n, stats.winners)}")
    if stats.limits:
        lines.append("limits:")
        for name, n in sorted(stats.limits.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {name:<18} {n:7d} {_pct(n, stats.winners)}")
    if len(stats.by_player) > 1:
        lines.append("")
        lines.append("by player (final result in thousands, mean; places 1st-4th):")
        for name, results in sorted(stats.by_player.items()):
            places = stats.places[name]
            lines.append(f"  {name:<10} {sum(results) / len(results):+7.2f}  "
                         + " ".join(f"{places[p]:5d}" for p in range(4)))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", choices=sorted(PRESETS), default="ema2016")
    parser.add_argument("--players", choices=LINEUPS, default="shanten")
    parser.add_argument("--progress", type=float, default=5.0, help="seconds between progress lines on stderr")
    parser.add_argument("--save", metavar="DIR", help="write each game's record to DIR/game-N.json (for riichi-replay)")
    args = parser.parse_args(argv)
    if args.games < 0:
        parser.error("--games must be 0 or more")
    rules = preset(args.rules)
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
    stats = Stats()
    start = last = time.perf_counter()
    for i in range(args.games):
        seed = game_seed(args.seed, i)
        names = lineup(args.players, i)
        rng = random.Random(f"{args.seed}:{i}")
        game = None
        try:
            game = Game(rules, seed=seed, names=names)
            play_game(game, rng)
        except Exception as error:  # an engine bug: report it and go on
            frame = traceback.extract_tb(error.__traceback__)[-1]
            at = f" at decision {len(game.decisions)}" if game is not None else " at the start"
            stats.errors.append(f"game {i} seed {seed.hex()}{at}: {type(error).__name__}: {error} "
                                f"({Path(frame.filename).name}:{frame.lineno})")
            continue
        stats.add(game)
        if args.save:
            save_record(GameRecord.of(game), Path(args.save) / f"game-{i}.json")
        now = time.perf_counter()
        if now - last >= args.progress:
            last = now
            print(f"[selfplay] {i + 1}/{args.games} games, {(i + 1) / (now - start):.2f} games/s",
                  file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    print(f"[selfplay] done: {args.games} games in {elapsed:.1f} s", file=sys.stderr, flush=True)
    print(report(stats, elapsed, args))
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
