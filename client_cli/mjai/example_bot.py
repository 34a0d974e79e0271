"""A small mjai bot: reads mjai events on standard input, answers on standard output.

    .venv/bin/python -m client_cli.mjai.example_bot            # one event a line, each answered
    .venv/bin/python -m client_cli.mjai.example_bot --batch    # one JSON array of events a line, one answer each
    .venv/bin/python -m client_cli.mjai.example_bot --batch 2  # and its seat, as competitions start bots
    riichi-bot --new-table --mjai "{python} -m client_cli.mjai.example_bot"   # {python}: riichi-bot's own

(Any Python with this project installed runs it from any folder; a `python` on PATH
without it fails with "No module named 'client_cli'".)

It keeps its hand closed: it never calls, discards the tile that leaves the fewest
shanten (then the most tiles that would lower it), declares riichi as soon as it is
waiting, wins whenever it can (by tsumo always; by ron when not furiten and the hand has
a yaku, `server.rules` scoring), and answers `{"type":"none"}` to everything else.  Within those bounds every answer it gives
is legal, so it is also the test bot of the mjai bridge.  It reads until the end of its
input (several games in a row are fine); a line in the wrong form is an error: it says so
on standard error and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any, TextIO

from protocol.mjai_tiles import tile_kind
from server.rules.config import EMA2016, TENHOU
from server.rules.context import WinContext
from server.rules.scoring import ScoringError, score_hand
from server.rules.shanten import shanten, useful_tiles, waits

NONE = {"type": "none"}
RIICHI_MIN_WALL = 4  # tiles left in the wall after the draw (both presets)
RIICHI_MIN_POINTS = 1000  # the stricter preset's: a riichi this bot declares is legal under both


def counts_of(names: Counter) -> list[int]:
    counts = [0] * 34
    for name, n in names.items():
        counts[tile_kind(name)] += n
    return counts


class ExampleBot:
    def __init__(self) -> None:
        self.seat = -1
        self.hand: Counter = Counter()
        self.melds = 0
        self.riichi = False
        self.reach_tile: str | None = None
        self.drawn: str | None = None
        self.draws = 0  # tsumo events this hand (so the wall holds 70 - draws)
        self.score = 0
        self.discarded: set[int] = set()  # kinds of the bot's own discards this hand
        self.bakaze, self.oya = 0, 0
        self.accepted = False  # its riichi was accepted
        self.temporary_furiten = False  # a winning tile went by since its last draw
        self.riichi_furiten = False  # one went by after its riichi
        self._went_by = False  # the last event offered it a winning tile

    # ---- the stream ----------------------------------------------------------------

    def react(self, event: dict[str, Any]) -> dict[str, Any]:
        """Take one event into account; the answer to it."""
        kind = event["type"]
        me = event.get("actor") == self.seat
        if self._went_by and kind != "hora":  # nobody won on it: the engine's furiten (EMA 'Furiten')
            self.temporary_furiten = True
            self.riichi_furiten = self.riichi_furiten or self.accepted
        self._went_by = False
        if kind == "start_game":
            self.seat = event["id"]
        elif kind == "start_kyoku":
            self.hand = Counter(event["tehais"][self.seat])
            self.melds, self.riichi, self.reach_tile, self.drawn = 0, False, None, None
            self.draws, self.score = 0, event["scores"][self.seat]
            self.discarded, self.accepted = set(), False
            self.temporary_furiten = self.riichi_furiten = False
            self.bakaze, self.oya = "ESWN".index(event["bakaze"]), event["oya"]
        elif kind == "tsumo":
            self.draws += 1
            if me:
                self.hand[event["pai"]] += 1
                self.drawn = event["pai"]
                self.temporary_furiten = self.riichi_furiten
                return self.on_own_draw()
        elif kind == "reach" and me:
            self.riichi = True
            return self.dahai(self.reach_tile or self.drawn or self.best_discard()[0])
        elif kind == "reach_accepted" and me:
            self.score -= 1000
            self.accepted = True
        elif kind == "dahai":
            if me:
                self.take(event["pai"])
                self.discarded.add(tile_kind(event["pai"]))
                self.drawn = None
            else:
                return self.maybe_ron(event["pai"], event["actor"])
        elif kind in ("chi", "pon", "daiminkan", "ankan") and me:
            for name in event["consumed"]:
                self.take(name)
            self.melds += 1
        elif kind == "kakan":
            if me:
                self.take(event["pai"])
            else:
                return self.maybe_ron(event["pai"], event["actor"])
        return NONE

    def take(self, name: str) -> None:
        if self.hand[name] > 0:
            self.hand[name] -= 1
        else:  # a plain five where the bot thought it held the red one, or the other way round
            kind = tile_kind(name)
            other = next((n for n in self.hand if self.hand[n] and tile_kind(n) == kind), None)
            if other is not None:
                self.hand[other] -= 1
        self.hand = +self.hand

    # ---- decisions -----------------------------------------------------------------

    def on_own_draw(self) -> dict[str, Any]:
        counts = counts_of(self.hand)
        if shanten(counts, self.melds) == -1 and self.melds == 0:
            return {"type": "hora", "actor": self.seat, "target": self.seat, "pai": self.drawn}
        if self.riichi:
            return self.dahai(self.drawn)
        name, after = self.best_discard()
        if (self.melds == 0 and after == 0 and 70 - self.draws >= RIICHI_MIN_WALL
                and self.score >= RIICHI_MIN_POINTS):
            rest = list(counts)
            rest[tile_kind(name)] -= 1
            if waits(rest, 0, counts):  # the engine's test: the 14 tiles held, the 13 left waiting
                self.reach_tile = name
                return {"type": "reach", "actor": self.seat}
        return self.dahai(name)

    def best_discard(self) -> tuple[str, int]:
        """The tile to discard and the shanten it leaves."""
        counts = counts_of(self.hand)
        best: tuple | None = None
        for name in sorted(self.hand):
            k = tile_kind(name)
            counts[k] -= 1
            after = shanten(counts, self.melds)
            ukeire = sum(4 - counts[u] for u in useful_tiles(counts, self.melds)) if after > -1 else 0
            counts[k] += 1
            edge = 9 if k >= 27 else abs(k % 9 - 4)
            red = name.endswith("r")
            key = (after, -ukeire, red, -edge, name != self.drawn, name)
            if best is None or key < best[0]:
                best = (key, name, after)
        assert best is not None
        return best[1], best[2]

    def dahai(self, name: str) -> dict[str, Any]:
        return {"type": "dahai", "actor": self.seat, "pai": name, "tsumogiri": name == self.drawn}

    def maybe_ron(self, name: str, target: int) -> dict[str, Any]:
        """Ron on another seat's tile when it completes the hand, the bot is not furiten and
        the hand has a yaku (riichi, or one of its shape or winds under both presets)."""
        if self.melds:
            return NONE
        counts = counts_of(self.hand)
        if sum(counts) != 13:
            return NONE
        wait = waits(counts, 0, counts)
        kind = tile_kind(name)
        if kind not in wait:
            return NONE
        self._went_by = True
        if self.temporary_furiten or self.riichi_furiten or any(k in self.discarded for k in wait):
            return NONE
        if not self.riichi and not self.has_yaku(counts, kind):
            return NONE
        return {"type": "hora", "actor": self.seat, "target": target, "pai": name}

    def has_yaku(self, counts: list[int], kind: int) -> bool:
        """Whether the closed hand won by ron on `kind` has a yaku, whatever the preset
        (only what the tiles and winds give: a yaku of the moment, such as houtei, is a bonus)."""
        tiles = [k for k in range(34) for _ in range(counts[k])] + [kind]
        ctx = WinContext(seat_wind=(self.seat - self.oya) % 4, round_wind=self.bakaze)
        for rules in (EMA2016, TENHOU):
            try:
                score_hand(tiles, kind, [], ctx, rules)
            except ScoringError:
                return False
        return True


def serve(stdin: TextIO, stdout: TextIO, batch: bool, seat: int | None = None) -> int:
    bot = ExampleBot()
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        data = json.loads(line)
        if batch != isinstance(data, list):
            print(f"example_bot: expected {'a JSON array' if batch else 'one JSON object'} a line, got: {line[:80]}",
                  file=sys.stderr)
            return 2
        answer = NONE
        for event in (data if batch else [data]):
            if event.get("type") == "start_game" and seat is not None and event.get("id") != seat:
                print(f"example_bot: started for seat {seat}, but start_game says {event.get('id')}", file=sys.stderr)
                return 2
            answer = bot.react(event)
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A small mjai bot on standard input and output.")
    parser.add_argument("--batch", action="store_true",
                        help="each input line is a JSON array of events, answered by one line")
    parser.add_argument("seat", nargs="?", type=int, choices=range(4),
                        help="the bot's seat (optional: start_game says it; checked when given)")
    args = parser.parse_args(argv)
    return serve(sys.stdin, sys.stdout, args.batch, args.seat)


if __name__ == "__main__":
    sys.exit(main())
