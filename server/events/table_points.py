"""Table points of one game (the site rules, "The table points in a tournament"): 4, 2, 1 and 0
by final score, 7 a game, ties split.  Exact (Fraction): a three-way tie splits 7 or 3 in thirds.

The text names three tie cases.  A tie for first (3, 3, 1, 0) and for second (4, 1.5, 1.5, 0)
are the tied players sharing their places' points.  A tie for third it gives as 4.5, 2.5, 0, 0:
not the share (that would be 4, 2, 0.5, 0.5) but the tied pair getting nothing and its 1 point
going half to each player above; that case is built as the text gives it, and "the remaining
possible cases" (three and four tied) share their places' points.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

PLACE_POINTS = (Fraction(4), Fraction(2), Fraction(1), Fraction(0))


def table_points(scores: Sequence[int]) -> list[Fraction]:
    """Each seat's table points from the four final scores."""
    if len(scores) != 4:
        raise ValueError("table points are for a game of four scores")
    order = sorted(range(4), key=lambda seat: -scores[seat])
    points = [Fraction(0)] * 4
    place = 0
    while place < 4:
        tied = [seat for seat in order[place:] if scores[seat] == scores[order[place]]]
        share = sum(PLACE_POINTS[place:place + len(tied)], Fraction(0)) / len(tied)
        for seat in tied:
            points[seat] = share
        place += len(tied)
    if _two_tied_for_third(scores, order):
        for seat in order[2:]:
            points[seat] = Fraction(0)
        for seat in order[:2]:
            points[seat] += Fraction(1, 2)
    return points


def _two_tied_for_third(scores: Sequence[int], order: Sequence[int]) -> bool:
    """Exactly two players tied below two who are not tied with them."""
    third, fourth = scores[order[2]], scores[order[3]]
    return third == fourth and scores[order[1]] != third
