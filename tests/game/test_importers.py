"""The log importers: mjlog call bits, tenhou.net/6 call strings, rebuilt walls, the reading
of ambiguous calls, the rules a log asks for, and one-line errors for unusable files.

Files come from tests/data/corpus (copies of the shared corpus; see its README).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from server.game.importers.log_wall import LogWallError, SeenTiles, rebuild_wall
from server.game.importers.mjlog import (MjlogError, decode_meld, parse_mjlog, read_mjlog, read_walls, seen_tiles,
                                         walls_path_for)
from server.game.importers.replay import replay_log
from server.game.importers.steps import CallStep, DiscardStep, DrawStep, RonStep
from server.game.importers.tenhou6 import Tenhou6Error, _Tiles, code_kind, parse_call, parse_tenhou6
from server.game.wall import DORA_INDICATORS, REPLACEMENTS, URA_INDICATORS, deal

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
MJLOG = CORPUS / "tenhou-mjlog"
TENHOU6 = CORPUS / "tenhou6"


def tenhou6(name: str):
    return parse_tenhou6(json.loads((TENHOU6 / name).read_text(encoding="utf-8")))


def code_of(tile: int, red: bool = True) -> int:
    """The tenhou.net/6 code of a tile id (red fives 51-53 when `red`)."""
    if red and tile in (16, 52, 88):
        return 51 + tile // 36
    kind = tile >> 2
    return 41 + kind - 27 if kind >= 27 else 11 + 10 * (kind // 9) + kind % 9


# ---- mjlog call bits (formats/mjlog.md 'The call bits `m`') ---------------------------------

@pytest.mark.parametrize("who, m, kind, tiles, called, source", [
    # 'chi (m & 0x4)': seat 0 takes 3p (id 44) from seat 3 with 2p 4p, after <G44>
    (0, 25631, "chi", (43, 44, 48), 1, 3),
    # 'pon (m & 0x8)': seat 3 takes Red dragon 132 from seat 0 (after <D132>), 134 unused
    (3, 50761, "pon", (132, 133, 135), 0, 0),
    # 'added kong (m & 0x10)': the pon of 7s, the added tile is kind*4 + unused
    (3, 39026, "kakan", (100, 101, 102, 103), 3, 3),
    # 'otherwise a kong ... from-bits 0 = concealed kong'
    (1, 29696, "ankan", (116, 117, 118, 119), 0, 1),
    # '... else an open kong called off hai': 9s (id 105) from across
    (2, (105 << 8) | 2, "daiminkan", (104, 105, 106, 107), 1, 0),
])
def test_mjlog_call_bits_decode_to_the_meld(who, m, kind, tiles, called, source):
    meld = decode_meld(who, m)
    assert (meld.kind, meld.tiles, meld.called, meld.source) == (kind, tiles, called, source)


def test_mjlog_walls_deal_the_logged_hands():
    """corpus README: 'walls[k] is hand k's full wall' in the docs/RULINGS.md layout."""
    log = read_mjlog(MJLOG / "first-example.mjlog")
    assert len(log.walls) == len(log.hands) == len(log.expected) == 9
    assert log.rules.name == "tenhou" and log.rules.red_fives and log.rules.open_tanyao
    assert log.names == ["A", "B", "C", "D"]


def test_mjlog_reads_gzipped(tmp_path):
    text = (MJLOG / "pao-tsumo.mjlog").read_bytes()
    path = tmp_path / "pao-tsumo.mjlog.gz"
    path.write_bytes(gzip.compress(text))
    (tmp_path / "pao-tsumo.walls.json").write_bytes((MJLOG / "pao-tsumo.walls.json").read_bytes())
    assert walls_path_for(path) == tmp_path / "pao-tsumo.walls.json"
    log = read_mjlog(path)
    assert log.final is not None and log.final.scores == (-100, 18900, 47300, 33900)
    assert log.expected[-1].wins[0].liable == 0  # paoWho="0"


def test_mjlog_game_type_flags_set_the_rules():
    """mjlog.md GO type: 0x02 no red fives, 0x04 no open tanyao, 0x08 East+South (else East only)."""
    text = (MJLOG / "pao-tsumo.mjlog").read_text().replace('<GO type="169"', f'<GO type="{169 - 0x08 + 0x02 + 0x04}"')
    log = parse_mjlog(text, read_walls(MJLOG / "pao-tsumo.walls.json"))
    assert not log.rules.red_fives and not log.rules.open_tanyao
    assert log.rules.rounds == 1  # East only


@pytest.mark.parametrize("text, message", [
    ("<mjloggm ver=", "does not parse"),
    ("<other/>", "not <mjloggm>"),
    ('<mjloggm ver="2.3"><GO type="169"/></mjloggm>', "no hands"),
    ('<mjloggm ver="2.3"><GO type="185"/></mjloggm>', "three-player"),
])
def test_mjlog_errors_are_one_line(text, message):
    with pytest.raises(MjlogError, match=message) as raised:
        parse_mjlog(text, [])
    assert "\n" not in str(raised.value)


def test_mjlog_walls_that_do_not_deal_the_log_are_refused():
    walls = read_walls(MJLOG / "pao-tsumo.walls.json")
    walls[0] = walls[0][1:] + walls[0][:1]
    with pytest.raises(MjlogError, match="hand 1: the walls file deals seat"):
        parse_mjlog((MJLOG / "pao-tsumo.mjlog").read_text(), walls)


def test_a_walls_file_that_is_not_there_is_named(tmp_path):
    path = tmp_path / "x.mjlog"
    path.write_bytes((MJLOG / "pao-tsumo.mjlog").read_bytes())
    with pytest.raises(MjlogError, match=r"no walls file y\.walls\.json"):
        read_mjlog(path, tmp_path / "y.walls.json")


# ---- mjlog walls rebuilt from the log (RULINGS.md 'The wall') ------------------------------

def test_an_mjlog_without_a_walls_file_gets_its_walls_from_the_log(tmp_path):
    path = tmp_path / "x.mjlog"
    path.write_bytes((MJLOG / "pao-tsumo.mjlog").read_bytes())
    log = read_mjlog(path)
    assert log.walls == [rebuild_wall(seen)[0] for seen in seen_tiles(path.read_text())]
    assert [sorted(hand) for hand in deal(log.walls[0], 0)] == \
        [sorted(seen) for seen in seen_tiles(path.read_text())[0].dealt]


@pytest.mark.parametrize("name", sorted(p.stem for p in MJLOG.glob("*.walls.json")))
def test_a_rebuilt_wall_has_every_tile_the_log_shows_where_the_full_wall_has_it(name):
    """The walls files hold the full walls of the same games (corpus README): every draw,
    replacement draw, dora, kan-dora and ura indicator the log shows sits at its place."""
    name = name.removesuffix(".walls")
    full = read_walls(MJLOG / f"{name}.walls.json")
    hands = seen_tiles((MJLOG / f"{name}.mjlog").read_text())
    assert len(hands) == len(full)
    for number, (seen, known) in enumerate(zip(hands, full)):
        wall, places = rebuild_wall(seen)
        assert sorted(wall) == list(range(136))
        assert len(places) == 52 + len(seen.live) + len(seen.replacements) + len(seen.dora) + len(seen.ura)
        assert [p for p in places if wall[p] != known[p]] == [], f"hand {number + 1}"


def test_a_rebuilt_wall_puts_kong_draws_and_indicators_in_the_dead_wall():
    """RULINGS.md: 'dora indicator wall[130], further kong dora indicators 128, 126, 124, 122;
    ura indicators 131, 129, ...; replacement draws for kongs come from 134, 135, 132, 133'."""
    dealt = [list(range(13 * s, 13 * s + 13)) for s in range(4)]
    seen = SeenTiles(1, dealt, live=[52, 53, 54], replacements=[55, 56], dora=[57, 58, 59], ura=[60, 61, 62])
    wall, places = rebuild_wall(seen)
    assert deal(wall, 1) == dealt
    assert wall[52:55] == [52, 53, 54]
    assert [wall[p] for p in REPLACEMENTS[:2]] == [55, 56]
    assert [wall[p] for p in DORA_INDICATORS[:3]] == [57, 58, 59]
    assert [wall[p] for p in URA_INDICATORS[:3]] == [60, 61, 62]
    assert wall[55] == 63  # the first place the log does not show gets the lowest unseen id
    assert len(places) == 52 + 3 + 2 + 3 + 3


@pytest.mark.parametrize("seen, message", [
    (SeenTiles(0, [list(range(13 * s, 13 * s + 13)) for s in range(4)], live=[3]), "tile id 3 shows up twice"),
    (SeenTiles(0, [list(range(13 * s, 13 * s + 13)) for s in range(4)], live=list(range(52, 122)),
               replacements=[122]), "70 draws do not fit the live wall with 1 kong"),
    (SeenTiles(0, [list(range(13 * s, 13 * s + 13)) for s in range(4)], dora=[136]), "tile id 136 does not exist"),
])
def test_tiles_that_cannot_be_one_wall_are_refused_in_one_line(seen, message):
    with pytest.raises(LogWallError, match=message) as raised:
        rebuild_wall(seen)
    assert "\n" not in str(raised.value)


def test_an_mjlog_that_shows_a_tile_twice_says_so_in_one_line():
    text = (MJLOG / "pao-tsumo.mjlog").read_text()
    dealt = text.split('hai0="')[1].split(",")[0]
    first_draw = re.search(r"<T(\d+)/>", text)[1]
    broken = text.replace(f"<T{first_draw}/>", f"<T{dealt}/>", 1).replace(f"<D{first_draw}/>", f"<D{dealt}/>", 1)
    with pytest.raises(MjlogError, match=f"hand 1: tile id {dealt} shows up twice") as raised:
        parse_mjlog(broken)
    assert "\n" not in str(raised.value)


# ---- tenhou.net/6 call strings (formats/tenhou6.md 'Call strings') -------------------------

@pytest.mark.parametrize("text, kind, tile, own, relative", [
    ("c275226", "chi", 27, (52, 26), 3),
    ("p252525", "pon", 25, (25, 25), 3),
    ("12p1212", "pon", 12, (12, 12), 2),
    ("3737p37", "pon", 37, (37, 37), 1),
    ("m39393939", "daiminkan", 39, (39, 39, 39), 3),
    ("26m262626", "daiminkan", 26, (26, 26, 26), 2),
    ("131313m13", "daiminkan", 13, (13, 13, 13), 1),
    ("k16161616", "kakan", 16, (16, 16, 16), 3),
    ("41k414141", "kakan", 41, (41, 41, 41), 2),
    ("4646k4646", "kakan", 46, (46, 46, 46), 1),
    ("424242a42", "ankan", 42, (42, 42, 42), 0),
])
def test_tenhou6_call_strings(text, kind, tile, own, relative):
    call = parse_call(text)
    assert (call.kind, call.tile, call.own, call.relative) == (kind, tile, own, relative)


@pytest.mark.parametrize("text", ["x123456", "c2752", "1p21212", "c27522", "27c5226"])
def test_tenhou6_bad_call_strings_are_refused(text):
    with pytest.raises(Tenhou6Error):
        parse_call(text)


def test_tenhou6_codes_map_to_kinds():
    assert [code_kind(c) for c in (11, 19, 21, 29, 31, 39, 41, 47, 51, 52, 53)] == \
        [0, 8, 9, 17, 18, 26, 27, 33, 4, 13, 22]


# ---- tenhou.net/6 walls ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.name for p in TENHOU6.glob("*.json")))
def test_tenhou6_rebuilt_wall_deals_the_logged_hands(name):
    """tenhou6.md has no wall: each hand's is rebuilt (docs/RULINGS.md 'The wall'): the deal gives
    the logged starting hands, the indicators sit at their dead-wall places."""
    data = json.loads((TENHOU6 / name).read_text(encoding="utf-8"))
    log = parse_tenhou6(data)
    red = log.rules.red_fives
    for wall, hand in zip(log.walls, data["log"], strict=True):
        assert sorted(wall) == list(range(136))
        dealer = hand[0][0] % 4
        for seat, tiles in enumerate(deal(wall, dealer)):
            assert sorted(code_of(t, red) for t in tiles) == sorted(hand[4 + 3 * seat])
        assert [code_of(wall[i], red) for i in DORA_INDICATORS[:len(hand[2])]] == hand[2]
        assert [code_of(wall[i], red) for i in URA_INDICATORS[:len(hand[3])]] == hand[3]


def test_tenhou6_red_fives_take_the_red_ids():
    """tenhou6.md: 51/52/53 are the red fives; docs/RULINGS.md: ids 16, 52 and 88 are the red ones."""
    tiles = _Tiles(red=True)
    assert [tiles.take(c) for c in (51, 52, 53)] == [16, 52, 88]
    assert sorted(tiles.take(15) for _ in range(3)) == [17, 18, 19]
    plain = _Tiles(red=False)
    assert sorted(plain.take(15) for _ in range(4)) == [16, 17, 18, 19]


def test_tenhou6_kong_replacement_draws_come_from_the_dead_wall():
    """rinshan.json: seat 3's concealed kong, then its replacement draw wins (嶺上開花)."""
    log = tenhou6("rinshan.json")
    draws = [s for s in log.hands[0] if isinstance(s, DrawStep)]
    assert draws[-1].seat == 3 and draws[-1].tile == log.walls[0][REPLACEMENTS[0]]
    assert code_of(draws[-1].tile) == 26


def test_tenhou6_call_on_the_second_of_two_identical_discards():
    """confusing_nakis_2: seat 1 discards Green twice with no draw of seat 0 between; seat 0's
    pon of Green can only be the second one (the first reading leaves seat 1 no draw)."""
    log = tenhou6("confusing_nakis_2.json")
    steps = log.hands[0]
    pon = next(i for i, s in enumerate(steps) if isinstance(s, CallStep) and s.seat == 0)
    norths = [i for i, s in enumerate(steps) if isinstance(s, DiscardStep) and s.seat == 1 and s.tile >> 2 == 32]
    assert len(norths) == 2 and norths[0] < norths[1] == pon - 1


def test_tenhou6_four_plain_fives_read_without_red_fives():
    log = tenhou6("confusing_nakis_2.json")  # "aka": 1, four plain 5s and no red one
    assert not log.rules.red_fives
    assert any("four plain fives" in note for note in log.notes)


def test_tenhou6_results_become_expectations():
    log = tenhou6("double_ron.json")
    (hand,) = log.expected
    assert hand.kind == "win" and hand.deltas == (13000, 0, 2000, -14000)
    assert [(w.seat, w.from_seat) for w in hand.wins] == [(0, 3), (2, 3)]
    assert hand.wins[1].han == 2 and hand.wins[1].fu == 30 and hand.wins[1].yaku == ("yakuhai_hatsu",)
    ron = log.hands[0][-1]
    assert isinstance(ron, RonStep) and ron.seats == (0, 2) and ron.from_seat == 3
    assert tenhou6("four_reach.json").expected[0].reason == "four_riichi"
    assert tenhou6("kyushukyuhai.json").expected[0].reason == "nine_terminals"


def test_tenhou6_mid_game_hand_starts_where_the_log_does():
    log = tenhou6("double_ron.json")
    assert log.start is not None and log.start.round == 7 and log.start.scores == (41800, 26300, 37400, 14500)
    assert tenhou6("ranked_game.json").start is None


@pytest.mark.parametrize("data, message", [
    ({"name": ["A", "B", "C", "D"]}, "not a tenhou.net/6 log"),
    ({"name": ["A", "B", "C", "D"], "log": []}, "no hands"),
    ({"name": ["A", "B", "C", "D"], "rule": {"disp": "三般南"}, "log": [[]]}, "three-player"),
    ({"name": ["A", "B", "C", "D"], "log": [[[0, 0, 0]]]}, "hand 1: malformed"),
])
def test_tenhou6_errors_are_one_line(data, message):
    with pytest.raises(Tenhou6Error, match=message) as raised:
        parse_tenhou6(data)
    assert "\n" not in str(raised.value)


def test_tenhou6_takes_that_do_not_fit_are_refused():
    data = json.loads((TENHOU6 / "rinshan.json").read_text(encoding="utf-8"))
    data["log"][0][5].append(11)  # seat 0 takes one more tile than it could have
    with pytest.raises(Tenhou6Error, match="do not fit together"):
        parse_tenhou6(data)


# ---- the replay checks what the log shows along the way ------------------------------------

def test_replay_checks_the_logs_kong_dora_indicator():
    """docs/RULINGS.md 'kan dora flip': an added kong's indicator is turned after the replacement
    draw, before the discard; a log that turns another tile is caught there."""
    text = (MJLOG / "encdec-nowinner-multi-top.mjlog").read_text()
    walls = read_walls(MJLOG / "encdec-nowinner-multi-top.walls.json")
    assert replay_log(parse_mjlog(text, walls)).error is None
    replay = replay_log(parse_mjlog(text.replace('<DORA hai="24" />', '<DORA hai="25" />'), walls))
    assert replay.error is not None and "dora indicator(s) [25]" in str(replay.error)


def test_replay_checks_each_draw():
    text = (MJLOG / "pao-tsumo.mjlog").read_text()
    walls = read_walls(MJLOG / "pao-tsumo.walls.json")
    walls[0][52], walls[0][53] = walls[0][53], walls[0][52]  # the dealer's first draw changes
    replay = replay_log(parse_mjlog(text, walls))
    assert "hand 1 (E1-0), step 1: the log has seat 0 draw tile" in str(replay.error)
