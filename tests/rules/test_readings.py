"""Every way a complete hand can be read (issue 2, 'Tiles and hands')."""

import itertools

from server.rules import decompose
from server.rules.decompose import readings
from server.rules.fu import pung_fu
from server.rules.packed import SUIT_SHIFT, pack, pack_counts
from server.rules.tiles import counts_of, parse_tiles
from tests.rules.random_hands import random_hands


def _readings(hand: str) -> list[str]:
    return sorted(str(r) for r in readings(counts_of(parse_tiles(hand))))


def test_a_hand_of_four_sets_and_a_pair_reads_one_way() -> None:
    assert _readings("123m456p789s11122z") == ["standard: chi 123m, chi 456p, chi 789s, pung 111z, pair 22z"]


def test_three_identical_chows_read_also_as_three_pungs() -> None:
    """'When the winning tile could complete the hand in more than one way, the way that scores most is taken.'"""
    assert _readings("111222333m456p77z") == [
        "standard: chi 123m, chi 123m, chi 123m, chi 456p, pair 77z",
        "standard: pung 111m, pung 222m, pung 333m, chi 456p, pair 77z",
    ]


def test_twice_pure_double_chow_reads_also_as_seven_pairs() -> None:
    """EMA scoring example 8: 'a hand is either constructed as seven pairs or as four sets and a pair'."""
    found = _readings("112233m445566p77z")
    assert found[0].startswith("chiitoitsu: ")
    assert found[1] == "standard: chi 123m, chi 123m, chi 456p, chi 456p, pair 77z"
    assert len(found) == 2


def test_thirteen_orphans_reads_as_kokushi_only() -> None:
    assert _readings("19m19p19s12345677z") == ["kokushi: pair 77z"]


def test_seven_pairs_need_seven_different_pairs() -> None:
    """EMA 'Seven pairs': 'Seven different pairs'; four of a kind is not two pairs."""
    assert _readings("1111m22p33p44s55s66z") == []


def test_an_incomplete_hand_has_no_reading() -> None:
    assert _readings("123m456p789s11123z") == []


def test_a_hand_with_melds_reads_its_concealed_part() -> None:
    assert _readings("23444m") == ["standard: chi 234m, pair 44m"]


def _searched(base: int, counts: tuple[int, ...]) -> tuple:
    return tuple(decompose._shape(reading) for reading in decompose._read_suit(base, list(counts)))


def test_the_prefilled_table_holds_every_suit_that_reads_as_sets_and_a_pair_as_the_search_reads_it() -> None:
    """The table prefill() builds by putting sets together must be the search's answer for
    every suit of a hand (at most 14 tiles, no kind more than four times): the same
    readings in the same order, and no entry where the search finds no reading."""
    decompose.prefill()
    checked = readable = 0
    for counts in itertools.product(range(5), repeat=9):
        total = sum(counts)
        if total > 14 or total % 3 == 1:
            continue  # no hand has such a suit, or it cannot read as sets
        key = pack_counts(counts)
        searched = _searched(0, counts)
        assert decompose.suit_shapes(0, key) == searched, counts
        if searched:  # the same counts in pin and sou: the same readings moved
            readable += 1
            for suit in (1, 2):
                assert decompose.suit_shapes(suit, key) == _searched(9 * suit, counts), (suit, counts)
        else:
            assert decompose.suit_shapes(1, key) == decompose.suit_shapes(2, key) == (), counts
        checked += 1
    assert checked == 273_005 and readable == 21_743


def test_the_prefilled_honours_table_holds_every_honour_reading() -> None:
    decompose.prefill()
    for counts in itertools.product(range(5), repeat=7):
        reading = decompose._read_honours([0] * 27 + list(counts))
        expected = () if reading is None else (decompose._shape(reading),)
        assert decompose.honour_shapes(pack_counts(counts)) == expected, counts


def test_the_single_reading_tables_hold_exactly_the_suits_that_read_one_way() -> None:
    """Scoring's fast path: SINGLE_MAN/PIN/SOU, keyed by the suit's counts left in place,
    and SINGLE_HONOURS, by the honours' counts shifted down, must hold the one shape of
    every part that reads one way, and nothing else."""
    decompose.prefill()
    found: tuple[dict[int, int], ...] = ({}, {}, {})
    for counts in itertools.product(range(5), repeat=9):
        total = sum(counts)
        if total <= 14 and total % 3 != 1 and len(_searched(0, counts)) == 1:
            for suit, single in enumerate(found):  # the same counts read one way in every suit
                single[pack_counts(counts) << SUIT_SHIFT[suit]] = _searched(9 * suit, counts)[0]
    assert (decompose.SINGLE_MAN, decompose.SINGLE_PIN, decompose.SINGLE_SOU) == found
    assert len(found[0]) == 20_175
    expected = {}
    for counts in itertools.product(range(5), repeat=7):
        reading = decompose._read_honours([0] * 27 + list(counts))
        if reading is not None:
            expected[pack_counts(counts)] = decompose._shape(reading)
    assert decompose.SINGLE_HONOURS == expected and len(expected) == 8 * 2**7 - 7 * 2**6


def _shape_of(pair: int, sets: tuple[int, ...]) -> tuple[int, ...]:
    """A reading's Shape worked out the plain way, from its set codes."""
    chis = [c for c in sets if c < decompose.PUNG]
    pungs = [c - decompose.PUNG for c in sets if c >= decompose.PUNG]
    twins = sum(chis.count(first) // 2 for first in set(chis))
    return (pair, sum(1 << k for k in set(chis)), sum(1 << k for k in pungs), len(chis), len(pungs), twins,
            sum(pung_fu(k, True, False) for k in pungs))


def test_standard_shapes_hold_the_same_readings_as_standard_readings() -> None:
    for hand in random_hands(300, seed=11):
        counts = counts_of(hand.tiles)
        expected = [_shape_of(pair, sets) for pair, sets in decompose.standard_readings(counts)]
        assert [decompose.shape_fields(s) for s in decompose.standard_shapes(pack(hand.tiles))] == expected
    # Four identical chows are two pairs of twins (ryanpeikou), three are one.
    twins = [decompose.shape_fields(s)[5] for s in decompose.standard_shapes(pack(parse_tiles("11112222333344m")))]
    assert max(twins) == 2
    twins = [decompose.shape_fields(s)[5] for s in decompose.standard_shapes(pack(parse_tiles("111222333m456p44s")))]
    assert max(twins) == 1
