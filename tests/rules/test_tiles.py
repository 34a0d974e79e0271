"""Tile notation (docs/RULINGS.md, "Tiles on the wire and in files").

    "Text notation is the usual one: `1m`-`9m` characters, `1p`-`9p` circles, `1s`-`9s`
    bamboo, `1z`-`7z` for East, South, West, North, White, Green, Red; `0m`/`0p`/`0s` is a
    red five. A hand is written in compressed groups: `123m456p789s11z`."

parse_tiles promises: "Raises TileError with a one-line message naming the bad part."
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.tiles import (
    EAST,
    GREEN,
    NORTH,
    RED,
    RED_MAN,
    RED_PIN,
    RED_SOU,
    SOUTH,
    WEST,
    WHITE,
    TileError,
    _parse_carefully,
    format_tiles,
    kind_of,
    parse_tile,
    parse_tiles,
    tile_name,
)

# Every tile the notation can name: kinds 0-33 and the three red fives 34-36.
ALL_TILES = list(range(37))


def _one_line_error(text: str) -> str:
    with pytest.raises(TileError) as caught:
        parse_tiles(text)
    message = str(caught.value)
    assert message and "\n" not in message, f"not a one-line message: {message!r}"
    return message


# --- parsing and printing ------------------------------------------------------------


def test_compressed_groups_parse_to_kinds_in_the_order_written():
    """docs/RULINGS.md: "`1m`-`9m` characters, `1p`-`9p` circles, `1s`-`9s` bamboo ... A hand is
    written in compressed groups: `123m456p789s11z`." Kinds: 0-8 man, 9-17 pin, 18-26 sou,
    27-33 honours."""
    assert parse_tiles("123m456p789s11z") == [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27]


def test_compressed_groups_round_trip():
    """docs/RULINGS.md: "A hand is written in compressed groups: `123m456p789s11z`." """
    assert format_tiles(parse_tiles("123m456p789s11z")) == "123m456p789s11z"


def test_honours_are_1z_to_7z_in_the_order_east_south_west_north_white_green_red():
    """docs/RULINGS.md: "`1z`-`7z` for East, South, West, North, White, Green, Red"."""
    assert parse_tiles("1234567z") == [EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED]
    assert [tile_name(t) for t in (EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED)] == [
        "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def test_zero_is_a_red_five_in_each_suit():
    """docs/RULINGS.md: "`0m`/`0p`/`0s` is a red five"."""
    assert parse_tiles("0m0p0s") == [RED_MAN, RED_PIN, RED_SOU]
    assert [kind_of(t) for t in parse_tiles("0m0p0s")] == parse_tiles("5m5p5s")
    assert [tile_name(t) for t in (RED_MAN, RED_PIN, RED_SOU)] == ["0m", "0p", "0s"]


@pytest.mark.parametrize("text", ["0m", "0p", "0s", "406m", "340p", "0567s", "0m0p0s", "123m406p789s11z"])
def test_red_fives_round_trip(text):
    """docs/RULINGS.md: "`0m`/`0p`/`0s` is a red five" - a red five prints back as 0, in its suit."""
    assert format_tiles(parse_tiles(text)) == text


def test_a_red_five_prints_next_to_the_plain_fives():
    """docs/RULINGS.md: a red five is a five ("`0m`/`0p`/`0s` is a red five"), printed in sorted groups."""
    tiles = parse_tiles("505m")
    assert sorted(kind_of(t) for t in tiles) == [4, 4, 4]
    assert sorted(parse_tiles(format_tiles(tiles))) == sorted(tiles)


def test_a_single_tile_parses():
    """docs/RULINGS.md: "`1m`-`9m` ... `0m`/`0p`/`0s` is a red five"."""
    assert parse_tile("5m") == 4
    assert parse_tile("0p") == RED_PIN
    assert parse_tile("7z") == RED


@given(st.lists(st.sampled_from(ALL_TILES), max_size=20))
@settings(max_examples=300)
def test_any_list_of_tiles_round_trips_through_the_notation(tiles):
    """docs/RULINGS.md: "A hand is written in compressed groups" - printing a hand and parsing it
    back gives the same tiles, and printing is canonical."""
    text = format_tiles(tiles)
    back = parse_tiles(text)
    assert sorted(back) == sorted(tiles)
    assert format_tiles(back) == text


@given(st.lists(st.sampled_from(ALL_TILES), min_size=1, max_size=14))
@settings(max_examples=200)
def test_every_tile_name_parses_back_to_its_tile(tiles):
    """docs/RULINGS.md notation: each tile has one name, and the name names that tile."""
    for tile in tiles:
        assert parse_tile(tile_name(tile)) == tile
    assert parse_tiles("".join(tile_name(t) for t in tiles)) == tiles


# --- one-line errors naming the bad part ----------------------------------------------


def test_an_honour_above_7z_is_named():
    """docs/RULINGS.md: "`1z`-`7z` for East ... Red" - so 8z is not a tile."""
    assert _one_line_error("123m8z") == "'8z' is not a tile: honours are 1z-7z"


def test_honour_zero_is_not_a_red_five():
    """docs/RULINGS.md: "`0m`/`0p`/`0s` is a red five" - there is no 0z."""
    assert "'0z'" in _one_line_error("0z")


@pytest.mark.parametrize("text, bad", [("m", "'m'"), ("123mp", "'p'"), ("z11z", "'z'"), ("11z s", "'s'")])
def test_a_suit_letter_with_no_digits_is_named(text, bad):
    """parse_tiles: "Raises TileError with a one-line message naming the bad part" - a
    suit letter with no numbers before it."""
    message = _one_line_error(text)
    assert bad in message
    assert "no numbers" in message


@pytest.mark.parametrize("text, bad", [("123", "'123'"), ("123m45", "'45'"), ("11z7", "'7'")])
def test_digits_with_no_suit_are_named(text, bad):
    """parse_tiles: "a one-line message naming the bad part" - digits with no suit letter after."""
    message = _one_line_error(text)
    assert bad in message
    assert "suit" in message


@pytest.mark.parametrize("text, bad", [("12x3m", "'x'"), ("123m,456p", "','"), ("1M", "'M'"), ("5m!", "'!'")])
def test_a_stray_character_is_named(text, bad):
    """parse_tiles: "a one-line message naming the bad part" - a character that is not notation."""
    assert bad in _one_line_error(text)


@given(st.characters(blacklist_characters="0123456789mpsz", blacklist_categories=("Zs", "Cc", "Zl", "Zp", "Cs")))
@settings(max_examples=300)
def test_any_stray_character_is_a_tile_error_naming_it(char):
    """docs/RULINGS.md: notation is digits `0`-`9` then `m`, `p`, `s` or `z`; parse_tiles "Raises
    TileError with a one-line message naming the bad part" - for every other character,
    non-ASCII digits such as '²', '٣' or '５' included."""
    with pytest.raises(TileError) as caught:
        parse_tiles(f"1{char}1m")
    message = str(caught.value)
    assert "\n" not in message
    assert repr(char)[1:-1] in message or char in message


@pytest.mark.parametrize("char", ["²", "٣", "５"])
def test_a_non_ascii_digit_is_a_stray_character(char):
    """docs/RULINGS.md: the notation's digits are `0`-`9` ("`1m`-`9m` ... `0m`/`0p`/`0s`");
    parse_tiles "Raises TileError with a one-line message naming the bad part".
    ('²' is str.isdigit() but not int()-able; '٣' and the full-width '５' are int()-able.)"""
    message = _one_line_error(f"1{char}3m")
    assert char in message


@given(st.text(max_size=12))
@settings(max_examples=500, derandomize=True)
def test_any_text_either_parses_or_raises_a_one_line_tile_error(text):
    """parse_tiles: "Raises TileError with a one-line message naming the bad part" - never
    any other exception."""
    try:
        parse_tiles(text)
    except TileError as error:
        assert "\n" not in str(error)


def test_parse_tile_wants_exactly_one_tile():
    """A winning tile is one tile: '5m5m' is not one tile, and the message names it."""
    with pytest.raises(TileError) as caught:
        parse_tile("5m5m")
    assert "'5m5m'" in str(caught.value)



@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="0123456789mpsz 8xZ", max_size=16))
def test_the_fast_reading_of_notation_answers_as_the_careful_one(text):
    """parse_tiles reads plain notation by whole groups from a table and hands anything
    else to the character-by-character reading; both must give the same tiles, or the
    same one-line error, for any text."""
    def answer(parse):
        try:
            return parse(text)
        except TileError as error:
            return f"error: {error}"

    assert answer(parse_tiles) == answer(_parse_carefully)
