"""Exports of a finished game: tenhou.net/6 JSON (/work/shared/formats/tenhou6.md) and the
mjai event stream (/work/shared/formats/mjai.md), checked against whole games played by
seeded players and against the shapes of real tenhou logs (/work/shared/corpus/tenhou6).
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections import Counter
from typing import Any

import pytest

from server.game.events import Event
from server.game.export_mjai import export_mjai, mjai_for_seat, mjai_tile
from server.game.export_tenhou6 import (
    added_kong_string,
    call_string,
    export_tenhou6,
    result_array,
    sorted_codes,
    tile_code,
)
from server.game.record import GameRecord
from tests.game.simple_players import greedy_player, random_player, whole_game
from server.rules.config import EMA2016, TENHOU

# ---- players and games ------------------------------------------------------------


PLAYERS = {"random": random_player, "greedy": greedy_player}
# (player, rules, seed number): a few whole games of each kind.  With today's engine the
# greedy games 1 (ema2016), 2 and 60 (tenhou) also hold a chankan, a double ron and nine
# terminals; the checks hold whatever the games contain.
GAMES = [("random", EMA2016, 0), ("random", TENHOU, 1), ("greedy", EMA2016, 1), ("greedy", EMA2016, 2),
         ("greedy", TENHOU, 2), ("greedy", TENHOU, 3), ("greedy", TENHOU, 9), ("greedy", TENHOU, 60)]


class Played:
    def __init__(self, player: str, rules, number: int):
        game, events = whole_game(rules, f"exports {number}".encode(), number, PLAYERS[player])
        self.game, self.events, self.rules = game, events, rules
        self.record = GameRecord.of(game)
        self.tenhou = export_tenhou6(self.record)
        self.mjai = export_mjai(self.record)
        # The engine's events cut into hands.
        self.hands: list[list[Event]] = []
        for event in events:
            if event.type == "hand_start":
                self.hands.append([])
            if self.hands and (event.type != "game_end"):
                self.hands[-1].append(event)


_PLAYED: dict[tuple, Played] = {}


def _played(player: str, rules, number: int) -> Played:
    key = (player, rules.name, number)
    if key not in _PLAYED:
        _PLAYED[key] = Played(player, rules, number)
    return _PLAYED[key]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{p}-{r.name}-{n}" for p, r, n in GAMES])
def played(request) -> Played:
    return _played(*request.param)


@pytest.fixture(scope="module")
def all_played() -> list[Played]:
    return [_played(*g) for g in GAMES]


def test_the_games_cover_the_main_paths(all_played):
    """The checks below run over wins (ron and tsumo), draws, riichi, and every kind of call."""
    seen: Counter = Counter()
    for p in all_played:
        for r in p.game.results:
            seen[r["type"]] += 1
            if r["type"] == "win":
                seen["tsumo" if r["wins"][0]["tsumo"] else "ron"] += 1
        seen.update(e.public["meld"] for e in p.events if e.type == "call")
        seen.update(e.type for e in p.events if e.type in ("riichi_accepted", "dora"))
    for key in ("win", "exhaustive_draw", "tsumo", "ron", "chi", "pon", "kan", "ankan", "kakan",
                "riichi_accepted", "dora"):
        assert seen[key], f"no {key} in the test games: {dict(seen)}"


def test_exports_survive_the_record_round_trip(played):
    """A record stored as JSON and read back exports the same."""
    again = GameRecord.from_json(played.record.to_json())
    assert export_tenhou6(again) == played.tenhou and export_mjai(again) == played.mjai


def test_replaying_the_record_gives_the_same_events(played):
    game, events = played.record.replay_events()
    assert game.results == played.game.results and game.final == played.game.final
    assert [(e.type, e.public, e.private) for e in events] == [(e.type, e.public, e.private) for e in played.events]


# ---- tenhou.net/6: tiles and call strings --------------------------------------------


def test_tile_codes():
    """tenhou6.md: "Tiles: 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N White Green Red,
    51/52/53 red 5m/5p/5s" — red only where the rules have red fives."""
    assert [tile_code(k * 4 + 1, True) for k in (0, 8, 9, 17, 18, 26, 27, 30, 31, 33)] == [
        11, 19, 21, 29, 31, 39, 41, 44, 45, 47]
    assert [tile_code(t, True) for t in (16, 52, 88)] == [51, 52, 53]
    assert [tile_code(t, False) for t in (16, 52, 88)] == [15, 25, 35]
    assert [tile_code(t, True) for t in (17, 53, 89)] == [15, 25, 35]


def test_hands_sort_a_red_five_after_the_plain_fives():
    """As in real logs: [..., 25, 52, 31, ...] (corpus confusing_nakis_4, seat 1)."""
    assert sorted_codes([89, 88, 17, 52, 53, 0, 132], True) == [11, 15, 25, 52, 35, 53, 47]


def _id(code: int, copy_index: int = 1) -> int:
    """A tile id for a tenhou code (51-53: the red id; else copy `copy_index` of the kind, never red)."""
    if code >= 51:
        return {51: 16, 52: 52, 53: 88}[code]
    kind = 27 + code - 41 if code >= 41 else (code // 10 - 1) * 9 + code % 10 - 1
    return kind * 4 + copy_index


def _ids(codes: list[int]) -> list[int]:
    """Distinct tile ids for tenhou codes; a plain five never gets the red id."""
    used: set[int] = set()
    out = []
    for code in codes:
        candidates = [_id(code, i) for i in (1, 2, 3, 0)]
        tile = next(t for t in candidates if t not in used and (code >= 51 or t not in (16, 52, 88)))
        used.add(tile)
        out.append(tile)
    return out


# (expected, seat, meld, called code, own codes, from seat): the format's examples, real
# logs in the corpus, and red-five cases as tenhou writes them.
CALLS = [
    ("c275226", 1, "chi", 27, [52, 26], 0),  # tenhou6.md
    ("p252525", 1, "pon", 25, [25, 25], 0),
    ("12p1212", 1, "pon", 12, [12, 12], 3),
    ("3737p37", 1, "pon", 37, [37, 37], 2),
    ("m39393939", 2, "kan", 39, [39, 39, 39], 1),
    ("26m262626", 2, "kan", 26, [26, 26, 26], 0),
    ("131313m13", 2, "kan", 13, [13, 13, 13], 3),
    ("c375336", 0, "chi", 37, [53, 36], 3),  # ranked_game.json
    ("c363453", 3, "chi", 36, [34, 53], 2),
    ("2552p25", 1, "pon", 25, [52, 25], 2),  # confusing_nakis_5.json
    ("252552m25", 1, "kan", 25, [25, 52, 25], 2),  # confusing_nakis_4.json
    ("p522525", 1, "pon", 52, [25, 25], 0),  # a red five called
    ("35p3553", 2, "pon", 35, [35, 53], 0),
    ("m53353535", 0, "kan", 53, [35, 35, 35], 3),
    ("35m533535", 1, "kan", 53, [35, 35, 35], 3),
    ("353535m53", 2, "kan", 53, [35, 35, 35], 3),
    ("35m353553", 3, "kan", 35, [35, 35, 53], 1),
]


@pytest.mark.parametrize("expected, seat, meld, called, own, source", CALLS, ids=[c[0] for c in CALLS])
def test_call_strings(expected, seat, meld, called, own, source):
    """tenhou6.md: "Call strings, the letter's position telling from whom": chi always from
    the left; pon/open kong with the letter first (left), after one tile (across), last (right)."""
    ids = _ids([called, *own])
    called_id, own_ids = ids[0], ids[1:]
    assert call_string(seat, meld, [called_id, *own_ids], called_id, source, True) == expected


def test_concealed_kong_string_has_a_at_index_6():
    """tenhou6.md: concealed kong `"424242a42"` (`a` at index 6); a red five comes last."""
    assert call_string(0, "ankan", [_id(42, i) for i in range(4)], None, None, True) == "424242a42"
    assert call_string(0, "ankan", [16, 17, 18, 19], None, None, True) == "151515a51"
    assert call_string(0, "ankan", [16, 17, 18, 19], None, None, False) == "151515a15"


@pytest.mark.parametrize("pon, added, expected", [
    ("p161616", 16, "k16161616"), ("41p4141", 41, "41k414141"), ("4646p46", 46, "4646k4646"),  # tenhou6.md
    ("3636p36", 36, "3636k3636"),  # chankan.json
    ("p151515", 51, "k51151515"), ("15p1515", 51, "15k511515"), ("1515p15", 51, "1515k5115"),
])
def test_added_kong_strings(pon, added, expected):
    """tenhou6.md: added kong `"k16161616"`, `"41k414141"`, `"4646k4646"`: the pon's string
    with `p` replaced by `k` and the added tile."""
    assert added_kong_string(pon, _id(added, 3), True) == expected


# ---- tenhou.net/6: results ------------------------------------------------------------


def _win(seat, source, han, fu, yaku, payers, hand, melds=(), sticks=0, limit=None, yakuman=0, dora=0,
         liable=None):
    return {"seat": seat, "from": source, "tile": hand[-1], "tsumo": source is None, "hand": list(hand),
            "melds": [{"kind": "pon", "tiles": list(m)} for m in melds], "han": han, "fu": fu,
            "yaku": [list(y) for y in yaku], "dora": dora, "limit": limit, "yakuman": yakuman,
            "points": sum(payers.values()), "payers": {str(k): v for k, v in payers.items()},
            "liable": liable, "sticks": sticks}


def test_ron_result_as_in_a_real_log():
    """ranked_game.json, East 1: ["和了", [0, 0, -7700, 7700], [3, 2, 3, "30符4飜7700点",
    "役牌 發(1飜)", "混一色(2飜)", "赤ドラ(1飜)"]] (dora indicator 4m)."""
    hand = [88, 89, 92, 96, 100, 104, 108, 112, 113, 114, 128, 129, 130, 131]  # 55567s 78s.. 999s FFFF
    win = _win(3, 2, 4, 30, [("yakuhai_hatsu", 1), ("honitsu", 2)], {2: 7700}, hand, dora=1)
    result = {"type": "win", "wins": [win], "deltas": [0, 0, -7700, 7700]}
    assert result_array(result, 0, 0, [_id(14)], TENHOU) == [
        "和了", [0, 0, -7700, 7700], [3, 2, 3, "30符4飜7700点", "役牌 發(1飜)", "混一色(2飜)", "赤ドラ(1飜)"]]


def test_double_ron_result_repeats_the_pair():
    """double_ron.json (South 4, seat 3 deals, 0 counters): each winner has their own deltas,
    the sticks with the first; "跳満12000点" and "30符2飜2000点"."""
    first = _win(0, 3, 6, 40, [("riichi", 1)], {3: 12000}, [0] * 14, sticks=1, limit="haneman", dora=5)
    second = _win(2, 3, 2, 30, [("yakuhai_hatsu", 1)], {3: 2000}, [0] * 14, dora=1)
    result = {"type": "win", "wins": [first, second], "deltas": [13000, 0, 2000, -14000]}
    array = result_array(result, 3, 1, [_id(19)], TENHOU)  # indicator 9m: dora 1m (the [0]*14 hand)
    assert array[0] == "和了"
    assert array[1] == [13000, 0, 0, -12000] and array[3] == [0, 0, 2000, -2000]
    assert array[2][:4] == [0, 3, 0, "跳満12000点"] and array[4][:4] == [2, 3, 2, "30符2飜2000点"]


@pytest.mark.parametrize("seat, dealer, han, fu, limit, expected", [
    (3, 1, 5, 40, "mangan", "満貫2000-4000点"),  # rinshan.json
    (1, 1, 4, 30, None, "30符4飜3900点∀"),  # ranked_game.json
    (3, 0, 3, 30, None, "30符3飜1000-2000点"),  # complex_nakis_0.json
    (0, 0, 11, 30, "sanbaiman", "三倍満12000点∀"),
])
def test_tsumo_points_strings(seat, dealer, han, fu, limit, expected):
    """Counters are not in the points string; a non-dealer's tsumo is "non-dealer-dealer点",
    a dealer's "each点∀"."""
    payers = {s: 1 for s in range(4) if s != seat}
    result = {"type": "win", "wins": [_win(seat, None, han, fu, [("menzen_tsumo", 1)], payers, [0] * 14,
                                            limit=limit)], "deltas": [0, 0, 0, 0]}
    assert result_array(result, dealer, 0, [], TENHOU)[2][3] == expected


def test_liable_seat_is_the_third_field():
    """tenhou6.md: [who, from, pao, ...]; with no liability pao is the winner."""
    yaku = [("daisangen", 13)]
    liable = _win(1, None, 13, 30, yaku, {2: 32000}, [0] * 14, limit="yakuman", yakuman=1, liable=2)
    result = {"type": "win", "wins": [liable], "deltas": [0, 32000, -32000, 0]}
    assert result_array(result, 0, 0, [], EMA2016)[2][:5] == [1, 1, 2, "役満8000-16000点", "大三元(役満)"]


def test_double_riichi_is_one_yaku_of_two_han():
    yaku = [("riichi", 1), ("double_riichi", 1), ("menzen_tsumo", 1), ("ippatsu", 1)]
    win = _win(2, None, 4, 30, yaku, {0: 1, 1: 1, 3: 1}, [0] * 14)
    strings = result_array({"type": "win", "wins": [win], "deltas": [0] * 4}, 0, 0, [], EMA2016)[2][4:]
    assert strings == ["両立直(2飜)", "一発(1飜)", "門前清自摸和(1飜)"]


def test_winds_are_named_per_seat_and_round():
    """Seat 0 when seat 3 deals is South; the round is South."""
    win = _win(0, 1, 2, 40, [("yakuhai_seat", 1), ("yakuhai_round", 1)], {1: 2600}, [0] * 14)
    strings = result_array({"type": "win", "wins": [win], "deltas": [0] * 4}, 3, 1, [], EMA2016)[2][4:]
    assert strings == ["自風 南(1飜)", "場風 南(1飜)"]


@pytest.mark.parametrize("result, expected", [
    ({"type": "exhaustive_draw", "nagashi": [], "deltas": [3000, -1000, -1000, -1000]},
     ["流局", [3000, -1000, -1000, -1000]]),
    ({"type": "exhaustive_draw", "nagashi": [], "deltas": [0, 0, 0, 0]}, ["流局", [0, 0, 0, 0]]),
    ({"type": "exhaustive_draw", "nagashi": [1], "deltas": [-4000, 8000, -2000, -2000]},
     ["流し満貫", [-4000, 8000, -2000, -2000]]),
    ({"type": "abortive_draw", "reason": "nine_terminals", "deltas": [0] * 4}, ["九種九牌"]),
    ({"type": "abortive_draw", "reason": "four_winds", "deltas": [0] * 4}, ["四風連打"]),
    ({"type": "abortive_draw", "reason": "four_riichi", "deltas": [0] * 4}, ["四家立直"]),
    ({"type": "abortive_draw", "reason": "four_kongs", "deltas": [0] * 4}, ["四槓散了"]),
    ({"type": "abortive_draw", "reason": "triple_ron", "deltas": [0] * 4}, ["三家和了"]),
])
def test_draw_results(result, expected):
    """tenhou6.md: `["流局", deltas]` for an exhaustive draw, or `["九種九牌"]`, `["四風連打"]`,
    `["四家立直"]`, `["四槓散了"]`, `["三家和了"]`, `["流し満貫", deltas]`."""
    assert result_array(result, 0, 0, [], TENHOU) == expected


# ---- tenhou.net/6: whole games --------------------------------------------------------


def test_tenhou6_top_level(played):
    out = played.tenhou
    assert set(out) >= {"title", "name", "rule", "log"}
    assert out["name"] == played.game.names and len(out["title"]) == 2
    assert out["rule"]["aka"] == (1 if played.rules.red_fives else 0)
    assert "東" not in out["rule"]["disp"] and "三" not in out["rule"]["disp"]
    assert out["sc"][0::2] == played.game.final["scores"] and out["sc"][1::2] == played.game.final["results"]
    assert json.loads(json.dumps(out, ensure_ascii=False)) == out


def test_mjai_stream_is_plain_json(played):
    assert [json.loads(json.dumps(e)) for e in played.mjai] == played.mjai


def test_tenhou6_one_entry_per_hand_with_its_start(played):
    log = played.tenhou["log"]
    assert len(log) == len(played.game.results) == len(played.hands)
    for hand, events in zip(log, played.hands):
        start = events[0].public
        assert len(hand) == 17
        assert hand[0] == [start["round_wind"] * 4 + start["dealer"], start["honba"], start["sticks"]]
        assert hand[1] == start["scores"]
        red = played.rules.red_fives
        shown = start["dora_indicators"] + [e.public["indicator"] for e in events if e.type == "dora"]
        assert hand[2] == [tile_code(t, red) for t in shown]
        assert hand[3] == [tile_code(t, red) for t in events[-1].public["result"].get("ura_indicators") or []]
        for s in range(4):
            assert hand[4 + 3 * s] == sorted_codes(events[0].private[s]["hand"], red)


def test_tenhou6_deltas_equal_the_results(played):
    for hand, result in zip(played.tenhou["log"], played.game.results):
        out = hand[16]
        if result["type"] == "win":
            assert out[0] == "和了" and len(out) == 1 + 2 * len(result["wins"])
            per_winner = out[1::2]
            assert [sum(d[s] for d in per_winner) for s in range(4)] == result["deltas"]
            for deltas, info, win in zip(per_winner, out[2::2], result["wins"]):
                assert info[0] == win["seat"] and info[1] == (win["seat"] if win["tsumo"] else win["from"])
                assert re.fullmatch(r"(\d+符\d+飜|満貫|跳満|倍満|三倍満|役満)(\d+点∀|\d+-\d+点|\d+点)", info[3])
                assert all(re.fullmatch(r".+\((\d+飜|役満)\)", y) for y in info[4:])
                assert deltas[win["seat"]] == win["points"] + 1000 * win["sticks"]
        elif result["type"] == "exhaustive_draw":
            assert out == ["流し満貫" if result["nagashi"] else "流局", result["deltas"]]
        else:
            assert len(out) == 1 and result["deltas"] == [0, 0, 0, 0]


def test_tenhou6_scores_chain(played):
    """Each hand starts from the last one's scores, its deltas, and the riichi sticks paid in it."""
    log = played.tenhou["log"]
    for i, (hand, events) in enumerate(zip(log, played.hands)):
        result = played.game.results[i]
        paid = [0, 0, 0, 0]
        for e in events:
            if e.type == "riichi_accepted":
                paid[e.public["seat"]] += 1000
        after = [hand[1][s] + result["deltas"][s] - paid[s] for s in range(4)]
        sticks = 0 if result["type"] == "win" else hand[0][2] + sum(paid) // 1000
        if i + 1 < len(log):
            assert log[i + 1][1] == after and log[i + 1][0][2] == sticks
        else:
            assert sum(after) + 1000 * sticks == sum(played.game.final["scores"])


_CALL_SHAPES = {
    "c": r"c\d{6}", "p": r"p\d{6}|\d{2}p\d{4}|\d{4}p\d{2}", "m": r"m\d{8}|\d{2}m\d{6}|\d{6}m\d{2}",
    "k": r"k\d{8}|\d{2}k\d{6}|\d{4}k\d{4}", "a": r"\d{6}a\d{2}", "r": r"r\d{2}",
}
_RELATIVE = {0: 3, 2: 2, 4: 1, 6: 1}  # letter index -> (from - seat) % 4


def _split(text: str) -> tuple[str, int, list[int]]:
    letter = next(ch for ch in text if ch.isalpha())
    index = text.index(letter)
    assert re.fullmatch(_CALL_SHAPES[letter], text), text
    codes = re.findall(r"\d\d", text[:index]) + re.findall(r"\d\d", text[index + 1:])
    return letter, index, [int(c) for c in codes]


def _simulate(hand: list[Any], seat: int) -> tuple[Counter, list[tuple[str, int | None]]]:
    """Play one seat's takes and discards over its starting hand; every discard must be
    held.  Returns the concealed tiles at the end and the calls (letter, from seat)."""
    held = Counter(hand[4 + 3 * seat])
    takes, discards = hand[5 + 3 * seat], hand[6 + 3 * seat]
    assert len(takes) - len(discards) in (0, 1)
    calls: list[tuple[str, int | None]] = []
    for j, take in enumerate(takes):
        drawn = None
        if isinstance(take, int):
            held[take] += 1
            drawn = take
        else:
            letter, index, codes = _split(take)
            called = int(take[index + 1:index + 3])
            own = list(codes)
            own.remove(called)
            for c in own:
                assert held[c] > 0, (take, held)
                held[c] -= 1
            relative = 3 if letter == "c" else _RELATIVE[index]
            calls.append((letter, (seat + relative) % 4))
        if j >= len(discards):
            break
        out = discards[j]
        if out == 0:
            assert isinstance(take, str) and "m" in take
            continue
        if isinstance(out, str) and out[0] != "r":
            letter, index, codes = _split(out)
            if letter == "a":
                gone = codes
            else:  # added kong: the tile after k
                gone = [int(out[index + 1:index + 3])]
            calls.append((letter, None))
        else:
            code = int(out[1:]) if isinstance(out, str) else out
            gone = [drawn if code == 60 else code]
            assert code != 60 or drawn is not None
        for c in gone:
            assert held[c] > 0, (out, held)
            held[c] -= 1
    return +held, calls


def test_tenhou6_takes_and_discards_replay_to_the_games_hands(played):
    """Playing each seat's takes and discards over its starting hand never discards a tile it
    does not hold, the calls come from the seats the engine says, and winners end with the
    engine's winning hands (tenpai hands too, at an exhaustive draw)."""
    red = played.rules.red_fives
    for hand, events, result in zip(played.tenhou["log"], played.hands, played.game.results):
        engine_calls = [[] for _ in range(4)]
        letters = {"chi": "c", "pon": "p", "kan": "m", "ankan": "a", "kakan": "k"}
        for e in events:
            if e.type == "call":
                engine_calls[e.public["seat"]].append((letters[e.public["meld"]], e.public["from"]))
        ended_on_draw = None
        if result["type"] == "win" and result["wins"][0]["tsumo"]:
            ended_on_draw = result["wins"][0]["seat"]
        if result.get("reason") == "nine_terminals":
            ended_on_draw = result["seat"]
        for s in range(4):
            held, calls = _simulate(hand, s)
            assert calls == engine_calls[s]
            takes, discards = hand[5 + 3 * s], hand[6 + 3 * s]
            assert len(takes) - len(discards) == (1 if s == ended_on_draw else 0)
            if result["type"] == "win":
                for w in result["wins"]:
                    if w["seat"] == s:
                        final = held + (Counter() if w["tsumo"] else Counter([tile_code(w["tile"], red)]))
                        assert final == Counter(tile_code(t, red) for t in w["hand"])
            elif result["type"] == "exhaustive_draw" and str(s) in result["hands"]:
                assert held == Counter(tile_code(t, red) for t in result["hands"][str(s)])


def test_tenhou6_tsumogiri_and_riichi_marks(played):
    """tenhou6.md: "60 = discarded the tile just drawn"; riichi `"r35"`, `"r60"` with the tile just drawn."""
    for hand, events in zip(played.tenhou["log"], played.hands):
        discards = [[], [], [], []]
        for e in events:
            if e.type == "discard":
                d = e.public
                code = 60 if d["tsumogiri"] else tile_code(d["tile"], played.rules.red_fives)
                discards[d["seat"]].append(f"r{code}" if d["riichi"] else code)
        for s in range(4):
            plain = [d for d in hand[6 + 3 * s] if isinstance(d, int) and d != 0 or isinstance(d, str) and d[0] == "r"]
            assert plain == discards[s]


# ---- mjai -----------------------------------------------------------------------------


def test_mjai_tiles():
    """mjai.md: "`1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `E S W N P F C` ... red fives `5mr 5pr 5sr`"."""
    assert [mjai_tile(k * 4 + 1, True) for k in (0, 8, 9, 17, 18, 26)] == ["1m", "9m", "1p", "9p", "1s", "9s"]
    assert [mjai_tile(k * 4, True) for k in range(27, 34)] == ["E", "S", "W", "N", "P", "F", "C"]
    assert [mjai_tile(t, True) for t in (16, 52, 88)] == ["5mr", "5pr", "5sr"]
    assert [mjai_tile(t, False) for t in (16, 52, 88)] == ["5m", "5p", "5s"]


# What may follow each event inside a hand (the actor relation is checked separately).
_NEXT = {
    "start_kyoku": {"tsumo"},
    "tsumo": {"dahai", "reach", "ankan", "kakan", "hora", "ryukyoku", "dora"},
    "dora": {"tsumo", "dahai", "reach", "ankan", "kakan", "hora", "dora"},
    "reach": {"dahai"},
    "dahai": {"tsumo", "chi", "pon", "daiminkan", "hora", "reach_accepted", "ryukyoku"},
    "reach_accepted": {"tsumo", "chi", "pon", "daiminkan", "ryukyoku"},
    "chi": {"dahai"}, "pon": {"dahai"},
    "daiminkan": {"tsumo", "dora"}, "ankan": {"tsumo", "dora", "hora"}, "kakan": {"tsumo", "dora", "hora"},
    "hora": {"hora", "end_kyoku"}, "ryukyoku": {"end_kyoku"},
}


def test_mjai_event_order(played):
    stream = played.mjai
    assert stream[0] == {"type": "start_game", "names": played.game.names}
    assert stream[-1] == {"type": "end_game"}
    kyoku = [i for i, e in enumerate(stream) if e["type"] == "start_kyoku"]
    ends = [i for i, e in enumerate(stream) if e["type"] == "end_kyoku"]
    assert len(kyoku) == len(ends) == len(played.game.results)
    assert ends[-1] == len(stream) - 2
    for (start, end, result) in zip(kyoku, ends, played.game.results):
        block = stream[start:end + 1]
        for a, b in itertools.pairwise(block):
            assert b["type"] in _NEXT[a["type"]], (a, b)
            if a["type"] in ("tsumo", "reach", "chi", "pon", "daiminkan", "ankan", "kakan") and "actor" in b \
                    and b["type"] not in ("hora",):
                assert b["actor"] == a["actor"], (a, b)
            if a["type"] == "dahai" and b["type"] == "tsumo":
                assert b["actor"] == (a["actor"] + 1) % 4, (a, b)
        for i, e in enumerate(block):
            if e["type"] == "reach":
                # mjai.md: "`reach` then the riichi `dahai`, then `reach_accepted` once the discard passes"
                assert block[i + 1]["type"] == "dahai" and block[i + 1]["actor"] == e["actor"]
                assert block[i + 2]["type"] in ("reach_accepted", "hora", "ryukyoku")
                if block[i + 2]["type"] == "reach_accepted":
                    assert block[i + 2]["actor"] == e["actor"]
        ending = [e for e in block if e["type"] in ("hora", "ryukyoku")]
        if result["type"] == "win":
            assert [(e["actor"], e["deltas"]) for e in ending] == [
                (w["seat"], _win_deltas(w)) for w in result["wins"]]
        else:
            assert ending == [{"type": "ryukyoku", "deltas": result["deltas"]}]


def _win_deltas(win: dict[str, Any]) -> list[int]:
    deltas = [0, 0, 0, 0]
    for payer, amount in win["payers"].items():
        deltas[int(payer)] -= amount
    deltas[win["seat"]] += win["points"] + 1000 * win["sticks"]
    return deltas


def test_mjai_start_kyoku_matches_the_hand_start(played):
    red = played.rules.red_fives
    starts = [e for e in played.mjai if e["type"] == "start_kyoku"]
    for start, events in zip(starts, played.hands):
        data = events[0].public
        assert start["bakaze"] == "ESWN"[data["round_wind"]] and start["kyoku"] == data["dealer"] + 1
        assert (start["oya"], start["honba"], start["kyotaku"]) == (data["dealer"], data["honba"], data["sticks"])
        assert start["scores"] == data["scores"]
        assert start["dora_marker"] == mjai_tile(data["dora_indicators"][0], red)
        for s in range(4):
            assert Counter(start["tehais"][s]) == Counter(mjai_tile(t, red) for t in events[0].private[s]["hand"])


def test_mjai_draws_and_discards_are_the_games(played):
    """Every tsumo and dahai is the engine's draw and discard, in order, tile for tile."""
    red = played.rules.red_fives
    expected = []
    for e in played.events:
        if e.type == "draw":
            seat = e.public["seat"]
            expected.append(("tsumo", seat, mjai_tile(e.private[seat]["tile"], red), None))
        elif e.type == "discard":
            expected.append(("dahai", e.public["seat"], mjai_tile(e.public["tile"], red), e.public["tsumogiri"]))
    got = [(e["type"], e["actor"], e["pai"], e.get("tsumogiri"))
           for e in played.mjai if e["type"] in ("tsumo", "dahai")]
    assert got == expected


def test_mjai_stream_replays_to_the_games_hands(played):
    """Following the stream, every discarded or consumed tile is held; a winner's hand at
    hora is the engine's winning hand."""
    red = played.rules.red_fives
    results = iter(played.game.results)
    held: list[Counter] = []
    last: dict[str, Any] = {}
    for e in played.mjai:
        kind = e["type"]
        if kind == "start_kyoku":
            held = [Counter(h) for h in e["tehais"]]
            result = next(results)
            wins = iter(result.get("wins", []))
        elif kind == "tsumo":
            held[e["actor"]][e["pai"]] += 1
        elif kind in ("dahai", "chi", "pon", "daiminkan", "kakan", "ankan"):
            gone = [e["pai"]] if kind in ("dahai", "kakan") else list(e["consumed"])
            for t in gone:
                assert held[e["actor"]][t] > 0, (e, held[e["actor"]])
                held[e["actor"]][t] -= 1
            if kind in ("chi", "pon", "daiminkan"):
                assert last["type"] == "dahai" and last["actor"] == e["target"] and last["pai"] == e["pai"]
            if kind == "kakan":
                assert len(e["consumed"]) == 3 and {t[:2] for t in e["consumed"]} == {e["pai"][:2]}
        elif kind == "hora":
            win = next(wins)
            hand = +held[e["actor"]] + (Counter() if e["actor"] == e["target"] else Counter([e["pai"]]))
            assert hand == Counter(mjai_tile(t, red) for t in win["hand"])
            assert e["ura_markers"] == [mjai_tile(t, red) for t in result["ura_indicators"]]
        if kind not in ("dora", "reach", "reach_accepted"):
            last = e


def test_mjai_for_seat_hides_the_other_seats_tiles(played):
    stream = played.mjai
    before = copy.deepcopy(stream)
    for seat in range(4):
        view = mjai_for_seat(stream, seat)
        assert len(view) == len(stream)
        for full, seen in zip(stream, view):
            kind = full["type"]
            if kind == "start_game":
                assert seen == {**full, "id": seat}
            elif kind == "start_kyoku":
                for s in range(4):
                    if s == seat:
                        assert seen["tehais"][s] == full["tehais"][s]
                    else:
                        assert seen["tehais"][s] == ["?"] * 13
                assert {k: v for k, v in seen.items() if k != "tehais"} == {
                    k: v for k, v in full.items() if k != "tehais"}
            elif kind == "tsumo":
                assert seen == (full if full["actor"] == seat else {**full, "pai": "?"})
            else:
                assert seen == full
    assert stream == before, "masking must not change the full stream"


def test_mjai_for_seat_shows_nothing_of_hidden_draws(all_played):
    """A seat's view names no tile of another seat's draw: each other seat's tsumo is "?"."""
    p = all_played[0]
    view = mjai_for_seat(p.mjai, 2)
    assert {e["pai"] for e in view if e["type"] == "tsumo" and e["actor"] != 2} == {"?"}
    assert all(e["pai"] != "?" for e in view if e["type"] == "tsumo" and e["actor"] == 2)


# ---- round trip through the tenhou.net/6 importer -------------------------------------

_TILE_FIELDS = {"tile", "hand", "tiles", "ura_indicators"}


def _by_code(value: Any, red: bool, key: str = "") -> Any:
    """A result with every tile id written as its tenhou code (a log has no ids), lists sorted."""
    if isinstance(value, dict):
        if key == "hands":
            return {k: sorted_codes(v, red) for k, v in value.items()}
        return {k: _by_code(v, red, k) for k, v in value.items()}
    if isinstance(value, list):
        if key in _TILE_FIELDS and all(isinstance(t, int) for t in value):
            return sorted_codes(value, red) if key != "ura_indicators" else [tile_code(t, red) for t in value]
        return [_by_code(v, red) for v in value]
    if key == "tile" and isinstance(value, int):
        return tile_code(value, red)
    return value


TENHOU_GAMES = [g for g in GAMES if g[1] is TENHOU]


@pytest.mark.parametrize("game", TENHOU_GAMES, ids=[f"{p}-{n}" for p, _, n in TENHOU_GAMES])
def test_tenhou6_round_trip_through_the_importer(game):
    """Export, import (server/game/importers/tenhou6.py), replay: the same hands, results,
    final scores, and the same export again.  Only tenhou-rules games: the importer reads
    every tenhou.net/6 log with the tenhou preset."""
    from server.game.importers.replay import replay_log
    from server.game.importers.tenhou6 import parse_tenhou6

    played = _played(*game)
    replay = replay_log(parse_tenhou6(played.tenhou))
    assert replay.error is None
    assert replay.compare().agrees
    red = played.rules.red_fives
    assert [_by_code(r, red) for r in replay.game.results] == [_by_code(r, red) for r in played.game.results]
    assert {**replay.game.final, "seed": None} == {**played.game.final, "seed": None}
    again = export_tenhou6(replay.record)
    assert again["log"] == played.tenhou["log"] and again["sc"] == played.tenhou["sc"]
