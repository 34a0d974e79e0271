"""Each preset lists a double riichi in its own way, everywhere a win's yaku are shown.

EMA 'Yaku': "Double riichi | 1 | Riichi declared on the first discard, uninterrupted (2 in
all with riichi)": ema2016 lists riichi 1 and double_riichi 1.  The online server's logs
write 両立直(2飜) alone (tests/data/corpus/tenhou-mjlog/double-riichi-ippatsu-last-hand.mjlog,
South 4: yaku="21,2,2,1,52,2"): tenhou lists double_riichi 2 alone.  The han are the same.
The engine's results, riichi-score, the tenhou.net/6 export and riichi-play's result
screen all show the preset's listing.  (The mjai export carries no yaku lists.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from client_cli.play.render import result_text
from protocol.yaku import yaku_name
from server.cli.score_request import score_request
from server.game.export_tenhou6 import export_tenhou6
from server.game.record import GameRecord
from server.game.state import Phase
from server.rules.config import EMA2016, TENHOU, DoubleRiichiListing
from tests.game.builder import Tsumo, advance_until, discard, game_for, pass_all, tsumogiri

LISTED = {"ema2016": [["riichi", 1], ["double_riichi", 1]], "tenhou": [["double_riichi", 2]]}
PRESETS = pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
RIICHI_HAND = "234m567p66p234s45s"  # waits 3s-6s; all simples, pinfu


def double_riichi_game(rules):
    """The dealer declares riichi on its first discard and wins on its third draw by tsumo."""
    game = game_for(rules, hands={0: RIICHI_HAND}, draws=["1p", "1z", "2z", "3z", "9p", "4z", "5z", "6z", "6s"],
                    dora="7z", ura=["7z"])
    discard(game, 0, "1p", riichi=True)
    if game.public.phase is Phase.CALLS:
        pass_all(game)
    for _ in range(2):
        advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 0)
        if game.private[0].drawn >> 2 != 23:  # not yet the 6s
            tsumogiri(game)
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 0)
    game.apply(0, Tsumo())
    return game


def riichi_lines(yaku: list) -> list:
    return [list(y) for y in yaku if y[0] in ("riichi", "double_riichi")]


def test_the_presets_name_their_listing():
    assert EMA2016.double_riichi_listing is DoubleRiichiListing.WITH_RIICHI
    assert TENHOU.double_riichi_listing is DoubleRiichiListing.ALONE
    assert TENHOU.override(double_riichi_listing="with_riichi").double_riichi_listing is DoubleRiichiListing.WITH_RIICHI
    with pytest.raises(ValueError, match="rule 'double_riichi_listing' is one of with_riichi, alone"):
        TENHOU.override(double_riichi_listing="both")


@PRESETS
def test_the_engines_result_lists_double_riichi_as_its_preset_does(rules):
    win = double_riichi_game(rules).results[0]["wins"][0]
    assert riichi_lines(win["yaku"]) == LISTED[rules.name]
    assert sum(han for name, han in win["yaku"] if name in ("riichi", "double_riichi")) == 2


@PRESETS
def test_score_hand_lists_double_riichi_as_its_preset_does(rules):
    score = score_request({"hand": "234m567p66p234s456s", "win": "6s", "double_riichi": True, "rules": rules.name})
    assert riichi_lines([list(y) for y in score.yaku]) == LISTED[rules.name]
    assert score.han == 4  # double riichi 2, pinfu, tanyao


@PRESETS
def test_riichi_score_prints_double_riichi_as_its_preset_does(rules):
    script = Path(sys.executable).parent / "riichi-score"
    result = subprocess.run([str(script), "234m567p66p234s456s", "--win", "6s", "--double-riichi", "--tsumo",
                             "--rules", rules.name], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines() if "riichi" in line]
    assert [[name, int(han)] for name, han, _ in lines] == LISTED[rules.name]


@PRESETS
def test_the_tenhou6_export_writes_double_riichi_at_two_han_under_either_preset(rules):
    """tenhou6.md: the format's own listing is 両立直(2飜), whatever the preset."""
    exported = export_tenhou6(GameRecord.of(double_riichi_game(rules)))
    win = exported["log"][0][16][2]
    assert "両立直(2飜)" in win and not any(str(text).startswith("立直") for text in win)


@PRESETS
def test_the_result_screen_lists_double_riichi_as_its_preset_does(rules):
    game = double_riichi_game(rules)
    screen = result_text(game.results[0], game.names).plain
    keys = {yaku_name(key): key for key in ("riichi", "double_riichi")}  # the screen shows each by its name
    shown = [re.fullmatch(r"\s+(.+?)\s+(\d+) han", line) for line in screen.splitlines()]
    listed = [[keys[m[1]], int(m[2])] for m in shown if m and m[1] in keys]
    assert listed == LISTED[rules.name]
