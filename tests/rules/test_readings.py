"""Every way a complete hand can be read (issue 2, 'Tiles and hands')."""

from server.rules.decompose import readings
from server.rules.tiles import counts_of, parse_tiles


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
