"""An event's standings from hand-made results (server/events/standings.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from server.events.spec import EventError, EventSpec, Scoring, SubstituteRule
from server.events.standings import Penalty, SeatResult, TableResult, shown, standings, standings_csv

PLAYERS = ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal"]


def game(round_: int, table: int, *seats: tuple[str, int, float], substitute: str | None = None) -> TableResult:
    return TableResult(round_, table, None, tuple(SeatResult(p, score, total, p == substitute)  # type: ignore[arg-type]
                                                  for p, score, total in seats))


# Two rounds of two tables; the totals are each seat's (score - 30,000 + uma) / 1000 with the
# ema2016 uma +15/+5/-5/-15 (tied places share theirs: "tied players share the uma of their
# places equally", RULINGS.md).
RESULTS = [
    game(1, 1, ("ann", 45000, 30.0), ("bob", 32000, 7.0), ("cid", 25000, -10.0), ("dee", 18000, -27.0)),
    game(1, 2, ("eve", 40000, 20.0), ("fay", 40000, 20.0), ("gus", 22000, -13.0),
         ("hal", 18000, -27.0)),
    game(2, 1, ("ann", 20000, -25.0), ("eve", 38000, 23.0), ("gus", 31000, 1.0), ("hal", 31000, 1.0)),
    game(2, 2, ("bob", 30000, 5.0), ("fay", 36000, 21.0), ("cid", 28000, -7.0), ("dee", 26000, -19.0)),
]


def test_ema_standings_sum_each_games_points_with_uma() -> None:
    """EMA: a player's result is the sum of the games' final results, "(score − 30,000 + uma) in
    thousands" (RULINGS.md, the ema2016 preset)."""
    lines = standings(RESULTS, [], PLAYERS, Scoring.EMA_POINTS)
    assert [(line.rank, line.player, line.total) for line in lines] == [
        (1, "eve", 43), (2, "fay", 41), (3, "bob", 12), (4, "ann", 5), (5, "gus", -12), (6, "cid", -17),
        (7, "hal", -26), (8, "dee", -46)]


def test_table_points_standings_and_the_regular_points_tie_break() -> None:
    """"the player scoring the highest total number of table points after a pre-determined number of
    games is the winner. In case of a tie in table points, the total number of "regular" points
    accumulated during all the games is the tie-breaker" (the site rules).  Here ann and bob have
    4 table points each (ann 4+0, bob 2+2): ann +15,000-10,000 = +5,000, bob +2,000+0 = +2,000;
    eve and fay 7 each (3+4): eve +18,000, fay +16,000."""
    lines = {line.player: line for line in standings(RESULTS, [], PLAYERS, Scoring.TABLE_POINTS)}
    assert lines["eve"].total == 3 + 4 and lines["fay"].total == 3 + 4
    assert (lines["ann"].total, lines["bob"].total) == (4, 4)
    assert lines["gus"].total == 1 + Fraction(3, 2) and lines["hal"].total == 0 + Fraction(3, 2)
    assert (lines["ann"].regular, lines["bob"].regular) == (5000, 2000)
    assert (lines["eve"].rank, lines["fay"].rank, lines["ann"].rank, lines["bob"].rank) == (1, 2, 3, 4)


def test_equal_totals_share_a_rank() -> None:
    """The EMA text says nothing of ties in the final standings: tied players share a rank."""
    tied = [game(1, 1, ("ann", 40000, 20.0), ("bob", 40000, 20.0), ("cid", 10000, -20.0), ("dee", 10000, -20.0))]
    lines = standings(tied, [], ["ann", "bob", "cid", "dee"], Scoring.EMA_POINTS)
    assert [line.rank for line in lines] == [1, 1, 3, 3]


def test_penalties_add_to_the_total_in_the_scorings_unit() -> None:
    """A chombo entered by the organiser (-20 in EMA points, thousands) is added to the player's
    total once and shown on its own."""
    lines = standings(RESULTS, [Penalty("eve", Fraction(-20), "chombo", 2)], PLAYERS, Scoring.EMA_POINTS)
    eve = next(line for line in lines if line.player == "eve")
    assert (eve.total, eve.penalties, eve.rank) == (23, -20, 2)


def test_a_penalty_for_someone_not_in_the_event_is_refused() -> None:
    with pytest.raises(ValueError, match="not a player of the event"):
        standings(RESULTS, [Penalty("zed", Fraction(-1), "late")], PLAYERS, Scoring.EMA_POINTS)


def test_a_substitutes_game_counts_as_the_event_says() -> None:
    """The substitute rule is stated in the event: credited to the missing player, or nothing."""
    results = [game(1, 1, ("ann", 45000, 30.0), ("bob", 32000, 7.0), ("cid", 25000, -10.0), ("dee", 18000, -27.0),
                    substitute="ann")]
    credit = standings(results, [], ["ann", "bob", "cid", "dee"], Scoring.EMA_POINTS, SubstituteRule.CREDIT_PLAYER)
    none = standings(results, [], ["ann", "bob", "cid", "dee"], Scoring.EMA_POINTS, SubstituteRule.NO_CREDIT)
    assert next(line.total for line in credit if line.player == "ann") == 30
    assert next(line.total for line in none if line.player == "ann") == 0


def test_bot_fillers_are_not_in_the_standings() -> None:
    results = [game(1, 1, ("ann", 45000, 30.0), ("bot:1", 32000, 7.0), ("cid", 25000, -10.0), ("dee", 18000, -27.0))]
    assert [line.player for line in standings(results, [], ["ann", "cid", "dee"], Scoring.EMA_POINTS)] \
        == ["ann", "cid", "dee"]


def test_csv_has_a_column_a_round() -> None:
    lines = standings(RESULTS, [], PLAYERS, Scoring.TABLE_POINTS)
    text = standings_csv(lines, rounds=2)
    assert text.splitlines()[0] == "rank,player,round 1,round 2,penalties,total,regular points"
    assert "gus" in text and "2.5" in text and shown(Fraction(7, 3)) == "2.33"


def test_an_event_spec_says_what_to_change() -> None:
    with pytest.raises(EventError, match="rounds: 0 is not 1 to 64"):
        EventSpec("cup", rounds=0)
    with pytest.raises(EventError, match="rules"):
        EventSpec("cup", rules="nope")
    spec = EventSpec("cup", rounds=3, scoring=Scoring.TABLE_POINTS, session_minutes=90)
    assert EventSpec.from_data(spec.to_data()) == spec
