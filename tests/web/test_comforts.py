"""The comforts' answers (web/src/comforts.ts `autoAnswer`), run in node as the page runs them
(web/build/comforts_cli.mjs, built by web/build.mjs): auto-win takes every tsumo and ron, no
calls passes a call window of chi, pon and kong but never one that offers a ron, and discard
drawn discards the drawn tile only when nothing but plain discards is offered; a turn in riichi
that offers nothing but the drawn tile is played whatever is switched on."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "web" / "build" / "comforts_cli.mjs"
OFF = {"noCalls": False, "autoWin": False, "discardDrawn": False, "sound": False}


def answers(cases: list[tuple[list[dict], int | None, dict]], red: bool = False) -> list[dict | None]:
    assert CLI.exists(), "web/build/comforts_cli.mjs is missing: run scripts/setup.sh (it builds web/)"
    lines = "".join(json.dumps({"actions": a, "drawn": d, "on": {**OFF, **on}, "red": red}) + "\n"
                    for a, d, on in cases)
    done = subprocess.run(["node", str(CLI)], input=lines, capture_output=True, text=True, timeout=30, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def discard(tile: int, riichi: bool = False) -> dict:
    return {"type": "discard", "tile": tile, **({"riichi": True} if riichi else {})}


TURN = [discard(3), discard(53)]  # our turn: two faces to discard (53 is the drawn tile's face)
CALLS = [{"type": "chi", "tiles": [40, 45]}, {"type": "pon", "tiles": [100, 101]}, {"type": "daiminkan"},
         {"type": "pass"}]
RON = {"type": "ron"}
PASS = {"type": "pass"}


def test_auto_win_takes_every_tsumo_and_ron_and_nothing_else():
    tsumo = {"type": "tsumo"}
    got = answers([(TURN + [tsumo], 53, {"autoWin": True}), ([RON, PASS], None, {"autoWin": True}),
                   ([RON, CALLS[1], PASS], None, {"autoWin": True, "noCalls": True}),
                   (TURN + [tsumo], 53, {}), (CALLS, None, {"autoWin": True}), (TURN, 53, {"autoWin": True})])
    assert got[:3] == [{"action": tsumo, "by": "autoWin"}, {"action": RON, "by": "autoWin"},
                       {"action": RON, "by": "autoWin"}]
    assert got[3:] == [None, None, None]


def test_no_calls_passes_chi_pon_and_kong_but_never_a_ron():
    got = answers([(CALLS, None, {"noCalls": True}), (CALLS[1:2] + [PASS], None, {"noCalls": True}),
                   ([RON, PASS], None, {"noCalls": True}), ([RON] + CALLS, None, {"noCalls": True}),
                   (CALLS, None, {})])
    assert got == [{"action": PASS, "by": "noCalls"}, {"action": PASS, "by": "noCalls"}, None, None, None]


def test_discard_drawn_discards_the_drawn_tile_only_when_nothing_but_plain_discards_is_offered():
    ankan = {"type": "ankan", "kind": 13}
    got = answers([(TURN, 53, {"discardDrawn": True}), (TURN, 54, {"discardDrawn": True}),  # 54: 53's face
                   (TURN + [discard(53, riichi=True)], 53, {"discardDrawn": True}),
                   (TURN + [ankan], 53, {"discardDrawn": True}),
                   (TURN + [ankan], 53, {"discardDrawn": True, "noCalls": True}),  # a kong is a call: not wanted
                   (TURN + [{"type": "nine_terminals"}], 53, {"discardDrawn": True}),
                   (TURN, None, {"discardDrawn": True}),  # after a call: no drawn tile
                   (TURN, 53, {})])
    assert got[0] == {"action": discard(53), "by": "discardDrawn"}
    assert got[1] == {"action": discard(54), "by": "discardDrawn"}
    assert got[4] == {"action": discard(53), "by": "discardDrawn"}
    assert [got[i] for i in (2, 3, 5, 6, 7)] == [None] * 5


def test_discard_drawn_keeps_a_red_five_apart_from_the_plain_five():
    turn = [discard(16), discard(17), discard(3)]  # with red fives, 16 (red) and 17 are two faces
    got = answers([(turn, 16, {"discardDrawn": True}), (turn, 18, {"discardDrawn": True})], red=True)
    assert [g["action"]["tile"] for g in got] == [16, 18]


def test_a_turn_in_riichi_that_offers_only_the_drawn_tile_plays_it_with_every_comfort_off():
    got = answers([([discard(53)], 54, {}), ([discard(53), {"type": "tsumo"}], 54, {}),
                   ([discard(53), {"type": "ankan", "kind": 13}], 54, {}), ([PASS], None, {})])
    assert got == [{"action": discard(54), "by": "riichi"}, None, None, None]
