"""Table points of one game, as the site rules give them ("The table points in a tournament")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from server.events.table_points import table_points


def test_four_two_one_zero_by_final_score() -> None:
    """"After each game, the high scorer receives 4 table points; the second highest scorer receives
    2 table points; the third highest receives 1 table point; and the fourth player receives 0"."""
    assert table_points([22000, 41000, 30000, 27000]) == [0, 4, 2, 1]


def test_tie_for_highest_score_gives_three_each() -> None:
    """"In case of a tie for highest score, both players receive 3 table points each, and the third
    and fourth player 1 and 0 table points respectively"."""
    assert table_points([35000, 20000, 35000, 30000]) == [3, 0, 3, 1]


def test_tie_for_second_gives_one_and_a_half_each() -> None:
    """"In case of a tie for second-highest score, the first player receives 4 points, the tied
    players 1,5 points each, and the fourth player 0 points"."""
    assert table_points([40000, 30000, 30000, 20000]) == [4, Fraction(3, 2), Fraction(3, 2), 0]


def test_tie_for_third_as_the_text_gives_it() -> None:
    """"In case of a tie for third-highest score, the first player receives 4,5 points, the second
    2,5 points, and the tied players 0 points each" (not the even share of 1 and 0: the text's
    own numbers are built, and still make 7)."""
    assert table_points([25000, 45000, 25000, 25000 + 5000]) == [0, Fraction(9, 2), 0, Fraction(5, 2)]


@pytest.mark.parametrize(("scores", "expected"), [
    ((30000, 30000, 30000, 30000), [Fraction(7, 4)] * 4),
    ((40000, 40000, 40000, 0), [Fraction(7, 3)] * 3 + [0]),
    ((60000, 20000, 20000, 20000), [4, 1, 1, 1]),
])
def test_three_and_four_way_ties_share_their_places_points(scores, expected) -> None:
    """"If two players' scores are equal, they split table points between them ... and so on in
    logical fashion, for the remaining possible cases": three tied for first share 4+2+1, three
    tied for second share 2+1+0, four tied share all 7."""
    assert table_points(scores) == expected


@pytest.mark.parametrize("scores", [(1, 2, 3, 4), (5, 5, 3, 3), (5, 5, 5, 1), (5, 4, 3, 3), (9, 9, 9, 9)])
def test_every_game_awards_seven_table_points(scores) -> None:
    """"After each game in a tournament, whether completed by playing all sixteen hands or
    interrupted by time running out, a total of 7 table points are awarded"."""
    assert sum(table_points(scores)) == 7
