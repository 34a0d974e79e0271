"""Shared by the mjai bridge tests: whole engine games played by simple players, the inverse
of the answer conversion (our action -> the mjai answer a bot would give), the structural
leak check of an mjai stream given to one seat, and a bot that misbehaves."""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path
from typing import Any

from protocol.mjai_tiles import HIDDEN, mjai_tile, sorted_tiles, tile_kind
from server.game.actions import Action
from server.game.engine import Game
from server.game.events import Event
from tests.game import simple_players

EXAMPLE_BOT = f"{sys.executable} -m client_cli.mjai.example_bot"


def greedy_player(game: Game, seat: int, rng: random.Random) -> Action:
    return simple_players.greedy_player(game, seat, rng, call_rate=0.4)


PLAYERS = {"random": simple_players.random_player, "greedy": greedy_player}


def play_game(rules, number: int, player: str = "greedy") -> tuple[Game, list[Event]]:
    return simple_players.whole_game(rules, f"mjai bridge {number}".encode(), number, PLAYERS[player])


def answer_for(action: dict[str, Any], seat: int, red: bool, game: Game) -> list[dict[str, Any]]:
    """The mjai answer(s) a bot gives for our `action` (riichi: `reach`, then the `dahai`)."""
    kind = action["type"]
    if kind == "discard":
        dahai = {"type": "dahai", "actor": seat, "pai": mjai_tile(action["tile"], red),
                 "tsumogiri": action["tile"] == game.private[seat].drawn}
        return [{"type": "reach", "actor": seat}, dahai] if action.get("riichi") else [dahai]
    if kind == "pass":
        return [{"type": "none"}]
    if kind in ("tsumo", "ron"):
        return [{"type": "hora", "actor": seat}]
    if kind == "nine_terminals":
        return [{"type": "ryukyoku", "actor": seat, "reason": "kyushukyuhai"}]
    if kind in ("chi", "pon"):
        return [{"type": kind, "actor": seat, "consumed": sorted_tiles(action["tiles"], red)}]
    if kind == "daiminkan":
        return [{"type": "daiminkan", "actor": seat}]
    if kind == "ankan":
        tiles = [t for t in game.private[seat].hand if t >> 2 == action["kind"]]
        return [{"type": "ankan", "actor": seat, "consumed": sorted_tiles(tiles, red)}]
    if kind == "kakan":
        return [{"type": "kakan", "actor": seat, "pai": mjai_tile(action["tile"], red)}]
    raise AssertionError(kind)


# ---- the leak check ---------------------------------------------------------------------

# Every key each mjai event may carry: a field outside these could carry anything.
KEYS = {
    "start_game": {"type", "id", "names"},
    "start_kyoku": {"type", "bakaze", "kyoku", "honba", "kyotaku", "oya", "dora_marker", "scores", "tehais"},
    "tsumo": {"type", "actor", "pai"},
    "dahai": {"type", "actor", "pai", "tsumogiri"},
    "reach": {"type", "actor"},
    "reach_accepted": {"type", "actor"},
    "chi": {"type", "actor", "target", "pai", "consumed"},
    "pon": {"type", "actor", "target", "pai", "consumed"},
    "daiminkan": {"type", "actor", "target", "pai", "consumed"},
    "kakan": {"type", "actor", "pai", "consumed"},
    "ankan": {"type", "actor", "consumed"},
    "dora": {"type", "dora_marker"},
    "hora": {"type", "actor", "target", "pai", "deltas", "ura_markers"},
    "ryukyoku": {"type", "deltas"},
    "end_kyoku": {"type"},
    "end_game": {"type"},
}


def check_no_leak(stream: list[dict[str, Any]], seat: int, events: list[Event]) -> int:
    """Every tile name `seat`'s mjai stream holds is one the seat may know when it gets it:
    its own deal and draws, tiles shown (discards, calls, indicators), a winner's tile at the
    end.  Another seat's deal and draws are "?".  The truth is the engine's events, which the
    stream is not built from here.  Returns how many hidden tiles were checked."""
    own_deals = iter([e.private[seat]["hand"] for e in events if e.type == "hand_start"])
    own_draws = iter([e.private[seat]["tile"] for e in events if e.type == "draw" and e.public["seat"] == seat])
    masked = 0
    for m in stream:
        kind = m["type"]
        assert set(m) <= KEYS[kind], m
        if kind == "start_game":
            assert m["id"] == seat
        elif kind == "start_kyoku":
            hand = next(own_deals)
            for s, tehai in enumerate(m["tehais"]):
                if s == seat:
                    assert sorted(tile_kind(n) for n in tehai) == sorted(t >> 2 for t in hand)
                else:
                    assert tehai == [HIDDEN] * 13, m
                    masked += 13
        elif kind == "tsumo":
            if m["actor"] == seat:
                assert tile_kind(m["pai"]) == next(own_draws) >> 2
            else:
                assert m["pai"] == HIDDEN, m
                masked += 1
    return masked


# A bot that plays as the example bot but misbehaves on every third answer that is not
# `none` (slow: of its first 30; exit: it leaves before its ninth): MODE is garbage,
# illegal, slow, exit or silent (reads everything, answers nothing).
BAD_BOT = textwrap.dedent('''
    import json, sys, time
    from client_cli.mjai.example_bot import ExampleBot
    from protocol.mjai_tiles import HONOURS
    mode, batch, slow = sys.argv[1], "--batch" in sys.argv, float(sys.argv[2])
    bot, n = ExampleBot(), 0
    for line in sys.stdin:
        data = json.loads(line)
        for event in (data if batch else [data]):
            answer = bot.react(event)
        if mode == "silent":
            continue
        if answer["type"] != "none":
            n += 1
            if mode == "exit" and n == 9:
                sys.exit(3)
            if n % 3 == 0:
                if mode == "garbage":
                    answer = "this is no json {" if n % 2 else ["an", "array"]
                elif mode == "illegal":
                    held = {k[:2] for k in bot.hand}
                    missing = next(t for t in [f"{i}{s}" for s in "mps" for i in range(1, 10)] + list(HONOURS)
                                   if t not in held)
                    answer = ({"type": "dahai", "actor": bot.seat, "pai": missing, "tsumogiri": False} if n % 2
                              else {"type": "pon", "actor": bot.seat, "consumed": [missing, missing]})
                elif mode == "slow" and n <= 30:
                    time.sleep(slow)
        sys.stdout.write((answer if isinstance(answer, str) else json.dumps(answer)) + "\\n")
        sys.stdout.flush()
''')


def bad_bot(tmp_path: Path, mode: str, batch: bool, slow: float = 0.0) -> str:
    """The command of BAD_BOT in `mode`, written into `tmp_path`."""
    script = tmp_path / "bad_bot.py"
    script.write_text(BAD_BOT)
    return f"{sys.executable} {script} {mode} {slow}" + (" --batch" if batch else "")
