"""The names players read for the yaku of a hand's result: one table (protocol/yaku_names.json)
for riichi-play and the web client, naming every yaku and yakuman the scorer can give."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from client_cli.play.render import result_text
from protocol.yaku import yaku_name, yaku_names
from server.rules.yaku import YAKU_HAN, YAKUMAN_ORDER

ROOT = Path(__file__).resolve().parents[2]


def test_every_yaku_and_yakuman_the_scorer_gives_has_a_name_and_the_table_names_nothing_else():
    given = set(YAKU_HAN) | set(YAKUMAN_ORDER) | {"renhou"}  # renhou: scoring._renhou_score's one line
    assert set(yaku_names()) == given
    assert all(name and "_" not in name for name in yaku_names().values())


def test_the_yaku_take_the_ema_2016_english_names():
    """EMA 2016 'Yaku': "| All simples | 1 | No terminals or honours |", "| Pure straight | 2 / 1 |"."""
    assert yaku_name("tanyao").startswith("All simples")
    assert yaku_name("ittsu").startswith("Pure straight")
    assert yaku_name("kokushi").startswith("Thirteen orphans")


def test_a_key_the_table_does_not_know_is_shown_as_itself():
    assert yaku_name("some_new_yaku") == "some new yaku"


def test_riichi_plays_result_shows_the_names():
    win = {"seat": 0, "from": 1, "tsumo": False, "tile": 0, "hand": [0, 1, 2], "melds": [], "han": 2, "fu": 30,
           "yaku": [["tanyao", 1], ["yakuhai_haku", 1]], "dora": 1, "limit": None, "yakuman": False,
           "points": 2000, "sticks": 0}
    result = {"type": "win", "wins": [win], "deltas": [2000, -2000, 0, 0], "scores": [27000, 23000, 25000, 25000]}
    text = str(result_text(result, ["alice", "bob", "carol", "dave"]))
    assert "All simples (tanyao)" in text and "Dragon pung: white (haku)" in text and "Dora" in text
    assert "yakuhai_haku" not in text


def test_the_web_client_bundles_the_same_table():
    """The page's yakuName (web/src/results.ts) reads protocol/yaku_names.json, bundled by esbuild."""
    bundle = (ROOT / "server" / "webclient" / "app.js").read_text(encoding="utf-8")
    assert all(json.dumps(name)[1:-1] in bundle for name in yaku_names().values())
    fresh = subprocess.run(["node", str(ROOT / "web" / "build.mjs"), "--fresh"], capture_output=True)
    assert fresh.returncode == 0, "the built web client is older than protocol/yaku_names.json: run scripts/setup.sh"
