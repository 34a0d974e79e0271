"""A finished game as tenhou.net/6 JSON, the log format the common review tools read.

The shapes are those of /work/shared/formats/tenhou6.md and of real tenhou logs: each
hand is a 17-element array rebuilt from the replay's events, seats are absolute (seat 0
deals first, as on tenhou), tiles are the two-digit codes 11-47 with 51-53 for red fives
(only when the rules have red fives).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from protocol.events import EventType, HandResult
from protocol.mjai_tiles import win_deltas  # one winner's share of a win's deltas, shared by both exports
from server.game.analysis import RED_IDS
from server.game.events import Event
from server.game.record import GameRecord
from server.rules.config import Rules
from server.rules.points import limit_for, payment_for
from server.rules.tiles import DORA_OF

TSUMOGIRI = 60  # in `discards`: the tile just drawn
KONG_GAP = 0  # in `discards`: the slot after an open kong (the replacement draw follows)

LIMIT_NAMES = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満"}
WIND_NAMES = "東南西北"
ABORTIVE_NAMES = {"nine_terminals": "九種九牌", "four_winds": "四風連打", "four_riichi": "四家立直",
                  "four_kongs": "四槓散了", "triple_ron": "三家和了"}

# The engine's yaku with tenhou's names, in the order they are listed: the way the hand
# was won first (as tenhou lists riichi, rinshan, then menzen tsumo), then tenhou's yaku
# ids.  The winds are filled in per win.  Double riichi is one yaku of 2 han on tenhou
# (the engine counts riichi 1 + double_riichi 1).
YAKU_NAMES: dict[str, str] = {
    "riichi": "立直", "double_riichi": "両立直", "ippatsu": "一発", "chankan": "槍槓", "rinshan": "嶺上開花",
    "haitei": "海底摸月", "houtei": "河底撈魚", "menzen_tsumo": "門前清自摸和", "pinfu": "平和",
    "tanyao": "断幺九", "iipeikou": "一盃口", "yakuhai_seat": "自風 {seat}", "yakuhai_round": "場風 {round}",
    "yakuhai_haku": "役牌 白", "yakuhai_hatsu": "役牌 發", "yakuhai_chun": "役牌 中",
    "chiitoitsu": "七対子", "chanta": "混全帯幺九", "ittsu": "一気通貫", "sanshoku": "三色同順",
    "sanshoku_doukou": "三色同刻", "sankantsu": "三槓子", "toitoi": "対々和", "sanankou": "三暗刻",
    "shousangen": "小三元", "honroutou": "混老頭", "ryanpeikou": "二盃口", "junchan": "純全帯幺九",
    "honitsu": "混一色", "chinitsu": "清一色", "renhou": "人和", "tenhou": "天和", "chiihou": "地和",
    "daisangen": "大三元", "suuankou": "四暗刻", "tsuuiisou": "字一色", "ryuuiisou": "緑一色",
    "chinroutou": "清老頭", "chuuren": "九蓮宝燈", "kokushi": "国士無双", "daisuushii": "大四喜",
    "shousuushii": "小四喜", "suukantsu": "四槓子",
}
_YAKU_ORDER = {name: i for i, name in enumerate(YAKU_NAMES)}


# ---- replaying --------------------------------------------------------------------

# ---- tiles ------------------------------------------------------------------------

def tile_code(tile: int, red_fives: bool) -> int:
    """A tile id 0-135 as tenhou's code: 11-19 man, 21-29 pin, 31-39 sou, 41-47 honours, 51-53 red fives."""
    if red_fives and tile in RED_IDS:
        return 51 + RED_IDS[tile] - RED_IDS[16]
    kind = tile >> 2
    if kind >= 27:
        return 41 + kind - 27
    return (kind // 9 + 1) * 10 + kind % 9 + 1


def _order(tile: int, red_fives: bool) -> tuple[int, bool]:
    """Tenhou's order of tiles: by kind, a red five after the plain fives of its suit."""
    return tile >> 2, red_fives and tile in RED_IDS


def sorted_codes(tiles: Iterable[int], red_fives: bool) -> list[int]:
    return [tile_code(t, red_fives) for t in sorted(tiles, key=lambda t: _order(t, red_fives))]


def _codes(tiles: Iterable[int], red_fives: bool) -> str:
    return "".join(f"{c:02d}" for c in sorted_codes(tiles, red_fives))


# ---- call strings -------------------------------------------------------------------

def _own(tiles: Sequence[int], called: int) -> list[int]:
    own = list(tiles)
    own.remove(called)
    return own


def call_string(seat: int, meld: str, tiles: Sequence[int], called: int | None, from_seat: int | None,
                red_fives: bool) -> str:
    """A call as tenhou writes it; the letter's position tells from whom (tenhou6.md)."""
    if meld == "ankan":
        codes = _codes(tiles, red_fives)
        return codes[:6] + "a" + codes[6:]
    assert called is not None and from_seat is not None
    taken = f"{tile_code(called, red_fives):02d}"
    own = _codes(_own(tiles, called), red_fives)
    relative = (from_seat - seat) % 4  # 3: the left (kamicha), 2: across, 1: the right
    if meld == "chi":
        return "c" + taken + own
    letter = {"pon": "p", "kan": "m"}[meld]
    if relative == 3:
        return letter + taken + own
    if relative == 2:
        return own[:2] + letter + taken + own[2:]
    return own + letter + taken


def added_kong_string(pon: str, added: int, red_fives: bool) -> str:
    """An added kong: the pon's string with `p` replaced by `k` and the added tile."""
    return pon.replace("p", f"k{tile_code(added, red_fives):02d}", 1)


# ---- results ------------------------------------------------------------------------

def points_string(win: dict[str, Any], dealer: int, rules: Rules) -> str:
    """"30符4飜7700点", "満貫2000-4000点", "30符4飜3900点∀": the hand's value, counters not included."""
    limit, base = limit_for(win["han"], win["fu"], rules, yakuman=win["yakuman"])
    payment = payment_for(base, win["seat"] == dealer, win["tsumo"], 0)
    if payment.ron:
        points = f"{payment.ron}点"
    elif payment.all:
        points = f"{payment.all}点∀"
    else:
        points = f"{payment.non_dealer}-{payment.dealer}点"
    if limit is None:
        return f"{win['fu']}符{win['han']}飜{points}"
    return LIMIT_NAMES[limit] + points


def dora_counts(win: dict[str, Any], indicators: Sequence[int], red_fives: bool) -> tuple[int, int, int]:
    """(dora, ura dora, red fives) of a win; ura is what the engine's dora total leaves."""
    tiles = [*win["hand"], *(t for m in win["melds"] for t in m["tiles"])]
    dora = sum(1 for i in indicators for t in tiles if t >> 2 == DORA_OF[i >> 2])
    red = sum(1 for t in tiles if red_fives and t in RED_IDS)
    return dora, win["dora"] - dora - red, red


def yaku_strings(win: dict[str, Any], seat_wind: int, round_wind: int, indicators: Sequence[int],
                 red_fives: bool) -> list[str]:
    yaku = {name: han for name, han in win["yaku"]}
    if "double_riichi" in yaku:
        yaku["double_riichi"] += yaku.pop("riichi", 0)
    # An unknown name (a yaku added to the engine later) is listed last, as it is.
    out = []
    for name in sorted(yaku, key=lambda n: _YAKU_ORDER.get(n, len(_YAKU_ORDER))):
        label = YAKU_NAMES.get(name, name).format(seat=WIND_NAMES[seat_wind], round=WIND_NAMES[round_wind % 4])
        out.append(f"{label}(役満)" if win["yakuman"] else f"{label}({yaku[name]}飜)")
    if not win["yakuman"]:
        for label, han in zip(("ドラ", "裏ドラ", "赤ドラ"), dora_counts(win, indicators, red_fives)):
            if han:
                out.append(f"{label}({han}飜)")
    return out


def result_array(result: dict[str, Any], dealer: int, round_wind: int, indicators: Sequence[int],
                 rules: Rules) -> list[Any]:
    kind = result["type"]
    if kind == HandResult.WIN:
        out: list[Any] = ["和了"]
        for win in result["wins"]:
            seat = win["seat"]
            source = seat if win["tsumo"] else win["from"]
            pao = win["liable"] if win.get("liable") is not None else seat
            info = [seat, source, pao, points_string(win, dealer, rules),
                    *yaku_strings(win, (seat - dealer) % 4, round_wind, indicators, rules.red_fives)]
            out += [win_deltas(win), info]
        return out
    if kind == HandResult.EXHAUSTIVE_DRAW:
        return ["流し満貫" if result.get("nagashi") else "流局", list(result["deltas"])]
    return [ABORTIVE_NAMES.get(result["reason"], result["reason"])]


# ---- hands --------------------------------------------------------------------------

class _Hand:
    """One hand's array, filled in event by event."""

    def __init__(self, start: dict[str, Any], hands: dict[int, list[int]], red_fives: bool):
        self.red = red_fives
        self.round_wind = start["round_wind"]
        self.dealer = start["dealer"]
        self.head = [start["round_wind"] * 4 + start["dealer"], start["honba"], start["sticks"]]
        self.scores = list(start["scores"])
        self.indicators = list(start["dora_indicators"])
        self.hands = [sorted_codes(hands[s], red_fives) for s in range(4)]
        self.takes: list[list[Any]] = [[], [], [], []]
        self.discards: list[list[Any]] = [[], [], [], []]
        self.pons: dict[tuple[int, int], str] = {}  # (seat, kind) -> the pon's string
        self.result: list[Any] = []
        self.ura: list[int] = []

    def on(self, event: Event, rules: Rules) -> None:
        data = event.public
        if event.type == EventType.DRAW:
            seat = data["seat"]
            self.takes[seat].append(tile_code(event.private[seat]["tile"], self.red))
        elif event.type == EventType.DISCARD:
            code: Any = TSUMOGIRI if data["tsumogiri"] else tile_code(data["tile"], self.red)
            self.discards[data["seat"]].append(f"r{code}" if data["riichi"] else code)
        elif event.type == EventType.CALL:
            self._call(data)
        elif event.type == EventType.DORA:
            self.indicators.append(data["indicator"])
        elif event.type == EventType.HAND_END:
            result = data["result"]
            self.result = result_array(result, self.dealer, self.round_wind, self.indicators, rules)
            self.ura = list(result.get("ura_indicators") or [])

    def _call(self, data: dict[str, Any]) -> None:
        seat, meld, tiles = data["seat"], data["meld"], data["tiles"]
        if meld == "ankan":
            self.discards[seat].append(call_string(seat, meld, tiles, None, None, self.red))
        elif meld == "kakan":
            pon = self.pons[(seat, tiles[0] >> 2)]
            self.discards[seat].append(added_kong_string(pon, data["called"], self.red))
        else:
            text = call_string(seat, meld, tiles, data["called"], data["from"], self.red)
            self.takes[seat].append(text)
            if meld == "pon":
                self.pons[(seat, tiles[0] >> 2)] = text
            elif meld == "kan":
                self.discards[seat].append(KONG_GAP)

    def array(self) -> list[Any]:
        out: list[Any] = [self.head, self.scores, [tile_code(t, self.red) for t in self.indicators],
                          [tile_code(t, self.red) for t in self.ura]]
        for s in range(4):
            out += [self.hands[s], self.takes[s], self.discards[s]]
        out.append(self.result)
        return out


def hands_from_events(events: Iterable[Event], rules: Rules) -> list[list[Any]]:
    """The `log` of tenhou.net/6 JSON: one 17-element array per hand."""
    log: list[list[Any]] = []
    hand: _Hand | None = None
    for event in events:
        if event.type == EventType.HAND_START:
            hand = _Hand(event.public, {s: p["hand"] for s, p in event.private.items()}, rules.red_fives)
        elif hand is not None:
            hand.on(event, rules)
            if event.type == EventType.HAND_END:
                log.append(hand.array())
                hand = None
    return log


def rule_display(rules: Rules) -> str:
    """tenhou's `disp`: 南 an East-South game (tools look for 東, East only, and 三, three
    players), 喰 open tanyao, 赤 red fives; led by the preset's name."""
    return f"{rules.name} 南" + ("喰" if rules.open_tanyao else "") + ("赤" if rules.red_fives else "")


def export_tenhou6(record: GameRecord) -> dict[str, Any]:
    """The record's game as tenhou.net/6 JSON; `sc` is the final [score, result] of each seat;
    a game ended by its session's time says so in its `rule` (`time_up`: 1, ours: tools ignore it,
    our importer reads it)."""
    game, events = record.replay_events()
    rules = record.rules
    out: dict[str, Any] = {
        "title": [f"riichi-server {rules.name}", f"seed sha256 {game.seed_hash}" if game.seed_hash else ""],
        "name": list(record.names),
        "rule": {"disp": rule_display(rules), "aka": 1 if rules.red_fives else 0},
        "log": hands_from_events(events, rules),
    }
    if game.final is not None and game.last_hand is not None:
        out["rule"]["time_up"] = 1
    if game.final is not None:
        out["sc"] = [x for s in range(4) for x in (game.final["scores"][s], game.final["results"][s])]
    return out
