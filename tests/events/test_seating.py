"""Who sits together each round (server/events/seating.py) and in which seat (winds.py)."""

from __future__ import annotations

from collections import Counter
import pytest

from server.events.seating import given, meetings, repeats, shuffled, swiss
from server.events.spec import EventError
from server.events.winds import seat_round, winds_sat

TWELVE = [f"p{i:02}" for i in range(12)]


def test_twelve_players_three_rounds_meet_again_only_where_no_seating_can_avoid_it() -> None:
    """The issue: "no pair of players meets twice where the seating can avoid it".  Twelve players
    at three tables of four cannot avoid it: in round 2 each table's four come from round 1's
    three tables, so two of them met before (at least 3 pairs met again); in round 3 each table
    holds such a pair from round 1 and one from round 2 (at least 6 more, or a pair meeting a
    third time).  The shuffle reaches that least: 9 pairs meet twice, none three times."""
    plan = shuffled(TWELVE, [], rounds=3, seed=7)
    assert repeats(plan) == 9
    assert max(meetings(plan).values()) == 2
    assert all(sorted(p for t in r for p in t) == TWELVE for r in plan)


@pytest.mark.parametrize(("players", "rounds"), [(16, 3), (20, 3), (24, 4)])
def test_shuffle_finds_no_repeat_opponent_when_a_seating_has_none(players: int, rounds: int) -> None:
    """Where a seating with no repeat opponent exists the search finds one.  (Sixteen players over
    five rounds, the affine plane of order 4 where every pair meets exactly once, is the hardest
    such case: the search finds it for most seeds, not all.)"""
    plan = shuffled([f"p{i}" for i in range(players)], [], rounds=rounds, seed=1)
    assert repeats(plan) == 0


def test_shuffle_is_the_same_for_the_same_seed_and_counts_the_rounds_played() -> None:
    """Deterministic from a seed; planned after the rounds already played, so round 2 avoids round 1."""
    assert shuffled(TWELVE, [], 2, seed=3) == shuffled(TWELVE, [], 2, seed=3)
    first = [tuple(TWELVE[i:i + 4]) for i in range(0, 12, 4)]
    second = shuffled(TWELVE, [first], rounds=1, seed=3)[0]
    assert repeats([first, second]) == 3  # one pair at each table: the least possible


def test_swiss_seats_by_standing() -> None:
    """Swiss: players of like results meet: the top four at table 1, the next four at table 2."""
    ranked = ["a", "b", "c", "d", "e", "f", "g", "h"]
    assert swiss(ranked) == [("a", "b", "c", "d"), ("e", "f", "g", "h")]


def test_players_not_a_multiple_of_four_are_refused_with_what_to_do() -> None:
    with pytest.raises(EventError, match="add players or bots"):
        swiss(["a", "b", "c", "d", "e"])


def test_given_tables_must_seat_every_player_once() -> None:
    players = list("abcdefgh")
    assert given([list("abcd"), list("efgh")], players) == [tuple("abcd"), tuple("efgh")]
    with pytest.raises(EventError, match="every player"):
        given([list("abcd"), list("abcg")], players)


def test_four_rounds_at_one_table_give_each_player_each_wind_once() -> None:
    """East-seat rotation fair across rounds: the same four over four rounds each sit East,
    South, West and North once."""
    history: list = []
    for _ in range(4):
        history.append(seat_round([("a", "b", "c", "d")], history))
    sat = winds_sat(history)
    assert all(sat[p] == Counter({0: 1, 1: 1, 2: 1, 3: 1}) for p in "abcd")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shuffled_event_seats_no_one_east_twice_in_three_rounds(seed: int) -> None:
    """With new tables each round the first dealer's seat still rotates: the search prefers tables
    with someone who has not sat East yet, and East goes to them; in three rounds no player sits
    East twice, and the 9 repeat pairs stay the least."""
    history: list = []
    for round_ in range(3):
        history.append(seat_round(shuffled(TWELVE, history, rounds=3 - round_, seed=seed * 10 + round_)[0], history))
    assert max(Counter(table[0] for tables in history for table in tables).values()) == 1
    assert repeats(history) == 9
