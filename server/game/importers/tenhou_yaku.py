"""The online server's yaku, by its numeric id (mjlog) and its Japanese name (tenhou.net/6),
as the engine's yaku names.  Dora, ura dora and red fives are not yaku: `DORA_IDS`."""

from __future__ import annotations

# id: (name in tenhou.net/6 logs, engine name or None where the engine has no such yaku)
YAKU: dict[int, tuple[str, str | None]] = {
    0: ("門前清自摸和", "menzen_tsumo"), 1: ("立直", "riichi"), 2: ("一発", "ippatsu"), 3: ("槍槓", "chankan"),
    4: ("嶺上開花", "rinshan"), 5: ("海底摸月", "haitei"), 6: ("河底撈魚", "houtei"), 7: ("平和", "pinfu"),
    8: ("断幺九", "tanyao"), 9: ("一盃口", "iipeikou"),
    10: ("自風 東", "yakuhai_seat"), 11: ("自風 南", "yakuhai_seat"), 12: ("自風 西", "yakuhai_seat"),
    13: ("自風 北", "yakuhai_seat"), 14: ("場風 東", "yakuhai_round"), 15: ("場風 南", "yakuhai_round"),
    16: ("場風 西", "yakuhai_round"), 17: ("場風 北", "yakuhai_round"),
    18: ("役牌 白", "yakuhai_haku"), 19: ("役牌 發", "yakuhai_hatsu"), 20: ("役牌 中", "yakuhai_chun"),
    21: ("両立直", "double_riichi"), 22: ("七対子", "chiitoitsu"), 23: ("混全帯幺九", "chanta"),
    24: ("一気通貫", "ittsu"), 25: ("三色同順", "sanshoku"), 26: ("三色同刻", "sanshoku_doukou"),
    27: ("三槓子", "sankantsu"), 28: ("対々和", "toitoi"), 29: ("三暗刻", "sanankou"), 30: ("小三元", "shousangen"),
    31: ("混老頭", "honroutou"), 32: ("二盃口", "ryanpeikou"), 33: ("純全帯幺九", "junchan"),
    34: ("混一色", "honitsu"), 35: ("清一色", "chinitsu"), 36: ("人和", None), 37: ("天和", "tenhou"),
    38: ("地和", "chiihou"), 39: ("大三元", "daisangen"), 40: ("四暗刻", "suuankou"), 41: ("四暗刻単騎", "suuankou"),
    42: ("字一色", "tsuuiisou"), 43: ("緑一色", "ryuuiisou"), 44: ("清老頭", "chinroutou"),
    45: ("九蓮宝燈", "chuuren"), 46: ("純正九蓮宝燈", "chuuren"), 47: ("国士無双", "kokushi"),
    48: ("国士無双１３面", "kokushi"), 49: ("大四喜", "daisuushii"), 50: ("小四喜", "shousuushii"),
    51: ("四槓子", "suukantsu"), 52: ("ドラ", None), 53: ("裏ドラ", None), 54: ("赤ドラ", None),
}
DORA_IDS = frozenset((52, 53, 54))
YAKUMAN_IDS = frozenset(range(37, 52))

# tenhou.net/6 names: the Japanese ones, and the English client's where a log uses them.
_BY_NAME: dict[str, int] = {name: yaku_id for yaku_id, (name, _) in YAKU.items()}
_BY_NAME.update({"Riichi": 1, "Ippatsu": 2, "Dora": 52, "Ura Dora": 53, "Red Five": 54, "Aka Dora": 54,
                 "Fully Concealed Hand": 0, "Pinfu": 7, "All Simples": 8})


def yaku_id(name: str) -> int | None:
    """The id of a yaku named in a tenhou.net/6 log, or None if the name is unknown."""
    name = name.strip()
    if name in _BY_NAME:
        return _BY_NAME[name]
    compact = name.replace(" ", "").replace("\u3000", "")
    for known, yaku in _BY_NAME.items():
        if known.replace(" ", "") == compact:
            return yaku
    return None
