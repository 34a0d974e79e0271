"""Packed counts (server/rules/packed.py): the same answers as plain 34-count lists.

Scoring asks its questions of the packed int (over four of a kind, seven pairs, thirteen
orphans, nine gates, which tiles a hand holds); each is checked here against the plain
count it stands for, on hands built to hit the edges of each question.
"""

import random

from server.rules import yaku
from server.rules.packed import (
    FIELD,
    HONOURS,
    KINDS_MASK,
    OUTSIDE,
    RED_AT,
    SIMPLES,
    TILE,
    TILE_MARKING_RED,
    WIDTH,
    is_nine_gates,
    is_seven_pairs,
    is_thirteen_orphans,
    over_four,
    pack,
    pack_counts,
    unpack,
)
from server.rules.tiles import RED_FIVES, TERMINALS_AND_HONOURS, parse_tiles


def _random_counts(rng: random.Random) -> list[int]:
    """34 counts near the edges: mostly 0-4, sometimes 5-18 of one kind, sometimes pairs only."""
    shape = rng.random()
    if shape < 0.3:  # pairs, and now and then a single or a four
        counts = [0] * 34
        for kind in rng.sample(range(34), 7):
            counts[kind] = rng.choice((2, 2, 2, 2, 1, 4))
        return counts
    if shape < 0.5:  # thirteen orphans or nine gates, one tile more, and often one change
        counts = [0] * 34
        if rng.random() < 0.5:
            for kind in TERMINALS_AND_HONOURS:
                counts[kind] = 1
            counts[rng.choice(TERMINALS_AND_HONOURS)] += 1
        else:
            base = 9 * rng.randrange(3)
            counts[base:base + 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3]
            counts[base + rng.randrange(9)] += 1
        if rng.random() < 0.5:
            counts[rng.randrange(34)] += 1
            taken = rng.choice([k for k in range(34) if counts[k]])
            counts[taken] -= 1
        return counts
    counts = [rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(34)]
    if rng.random() < 0.2:
        counts[rng.randrange(34)] = rng.randrange(5, 19)
    return counts


def _plain_nine_gates(counts: list[int]) -> bool:
    for base in (0, 9, 18):
        suit = counts[base:base + 9]
        if sum(suit) == sum(counts) == 14 and suit[0] >= 3 and suit[8] >= 3 and all(suit[1:8]):
            return True
    return False


def test_packed_questions_answer_as_the_plain_counts_do() -> None:
    rng = random.Random(5)
    for _ in range(20_000):
        counts = _random_counts(rng)
        packed = pack_counts(counts)
        assert unpack(packed) == counts
        assert over_four(packed) == (max(counts) > 4), counts
        assert is_seven_pairs(packed) == (counts.count(2) == 7 and counts.count(0) == 27), counts
        orphans = [counts[k] for k in TERMINALS_AND_HONOURS]
        assert is_thirteen_orphans(packed) == (sum(counts) == 14 and all(orphans) and sum(orphans) == 14), counts
        assert is_nine_gates(packed) == _plain_nine_gates(counts), counts
        assert (not packed & OUTSIDE) == (sum(orphans) == 0)
        assert (not packed & SIMPLES) == (sum(orphans) == sum(counts))
        assert (not packed & HONOURS) == (sum(counts[27:]) == 0)


def test_a_red_five_counts_as_a_five_and_is_marked_above_the_kinds() -> None:
    tiles = parse_tiles("0m05p55s123z")
    assert pack(tiles) == pack_counts([0] * 4 + [1] + [0] * 8 + [2] + [0] * 8 + [2] + [0] * 4 + [1, 1, 1, 0, 0, 0, 0])
    marked = sum(TILE_MARKING_RED[t] for t in tiles)
    assert marked >> RED_AT == 2 and marked & KINDS_MASK == pack(tiles)
    assert all(TILE[red] == TILE_MARKING_RED[red] - (1 << RED_AT) for red in RED_FIVES)


def test_eighteen_of_a_kind_stays_in_its_field() -> None:
    """The most a malformed hand can pile on one kind: 14 concealed tiles and a kong's 4."""
    for kind in range(34):
        packed = 18 * TILE[kind]
        assert packed >> (WIDTH * kind) & FIELD == 18 and over_four(packed)
        assert sum(unpack(packed)) == 18


def test_each_yaku_constant_is_the_bit_of_its_name() -> None:
    names = {"RIICHI": "riichi", "PINFU": "pinfu", "TANYAO": "tanyao", "HAKU": "yakuhai_haku",
             "SEAT_WIND": "yakuhai_seat", "ROUND_WIND": "yakuhai_round", "CHIITOITSU": "chiitoitsu",
             "HONITSU": "honitsu", "JUNCHAN": "junchan", "RYANPEIKOU": "ryanpeikou", "CHINITSU": "chinitsu",
             "SANSHOKU_DOUKOU": "sanshoku_doukou", "SHOUSANGEN": "shousangen", "HONROUTOU": "honroutou"}
    for constant, name in names.items():
        assert getattr(yaku, constant) == yaku.YAKU_BIT[name], constant
    assert len(set(yaku.YAKU_BIT.values())) == len(yaku.YAKU_HAN) == 30
    assert yaku.yaku_list(yaku.TANYAO | yaku.RIICHI | yaku.PINFU, True) == (("riichi", 1), ("pinfu", 1), ("tanyao", 1))
    assert yaku.yaku_han(yaku.CHINITSU | yaku.ITTSU, False) == 6
