"""Which seat (and so which wind) each player of a table takes, fair across rounds: seat 0 is
the first dealer, East, then South, West, North.  Each table's order is the one of the 24 that
gives its players the winds they have sat least, so that over four rounds a player sits each
wind once where the tables allow it.  Pure and deterministic."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import permutations
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

WINDS = ("East", "South", "West", "North")


def winds_sat(rounds: Sequence[Sequence[Sequence[P]]]) -> dict[P, Counter[int]]:
    """How often each player has sat in each seat (0 East ... 3 North), from seated rounds."""
    sat: dict[P, Counter[int]] = {}
    for tables in rounds:
        for table in tables:
            for seat, player in enumerate(table):
                sat.setdefault(player, Counter())[seat] += 1
    return sat


def seat_table(table: Sequence[P], sat: dict[P, Counter[int]]) -> tuple[P, ...]:
    """`table`'s four players in seat order: East to the player who has sat East least (the
    first dealer's seat is the one that matters most), then the order whose players have sat
    their seats the fewest times (the most often any of them repeats a wind, then the sum), the
    first such order of the table as given breaking ties."""
    def cost(order: tuple[P, ...]) -> tuple[int, int, int]:
        counts = [sat.get(p, Counter())[seat] for seat, p in enumerate(order)]
        return counts[0], max(counts), sum(counts)
    return min(permutations(table), key=cost)


def seat_round(tables: Sequence[Sequence[P]], history: Sequence[Sequence[Sequence[P]]]) -> list[tuple[P, ...]]:
    """Every table of a round in seat order, given the rounds seated before."""
    sat = winds_sat(history)
    return [seat_table(table, sat) for table in tables]
